import type { FieldProblem } from '../../domain/validation.js';
import { parseDecimal, retypeMarker } from './cell-values.js';
import type { InputRecord, WrittenCells } from './opened-input.js';

/**
 * A record's problems as the user will read them against their spreadsheet, the one place that quotes a cell back:
 * a text cell exactly as written (` A-2 `, so the operator can search the file for it), a number as its cell was
 * written (`[104,313]`, never the parsed `[104.313]`) with a currency sign explained and the example written with
 * the file's own decimal separator. JSON input and problems of no column stay as they are.
 */
export function problemsAsWritten(record: InputRecord, problems: readonly FieldProblem[]): FieldProblem[] {
  const cells = record.cells;
  if (!cells || !Array.isArray(record.original)) return [...problems];
  return problems.map((problem) => {
    const column = cells.columns.find((candidate) => candidate.path === problem.field);
    const cell = column === undefined ? undefined : shownCell(record.original as readonly string[], column.index);
    if (column === undefined || cell === undefined) return problem;
    if (column.type !== 'number' && column.type !== 'integer') return textAsWritten(problem, cell);
    const written = cell.trim();
    if (written === '') return problem;
    let message = problem.message;
    if (written !== problem.value)
      message = message.replace(`with value [${problem.value}]`, `with value [${written}]`);
    // The rules give their example in the platform's notation; in a decimal-comma file that example is itself refused.
    if (cells.decimal === ',') message = message.replace('such as 1234.56', 'such as 1234,56');
    const textHint =
      currencyHint(written, cells.decimal) ??
      decimalCommaHint(written, cells.decimal, column.type) ??
      decimalPointHint(written, cells.decimal, column.type);
    // --decimal reads text cells: a number cell is told what does change it, never a flag that leaves it as it is; one
    // of 3 decimals, whatever the flag, as it may be a thousands number read in another language.
    const numberCell = record.numberCells?.includes(column.index) === true;
    const hint =
      numberCell && (textHint?.includes('--decimal') === true || /\.\d{3}$/.test(written))
        ? numberCellHint(written)
        : textHint;
    // A problem that names --decimal already says how the file reads.
    if (hint && !message.includes('--decimal'))
      message = message.endsWith(')') ? `${message.slice(0, -1)}; ${hint})` : `${message} (${hint})`;
    return message === problem.message && written === problem.value ? problem : { ...problem, value: written, message };
  });
}

/**
 * The cell of `field` in a CSV or workbook record as the file shows it, or undefined (JSON, or no such column): what a
 * problem about that field quotes.
 */
export function writtenCell(record: InputRecord, field: string): string | undefined {
  const cells = record.cells;
  if (!cells || !Array.isArray(record.original)) return undefined;
  // Asked for every record of a file, for one field: the column is looked for once.
  if (cells !== lastCells || field !== lastField) {
    lastCells = cells;
    lastField = field;
    lastIndex = cells.columns.find((candidate) => candidate.path === field)?.index;
  }
  return lastIndex === undefined ? undefined : shownCell(record.original as readonly string[], lastIndex);
}

let lastCells: WrittenCells | undefined;
let lastField: string | undefined;
let lastIndex: number | undefined;

/** A cell marked for the errors file (retypeMarker) as the file shows it: a missing cell's mark, as none. */
function shownCell(original: readonly string[], index: number): string | undefined {
  const kept = original[index];
  return kept === retypeMarker ? '' : kept?.startsWith(retypedCell) ? kept.slice(retypedCell.length) : kept;
}

/**
 * What starts a cut cell's mark, made once: a string made per record (writtenCell asks for every record of a file)
 * raised a million-row `stock validate`'s peak memory by 40 MB.
 */
const retypedCell = `${retypeMarker} `;

function textAsWritten(problem: FieldProblem, written: string): FieldProblem {
  const quoted = `Property [${problem.field}] with value [${problem.value}]`;
  if (written === problem.value || !problem.message.startsWith(quoted)) return problem;
  return {
    ...problem,
    value: written,
    message: `Property [${problem.field}] with value [${written}]${problem.message.slice(quoted.length)}`,
  };
}

/**
 * A workbook's number cell with a fraction refused (`80.359` for a whole quantity, `1.234` for a price of 2 decimals):
 * the sheet holds the number, so --decimal, which reads text cells, changes nothing, and advising it sent the
 * operator from `--decimal ,` to `--decimal .` and back (a user test). What does: rounding it in the sheet, or, for
 * 3 decimals (a pt-BR export's `80.359` for 80359, read as 80,359 by a sheet in another language), importing the CSV
 * again as Portuguese (Brazil) or typing the value again.
 */
export function numberCellHint(written: string): string | undefined {
  const fraction = /^[+-]?\d+\.(\d+)$/.exec(written)?.[1];
  if (fraction === undefined) return undefined;
  const shown = written.replace('.', ',');
  const thousands =
    fraction.length === 3
      ? `; if it was ${written.replace('.', '')} (a pt-BR export opened with another language's settings), import the CSV again as Portuguese (Brazil), or type the value again`
      : '';
  return `the cell is the number ${written} (${shown} on a pt-BR screen), which --decimal does not change, as it reads text cells: round it in the sheet${thousands}`;
}

/**
 * `1.500` or `1.234,56` in a decimal-point file (a tab- or comma-separated pt-BR export): the number a decimal comma
 * reads, and the flag that reads it so. A whole number `1,500` there is an English export's thousands separator:
 * read with a decimal comma it would be 1.5, no whole number either, so the hint says what it is.
 */
export function decimalCommaHint(written: string, decimal: ',' | '.', type: 'number' | 'integer'): string | undefined {
  if (decimal !== '.') return undefined;
  if (type === 'integer' && /^[+-]?\d{1,3}(,\d{3})+$/.test(written))
    return `written with a thousands separator it is ${written.replaceAll(',', '')}: remove the separator, or export whole numbers without one`;
  // `1.234` alone is also a decimal-point number: only a whole-number field says its dot cannot be a decimal point.
  const pattern =
    type === 'integer' ? /^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$|^[+-]?\d+,\d+$/ : /^[+-]?(\d{1,3}(\.\d{3})+|\d+),\d+$/;
  if (!pattern.test(written)) return undefined;
  const read = parseDecimal(written, ',');
  // A whole-number field read as a fraction is refused again: no flag to offer.
  if (read === undefined || (type === 'integer' && !Number.isInteger(read))) return undefined;
  return `written the pt-BR way it is ${read}: pass --decimal , to read it so`;
}

/**
 * `12.5` in a decimal-comma file (a `;` export with one cell typed or pasted the other way): what it reads as with a
 * decimal point, and the two ways to say so. A point followed by three digits is grouping there and never gets here.
 */
export function decimalPointHint(written: string, decimal: ',' | '.', type: 'number' | 'integer'): string | undefined {
  if (decimal !== ',' || type !== 'number' || !/^[+-]?\d+\.\d+$/.test(written)) return undefined;
  const read = parseDecimal(written, '.');
  return read === undefined
    ? undefined
    : `written with a decimal point it is ${read}: write ${written.replace('.', ',')}, or pass --decimal . if the whole file writes decimals so`;
}

const currencySign = /^([+-]?)\s*R\$\s*/i;

/** `R$ 1.234,50`: what to write instead, in this file's notation, or with the --decimal that reads it. */
export function currencyHint(written: string, decimal: ',' | '.'): string | undefined {
  const sign = currencySign.exec(written);
  if (!sign) return undefined;
  const number = `${sign[1]}${written.slice(sign[0].length)}`;
  if (parseDecimal(number, decimal) !== undefined) return `drop the currency sign: write ${number}`;
  // `R$ 1,234.50` in a decimal-point file: its thousands commas would be refused next.
  const ungrouped =
    decimal === '.' && /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(number) ? number.replaceAll(',', '') : number;
  if (parseDecimal(ungrouped, decimal) !== undefined)
    return `drop the currency sign and the thousands commas: write ${ungrouped}`;
  const other = decimal === ',' ? '.' : ',';
  if (parseDecimal(number, other) !== undefined)
    return `drop the currency sign, and pass --decimal ${other} since ${number} uses "${other}" for decimals`;
  return 'drop the currency sign R$';
}
