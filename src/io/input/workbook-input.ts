import type { Readable } from 'node:stream';
import { InputError, InterruptedError } from '../../base/errors.js';
import type { PrivateTemporaryFile } from '../../lib/private-temporary-file.js';
import { dateCellReason, numberCellProblem, textDateCellReason } from '../../domain/spreadsheet-numbers.js';
import {
  ambiguousGrouping,
  isRetypeCell,
  isSpreadsheetError,
  parseBoolean,
  parseDecimal,
  readFormulaGuard,
  retypeMarker,
  retypeProblem,
  separatorsOnlyProblem,
} from './cell-values.js';
import { refuseTitleAboveHeader, type RowBelowHeader } from './header-below-title.js';
import { planWithProposal } from './header-proposal.js';
import { reportHeaderProblems } from './header-messages.js';
import {
  type InputOptions,
  type InputRecord,
  invisibleProblems,
  type OpenedInput,
  type ReaderProblem,
  type WrittenCells,
} from './opened-input.js';
import {
  type ColumnPlan,
  defaultMaxListIndex,
  errorsFileColumns,
  mappedPath,
  setPath,
  textColumnIndexes,
  typedValue,
} from './record-shape.js';
import { shortValue, unnamedColumnCheck } from './row-shape-problems.js';
import { unmappedDataCheck, withIgnoredColumns } from './unmapped-columns.js';
import {
  cellReference,
  cellText,
  columnLetter,
  isBlankCell,
  percentText,
  type WorkbookCell,
  type WorkbookRow,
} from './workbook-cells.js';
import { copyOfWorkbookStream } from './workbook-copy.js';
import { openOdsSheet } from './workbook-ods.js';
import type { SheetReader } from './workbook-sheet.js';
import { openXlsxSheet } from './workbook-xlsx.js';
import { rowXmlBound } from './workbook-xlsx-rows.js';
import { defaultRowBounds } from './row-bounds.js';
import { openWorkbookZip, type WorkbookZip } from './workbook-zip.js';

export type WorkbookFormat = 'xlsx' | 'ods';

/**
 * Opens a workbook's sheet as records: the first visible sheet or `--sheet`, its first row with text the header,
 * each cell read by its type (docs/input-files.md, "Workbooks (.xlsx, .ods)"). A regular file is read by its path (a zip is read
 * from its end); anything else (stdin, a pipe) is copied to a private temporary file first, never held in memory.
 */
export async function openWorkbookInput(
  options: InputOptions,
  file: string,
  format: WorkbookFormat,
  bytes: { path: string } | { stream: Readable },
): Promise<OpenedInput> {
  const reader = await openSheet(options, file, format, bytes);
  let closed = false;
  // Once only: the last batch closes the reader, and a caller may close it again after an error.
  const close = () => {
    if (closed) return;
    closed = true;
    reader.close();
  };
  // Another sheet is looked at only to say where the data is: a named file can be opened again, stdin cannot.
  const dataSheet =
    options.sheet === undefined && 'path' in bytes
      ? () => sheetWithColumns(options, file, format, bytes.path, options.catalogue.requiredColumns ?? [])
      : async () => undefined;
  try {
    return await readSheet(options, file, format, { reader, close, dataSheet });
  } catch (error) {
    close();
    throw error;
  }
}

/**
 * The first other visible sheet whose header row has every column a record needs, by tab (2, 3, …): what a
 * workbook whose first sheet is a cover or a summary holds its data in. Undefined when none has.
 */
async function sheetWithColumns(
  options: InputOptions,
  file: string,
  format: WorkbookFormat,
  path: string,
  required: readonly string[],
): Promise<string | undefined> {
  if (required.length === 0) return undefined;
  for (let tab = 2; ; tab++) {
    let reader: SheetReader;
    try {
      reader = await openSheet({ ...options, sheet: String(tab) }, file, format, { path });
    } catch {
      // Past the last tab (or a tab number that is also another sheet's name): nothing more to look at.
      return undefined;
    }
    try {
      const header = await headerRow(reader.rows());
      const name = reader.sheet;
      if (name === undefined || name.hidden || !header) continue;
      const paths = new Set(header.row.cells.map((cell) => mappedPath(options.headerMap, cellText(cell).trim())));
      if (required.every((column) => paths.has(column))) return name.name;
    } finally {
      reader.close();
    }
  }
}

/**
 * The header's problems as reportHeaderProblems says them; a header that lacks the columns every record needs also
 * names another sheet that has them, when one does (a workbook whose first sheet is a cover or a summary).
 */
async function reportHeaderNamingDataSheet(
  file: string,
  place: { line: number },
  problems: Parameters<typeof reportHeaderProblems>[2],
  options: InputOptions,
  dataSheet: () => Promise<string | undefined>,
): Promise<void> {
  try {
    reportHeaderProblems(file, place, problems, options);
  } catch (error) {
    const elsewhere = problems.missing.length > 0 ? await dataSheet() : undefined;
    if (elsewhere === undefined || !(error instanceof InputError)) throw error;
    throw new InputError(
      `${error.message} Sheet "${elsewhere}" looks like the data (it has those columns): add --sheet "${elsewhere}".`,
      { file, line: error.line, field: error.field },
    );
  }
}

/**
 * The header, its plan, and the records below it, of a sheet the door opened; `dataSheet` finds another sheet that
 * has the columns the chosen one lacks, for the error that names them.
 */
async function readSheet(
  options: InputOptions,
  file: string,
  format: WorkbookFormat,
  opened: { reader: SheetReader; close: () => void; dataSheet: () => Promise<string | undefined> },
): Promise<OpenedInput> {
  const { reader, close, dataSheet } = opened;
  const batches = reader.rows();
  const header = await headerRow(batches);
  if (!header) {
    if (options.sheet === undefined) warnOtherSheets(file, reader, options.warn);
    close();
    return emptySheet(file, format);
  }
  const sheet = reader.sheet?.name ?? '';
  const headers = header.row.cells.map((cell) => cellText(cell).trim());
  // Hollow cells of a sparse row: a header cell nobody typed is an empty header, as in CSV.
  for (let index = 0; index < headers.length; index++) headers[index] ??= '';
  const maxListIndex = options.maxListIndex ?? defaultMaxListIndex;
  const place = { line: header.row.row };
  const at = String(place.line);
  // Every column accounted for, as in CSV: `--ignore-column` leaves one out, data under a header no field reads stops.
  const headerMap = withIgnoredColumns(options, headers, { file, at });
  refuseTitleAboveHeader(file, place, headers, rowsBelow(header.rest), { ...options, headerMap, maxListIndex });
  const { columns, problems } = await planWithProposal(file, at, headers, {
    ...options,
    headerMap,
    maxListIndex,
    // As in CSV: the column's first value in the rows read with the header, shown when b2bctl asks what it is.
    sampleOf: (name) => firstValueUnder(headers, name, header.rest),
  });
  await reportHeaderNamingDataSheet(file, place, { ...problems, headers }, options, dataSheet);
  if (options.sheet === undefined) warnActiveSheet(file, sheet, reader, options.warn);
  const unmappedData = unmappedDataCheck(file, problems.unknown, options.catalogue, options.sends);
  warnHiddenColumns(file, sheet, columns, reader, options.warn);
  reader.merges.skipThrough(header.row.row);
  const written = writtenCellsOf(columns, options.decimal);
  const shape = rowShaper({ file, sheet, headers, written, options, errorsFile: errorsFileColumns(headers) > 0 });
  // Merged cells filled first, then a batch with data under a header no field reads is refused before it is shaped.
  const shapeBatch = (batch: readonly WorkbookRow[]): InputRecord[] => {
    for (const row of batch) reader.merges.fill(row);
    // The rows' text is built only when a column no field reads exists: nearly every run, none does.
    if (problems.unknown.length > 0)
      unmappedData(
        batch.map((row) => ({ cells: Array.from(row.cells, cellText), line: row.row })),
        0,
      );
    return batch.map(shape).filter((record) => record !== undefined);
  };
  async function* shapedBatches(): AsyncGenerator<InputRecord[]> {
    try {
      const first = shapeBatch(header?.rest ?? []);
      if (first.length > 0) yield first;
      for await (const batch of batches) {
        const shaped = shapeBatch(batch);
        if (shaped.length > 0) yield shaped;
      }
    } finally {
      await batches.return(undefined);
      close();
    }
  }
  const batched = shapedBatches();
  return {
    file,
    format,
    encoding: 'utf-8',
    // An errors file of a workbook is CSV with its headers: `,` and decimal points, as the cells' text is written.
    csv: { delimiter: ',', decimal: '.', headers, textColumns: textColumnIndexes(columns) },
    workbook: { sheet },
    records: oneAtATime(batched),
    recordBatches: () => batched,
    skipped: { blankRows: 0 },
    close,
  };
}

/**
 * The chosen sheet's reader. A zip is read from its end, so the bytes of stdin or a pipe are first copied to a private
 * temporary file and read from there like a named file; the file's name is removed as soon as the zip is open (its
 * bytes stay readable through the open descriptor), so nothing is left behind however the run ends.
 */
async function openSheet(
  options: InputOptions,
  file: string,
  format: WorkbookFormat,
  bytes: { path: string } | { stream: Readable },
): Promise<SheetReader> {
  const copy =
    'path' in bytes
      ? undefined
      : await copyOfWorkbookStream(bytes.stream, file, format, options.interrupt, options.sends);
  const path = 'path' in bytes ? bytes.path : (copy as PrivateTemporaryFile).path;
  let zip: WorkbookZip;
  try {
    zip = await openWorkbookZip(path, file);
  } catch (error) {
    throw changedOr(error, options.unchanged);
  } finally {
    copy?.remove();
  }
  try {
    // Both formats held to the same bounds (workbook-bounds.ts), those of a CSV row: input.maxRowChars and maxColumns.
    const rowBounds = options.rowBounds ?? defaultRowBounds;
    const reading = {
      bound: rowXmlBound(rowBounds),
      maxColumns: rowBounds.maxColumns,
      interrupt: options.interrupt,
      sends: options.sends,
    };
    const reader =
      format === 'ods'
        ? await openOdsSheet(zip, file, options.sheet, reading)
        : await openXlsxSheet(zip, file, options.sheet, reading);
    // In place: a reader's sheet is a getter (OpenDocument learns it while streaming), lost to a copy.
    const rows = reader.rows.bind(reader);
    reader.rows = () => checkedForChange(rows(), options.unchanged);
    return reader;
  } catch (error) {
    zip.close();
    throw changedOr(error, options.unchanged);
  }
}

/**
 * A workbook saved over while it is read (Excel or the ERP rewriting it in place) is read from its old places in
 * the zip: its inflating fails (`unexpected end of file`) or gives text that is not the sheet. Whatever the reading
 * failed with, a file that is no longer the one opened is said to have changed, as a CSV is (`unchanged` throws that
 * refusal); a Ctrl-C stays a Ctrl-C.
 */
function changedOr(error: unknown, unchanged: (() => void) | undefined): unknown {
  if (error instanceof InterruptedError) return error;
  try {
    unchanged?.();
  } catch (changed) {
    return changed;
  }
  return error;
}

/** The rows of a sheet, each batch handed on only once the file is still the one opened (as a CSV's chunks are). */
async function* checkedForChange(
  batches: AsyncGenerator<WorkbookRow[]>,
  unchanged: (() => void) | undefined,
): AsyncGenerator<WorkbookRow[]> {
  try {
    for await (const batch of batches) {
      unchanged?.();
      yield batch;
    }
  } catch (error) {
    throw changedOr(error, unchanged);
  }
}

/** The first row with text, and the rows that came with it in its batch (the generator stays open for the rest). */
async function headerRow(
  batches: AsyncGenerator<WorkbookRow[]>,
): Promise<{ row: WorkbookRow; rest: WorkbookRow[] } | undefined> {
  for (let next = await batches.next(); !next.done; next = await batches.next()) {
    const at = next.value.findIndex((row) => !isBlank(row));
    if (at !== -1) return { row: next.value[at] as WorkbookRow, rest: next.value.slice(at + 1) };
  }
  return undefined;
}

/** The rows read with the header row, for what a message says of the rows below it. */
function rowsBelow(rows: readonly WorkbookRow[]): RowBelowHeader[] {
  return rows.map((row) => ({ name: `row ${row.row}`, row: row.row, cells: Array.from(row.cells, cellText) }));
}

/** The first value under the column named `name` in `rows`, shortened as a message shows it. */
function firstValueUnder(headers: readonly string[], name: string, rows: readonly WorkbookRow[]): string | undefined {
  const index = headers.indexOf(name);
  if (index === -1) return undefined;
  for (const row of rows) {
    const text = cellText(row.cells[index]).trim();
    if (text !== '') return shortValue(text);
  }
  return undefined;
}

function isBlank(row: WorkbookRow): boolean {
  // A loop, not every(): holes of a sparse row are cells too, and it runs on each of a million rows.
  for (let index = 0; index < row.cells.length; index++) if (!isBlankCell(row.cells[index])) return false;
  return true;
}

interface ShapeSetting {
  file: string;
  sheet: string;
  headers: readonly string[];
  written: WrittenCells;
  options: InputOptions;
  /** The sheet ends with the errors file's columns: it is b2bctl's errors file, saved as a workbook. */
  errorsFile: boolean;
}

const noProblems = Object.freeze([]) as unknown as (string | ReaderProblem)[];

/** Turns a data row (its merged cells filled) into a record; undefined for a blank row. */
function rowShaper(setting: ShapeSetting): (row: WorkbookRow) => InputRecord | undefined {
  const { file, sheet, headers, written, options } = setting;
  // Data under an empty header cell, or right of the header's last cell, is refused naming the cell (decision 0031).
  const unnamedData = unnamedColumnCheck(headers, file, options.sends, (column, line) =>
    cellReference(sheet, column, line),
  );
  // An errors file's `row` and `error` cells are b2bctl's, not the input's: failing again, the row gets new ones.
  const ownColumns = headers.length - errorsFileColumns(headers);
  let hiddenRowWarned = false;
  return (row) => {
    if (isBlank(row)) return undefined;
    const underHeaders = headers.map((_, index) => cellText(row.cells[index]));
    const extra = row.cells.length > headers.length ? row.cells.slice(headers.length).map(cellText) : undefined;
    unnamedData({ cells: extra === undefined ? underHeaders : [...underHeaders, ...extra], line: row.row });
    const original = ownColumns === headers.length ? underHeaders : underHeaders.slice(0, ownColumns);
    if (row.hidden && !hiddenRowWarned) {
      hiddenRowWarned = true;
      options.warn(
        `warning: ${file}:${row.row}: row ${row.row} of sheet "${sheet}" is hidden (by a filter or Hide); hidden rows are read like the others, as a CSV export would. Delete the rows you want left out.`,
      );
    }
    const values: Record<string, unknown> = {};
    let problems: (string | ReaderProblem)[] | undefined;
    let numberCells: number[] | undefined;
    for (const column of written.columns) {
      const sheetCell = row.cells[column.index];
      if (sheetCell === undefined) continue;
      const asText = textCellRead(sheetCell, column.path, setting.errorsFile);
      if (!('cell' in asText)) {
        if (asText.mark) original[column.index] = `${retypeMarker} ${cellText(sheetCell)}`;
        (problems ??= []).push({ field: column.path, value: cellText(sheetCell).trim(), message: asText.problem });
        continue;
      }
      const cell = asText.cell;
      // Separators with no name (`|`): refused as the CSV reader refuses them, the cell kept as written (nothing lost).
      const noNames =
        column.type === 'list' && cell.kind === 'text' ? separatorsOnlyProblem(column.path, cell.text) : undefined;
      if (noNames !== undefined) {
        (problems ??= []).push({ field: column.path, value: cellText(cell).trim(), message: noNames });
        continue;
      }
      if (cell !== sheetCell) original[column.index] = cellText(cell);
      if (cell.kind === 'number') (numberCells ??= []).push(column.index);
      const read = cellValue(cell, column, written.decimal, written.decimalSettled);
      if (read.problem) {
        // In the errors file, marked: fed back unchanged, the text left of a lost value would pass as a value (a
        // formula's error, `#DIV/0!`, is refused as it is).
        const text = cellText(cell);
        if (!isSpreadsheetError(text)) original[column.index] = `${retypeMarker} ${text}`;
        (problems ??= []).push({
          field: column.path,
          value: cellText(cell),
          message: `${cellReference(sheet, column.index, row.row)} (${column.path}): ${read.problem}`,
        });
      }
      if (read.value === undefined) continue;
      // Most columns name a top-level field (`sku`, `price`): set without walking a path.
      if (column.segments.length === 1) values[column.segments[0] as string] = read.value;
      else setPath(values, column.path, read.value);
    }
    const invisible = invisibleProblems(values);
    if (invisible.length > 0) (problems ??= []).push(...invisible);
    // Nearly every row has no problem: one shared empty list rather than an array per row.
    const record: InputRecord = { line: row.row, values, original, problems: problems ?? noProblems, cells: written };
    if (numberCells !== undefined) record.numberCells = numberCells;
    return record;
  };
}

/**
 * A text cell as the CSV reader reads the same text: an errors file's retypeMarker refused in the same words, and
 * b2bctl's formula guard read back (readFormulaGuard); the refused cell is marked in the errors file (`mark`) when
 * its text unmarked would pass. Any other cell as it is.
 */
function textCellRead(
  cell: WorkbookCell,
  path: string,
  errorsFile: boolean,
): { cell: WorkbookCell } | { problem: string; mark: boolean } {
  if (cell.kind !== 'text') return { cell };
  if (isRetypeCell(cell.text.trimStart())) return { problem: retypeProblem(path, cell.text), mark: false };
  const guard = readFormulaGuard(path, cell.text, errorsFile);
  if (guard.problem) return { problem: guard.problem, mark: true };
  return { cell: guard.text === cell.text ? cell : { ...cell, text: guard.text } };
}

/** A cell's value for its column's field, by the cell's type; a problem for a cell that cannot be read as typed. */
export function cellValue(
  cell: WorkbookCell,
  column: Pick<ColumnPlan, 'path' | 'type' | 'textKind' | 'reading' | 'refusesFractionCell'>,
  decimal: '.' | ',',
  decimalSettled = false,
): { value?: unknown; problem?: string } {
  switch (cell.kind) {
    case 'text': {
      if (cell.text.trim() === '') return {};
      // A number typed as text reads as CSV text does: with --decimal, else a comma is a decimal comma.
      const numeric = column.type === 'number' || column.type === 'integer';
      const separator = numeric ? textDecimal(cell.text, decimal) : '.';
      // An ERP's "export to Excel" writes every cell as text: `1.000` there is as ambiguous as in a CSV.
      const ambiguous = numeric && separator === '.' && !decimalSettled ? ambiguousGrouping(cell.text) : undefined;
      // Read with the point meanwhile, so the one problem said is this one.
      if (ambiguous) return { value: parseDecimal(cell.text, '.'), problem: ambiguous };
      return { value: typedValue(cell.text, column.type, separator, column.reading) };
    }
    case 'number':
      return numberValue(cell, column);
    case 'boolean':
      if (column.type === 'boolean') return { value: cell.value };
      // A text typed TRUE or VERDADEIRO became a yes/no cell: what it shows depends on the screen's language, and
      // "true" is neither what was typed nor what is shown. Refused as a date is (docs/input-files.md).
      if (column.type === 'string' || column.type === 'list' || column.textKind === 'code')
        return {
          value: String(cell.value),
          problem: `${String(cell.value).toUpperCase()}: the cell is a yes/no (TRUE or FALSE), not the ${column.textKind === 'code' ? 'code' : 'text'} typed; format the column as Text and type the value again`,
        };
      return { value: typedValue(cell.value ? 'true' : 'false', column.type, '.', column.reading) };
    case 'date':
      // A code typed as 12/05 or 1-2 that the spreadsheet took for a date: its text is no longer what was typed.
      if (column.textKind === 'code') return { value: cell.text, problem: `${cell.text}: ${dateCellReason}` };
      // No text field b2bctl sends holds a date: a complement typed 1/2 that the sheet made 1 February would go as
      // "2026-02-01", what was typed lost.
      if (column.type === 'string' || column.type === 'list')
        return { value: cell.text, problem: `${cell.text}: ${textDateCellReason}` };
      return { value: cell.text };
    case 'error':
      return { problem: `the formula gives the error ${cell.text}; correct it or type the value` };
    case 'uncalculated':
      return {
        problem:
          'a formula saved without its value (by a program that does not calculate); open the workbook in LibreOffice Calc or Excel, save it, and pass it again',
      };
  }
}

function numberValue(
  cell: Extract<WorkbookCell, { kind: 'number' }>,
  column: Pick<ColumnPlan, 'path' | 'type' | 'textKind' | 'refusesFractionCell'>,
): { value?: unknown; problem?: string } {
  const number = shownNumber(cell.number);
  // A percentage reads as the sheet shows it and its CSV export writes it, `12%`: 0.12 is no rate of 12.
  if (cell.percent) {
    const shown = percentText(number);
    if (column.type === 'string' || column.type === 'list') return { value: column.type === 'list' ? [shown] : shown };
    return {
      value: shown,
      problem: `${shown}: the cell is a percentage, which this column does not take; type the number itself`,
    };
  }
  // An amount of money in a text column: shown as `R$ 1.500,50` by the screen's currency and language, held as
  // 1500.5; sending either would be a guess at what was typed. Refused as a date is; a number column reads the number.
  if (cell.currency && (column.type === 'string' || column.type === 'list'))
    return {
      value: String(number),
      problem: `${number}: the cell is an amount of money (shown such as R$ 1.500,50), not the text typed; format the column as Text and type the value again`,
    };
  switch (column.type) {
    case 'number':
    case 'integer':
      return { value: number };
    case 'boolean':
      return { value: parseBoolean(String(number)) ?? number };
    case 'list': {
      const problem = numberCellProblem({}, number) ?? fractionCellProblem(column, number);
      return problem === undefined
        ? { value: [String(number)] }
        : { value: [String(number)], problem: `${number}: ${problem}` };
    }
    case 'string':
      // An NCM cell under a format of zeros shows its leading zero (04021010), as its CSV export writes it: read as shown.
      if (cell.padded !== undefined && column.textKind === 'ncm') return { value: cell.padded };
      const problem = numberCellProblem(column, number) ?? fractionCellProblem(column, number);
      return problem === undefined
        ? { value: String(number) }
        : { value: String(number), problem: `${number}: ${problem}` };
  }
}

/**
 * A plain number cell with a fraction in a text column (a complement or a name typed 1500,5 on a pt-BR screen, which
 * the sheet stored as the number 1500.5): sent, it would be "1500.5", neither what was typed nor what is shown, as a
 * money or yes/no cell would be. Refused as they are (a user test). A whole number (an address number 120, a phone typed as
 * digits) reads the same on every screen and is sent as it is. Only where the catalogue says its text holds no
 * fractions (refusesFractionCellsInText): a tax table's rate, read as text, is a number with a fraction.
 */
function fractionCellProblem(column: Pick<ColumnPlan, 'refusesFractionCell'>, number: number): string | undefined {
  if (column.refusesFractionCell !== true || !Number.isFinite(number) || Number.isInteger(number)) return undefined;
  return `the cell is a number with a fraction (${String(number).replace('.', ',')} on a pt-BR screen, ${number} on an English one), not the text typed; format the column as Text and type the value again`;
}

/**
 * A number cell as the spreadsheet shows it: to 15 significant digits, all that Excel and Calc keep of a typed
 * number. A formula's value is stored to 17 (`=10*1,1` holds 11.000000000000002, shown 11,00), and a price read
 * to the last bit was refused as having more than 2 decimals.
 */
function shownNumber(number: number): number {
  // Most cells (quantities, codes) are whole: exact already, and no text is made for them in a million-row sheet.
  if (Number.isSafeInteger(number) || !Number.isFinite(number)) return number;
  return Number(number.toPrecision(15));
}

function textDecimal(text: string, decimal: '.' | ','): '.' | ',' {
  return decimal === '.' && text.includes(',') ? ',' : decimal;
}

/** How the cells become fields: a number typed as text reads with --decimal when given, else with a point. */
function writtenCellsOf(columns: WrittenCells['columns'], decimal: WrittenCells['decimal'] | undefined): WrittenCells {
  return { columns, decimal: decimal ?? '.', decimalSettled: decimal !== undefined };
}

/**
 * The workbook was saved showing another tab than the first one read by default (Fevereiro open, Janeiro read): the
 * month before's data would be sent. Said, with the --sheet that reads the tab shown.
 */
function warnActiveSheet(file: string, sheet: string, reader: SheetReader, warn: (message: string) => void): void {
  const active = reader.activeSheet();
  if (active === undefined || active === sheet) return;
  warn(
    `warning: ${file}: sheet "${sheet}" is read (the first; --sheet chooses another), but the workbook was saved showing "${active}": pass --sheet "${active}" if that is the one meant.`,
  );
}

/** The first sheet empty and the data on another: a cron job would send nothing every night, exit 0. */
function warnOtherSheets(file: string, reader: SheetReader, warn: (message: string) => void): void {
  const others = reader.otherSheets();
  if (others.length === 0) return;
  warn(
    `warning: ${file}: its first sheet "${reader.sheet?.name ?? ''}" is empty, and without --sheet the others are not read (${others.map((name) => `"${name}"`).join(', ')}); pass --sheet "${others[0]}" to read that one.`,
  );
}

/** Says once that hidden columns are read: a person who hid a column may think it is left out. */
function warnHiddenColumns(
  file: string,
  sheet: string,
  columns: readonly ColumnPlan[],
  reader: SheetReader,
  warn: (message: string) => void,
): void {
  const hidden = columns.filter((column) => reader.hiddenColumns.has(column.index));
  if (hidden.length === 0) return;
  const names = hidden.map((column) => `${columnLetter(column.index)} "${column.header}"`).join(', ');
  warn(
    `warning: ${file}: sheet "${sheet}" hides column${hidden.length === 1 ? '' : 's'} ${names}; hidden columns are read like the others, as a CSV export would. Delete a column to leave it out.`,
  );
}

async function* oneAtATime(batches: AsyncGenerator<InputRecord[]>): AsyncGenerator<InputRecord> {
  try {
    for await (const batch of batches) yield* batch;
  } finally {
    await batches.return(undefined);
  }
}

async function* noBatches(): AsyncGenerator<InputRecord[]> {}
async function* noRecords(): AsyncGenerator<InputRecord> {}

/** A sheet without a header: nothing to read. */
function emptySheet(file: string, format: WorkbookFormat): OpenedInput {
  return {
    file,
    format,
    encoding: 'utf-8',
    records: noRecords(),
    recordBatches: noBatches,
    skipped: { blankRows: 0 },
    close: () => {},
  };
}
