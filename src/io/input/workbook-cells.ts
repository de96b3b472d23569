/** A workbook's cells as their types say, and the rules every sheet reader shares. Pure. */

/** A cell by its type: what the spreadsheet holds, not what it shows. */
export type WorkbookCell =
  | { kind: 'text'; text: string }
  /**
   * `text`: the number as the file writes it (`1153.24`), for the errors file without a conversion back;
   * `percent`: the cell shows it as a percentage (0.12 as `12%`); `currency`: as an amount of money (`R$ 1.500,50`);
   * `padded`: a whole number as a format of zeros shows it, its leading zeros kept (4021010 under `00000000` as
   * `04021010`).
   */
  | { kind: 'number'; number: number; text?: string; percent?: true; currency?: true; padded?: string }
  | { kind: 'boolean'; value: boolean }
  /** An ISO date (`2024-03-05`) or date and time (`2024-03-05T14:30:00`). */
  | { kind: 'date'; text: string }
  /** A formula's error (`#DIV/0!`, `Err:502`), as its cached value. */
  | { kind: 'error'; text: string }
  /** A formula saved without its value (written by a program that does not calculate). */
  | { kind: 'uncalculated' };

/** One row of a sheet: its number as the spreadsheet shows it (from 1), and its cells by column (from 0). */
export interface WorkbookRow {
  row: number;
  cells: (WorkbookCell | undefined)[];
  hidden?: boolean;
}

/** A sheet of a workbook, as its tab shows it. */
export interface SheetEntry {
  name: string;
  hidden: boolean;
}

/** A spreadsheet's column letter: 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26))
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** A cell reference `B12` as column index (from 0) and row (from 1); undefined when it is none. */
export function parseCellReference(reference: string): { column: number; row: number } | undefined {
  const column = referenceColumn(reference);
  if (column === undefined) return undefined;
  const digits = reference.slice(reference.search(/\d/));
  return /^\d+$/.test(digits) ? { column, row: Number(digits) } : undefined;
}

/** The column (from 0) of a reference such as `AB12`, read character by character: it runs on every cell. */
export function referenceColumn(reference: string): number | undefined {
  let column = 0;
  let index = reference.charCodeAt(0) === 0x24 ? 1 : 0;
  const start = index;
  for (; index < reference.length && index < start + 3; index++) {
    const code = reference.charCodeAt(index) | 0x20;
    if (code < 0x61 || code > 0x7a) break;
    column = column * 26 + (code - 0x60);
  }
  if (index === start) return undefined;
  const next = reference.charCodeAt(index);
  return next === 0x24 || (next >= 0x30 && next <= 0x39) ? column - 1 : undefined;
}

/** True for a cell with nothing to read: none, or text of blanks. */
export function isBlankCell(cell: WorkbookCell | undefined): boolean {
  if (cell === undefined) return true;
  return cell.kind === 'text' ? cell.text.trim() === '' : cell.kind === 'uncalculated';
}

/** The cell as the text a CSV export of it would hold, for the errors file and for messages. */
export function cellText(cell: WorkbookCell | undefined): string {
  if (cell === undefined) return '';
  switch (cell.kind) {
    case 'text':
    case 'date':
    case 'error':
      return cell.text;
    case 'number':
      return cell.percent ? percentText(cell.number) : (cell.text ?? String(cell.number));
    case 'boolean':
      return cell.value ? 'true' : 'false';
    case 'uncalculated':
      return '';
  }
}

const dayMs = 86_400_000;
/** Day 0 of the 1900 date system is 1899-12-30 once past Lotus's phantom 29 February 1900 (serial 60). */
const epoch1900 = Date.UTC(1899, 11, 30);
const epoch1904 = Date.UTC(1904, 0, 1);

/** A date serial (days since the workbook's epoch, the fraction the time of day) as ISO text. */
export function serialDate(serial: number, date1904 = false): string {
  const base = date1904 ? epoch1904 : serial < 61 ? epoch1900 + dayMs : epoch1900;
  // To the second: a serial's fraction holds a time of day to about a microsecond, and spreadsheets show seconds.
  const iso = new Date(base + Math.round(serial * 86_400) * 1000).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
}

/** Built-in number formats of Office Open XML that show a date or a time. */
const builtInDateFormats = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** True when a number format shows its number as a date or time (`dd/mm/yyyy`, `[$-416]d mmm`, built-in 14). */
export function isDateFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return builtInDateFormats.has(id);
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '')
    // The section for negative numbers, zero and text cannot change what the first section shows.
    .split(';')[0] as string;
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/**
 * What a number format shows besides the number itself: a date (or time), a percentage, money, a whole number padded
 * with zeros to a count of digits, or neither.
 */
export type NumberStyle = 'date' | 'percent' | 'currency' | { zeroPaddedTo: number } | undefined;

/**
 * The count of digits a format of zeros only pads a number to (`00000000`: 8, the usual way to show an NCM or a CEP
 * stored as a number with its leading zero); undefined for any other format. Its first section decides what a
 * positive number shows.
 */
export function zeroPaddedDigits(code: string | undefined): number | undefined {
  const first = code?.split(';')[0]?.replace(/\\(0)/g, '$1');
  return first !== undefined && /^0{2,}$/.test(first) ? first.length : undefined;
}

/** A whole number as a format of `digits` zeros shows it (4021010 to 8 digits: `04021010`); undefined for another number. */
export function paddedNumberText(number: number, digits: number): string | undefined {
  return Number.isSafeInteger(number) && number >= 0 ? String(number).padStart(digits, '0') : undefined;
}

/** Excel's built-in currency and accounting formats (`R$ #,##0.00` in a pt-BR Excel). */
const builtInCurrencyFormats = new Set([5, 6, 7, 8, 41, 42, 43, 44]);

/** True when a number format shows its number as money: `[$R$-416] #.##0,00`, `"R$" 0,00`, `$#,##0.00`, `€`. */
export function isCurrencyFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return builtInCurrencyFormats.has(id);
  const first = code.split(';')[0] as string;
  return /\[\$[^\]-]+(-[^\]]*)?\]|R\$|[$€£¥]/.test(first.replace(/\[\$-[^\]]*\]/g, ''));
}

/** True when a number format shows its number as a percentage (`0%`, `0.00%`, built-in 9 and 10). */
export function isPercentFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return id === 9 || id === 10;
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .split(';')[0] as string;
  return bare.includes('%');
}

/** A percentage cell's number as the sheet shows it: 0.065 as `6.5%` (to 12 digits, so no float tail). */
export function percentText(number: number): string {
  return `${Number((number * 100).toPrecision(12))}%`;
}

/** A cell's problem, as a record's problem naming the cell (`Plan1!C7`). */
export function cellReference(sheet: string, column: number, row: number): string {
  const name = /^[\p{L}\p{N}_]+$/u.test(sheet) ? sheet : `'${sheet.replaceAll("'", "''")}'`;
  return `${name}!${columnLetter(column)}${row}`;
}
