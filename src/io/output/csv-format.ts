/** CSV cells, as b2bctl writes them (RFC 4180, `|` between list items). Pure. */
import { WrittenNumber } from '../../lib/written-json.js';

/** A value as one CSV cell's text: lists of plain values joined with `|`, nothing for null. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every(isPlain)) return value.map((item) => cellText(item)).join('|');
  if (!isPlain(value)) return JSON.stringify(value);
  return String(value);
}

/** Text, a number (one past 2^53 as written), a boolean, or nothing: a value a cell holds as it is. */
function isPlain(value: unknown): boolean {
  return value === null || typeof value !== 'object' || value instanceof WrittenNumber;
}

/** Quotes a cell when it holds a delimiter, a quote, a line break or edge spaces. */
export function escapeCsvCell(text: string, delimiter = ','): string {
  if (text.includes(delimiter) || needsQuotes(text)) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/**
 * A quote, a line break, or a character trim() would take off either edge. Read by character codes:
 * a report of a million rows escapes six million cells, and a regular expression and a trimmed copy
 * per cell were a visible share of a push. Every character trim() removes is below `!` or
 * above `~`, so an edge inside that range needs no closer look.
 */
function needsQuotes(text: string): boolean {
  const length = text.length;
  if (length === 0) return false;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(length - 1);
  if (first < 33 || first > 126 || last < 33 || last > 126) {
    if (text !== text.trim()) return true;
  }
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 34 || code === 10 || code === 13) return true;
  }
  return false;
}

/**
 * Every CSV b2bctl writes is opened by people in Excel, where a cell starting with `=`, `+`, `-`,
 * `@`, tab or CR is a formula (`=HYPERLINK(...)` from an input would be live): such a cell gets
 * OWASP's `'` prefix, which Excel shows as text. Plain numbers (`-5`, `+3,5`) stay as they are.
 * A reader may split at another separator than the file's (pt-BR Excel splits a `,` file at `;`),
 * so every piece of the cell after a `,`, `;` or tab (and after any quotes opening it) is judged as
 * a cell of its own: `x;=cmd|' /C calc'!A0` is written `x;'=cmd|' /C calc'!A0`. A line break too: a
 * reader at the other separator sees the cell's quotes mid-field, so they do not hold its line break,
 * and the next line is a new row whose first cell is the piece after the break.
 */
export function neutralizeFormula(text: string): string {
  return mayStartFormula(text) ? guardPieces(text) : text;
}

/**
 * Whether a piece of the text could start like a formula: its first character, or one after a separator, is a
 * formula start or a quote. The common cell is answered by this one test (a regular expression: 1.27x main's
 * csvCell CPU where a loop of character codes was 1.45x, 18M cells); only the few that may start one are split.
 */
function mayStartFormula(text: string): boolean {
  if (text.length === 0) return false;
  const code = text.charCodeAt(0);
  return isFormulaStart(code) || code === quoteCode || code === apostropheCode || separatorThenFormula.test(text);
}

const separatorThenFormula = /[,;\t\n\r]["'=+\-@\t\r]/;

/** The text with a `'` before every piece that starts like a formula (see neutralizeFormula). */
function guardPieces(text: string): string {
  let written = '';
  let copied = 0;
  const length = text.length;
  for (let pieceStart = 0; pieceStart <= length;) {
    const first = afterQuotes(text, pieceStart);
    // A piece that already starts with `'` before a formula start (a password `'@Xy9`) gets one more, so reading the
    // file back takes off only the one written here.
    const start = afterApostrophes(text, first);
    const pieceEnd = nextSeparator(text, start);
    if (start < length && isFormulaStart(text.charCodeAt(start)) && !plainNumberFrom(text, start)) {
      written += `${text.slice(copied, first)}'`;
      copied = first;
    }
    pieceStart = pieceEnd + 1;
  }
  return written === '' ? text : written + text.slice(copied);
}

/** The index of the first character at or after `from` that is not an apostrophe. */
function afterApostrophes(text: string, from: number): number {
  let index = from;
  while (text.charCodeAt(index) === apostropheCode) index++;
  return index;
}

/** The reverse, for a CSV b2bctl wrote and the user feeds back (the errors file): `'=x` is read as `=x`. */
export function restoreFormula(text: string): string {
  if (!text.includes("'")) return text;
  let restored = '';
  let copied = 0;
  const length = text.length;
  for (let pieceStart = 0; pieceStart <= length;) {
    const first = afterQuotes(text, pieceStart);
    const start = text.charCodeAt(first) === apostropheCode ? afterApostrophes(text, first) : first;
    const pieceEnd = nextSeparator(text, start);
    if (start > first && isFormulaStart(text.charCodeAt(start)) && !plainNumberFrom(text, start)) {
      restored += text.slice(copied, first);
      copied = first + 1;
    }
    pieceStart = pieceEnd + 1;
  }
  return copied === 0 ? text : restored + text.slice(copied);
}

/**
 * Whether a piece of the text starts with a single `'` before a formula start (`'- fundos`), as neutralizeFormula
 * writes a value that had none: only b2bctl's guard or the author's own apostrophe, which a file alone cannot tell
 * apart. A doubled one (`''-Ana`) is how the guard writes a value that starts with `'`.
 */
export function holdsLoneGuard(text: string): boolean {
  if (!text.includes("'")) return false;
  const length = text.length;
  for (let pieceStart = 0; pieceStart <= length;) {
    const first = afterQuotes(text, pieceStart);
    const start = afterApostrophes(text, first);
    const pieceEnd = nextSeparator(text, start);
    if (start === first + 1 && isFormulaStart(text.charCodeAt(start)) && !plainNumberFrom(text, start)) return true;
    pieceStart = pieceEnd + 1;
  }
  return false;
}

const quoteCode = 34;
const apostropheCode = 39;
const plainNumber = /^[+-]?\d+([.,]\d+)*$/;

/**
 * Whether the text from `start` to its line's end is a plain number (`-5`, `+3,5`, `-1.234,56`), the one kind of
 * piece that starts with a sign and is left unguarded. Read to the line's end, not to the next `,` or `;`: a pt-BR
 * spreadsheet reads `-1,5+cmd|' /C calc'!A0` as one cell, a formula, though its first piece `-1` is a number (a
 * user test). The same text decides for the guard, its reverse and holdsLoneGuard, so reading back undoes it.
 */
function plainNumberFrom(text: string, start: number): boolean {
  let end = start;
  while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
  return plainNumber.test(text.slice(start, end));
}

/** The index of the first character of a piece starting at `from` that is not a double quote. */
function afterQuotes(text: string, from: number): number {
  let index = from;
  while (text.charCodeAt(index) === quoteCode) index++;
  return index;
}

/** = + - @ tab CR, by character code: a report of a million rows judges six million cells. */
function isFormulaStart(code: number): boolean {
  return code === 61 || code === 43 || code === 45 || code === 64 || code === 9 || code === 13;
}

/** The index of the next `,`, `;`, tab or line break at or after `from`, or the text's length. */
function nextSeparator(text: string, from: number): number {
  const length = text.length;
  for (let index = from; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 44 || code === 59 || code === 9 || code === 10 || code === 13) return index;
  }
  return length;
}

/**
 * Whether a spreadsheet opening the CSV may read this text as a value of its own (a number, a date, a time, a
 * percentage, an amount, a boolean) and save it back written its own way: `000123` as `123` (another product's SKU),
 * `2.10` as `2.1`, `+123` as `123`, `1.500` as `1500` in pt-BR, `1/2` as `01/02/26`, `3 jan` as `03/01/26`, a
 * 13-digit EAN as `7,89123E+12`. A rule by shape (spreadsheetValue), as LibreOffice Calc 7.4 showed it in pt-BR and
 * en-US, with and without "detect special numbers", read on the text without its edge spaces (Calc drops them).
 * Not an integer a spreadsheet writes back digit for digit (`123`, `-45`: no leading zero, at most 11 digits, which
 * Excel shows whole), and not a text that starts like a formula: the formula guard (neutralizeFormula) writes that
 * one already. A code with other marks (`529.982.247-25`, `01310-100`, `AB-1`) is text to a spreadsheet.
 */
function spreadsheetMayRewrite(value: string): boolean {
  if (writtenBackAsIs.test(value) || !spreadsheetValue.test(value.trim())) return false;
  return neutralizeFormula(value) === value;
}

const writtenBackAsIs = /^(?:0|-?[1-9]\d{0,10})$/;
/**
 * A number as either locale writes one: a sign, a currency, grouping and decimal marks, an exponent, a `%`, or a
 * sign after the digits (`123-`), which Calc with "detect special numbers" reads as -123.
 */
const numberShape = String.raw`[+-]?(?:R\$|[$€£¥])?\s?(?:\d+(?:[.,]\d+)*[.,]?|[.,]\d+)(?:e[+-]?\d+)?\s?%?[+-]?`;
/** A date of digits (`1/2`, `01/02/2026`, `2026-01-01`) and a time (`12:30`, `1 PM`, `12:30:00,5`). */
const dateShape = String.raw`\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?`;
const timeShape = String.raw`\d{1,2}(?::\d{1,2}(?::\d{1,2}(?:[.,]\d+)?)?)?\s?(?:[ap]m)?`;
/** A month's name or abbreviation in English or Portuguese (pt-BR offices), as a date may hold it: `3 jan`, `Jan 3`. */
const month = String.raw`(?:jan(?:uary|eiro)?|feb(?:ruary)?|fev(?:ereiro)?|mar(?:ch|ço|co)?|apr(?:il)?|abr(?:il)?|may|mai(?:o)?|jun(?:e|ho)?|jul(?:y|ho)?|aug(?:ust)?|ago(?:sto)?|sep(?:t|tember)?|set(?:embro)?|oct(?:ober)?|out(?:ubro)?|nov(?:ember|embro)?|dec(?:ember)?|dez(?:embro)?)`;
/** `3 jan`, `3-Jan-2026`, `Jan 3`, `Jan 3, 2026`, and a month with its year and no day (`Dec 2026`, `dez/2026`). */
const monthDateShape = String.raw`\d{1,2}[-/. ]?${month}(?:[-/. ]\d{2,4})?|${month}[-/. ]?(?:\d{1,2}(?:,?[-/. ]\d{2,4})?|\d{4})`;
const spreadsheetValue = new RegExp(
  `^(?:true|false|verdadeiro|falso|\\(${numberShape}\\)|${numberShape}|${dateShape}(?:[ T]${timeShape})?|${monthDateShape}|${timeShape})$`,
  'iu',
);

/**
 * A text cell of a column the input held as text (a SKU, a document, a code), in a CSV a person edits and feeds
 * back (the errors file): one a spreadsheet may rewrite (spreadsheetMayRewrite) gets the `'` the formula guard
 * puts, so Calc keeps `'000123` or `'2.10` as text and saves it back as it is (LibreOffice 7.4, default column
 * types, pt-BR and en-US); reading the file back takes it off (restoreDigitsGuard). A text that already starts with
 * `'` before such a value gets one more, as the formula guard does, so reading takes off only the one written here.
 * Never for a quantity or a price: those are numbers, and a spreadsheet keeps their value.
 */
export function guardDigitsText(text: string): string {
  return spreadsheetMayRewrite(text.slice(afterApostrophes(text, 0))) ? `'${text}` : text;
}

/**
 * The reverse, for any CSV or workbook cell read: `'000123` is `000123`, `'2.10` is `2.10`, whether b2bctl's errors
 * file wrote the `'` (guardDigitsText) or an ERP did (some export codes so, for the same reason). Unlike a `'` before
 * a formula start, it is taken off in any file: no code starts with an apostrophe followed by a value a spreadsheet
 * would rewrite.
 */
export function restoreDigitsGuard(text: string): string {
  if (text.charCodeAt(0) !== apostropheCode) return text;
  return spreadsheetMayRewrite(text.slice(afterApostrophes(text, 0))) ? text.slice(1) : text;
}

/** One cell as every CSV b2bctl writes for people has it: formula-safe, quoted when it must be. */
export function csvCell(text: string, delimiter = ','): string {
  return escapeCsvCell(neutralizeFormula(text), delimiter);
}

export function csvLine(cells: readonly string[], delimiter = ','): string {
  return `${cells.map((cell) => csvCell(cell, delimiter)).join(delimiter)}\r\n`;
}
