import { nonPrintable } from './non-printable.js';

/**
 * Text as a terminal may show it: line breaks and tabs as `\n` `\r` `\t`, and every other control,
 * invisible or bidi character as `\u{…}`, so a SKU holding ESC or OSC sequences cannot set the
 * window title or recolour the screen, and U+202E cannot reverse what follows it. Every path a message names goes
 * through it too (a config folder, a cursor, an inbox, a bulk input): a file name holding a line break would split
 * the message, and a log line, in two.
 */
export function printable(text: string): string {
  return text.replace(nonPrintable, (character) => {
    if (character === '\n') return '\\n';
    if (character === '\r') return '\\r';
    if (character === '\t') return '\\t';
    return `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
  });
}
