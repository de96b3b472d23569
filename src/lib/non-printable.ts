/**
 * The characters no line b2bctl prints may carry as they are: controls (C0, DEL, C1: a line break, ESC), soft
 * hyphens, invisible and bidi characters (U+200B…U+200F, U+202A…U+202E, U+2066…U+2069) and lone surrogates. A
 * terminal acts on them (ESC recolours it, U+202E reverses what follows) and a log reads a line break as a new line.
 * Global: for `replace`; holdsNonPrintable() tests without the pattern's state.
 */
// Matching control characters is this pattern's purpose.
export const nonPrintable =
  // oxlint-disable-next-line no-control-regex
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|\p{Cs}/gu;

/** True when `text` holds a character of nonPrintable. */
export function holdsNonPrintable(text: string): boolean {
  return text.search(nonPrintable) !== -1;
}
