import { InputError } from '../../base/errors.js';

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
): (row: { cells: readonly string[]; line: number }) => void {
  return (row) => {
    const other = otherDelimiter(row.cells, namedColumns, delimiter);
    if (other === undefined) return;
    const held =
      row.cells.length === 1
        ? `is one cell holding ${delimiterName(other)}`
        : `has ${row.cells.length} cells holding ${delimiterName(other)}`;
    throw new InputError(
      `${file}:${row.line}: the row ${held} where the header has ${namedColumns} ${delimiterName(delimiter)}-separated columns: the delimiter looks wrong; nothing was sent. Save the file with one delimiter, or pass --delimiter ${other === '\t' ? "$'\\t'" : `"${other}"`} if the rows are right.`,
      { file, line: row.line },
    );
  };
}

/**
 * Refuses the first row where a column without a header holds data: no field reads it, so its data would be
 * dropped without a word (a `Bloco B apto 12` under an empty header cell). Named by the column's number and letter.
 */
export function unnamedColumnCheck(
  headers: readonly string[],
  file: string,
): (row: { cells: readonly string[]; line: number }) => void {
  const unnamed = headers.flatMap((header, index) => (header.trim() === '' ? [index] : []));
  if (unnamed.length === 0) return () => {};
  return (row) => {
    for (const index of unnamed) {
      const cell = (row.cells[index] ?? '').trim();
      if (cell === '') continue;
      throw new InputError(
        `${file}:${row.line}: column ${index + 1} (${columnLetter(index)}) has no header but holds "${shortValue(cell)}"; nothing was sent. Give the column a header (a field name, or one --map reads), or delete it.`,
        { file, line: row.line },
      );
    }
  };
}

/** A cell as a message quotes it: at most 40 characters. */
export function shortValue(cell: string): string {
  return cell.length > 40 ? `${cell.slice(0, 40)}…` : cell;
}

/** A spreadsheet's column letter: 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26))
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}
