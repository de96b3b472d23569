/**
 * Long numbers a spreadsheet mangled on the way to CSV. Excel and Calc show a number of more than 11 digits in
 * scientific notation in a column formatted "General", and the CSV export writes what is shown: the digits after
 * the fifth or the fifteenth are lost. Pure.
 */
import { fieldProblem, type FieldProblem } from './validation.js';

/** What to do about it, as the reason of a field's problem. */
export const scientificNotationReason =
  'Excel showed this number in scientific notation; format the column as Text and export again';

/** The significant digits a double holds exactly: a longer number would be sent rounded. */
export const digitsANumberHolds = 15;

/**
 * Why a value written as a number is none, as words that follow its name (`quantity has too many digits…`), kept as its text rather than rounded and sent: more significant digits
 * than a number holds (`9007199254740993`, `12345678901234567,50`), or beyond the largest number (JSON's `1e309`,
 * which JSON.parse reads as Infinity); undefined for any other value.
 */
export function numberTextReason(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^-?\d+(\.\d+)?[eE][+-]?\d+$/.test(text) && !Number.isFinite(Number(text)))
    return 'is too large for a number (beyond 1.8e308, it would be Infinity); write the value it should be';
  if (!/^[+-]?\d[\d.,\s]*$/.test(text)) return undefined;
  const digits = text.replace(/\D/g, '').replace(/^0+/, '').length;
  if (digits <= digitsANumberHolds) return undefined;
  return `has too many digits for a number (${digits}; a number holds ${digitsANumberHolds}); format the column as Text`;
}

/** A number in scientific notation, for a field of digits only (a document, a phone): `1,12223E+13`, `1e13`. */
export function isScientificNotation(text: string): boolean {
  return /^\d+([.,]\d+)?E\+?\d+$/i.test(text.trim());
}

/**
 * Exactly what a spreadsheet writes (one digit, a decimal part, a signed exponent: `1,00823E+13`,
 * `4.3261000360305E+043`), for free-text fields where a code such as `12E45` may be real.
 */
export function isSpreadsheetExponent(text: string): boolean {
  return /^\d([.,]\d+)?E\+\d{1,3}$/i.test(text.trim());
}

/**
 * The problem of a code a spreadsheet wrote in scientific notation (an EAN-13 SKU as `7,89123E+12`, a state
 * registration as `1,10042E+11`): its digits are gone, so it is refused rather than sent, as a number cell in a
 * code column of a workbook is. For the fields whose own rule does not already say it (documents, NF-e keys and
 * tracking codes do); undefined for any other value.
 */
export function spreadsheetExponentProblem(field: string, value: unknown): FieldProblem | undefined {
  if (typeof value !== 'string' || !isSpreadsheetExponent(value)) return undefined;
  return fieldProblem(field, value, scientificNotationReason);
}

/**
 * What a text field holds, where the field's type alone (text) does not say how a spreadsheet's cell spoils it; each
 * field catalogue declares its fields' kinds (FieldCatalogue.textKindOf), not a path's last word.
 * - `code`: documents, CEPs, registrations, SKUs, keys and ERP order numbers lose their leading zeros, and digits past
 *   the fifteenth, once the spreadsheet stores them as numbers, and a yes/no or date cell is not the code typed.
 *   Phones are not codes: a Brazilian number starts with its area code (11 to 99), never a zero, and people type them
 *   as numbers.
 * - `address number`: typed as a whole number (`12`, `120`), so a cell with a fraction is a slip, not a value.
 * - `ncm`: common and harmless as a number cell, except with an odd count of digits (see numberCellProblem).
 */
export type TextKind = 'code' | 'address number' | 'ncm';

/** What to do about a date cell in a code column of a workbook (a code typed as 12/05), as its problem's reason. */
export const dateCellReason =
  'the cell is a date (the spreadsheet read what was typed as one), so the code typed is lost; format the column as Text and type the value again';

/** The same for a date cell in a text column (a complement typed 1/2), which no text field b2bctl sends holds. */
export const textDateCellReason =
  'the cell is a date (the spreadsheet read what was typed, such as 1/2, as one), so the text typed is lost; format the column as Text and type the value again';

/**
 * Why a workbook's number cell cannot stand for its column's text, as its problem's reason; undefined when it can.
 * A code column loses leading zeros and digits past the 15th. An NCM column is common and harmless as numbers, except
 * an odd count of digits: NCMs and their prefixes have 2, 4, 6 or 8, and the chapters 01 to 09 start with the zero a
 * number cell drops (04021010 becomes 4021010, a prefix of another product).
 */
export function numberCellProblem(column: { textKind?: TextKind }, number: number): string | undefined {
  if (column.textKind === 'code') return numberCellReason;
  // Any text column (a number, a trading name, a contact): a number of 16 digits or more was stored by the sheet to
  // its first 15, so `12345678901234567` reads 12345678901234600, digits never typed. What was typed is not known.
  if (Number.isFinite(number) && Math.abs(number) >= 10 ** digitsANumberHolds) return longNumberCellReason;
  // An address number typed 12,5 on a pt-BR screen is stored 12.5: neither is what the field would take as typed,
  // and a fraction there is most likely a slip. The field catalogue says which fields are address numbers, not the
  // path's last word: a decimal field named `….number` takes its fraction as it is.
  if (column.textKind === 'address number' && Number.isFinite(number) && !Number.isInteger(number))
    return `the cell is a number with a fraction (${String(number).replace('.', ',')} on a pt-BR screen), which an address number does not hold as typed; format the column as Text and type the value again`;
  const digits = String(number);
  if (column.textKind === 'ncm' && /^\d+$/.test(digits) && digits.length % 2 === 1)
    return `the cell is a number, so the NCM's leading zero is lost (0${digits} was probably typed); format the column as Text and type the value again`;
  return undefined;
}

/** What to do about a number cell in a code column of a workbook, as the reason of its problem. */
export const numberCellReason =
  'the cell is a number, so leading zeros and digits past the 15th are lost; format the column as Text and type the value again';

/** What to do about a number cell of more than 15 digits in any text column of a workbook, as its problem's reason. */
const longNumberCellReason =
  'the cell is a number of more than 15 digits, so the digits past the 15th are lost (the sheet shows it in scientific notation); format the column as Text and type the value again';
