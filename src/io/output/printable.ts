/**
 * Text as a terminal may show it: line breaks and tabs as `\n` `\r` `\t`, and every other control,
 * invisible or bidi character as `\u{…}`, so a SKU holding ESC or OSC sequences cannot set the
 * window title or recolour the screen, and U+202E cannot reverse what follows it.
 */
export function printable(text: string): string {
  return text.replace(nonPrintable, (character) => {
    if (character === '\n') return '\\n';
    if (character === '\r') return '\\r';
    if (character === '\t') return '\\t';
    return `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
  });
}

// Matching control characters is this pattern's purpose.
const nonPrintable =
  // oxlint-disable-next-line no-control-regex
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|\p{Cs}/gu;
