import { InputError } from '../../base/errors.js';
import { nothingSent } from './nothing-sent.js';

/*
 * What reads as Brazilian text: the checks of a single-byte decoding (decode-text.ts) that name UTF-8 read as a
 * legacy encoding, and the Office encoding that reads a file as Portuguese.
 */

const portugueseLetters = /[áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÜÇ]/g;
const likelyEncodings: readonly [label: string, described: string][] = [
  ['cp850', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
  ['macintosh', 'MacRoman (Excel\'s "CSV (Macintosh)")'],
  ['windows-1252', 'Windows-1252 (Excel\'s "CSV")'],
];

export function wordBounds(text: string, at: number): [number, number] {
  const separators = /[\s;,"|]/;
  let start = at;
  while (start > 0 && at - start < 40 && !separators.test(text[start - 1] ?? ' ')) start--;
  let end = at + 1;
  while (end < text.length && end - at < 40 && !separators.test(text[end] ?? ' ')) end++;
  return [start, end];
}

export function wordAround(text: string, at: number): string {
  const [start, end] = wordBounds(text, at);
  return text.slice(start, end);
}

/**
 * Where a UTF-8 accent of Portuguese (`ç` is the bytes C3 A7, `º` C2 BA) sits in bytes read as a single-byte
 * encoding, or -1. Read as Windows-1252 they are `Ã§` and `Âº`, which Brazilian text never holds; read as CP850 or
 * MacRoman they are box-drawing or math signs.
 */
export function utf8Accent(chunk: Buffer): number {
  for (let at = chunk.indexOf(0xc3); at !== -1 && at + 1 < chunk.length; at = chunk.indexOf(0xc3, at + 1)) {
    const next = chunk[at + 1] as number;
    if (next >= 0x80 && next <= 0xbf) return at;
  }
  for (let at = chunk.indexOf(0xc2); at !== -1 && at + 1 < chunk.length; at = chunk.indexOf(0xc2, at + 1)) {
    const next = chunk[at + 1] as number;
    if (next >= 0xa0 && next <= 0xbf) return at;
  }
  return -1;
}

/** The refusal of UTF-8 text read as a single-byte encoding (`ConceiÃ§Ã£o`): the line, the word both ways, the fix. */
export function utf8ReadAsLegacy(
  text: string,
  chunk: Buffer,
  at: number,
  context: { encoding: string; file: string; line: number; sniffed: boolean; sends?: boolean },
): InputError {
  const { encoding, file, line } = context;
  const [start, end] = wordBounds(text, at);
  const asUtf8 = new TextDecoder('utf-8').decode(chunk.subarray(start, end));
  const fix = context.sniffed
    ? `the earlier lines are not UTF-8, so the file mixes two encodings: re-export the whole file as "CSV UTF-8"`
    : `drop --encoding ${encoding} if the whole file is UTF-8 (b2bctl reads UTF-8 by itself), else re-export it as "CSV UTF-8"`;
  return new InputError(
    `${file}:${line}: "${text.slice(start, end)}" is UTF-8 text read as ${encoding} (as UTF-8 it reads "${asUtf8}")${nothingSent(context.sends)}. ${fix[0]?.toUpperCase()}${fix.slice(1)}.`,
    { file, line },
  );
}

/**
 * The Office encoding that reads these bytes (a chunk of the file) as Brazilian text, with the word at `[start,
 * end)` as it reads there: every word with a character beyond ASCII must be a Portuguese word (see brazilianWord),
 * so a byte no encoding explains (`EuroÇ`, `YìÉ` in CP850) names none.
 */
export function brazilianEncodingOf(
  bytes: Buffer,
  [start, end]: [number, number],
  current: string,
): { label: string; described: string; text: string } | undefined {
  let best: { label: string; described: string; text: string; score: number } | undefined;
  for (const [label, described] of likelyEncodings) {
    if (label === current) continue;
    const text = decodeSync(bytes, label);
    if (!readsAsBrazilian(text)) continue;
    const score = text.match(portugueseLetters)?.length ?? 0;
    if (!best || score > best.score)
      best = { label, described, text: decodeSync(bytes.subarray(start, end), label), score };
  }
  return best;
}

/** Punctuation beyond ASCII that Brazilian spreadsheets hold: dashes, typographic quotes, the degree sign. */
const brazilianPunctuation = new Set('–—“”‘’…«»°§\u00a0');

/** Whether every character beyond ASCII of a text is a Portuguese accent in a Portuguese word, or its punctuation. */
function readsAsBrazilian(text: string): boolean {
  let accents = 0;
  for (const word of text.match(/\p{L}+/gu) ?? []) {
    if (!/[\u0080-\uffff]/.test(word)) continue;
    if (!brazilianWord(word)) return false;
    accents++;
  }
  for (const character of text.replace(/\p{L}+/gu, '')) {
    if (character.charCodeAt(0) >= 0x80 && !brazilianPunctuation.has(character)) return false;
  }
  // A degree after a number (`Km 2°`, `30°C`) is as Brazilian as an accent: a file may hold no other.
  return accents > 0 || /\d°/.test(text);
}

/**
 * A word as Brazilian Portuguese writes its accents: only Portuguese accented letters, an upper-case one only at the
 * start or in a word in capitals, and `ç` where Portuguese has it (`Conceição`, `SÃO`, `Ávila`; not `EuroÇ`, `Xü`).
 */
function brazilianWord(word: string): boolean {
  const capitals = word === word.toUpperCase();
  for (let index = 0; index < word.length; index++) {
    const character = word[index] as string;
    if (character.charCodeAt(0) < 0x80 || character === 'º' || character === 'ª') continue;
    if (!'áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÜÇ'.includes(character)) return false;
    const upper = character !== character.toLowerCase();
    if (upper && index > 0 && !capitals) return false;
    if (character === 'ü' || character === 'Ü') {
      if (!/[gq]/i.test(word[index - 1] ?? '')) return false;
    }
    if ((character === 'ç' || character === 'Ç') && !cedillaWherePortugueseHasIt(word, index)) return false;
  }
  return true;
}

const vowels = /[aeiouáàâãéêíóôõúü]/i;

/**
 * Whether word[at], a `ç`, sits where Portuguese writes one: before a/o/u, after a vowel (`Açúcar`, `Poço`), after n,
 * r or l (`França`, `Força`, `Calça`), after a vowel's s (`Desça`, `Nasço`), or after a vowel's c or p in `-ção`,
 * `-ções` (`Ficção`, `Opção`, `Confecções`). CP850's `Ã` is Windows-1252's `Ç`, so an export in capitals whose only
 * accent is `Ã` reads `SÇO PAULO`, `FALCÇO`, `IRMÇOS`, `JOÇO` (a user test): no Portuguese word begins with `ç` or
 * `joç`, or has one after a word's first s or any other consonant. `Pça` is the common abbreviation of `Praça`.
 */
function cedillaWherePortugueseHasIt(word: string, at: number): boolean {
  if (!/[aouãõáóú]/i.test(word[at + 1] ?? '')) return false;
  if (/^pça$/i.test(word)) return true;
  const before = (word[at - 1] ?? '').toLowerCase();
  const twoBefore = word[at - 2] ?? '';
  if (before === '') return false;
  if (vowels.test(before)) return !/^joç/i.test(word);
  if ('nrl'.includes(before)) return true;
  if (before === 's') return vowels.test(twoBefore);
  if (before === 'c' || before === 'p') return vowels.test(twoBefore) && /[ãõ]/i.test(word[at + 1] ?? '');
  return false;
}

/**
 * Where text read as Windows-1252 holds a character a Brazilian office does not type there, or -1. A CP850 or
 * MacRoman export whose accents are all of the kinds Windows-1252 also defines reads without an undefined byte:
 * CP850's º is Windows-1252's §, its ª is ¦, ° is ø, ô is “, á a no-break space, õ is ä, í is ¡, Ó is à, Ô is â;
 * MacRoman's ª is » and º is ¼. So `2§ andar`, `1¦`, `Ant“nio`, `Simäes`, `àtica`, `âNIBUS` are caught here, and the
 * caller asks whether another Office encoding reads the bytes as Brazilian text before refusing (a Windows-1252
 * `Müller` or `m²` that no other encoding explains either is left as it reads).
 */
export function implausibleCharacter(text: string): number {
  for (const match of text.matchAll(/[\u0080-\uffff]/g)) {
    const at = match.index;
    const character = match[0];
    const before = text[at - 1] ?? ' ';
    const after = text[at + 1] ?? ' ';
    if (/\p{L}/u.test(character)) {
      const word = letterRunAround(text, at);
      if (!brazilianWord(word) || lowerAccentInCapitals(word) || misplacedCrase(word)) return at;
      continue;
    }
    if (!brazilianPunctuation.has(character)) return at;
    // `§ 2º` and `Art. 5, §` hold it before a number or alone; `2§`, `N§` are CP850's º.
    if (character === '§' && /[\p{L}\d]/u.test(before)) return at;
    // `1»` is MacRoman's ª; a closing guillemet follows a word.
    if (character === '»' && /\d/.test(before)) return at;
    // Between two letters, only an apostrophe (`Sant’Ana`, `D‘Ávila`): `Ant“nio` is CP850's ô, `Cl\u00a0udio` its á.
    if (character !== '’' && character !== '‘' && /\p{L}/u.test(before) && /\p{L}/u.test(after)) return at;
  }
  return -1;
}

/** The run of letters that holds text[at]. */
function letterRunAround(text: string, at: number): string {
  let start = at;
  while (start > 0 && /\p{L}/u.test(text[start - 1] as string)) start--;
  let end = at + 1;
  while (end < text.length && /\p{L}/u.test(text[end] as string)) end++;
  return text.slice(start, end);
}

/** A lower-case accent in a word otherwise in capitals (`âNIBUS`, `éLTIMO`: CP850's Ô and Ú read as Windows-1252). */
function lowerAccentInCapitals(word: string): boolean {
  const letters = [...word].filter((character) => /\p{L}/u.test(character) && character !== 'º' && character !== 'ª');
  const lower = letters.filter((character) => character !== character.toUpperCase());
  return letters.length >= 3 && lower.length === 1 && (lower[0] as string).charCodeAt(0) >= 0x80;
}

/** `à` begins `à`, `às`, `àquele`, `àquilo` only: `àtica` is CP850's `Ótica`. */
function misplacedCrase(word: string): boolean {
  const at = word.search(/[àÀ]/);
  if (at === -1) return false;
  return at > 0 || !/^(|s|qu\p{L}*)$/iu.test(word.slice(1));
}

/** Set by decodeLegacy (useIconv), the only caller of brazilianEncodingOf, before it decodes anything. */
let iconvModule: typeof import('iconv-lite') | undefined;

/** The iconv-lite module decodeLegacy loaded, for brazilianEncodingOf's decodings. */
export function useIconv(iconv: typeof import('iconv-lite')): void {
  iconvModule = iconv;
}
function decodeSync(bytes: Buffer, encoding: string): string {
  return (iconvModule as typeof import('iconv-lite')).decode(bytes, encoding);
}

/**
 * Characters Windows-1252 shows for the bytes 0x80–0xBF, the second byte of a UTF-8 accent: after `Ã` or `Â` they are
 * text that was UTF-8, read as Windows-1252 and saved as UTF-8 again (`ConceiÃ§Ã£o`). Brazilian text never holds them
 * there (`Ã` and `Â` begin or sit inside words in capitals, before a letter).
 */
const windows1252High =
  '\u0080-\u00BF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013\u2014\u2018-\u201A\u201C-\u201E\u2020-\u2022\u2026\u2030\u2039\u203A\u20AC\u2122';
const doubledAccent = new RegExp(`[\u00C2\u00C3][${windows1252High}]`);

/** Where UTF-8 decoded text holds an accent encoded twice, or -1. */
export function doubledUtf8Accent(text: string): number {
  return text.includes('\u00C3') || text.includes('\u00C2') ? text.search(doubledAccent) : -1;
}

/** Windows-1252's characters for 0x80–0x9F, by code point: the bytes the doubled text came from. */
const windows1252Bytes = new Map<number, number>(
  [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ'].map((character, index) => [
    character.codePointAt(0) as number,
    0x80 + index,
  ]),
);

/** A word of doubled UTF-8 as it first read (`ConceiÃ§Ã£o` → `Conceição`), or undefined when it does not undo. */
export function undoubledWord(word: string): string | undefined {
  const bytes: number[] = [];
  for (const character of word) {
    const code = character.codePointAt(0) as number;
    const byte = code <= 0xff ? code : windows1252Bytes.get(code);
    if (byte === undefined) return undefined;
    bytes.push(byte);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}
