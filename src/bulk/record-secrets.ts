import type { InputRecord } from '../io/input/open-input.js';
import type { FieldCatalogue } from '../io/input/record-shape.js';
import { retypeMarker } from '../io/input/cell-values.js';

/**
 * The values a message about this record must not quote: each secret column's cell (a customer's password). In a row
 * whose cells do not line up with the header (an unquoted comma in a name, a cell missing), the secret's value sits a
 * column or more to the side, under another name (`stateRegistration`, `phone`) whose message quotes it (a user
 * test): there every cell the shift could have moved into or out of a secret column counts, as many columns to each
 * side as the row has cells too many or too few (at least one). Pure.
 */
export function secretCellsOf(record: InputRecord, catalogue?: Pick<FieldCatalogue, 'isSecret'>): string[] {
  const isSecret = catalogue?.isSecret;
  const cells = record.original;
  if (!isSecret || !record.cells || !Array.isArray(cells)) return secretValuesOf(record, isSecret);
  const written = cells as readonly unknown[];
  const columns = record.cells.columns;
  const secretColumns = columns.filter((column) => isSecret(column.path));
  if (secretColumns.length === 0) return [];
  // Cells too many push the values right of where they belong, too few pull them left: the shift's side only,
  // both sides when the count is right but the reader found the row shifted all the same.
  // A short row's errors-file copy ends with one retypeMarker for its missing cells: no cell of the file.
  const read = written.at(-1) === retypeMarker ? written.length - 1 : written.length;
  const shift = record.problems.length === 0 ? 0 : read - (Math.max(...columns.map((c) => c.index)) + 1);
  const [left, right] =
    record.problems.length === 0 ? [0, 0] : shift === 0 ? [-1, 1] : [Math.min(0, shift), Math.max(0, shift)];
  const found = new Set<string>();
  for (const column of secretColumns)
    for (let index = column.index + left; index <= column.index + right; index++) {
      const cell = index < read ? written[index] : undefined;
      // A cell the errors file marks to be typed again is quoted without its mark.
      const value = typeof cell === 'string' ? cell.replace(`${retypeMarker} `, '') : '';
      if (value.trim() !== '' && value !== retypeMarker) found.add(value);
    }
  return [...found];
}

/** A JSON record's secret fields' values, at the top level where a customer's password is. */
function secretValuesOf(record: InputRecord, isSecret: ((path: string) => boolean) | undefined): string[] {
  if (!isSecret) return [];
  return Object.entries(record.values)
    .filter(([field, value]) => isSecret(field) && typeof value === 'string' && value !== '')
    .map(([, value]) => value as string);
}
