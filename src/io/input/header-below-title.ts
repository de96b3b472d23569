import { InputError } from '../../base/errors.js';
import { fieldForHeader, fieldSpelledAs } from '../../domain/header-aliases.js';
import { missingColumnsText, shortText } from './header-messages.js';
import { nothingSent } from './nothing-sent.js';
import { recordPlace } from './opened-input.js';
import { type FieldCatalogue, type HeaderMap, mappedPath, planColumns } from './record-shape.js';

/** A row below the header row: as a message names it (`line 2` of a CSV, `row 2` of a sheet), its row, its cells. */
export interface RowBelowHeader {
  name: string;
  /** The spreadsheet's row number: the rows above it are this minus one. */
  row: number;
  cells: readonly string[];
}

/** Rows with text below the header row looked at for the real header: a title or two above it is the usual layout. */
const rowsLookedAt = 5;

/** Columns a row must name for it to be taken for the header: one could be a value that happens to be a field name. */
const columnsOfAHeader = 2;

/**
 * Stops at a header row that is a title (one cell of text) or a row of group titles (no column this command reads)
 * when one of the next rows names columns it reads. The header is the first row with text (docs/input-files.md):
 * another row is never taken silently, since which one is meant is the operator's to say by deleting the rows
 * above it.
 */
export function refuseTitleAboveHeader(
  file: string,
  place: { line: number; row?: number },
  headers: readonly string[],
  below: readonly RowBelowHeader[],
  options: {
    catalogue: FieldCatalogue;
    headerMap?: Readonly<HeaderMap>;
    maxListIndex: number;
    sends?: boolean;
    quotesHeader?: boolean;
  },
): void {
  const { columns, problems } = planColumns(headers, options.catalogue, options.headerMap, options.maxListIndex);
  const named = headers.filter((header) => header.trim() !== '').length;
  if (problems.missing.length === 0 || (named > 1 && columns.length > 0)) return;
  const header = below
    .filter((row) => row.cells.some((cell) => cell.trim() !== ''))
    .slice(0, rowsLookedAt)
    .find((row) => row.cells.filter((cell) => readsAsField(cell, options)).length >= columnsOfAHeader);
  if (header === undefined) return;
  const cells = header.cells.map((cell) => cell.trim()).filter((cell) => cell !== '');
  const shown = `${cells.slice(0, 4).map(shortText).join(', ')}${cells.length > 4 ? ', …' : ''}`;
  const above = header.row - 1 === 1 ? 'the row above it' : `the ${header.row - 1} rows above it`;
  throw new InputError(
    `${file}:${recordPlace(place)}: ${missingColumnsText({ ...problems, headers }, options.quotesHeader !== false)}, but ${header.name} looks like the header (${shown}): delete ${above}, so that the header is the first row with text${nothingSent(options.sends)}.`,
    { file, line: place.line, field: problems.missing[0] },
  );
}

/** Whether a cell names a column the command reads: a field, in any case or spacing, or as an ERP names it. */
function readsAsField(
  cell: string,
  { catalogue, headerMap }: { catalogue: FieldCatalogue; headerMap?: Readonly<HeaderMap> },
): boolean {
  const header = cell.trim();
  if (header === '') return false;
  const written = mappedPath(headerMap, header).trim();
  return (
    catalogue.typeOf(written) !== undefined ||
    fieldSpelledAs(written, catalogue.knownPaths) !== undefined ||
    fieldForHeader(header, catalogue.knownPaths) !== undefined
  );
}
