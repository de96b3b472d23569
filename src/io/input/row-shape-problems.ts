import { InputError } from '../../base/errors.js';
import { nothingSent } from './nothing-sent.js';
import { columnLetter } from './workbook-cells.js';

// One spelling of a column's letter for CSV and workbook messages alike.
export { columnLetter };

/** Delimiters a spreadsheet or ERP writes, as messages name them. */
const delimiters = [',', ';', '\t', '|'] as const;

function delimiterName(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `"${delimiter}"`;
}

/**
 * Why a row has fewer cells than the header names columns, in words that point at the fix, or undefined for a row
 * that is whole. Pure.
 */
export function shortRowProblem(cells: readonly string[], namedColumns: number): string | undefined {
  if (cells.length >= namedColumns) return undefined;
  return `the row has ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'} but the header has ${namedColumns} columns: a cell is missing, or a delimiter or quote is off`;
}

/** The header as the row checks see it: its columns, the named ones before any trailing unnamed, its delimiter. */
export interface RowHeader {
  count: number;
  named: number;
  delimiter: string;
}

/**
 * A row with more cells than the header, or undefined. Refused whether its extra cells hold data or are empty: an
 * unquoted decimal comma in a comma-separated file (`6,5`) splits one number into two cells and moves every later
 * value one column right, and when the row's last value was empty, the cell pushed past the header is empty too. A
 * spreadsheet writes its header as wide as its widest row, so no export has a longer row
 * (docs/decisions/0031-a-row-longer-than-its-header-is-refused.md). The advice to end the header with a delimiter
 * is not given for a comma row holding two neighbouring whole numbers: followed, it would let that row, if split,
 * load shifted (decision 0031, Later).
 */
export function longRowProblem(cells: readonly string[], header: RowHeader): string | undefined {
  if (cells.length <= header.count) return undefined;
  const counts = `the row has ${cells.length} cells but the header has ${header.count} columns`;
  const pair = header.delimiter === ',' ? decimalCommaPair(cells, cells.length) : undefined;
  const trailing =
    pair === undefined && cells.slice(header.count).every((cell) => cell.trim() === '')
      ? `; if every row of the file ends with a delimiter, end the header with one too`
      : '';
  if (header.delimiter !== ',') return `${counts}; check the delimiter and quotes${trailing}`;
  return `${counts}: in a comma-separated file a decimal comma splits its number into two cells (6,5 is 6 and 5); quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself, else check the delimiter and quotes${trailing}`;
}

/**
 * A comma row that a split decimal may have shifted into the header's trailing unnamed columns, or undefined. Such a
 * header (`…,fcpRate,`) gives every row a spare empty cell, so a row whose `6,5` became two cells and whose last
 * value was empty has as many cells as the header: it fills the last named column with the value before it and
 * leaves the spare cell empty. A row is taken as shifted when it reaches into the spare cells, its last named cell
 * holds data and two neighbouring cells read as a decimal-comma number; a comma file cannot tell it from a right row
 * ending with a delimiter, and a wrong tax is worse than a refused row (decision 0031, Later).
 */
export function spareColumnShiftProblem(cells: readonly string[], header: RowHeader): string | undefined {
  if (header.delimiter !== ',' || header.count === header.named) return undefined;
  if (cells.length <= header.named || cells.length > header.count) return undefined;
  if ((cells[header.named - 1] ?? '').trim() === '') return undefined;
  if (decimalCommaPair(cells, header.named) === undefined) return undefined;
  return `the row fills column ${header.named}, the header's last named one, leaves its unnamed column ${header.named + 1} empty and holds whole numbers side by side, as a row does whose decimal comma split a number into two cells (6,5 is 6 and 5) and moved every later value one column right; quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself (in a comma-separated file whose header ends with a delimiter, such a row cannot be told from a right one)`;
}

/** The index of the first of two neighbouring cells, before `end`, that read as one number split at its decimal comma. */
function decimalCommaPair(cells: readonly string[], end: number): number | undefined {
  for (let index = 0; index + 1 < Math.min(end, cells.length); index++)
    if (/^-?\d+$/.test((cells[index] ?? '').trim()) && /^\d+$/.test((cells[index + 1] ?? '').trim())) return index;
  return undefined;
}

/**
 * The other delimiter a short row was written with, or undefined: a row that is one cell holding one (every field of
 * the row landed in the first column), or a short row whose cells hold `;`, a tab or `|` (not `,`, which a decimal
 * comma puts in cells of a `;` file).
 */
function otherDelimiter(cells: readonly string[], namedColumns: number, delimiter: string): string | undefined {
  if (cells.length >= namedColumns || namedColumns < 2) return undefined;
  const candidates = cells.length === 1 ? delimiters : delimiters.filter((candidate) => candidate !== ',');
  return candidates.find((candidate) => candidate !== delimiter && cells.some((cell) => cell.includes(candidate)));
}

/**
 * Refuses the file at the first row written with another delimiter than the header: one error for the file, not
 * one per field of each such row (every "required" after it would only repeat that the cells are in the wrong place).
 */
export function wrongDelimiterCheck(
  namedColumns: number,
  delimiter: string,
  file: string,
  sends: boolean | undefined,
): (row: { cells: readonly string[]; line: number }) => void {
  return (row) => {
    const other = otherDelimiter(row.cells, namedColumns, delimiter);
    if (other === undefined) return;
    const held =
      row.cells.length === 1
        ? `is one cell holding ${delimiterName(other)}`
        : `has ${row.cells.length} cells holding ${delimiterName(other)}`;
    throw new InputError(
      `${file}:${row.line}: the row ${held} where the header has ${namedColumns} ${delimiterName(delimiter)}-separated columns: the delimiter looks wrong${nothingSent(sends)}. Save the file with one delimiter, or pass --delimiter ${other === '\t' ? "$'\\t'" : `"${other}"`} if the rows are right.`,
      { file, line: row.line },
    );
  };
}

/**
 * Where a sheet's cells past the header's end are, and how a message names one (a workbook's `Clientes!I2`): data
 * there is refused as data under an empty header cell is. A CSV gives none: its row longer than its header is refused
 * whether its extra cells hold data or not (longRowProblem, decision 0031).
 */
export type PastHeaderEnd = (column: number, line: number) => string;

/**
 * Refuses the first row where a column without a header holds data: no field reads it, so its data would be dropped
 * without a word (a `Bloco B apto 12` under an empty header cell). Named by the column's number and letter. With
 * `pastHeaderEnd` (a workbook), a cell right of the header's last cell is refused too, naming the cell (the `Apto 5`
 * under a number header merged over two columns: a merged header names its first column only).
 */
export function unnamedColumnCheck(
  headers: readonly string[],
  file: string,
  sends: boolean | undefined,
  pastHeaderEnd?: PastHeaderEnd,
): (row: { cells: readonly string[]; line: number }) => void {
  const unnamed = headers.flatMap((header, index) => (header.trim() === '' ? [index] : []));
  if (unnamed.length === 0 && pastHeaderEnd === undefined) return () => {};
  const noHeader = (line: number, said: string, fix: string) =>
    new InputError(
      `${file}:${line}: ${said}${nothingSent(sends)}. Give the column a header (a field name, or one --map reads), or ${fix}.`,
      { file, line },
    );
  return (row) => {
    for (const index of unnamed) {
      const cell = (row.cells[index] ?? '').trim();
      if (cell === '') continue;
      throw noHeader(
        row.line,
        `column ${index + 1} (${columnLetter(index)}) has no header but holds "${shortValue(cell)}"`,
        'delete it',
      );
    }
    if (pastHeaderEnd === undefined) return;
    for (let index = headers.length; index < row.cells.length; index++) {
      const cell = (row.cells[index] ?? '').trim();
      if (cell === '') continue;
      throw noHeader(
        row.line,
        `cell ${pastHeaderEnd(index, row.line)} holds "${shortValue(cell)}" but column ${columnLetter(index)} has no header (the header ends at column ${columnLetter(headers.length - 1)}; a header merged over several columns names only the first)`,
        'clear the cell',
      );
    }
  };
}

/** A cell as a message quotes it: at most 40 characters. */
export function shortValue(cell: string): string {
  return cell.length > 40 ? `${cell.slice(0, 40)}…` : cell;
}
