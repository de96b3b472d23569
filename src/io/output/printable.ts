import { nonPrintable } from '../../lib/non-printable.js';

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

/**
 * A log line's text as a terminal may show it: as printable(), but its line breaks and tabs kept, since a message of
 * several lines is the logger's own. The words a platform, an ERP or a file put in a message (a refusal's reason,
 * an error page) cannot clear the screen, move the cursor over b2bctl's own lines or set the window's title.
 */
export function printableLines(text: string): string {
  return text.replace(nonPrintable, (character) =>
    character === '\n' || character === '\t' ? character : printable(character),
  );
}
