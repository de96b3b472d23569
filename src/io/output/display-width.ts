import stringWidth from 'string-width';

/**
 * The columns a terminal gives `text`: an East-Asian wide character or an emoji takes two, a combining mark none.
 * Counting characters instead pushed every column after a Chinese name to the right.
 */
export function displayWidth(text: string): number {
  return stringWidth(text.normalize('NFC'));
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The longest start of `text` that takes at most `width` columns, in whole characters as they are shown (never half
 * an ideograph, an emoji without its modifier or a letter without its accent).
 */
export function leadingColumns(text: string, width: number): string {
  let shown = '';
  for (const { segment } of graphemes.segment(text.normalize('NFC'))) {
    if (displayWidth(shown + segment) > width) break;
    shown += segment;
  }
  return shown;
}

/** The first character of `text` as it is shown (a letter with its accents, an emoji with its modifiers). */
export function firstCharacter(text: string): string {
  for (const { segment } of graphemes.segment(text)) return segment;
  return '';
}
