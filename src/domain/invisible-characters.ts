/**
 * Characters no customer or stock field may hold. Pure.
 * C0 and C1 controls (a NUL, U+0085), DEL, zero-width and bidi-override characters (U+200B,
 * U+202E), line/paragraph separators, and the characters that show as nothing or a blank (the soft
 * hyphen U+00AD, the grapheme joiner, Hangul fillers, the braille blank U+2800) are invisible in a
 * spreadsheet and in the store's pages (`maria\u00AD@x.com` is another e-mail than `maria@x.com`),
 * and U+202E makes a SKU read backwards. A lone surrogate is no character at all. Tab, CR and LF
 * are allowed: a quoted cell with a line break is what people type in an address complement.
 */
// Matching control characters is this pattern's purpose.
const forbidden =
  // oxlint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\u2800\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|\u034F|\u17B4|\u17B5|\u180B|\u180C|\u180D|\p{Cs}/u;

export interface ForbiddenCharacter {
  /** `U+202E`, or `U+D800` for a lone surrogate. */
  codePoint: string;
  /** 1-based position in the text, in characters. */
  position: number;
  lone: boolean;
}

/**
 * The same characters, and every surrogate, without the `u` flag: 3 to 5 times faster over a long text (a cell of
 * 50 MB), so a text without any (nearly all) is cleared by it; one with a surrogate, paired or not, is read again
 * with the exact expression.
 */
const forbiddenOrSurrogate =
  // oxlint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\u2800\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\uD800-\uDFFF]|\u034F|\u17B4|\u17B5|\u180B|\u180C|\u180D/;

/** The first character of `text` that no field may hold, or undefined. */
export function forbiddenCharacter(text: string): ForbiddenCharacter | undefined {
  if (!forbiddenOrSurrogate.test(text)) return undefined;
  const match = forbidden.exec(text);
  if (!match) return undefined;
  const code = match[0].codePointAt(0) ?? 0;
  return {
    codePoint: `U+${code.toString(16).toUpperCase().padStart(4, '0')}`,
    position: Array.from(text.slice(0, match.index)).length + 1,
    lone: code >= 0xd800 && code <= 0xdfff,
  };
}

/** The problem a field's forbidden character makes, in words for the user. */
export function forbiddenCharacterProblem(field: string, found: ForbiddenCharacter): string {
  return found.lone
    ? `field "${field}" holds a lone surrogate (${found.codePoint}) at character ${found.position}, which is no character: the file or the program that wrote it is damaged; fix the value`
    : `field "${field}" holds an invisible or control character (${found.codePoint}) at character ${found.position}; delete it (in a spreadsheet, retype the cell)`;
}
