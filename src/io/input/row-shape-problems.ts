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
 * Warns once per column when a column without a header holds data (it is read by no field, so its data would be
 * dropped without a word), naming the column by its number and letter and the first row that has some.
 */
export function unnamedColumnWatch(
  headers: readonly string[],
  file: string,
  warn: (message: string) => void,
): (row: { cells: readonly string[]; line: number }) => void {
  const unnamed = headers.flatMap((header, index) => (header.trim() === '' ? [index] : []));
  if (unnamed.length === 0) return () => {};
  const warned = new Set<number>();
  return (row) => {
    for (const index of unnamed) {
      if (warned.has(index) || (row.cells[index] ?? '').trim() === '') continue;
      warned.add(index);
      warn(
        `warning: ${file}:${row.line}: column ${index + 1} (${columnLetter(index)}) has no header but holds "${(row.cells[index] ?? '').trim().slice(0, 40)}"; it is ignored: give it a header (a field name, or one --map knows)`,
      );
    }
  };
}

/** A spreadsheet's column letter: 0 → A, 26 → AA. */
function columnLetter(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26))
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}
