import { InputError } from '../../errors.js';

/** Delimiters a spreadsheet or ERP writes, as messages name them. */
const delimiters = [',', ';', '\t', '|'] as const;

function delimiterName(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `"${delimiter}"`;
}

/**
 * Why a row has fewer cells than the header names columns, in words that point at the fix, or undefined for a row
 * that is whole. One cell holding another delimiter is a file saved with the wrong delimiter (or read with it):
 * every field of the row landed in the first column, and the "required" errors alone would not say so. Pure.
 */
export function shortRowProblem(cells: readonly string[], namedColumns: number, delimiter: string): string | undefined {
  if (cells.length >= namedColumns) return undefined;
  const onlyCell = cells.length === 1 ? (cells[0] ?? '') : undefined;
  const other =
    onlyCell === undefined
      ? undefined
      : delimiters.find((candidate) => candidate !== delimiter && onlyCell.includes(candidate));
  if (other !== undefined)
    return `the row is one cell holding ${delimiterName(other)} where the header has ${namedColumns} ${delimiterName(delimiter)}-separated columns: the delimiter looks wrong; save the file with one delimiter, or pass --delimiter ${other === '\t' ? "$'\\t'" : `"${other}"`} if the rows are right`;
  return `the row has ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'} but the header has ${namedColumns} columns: a cell is missing, or a delimiter or quote is off`;
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
