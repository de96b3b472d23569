/** How a spreadsheet cell's text becomes a typed value. Pure. */

import { holdsLoneGuard, restoreDigitsGuard, restoreFormula } from '../output/csv-format.js';

export type DecimalSeparator = '.' | ',';

// The yes/no and state words are domain rules: the platform's answers are read with them too (a success flag
// `"sucesso": "não"`, a record's `"ativo": "S"`), so what a cell takes and what an answer says agree.
export { parseActiveState, parseBoolean } from '../../domain/yes-no-words.js';

/** The words parseActiveState reads, as a message lists them. */
export const activeStateWords =
  'active or inactive, ativo or inativo, liberado or bloqueado, true or false, sim or não, 1 or 0';

/**
 * A decimal number as a pt-BR or an en-US spreadsheet writes it. With a decimal comma, `.` may only
 * group thousands (`1.234,56` is 1234.56; never after a leading 0); with a decimal point, a comma makes the text no number,
 * because `parseFloat("1.234,56")` silently reading 1.234 is the error this exists to prevent.
 */
export function parseDecimal(text: string, decimal: DecimalSeparator): number | undefined {
  const value = text.trim();
  // Beyond 15 significant digits a double no longer holds the number as written
  // (`99999999999999999999.99` would be sent as 100000000000000000000): keep the text, so it is refused as written.
  // Text of 15 characters or fewer cannot hold 16 digits: the count (two copies of the text) is skipped for it.
  if (value.length > 15 && value.replace(leadingSignAndZeros, '').replace(nonDigits, '').length > 15) return undefined;
  const plain = plainDecimal(value, decimal);
  if (plain !== notPlain) return plain;
  if (decimal === ',') {
    if (!commaDecimal.test(value)) return undefined;
    // Most cells have neither a thousands point nor a decimal comma: no copy of the text for them.
    const withoutGrouping = value.includes('.') ? value.replaceAll('.', '') : value;
    return Number(withoutGrouping.includes(',') ? withoutGrouping.replace(',', '.') : withoutGrouping);
  }
  if (!pointDecimal.test(value)) return undefined;
  return Number(value);
}

const notPlain = Symbol('not a plain number');

/**
 * The common cells read without a regular expression: `123`, `-5`, `1186,71` with a decimal comma or
 * `1186.71` with a point. Anything else (grouping, `abc`) goes to the full rules. A plain whole number
 * of at most 15 significant digits (checked by the caller) is exact when summed digit by digit.
 */
function plainDecimal(value: string, decimal: DecimalSeparator): number | undefined | typeof notPlain {
  const length = value.length;
  let index = 0;
  const sign = value.charCodeAt(0);
  if (sign === 0x2b || sign === 0x2d) index = 1;
  const digitsStart = index;
  let whole = 0;
  for (; index < length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x30 || code > 0x39) break;
    whole = whole * 10 + (code - 0x30);
  }
  if (index === digitsStart) return notPlain;
  if (index === length) return sign === 0x2d ? -whole : whole;
  if (value.charCodeAt(index) !== (decimal === ',' ? 0x2c : 0x2e) || index === length - 1) return notPlain;
  for (let fraction = index + 1; fraction < length; fraction++) {
    const code = value.charCodeAt(fraction);
    if (code < 0x30 || code > 0x39) return notPlain;
  }
  return Number(decimal === ',' ? value.replace(',', '.') : value);
}

// Built once: a regular expression literal inside the function is a new object on every cell.
const leadingSignAndZeros = /^[+-]?[0.,]*/;
const nonDigits = /\D/g;
// A thousands group starts with 1 to 9: no spreadsheet writes `0.500` or `000.250` for 500 or 250, while an export
// with a decimal point writes `0.500` for half.
const commaDecimal = /^[+-]?([1-9]\d{0,2}(\.\d{3})+|\d+)(,\d+)?$/;
const pointDecimal = /^[+-]?\d+(\.\d+)?$/;

/**
 * `1.000`, `12.500`, `2.000`: one thousand written the pt-BR way, or one with three decimals written with a point.
 * A file read with a decimal point that --decimal did not name cannot tell, and the two differ a thousandfold: the
 * problem to refuse it with, or undefined for any other text. (`0.500` is no pt-BR grouping, and two groups,
 * `1.234.567`, are no decimal-point number: neither is ambiguous.)
 */
export function ambiguousGrouping(text: string): string | undefined {
  const value = text.trim();
  if (!/^[+-]?[1-9]\d{0,2}\.\d{3}$/.test(value)) return undefined;
  return `${value} is ${parseDecimal(value, ',')} written the pt-BR way, or ${parseDecimal(value, '.')} with a decimal point: pass --decimal , or --decimal . to say which the file writes`;
}

/**
 * ambiguousGrouping as a record's problem (a ReaderProblem, which this module of pure rules does not import),
 * worded as every reader words it (`quantity: 1.000 is 1000 …`).
 */
export function ambiguousNumber(
  field: string,
  text: string,
): { field: string; value: string; message: string } | undefined {
  const problem = ambiguousGrouping(text);
  return problem === undefined ? undefined : { field, value: text.trim(), message: `${field}: ${problem}` };
}

/** A whole number, possibly with thousands grouping; undefined for fractions and words. */
export function parseWholeNumber(text: string, decimal: DecimalSeparator): number | undefined {
  const number = parseDecimal(text, decimal);
  return number !== undefined && Number.isInteger(number) ? number : undefined;
}

/**
 * Whether a list cell holds separators and blanks only (`|`, ` | `, `||`): no name at all, which is no list the
 * operator wrote (an ERP that joins empty group slots with `|` writes it). Split, it is an empty list, and an empty
 * list sent replaces every group or price tag of the customer with none (a user test).
 */
export function isSeparatorsOnly(text: string): boolean {
  return text.includes('|') && text.replaceAll('|', '').trim() === '';
}

/**
 * The problem of a list cell of separators only (isSeparatorsOnly), in the same words from every reader (`--set`
 * says it of a flag, which has no cell to leave empty); undefined for any other text. An empty cell leaves the
 * customer's list as it is (docs/input-files.md).
 */
export function separatorsOnlyProblem(path: string, text: string): string | undefined {
  if (!isSeparatorsOnly(text)) return undefined;
  return `field "${path}" holds "${text.trim()}", separators with no name between them: write the names (Atacado|Sul), or leave the cell empty to keep the customer's list as it is (sent, it would be an empty list, which removes every one; to remove them on purpose, send "${path}": [] in a JSON file)`;
}

/** A `|`-separated list cell (`Atacado|Sul`), without empty items. */
export function parseList(text: string): string[] {
  // Most cells hold one name: no split, map and filter arrays for it.
  if (!text.includes('|')) {
    const item = text.trim();
    return item === '' ? [] : [item];
  }
  return text
    .split('|')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * The error values a spreadsheet shows, and writes into its CSV, where a formula failed: Excel's in English and in
 * Portuguese (`#NAME?`, `#NOME?`, `#N/A`, `#N/D`, `#VALUE!`, `#VALOR!`…) and LibreOffice's `Err:509`. Such a cell
 * is no value of the record: sent as text, `#NOME?` would become a customer's name or a cancellation's reason.
 */
const spreadsheetError =
  /^(?:#(?:NULL!|NULO!|DIV\/0!|VALUE!|VALOR!|REF!|NAME\?|NOME\?|NUM!|NÚM!|N\/A|N\/D|SPILL!|DESPEJAR!|CALC!|FIELD!|CAMPO!|BLOCKED!|BLOQUEADO!|CONNECT!|CONECTAR!|BUSY!|OCUPADO!|UNKNOWN!|DESCONHECIDO!|GETTING_DATA|OBTENDO_DADOS)|Err:\d{3})$/i;

/**
 * What an errors file writes, before the cell's text, for a workbook cell refused because the spreadsheet had lost
 * what was typed (a code read as a number without its leading zeros, `1/2` turned into a date): fed back unchanged,
 * that text would pass as a value and send what the workbook check refused. The readers refuse a cell that starts
 * with it until the value is typed again.
 */
export const retypeMarker = '#RETYPE!';

/** True when a cell still holds an errors file's retypeMarker. */
export function isRetypeCell(text: string): boolean {
  return text.charCodeAt(0) === 35 && text.startsWith(retypeMarker);
}

/** The problem of a cell that still holds retypeMarker, in the same words from every reader. */
export function retypeProblem(path: string, text: string): string {
  return `field "${path}" holds ${text.trim()}: the run that wrote this errors file could not trust that value (the error column says why); type the value in its place, then feed the file back`;
}

/**
 * A cell's text with b2bctl's guards read back (docs/input-files.md). The `'` before digits a spreadsheet would lose
 * (`'000123`) is taken off in any file (restoreDigitsGuard). The formula guard: in a file that ends with the errors
 * file's columns (errorsFileColumns) the guard is b2bctl's and is taken off. In any other file (the errors file
 * saved as a workbook without them, or with them deleted) a lone `'` before a formula start may be the guard or the
 * author's, and either reading could send a wrong value: the cell is refused. A doubled one is one `'` of the value.
 */
export function readFormulaGuard(path: string, text: string, errorsFile: boolean): { text: string; problem?: string } {
  if (!text.includes("'")) return { text };
  // `'000123`: the guard of a code's leading zeros (restoreDigitsGuard), taken off in any file.
  const digits = restoreDigitsGuard(text);
  if (digits !== text) return { text: digits };
  if (errorsFile || !holdsLoneGuard(text)) return { text: restoreFormula(text) };
  return {
    text,
    problem: `field "${path}" holds ${text.trim()}: a ' before = + - @ is the mark b2bctl's errors file puts against spreadsheet formulas, taken off only in a file that still ends with the errors file's row and error columns; delete the ' here, or write it twice ('') if the value itself starts with one`,
  };
}

/**
 * The text Excel shows for a CSV cell holding its text formula `="000123"`: the idiom ERPs write so that Excel keeps
 * a code's leading zeros (a `""` inside is one `"`). Read as Excel and Calc show it, `000123`: sent as it was written,
 * the platform took the SKU `="000123"` (a user test). Undefined for any other text, which is read as written.
 */
export function excelTextFormula(text: string): string | undefined {
  if (text.charCodeAt(0) !== 61) return undefined;
  const found = /^="((?:[^"]|"")*)"\s*$/.exec(text);
  return found === null ? undefined : (found[1] as string).replaceAll('""', '"');
}

/** True when a cell's text is a spreadsheet's formula error rather than a value (spreadsheetError). */
export function isSpreadsheetError(text: string): boolean {
  // Nearly every cell starts with neither `#` nor `E`: the pattern runs only on the few that do.
  const first = text.charCodeAt(0);
  if (first !== 35 && first !== 69 && first !== 101 && first !== 32) return false;
  return spreadsheetError.test(text.trim());
}
