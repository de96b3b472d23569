import {
  ambiguousNumber,
  type DecimalSeparator,
  excelTextFormula,
  isRetypeCell,
  isSpreadsheetError,
  readFormulaGuard,
  retypeMarker,
  retypeProblem,
  separatorsOnlyProblem,
} from './cell-values.js';
import { type CsvRow, type CsvRowBatch, readCsvRowBatches } from './csv-rows.js';
import { headerHint, reportHeaderProblems } from './header-messages.js';
import { refuseTitleAboveHeader, type RowBelowHeader } from './header-below-title.js';
import { planWithProposal } from './header-proposal.js';
import {
  type InputOptions,
  type InputRecord,
  invisibleProblems,
  noRecords,
  type ReadInput,
  type ReaderProblem,
  recordPlace,
  withBatchesOfOne,
  type WrittenCells,
} from './opened-input.js';
import {
  type ColumnPlan,
  defaultMaxListIndex,
  errorsFileColumns,
  planColumns,
  shapeRow,
  textColumnIndexes,
} from './record-shape.js';
import {
  longRowProblem,
  type RowHeader,
  shortRowProblem,
  spareColumnShiftProblem,
  shortValue,
  unnamedColumnCheck,
  wrongDelimiterCheck,
} from './row-shape-problems.js';
import type { TextEncoding } from './sniff.js';
import { unmappedDataCheck, withIgnoredColumns } from './unmapped-columns.js';

/*
 * The records of a CSV input: its header read (after Excel's `sep=` line and blank rows) and checked, then every
 * row shaped as a record, a batch of rows per read of the file.
 */

/** The problems of a record without any, shared by all of them (frozen: nothing adds to a record's problems). */
const noProblems = Object.freeze([]) as unknown as string[];

/** A row whose cells are all empty or blank, as spreadsheets write below the data: not a record. */
function isBlankRow(cells: readonly string[]): boolean {
  // A loop, not every(): it runs on each of a million rows, and nearly always stops at the first cell.
  for (let index = 0; index < cells.length; index++) {
    const cell = cells[index] as string;
    if (cell !== '' && cell.trim() !== '') return false;
  }
  return true;
}

type CsvOptions = InputOptions & {
  delimiter: string;
  decimal: DecimalSeparator;
  encoding: TextEncoding;
  hasDelimiterLine: boolean;
  /** `--delimiter` was given: a header that does not split on it is probably the flag's fault. */
  delimiterGiven?: boolean;
  /** `--decimal` was given, or the file's own decimal commas show it: it says how `1.000` reads. */
  decimalSettled?: boolean;
};

export async function openCsv(file: string, text: AsyncIterable<string>, options: CsvOptions): Promise<ReadInput> {
  // Filled once the header is read: a row too long is then named by its column's header.
  const columnNames: { headers?: readonly string[] } = {};
  const rows = new CsvRowCursor(
    readCsvRowBatches(text, {
      delimiter: options.delimiter,
      file,
      bounds: options.rowBounds,
      interrupt: options.interrupt,
      columnNames,
    }),
  );
  const skipped = { blankRows: 0 };
  const header = await readHeaderRow(rows, options, skipped);
  columnNames.headers = header?.headers;
  // Only blank lines or a BOM (Excel's "CSV UTF-8" of an empty sheet): no header, and no records either.
  if (!header)
    return withBatchesOfOne({ file, format: 'csv', encoding: options.encoding, records: noRecords(), skipped });
  const { headers, hiddenLines } = header;
  const hint = headerHint(headers, options);
  const headerMap = withIgnoredColumns(options, headers, { file, at: recordPlace(header.place) });
  if (!hint)
    refuseTitleAboveHeader(file, header.place, headers, rowsRead(rows, hiddenLines), {
      ...options,
      headerMap,
      maxListIndex: options.maxListIndex ?? defaultMaxListIndex,
    });
  const { columns, problems } = hint
    ? planColumns(headers, options.catalogue, headerMap, options.maxListIndex ?? defaultMaxListIndex)
    : await planWithProposal(file, recordPlace(header.place), headers, {
        ...options,
        headerMap,
        maxListIndex: options.maxListIndex ?? defaultMaxListIndex,
        sampleOf: (name) => firstValueUnder(headers, name, rows),
      });
  reportHeaderProblems(file, header.place, { ...problems, headers }, { ...options, hint });
  const rowHeader = rowHeaderOf(headers, options.delimiter);
  const unnamedData = unnamedColumnCheck(headers, file, options.sends);
  const wrongDelimiter = wrongDelimiterCheck(rowHeader.named, options.delimiter, file, options.sends);
  const checkRow = (row: OwnCellsRow) => {
    unnamedData(row);
    wrongDelimiter(row);
    return shortRowProblem(row.cells, rowHeader.named);
  };
  const unmappedData = unmappedDataCheck(file, problems.unknown, options.catalogue, options.sends);
  const shapeRecords = csvRecordShaper(
    { columns, decimal: options.decimal, decimalSettled: options.decimalSettled },
    rowHeader,
    hiddenLines,
    skipped,
    checkRow,
  );
  // A batch with data under a header no field reads is refused before any of its records is judged.
  const shape = (batch: CsvRowBatch, from: number) => {
    unmappedData(batch.rows, from);
    return shapeRecords(batch, from);
  };
  const batched = shapedBatches(rows, shape);
  return {
    file,
    format: 'csv',
    encoding: options.encoding,
    csv: { delimiter: options.delimiter, decimal: options.decimal, headers, textColumns: textColumnIndexes(columns) },
    records: oneAtATime(batched),
    recordBatches: () => batched,
    skipped,
  };
}

/** The first value under a header in the rows read with it (the rest of the header's batch), shortened; for prompts. */
function firstValueUnder(headers: readonly string[], name: string, rows: CsvRowCursor): string | undefined {
  const index = headers.findIndex((header) => header.trim() === name);
  if (index === -1) return undefined;
  for (let position = rows.position; position < rows.batch.rows.length; position++) {
    const cell = rows.batch.rows[position]?.cells[index]?.trim();
    if (cell) return shortValue(cell);
  }
  return undefined;
}

/** The rows read with the header (the rest of its batch), for what a message says of the rows below it. */
function rowsRead(rows: CsvRowCursor, hiddenLines: number): RowBelowHeader[] {
  return rows.batch.rows
    .slice(rows.position)
    .map((row) => ({ name: `line ${row.line}`, row: row.row - hiddenLines, cells: row.cells }));
}

/** Hands out the rows of a CSV reader's batches one by one, for the header; the rest are taken a batch at a time. */
class CsvRowCursor {
  batch: CsvRowBatch = { rows: [], clean: true };
  position = 0;

  readonly batches: AsyncGenerator<CsvRowBatch>;
  constructor(batches: AsyncGenerator<CsvRowBatch>) {
    this.batches = batches;
  }

  async next(): Promise<CsvRow | undefined> {
    while (this.position >= this.batch.rows.length) {
      const next = await this.batches.next();
      if (next.done) return undefined;
      this.batch = next.value;
      this.position = 0;
    }
    return this.batch.rows[this.position++];
  }
}

/** The header row, after Excel's hidden `sep=` line and any blank rows; undefined when the text has none. */
async function readHeaderRow(
  rows: CsvRowCursor,
  options: CsvOptions,
  skipped: { blankRows: number },
): Promise<{ headers: string[]; place: { line: number; row?: number }; hiddenLines: number } | undefined> {
  let first = await rows.next();
  // Excel's `sep=;` line is an instruction to the reader, not the header. Excel hides it, so its rows
  // are one lower than the file's lines from there on: the rows messages and reports name follow Excel.
  let hiddenLines = 0;
  if (options.hasDelimiterLine && first && /^\uFEFF?sep=$/i.test(first.cells[0] ?? '')) {
    first = await rows.next();
    hiddenLines = 1;
  }
  while (first && isBlankRow(first.cells.map((cell) => cell.replace(/^\uFEFF/, '')))) {
    skipped.blankRows++;
    first = await rows.next();
  }
  if (!first) return undefined;
  const place =
    first.row - hiddenLines === first.line ? { line: first.line } : { line: first.line, row: first.row - hiddenLines };
  return { headers: first.cells.map((cell) => cell.replace(/^\uFEFF/, '')), place, hiddenLines };
}

/**
 * The header as the row checks see it. In an errors file b2bctl wrote, without its trailing `row` and `error` columns
 * (errorsFileColumns): fed back as is, its rows meet the checks they met in the input, whose header may end with a
 * delimiter (decision 0031).
 */
function rowHeaderOf(headers: readonly string[], delimiter: string): CsvRowHeader {
  const errorsColumns = errorsFileColumns(headers);
  const count = headers.length - errorsColumns;
  // Trailing unnamed columns (Excel's `;;` at the end of the header) may be missing from the rows without harm.
  const named = headers.slice(0, count).findLastIndex((name) => name.trim() !== '') + 1;
  return { count, named, delimiter, errorsColumns };
}

type CsvRowHeader = RowHeader & { errorsColumns: number };

/** A row with its own cells only (ownCells), as the row checks read it. */
interface OwnCellsRow {
  cells: string[];
  line: number;
}

/**
 * A row's own cells: in an errors file, without b2bctl's `row` and `error` cells, which come last even in a row longer
 * than its header (the errors file keeps such a row whole); the same array in any other file.
 */
function ownCells(cells: string[], header: CsvRowHeader): string[] {
  if (header.errorsColumns === 0) return cells;
  return cells.slice(0, Math.max(header.count, cells.length - header.errorsColumns));
}

/** Makes the records of a batch of rows, from its row `from` on; blank rows are counted in `skipped`, not records. */
function csvRecordShaper(
  written: WrittenCells,
  header: CsvRowHeader,
  hiddenLines: number,
  skipped: { blankRows: number },
  /** A row's problem of shape beyond too many cells (too few, another delimiter), if any. */
  checkRow: (row: OwnCellsRow) => string | undefined,
): (batch: CsvRowBatch, from: number) => InputRecord[] {
  // The errors file b2bctl wrote carries its formula guard; in any other file a guard-like `'` is refused.
  const errorsFile = header.errorsColumns > 0;
  return ({ rows, clean }, from) => {
    const shaped: InputRecord[] = [];
    for (let index = from; index < rows.length; index++) {
      const row = rows[index] as CsvRow;
      if (isBlankRow(row.cells)) {
        skipped.blankRows++;
        continue;
      }
      const own = ownCells(row.cells, header);
      // A cell b2bctl neutralised against formulas when it wrote the errors file being fed back.
      const guard = readFormulaGuards(readTextFormulas(own), written.columns, errorsFile);
      const cells = guard.cells;
      let problems: (string | ReaderProblem)[] | undefined = guard.problems;
      const long = longRowProblem(own, header) ?? spareColumnShiftProblem(own, header);
      if (long) problems = [long];
      const short = checkRow({ cells: own, line: row.line });
      // A last line cut short is said so whatever its cell count: cut before the last column (`A2;15` of
      // `A2;1500;10,00`, a user test), its last value is as partial as when cut inside that column.
      if (row.unterminated) problems = [...(problems ?? []), cutShortProblem(row, written.columns)];
      if (short) problems = [...(problems ?? []), shortRowProblemOf(short, own.length, written.columns)];
      let original = cells;
      // In the errors file, marked: fed back unchanged, the row would pass with its cell missing or partial. A cut
      // row short of cells gets both marks: filling only its missing cell must not send the partial value. An errors
      // file cut in its own `error` cell has no partial value to mark.
      if (row.unterminated && own.length === row.cells.length)
        original = [...cells.slice(0, -1), `${retypeMarker} ${cells.at(-1) ?? ''}`.trimEnd()];
      if (short) original = [...original, retypeMarker];
      // In the errors file, marked: fed back unchanged, either reading of the `'` could send a wrong value.
      if (guard.problems) original = markRefused(original, guard.problems, written.columns);
      const failed = formulaErrors(cells, written.columns);
      if (failed) problems = [...(problems ?? []), ...failed];
      const ambiguous = !written.decimalSettled ? groupingProblems(cells, written.columns) : undefined;
      if (ambiguous) problems = [...(problems ?? []), ...ambiguous];
      const values = shapeRow(cells, written.columns, written.decimal);
      // Every field is cut from the cells, so a batch whose text has no forbidden character needs no look per field.
      if (!clean) {
        const invisible = invisibleProblems(values);
        if (invisible.length > 0) problems = [...(problems ?? []), ...invisible];
      }
      // Nearly every row has no problem: one shared empty list rather than an array per row.
      const record: InputRecord = {
        line: row.line,
        values,
        original,
        problems: problems ?? noProblems,
        cells: written,
      };
      const sheetRow = row.row - hiddenLines;
      if (sheetRow !== row.line) record.row = sheetRow;
      shaped.push(record);
    }
    return shaped;
  };
}

/**
 * A row short of cells, as the problem of its first missing column's field when a field reads it: the rules' own
 * "required" for that field would be a second line about the same cell (quoting the errors file's mark of it).
 */
function shortRowProblemOf(message: string, cellCount: number, columns: readonly ColumnPlan[]): string | ReaderProblem {
  const missing = columns.find((column) => column.index === cellCount);
  return missing ? { field: missing.path, value: '', message } : message;
}

/**
 * The problem of a file's last row when it has no line end though the lines before it do (CsvRow.unterminated): an
 * export cut short leaves its last value partial (`GEN-0000002;15` of a `150`) and every cell before it whole, so a
 * record that looks valid would send a wrong quantity or price. Refused rather than said, as a cron job's run has
 * nobody to read a warning (decision 0029). A row cut before its last column gets this as well as its short-row
 * problem: its last present value is as partial, and "a cell is missing" alone would have it retyped around.
 */
function cutShortProblem(row: CsvRow, columns: readonly ColumnPlan[]): string | ReaderProblem {
  const last = row.cells.length - 1;
  const value = (row.cells[last] ?? '').trim();
  const message = `the file's last line has no line end, while the lines before it have one: an export cut short (or still being written) leaves its last value partial ("${shortValue(value)}" may be the start of a longer one). Export the file again; if the line is whole, end it with a line break.`;
  const column = columns.find((planned) => planned.index === last);
  return column ? { field: column.path, value, message } : message;
}

/**
 * The cells of text columns that hold a spreadsheet's formula error (`#NOME?`, `Err:509`), of any column an
 * errors file's mark of a value to type again (retypeMarker), instead of a value, and of list columns separators
 * with no name (separatorsOnlyProblem), as problems of the record;
 * undefined when none does. A number or yes/no column's rule refuses a formula's error already, quoting it; text
 * takes anything, so without this it would be sent. A marked number's rule would quote the value unmarked
 * (`12,5`) as if it were refused. A workbook's error cells are refused alike (workbook-input.ts).
 */
function formulaErrors(cells: readonly string[], columns: readonly ColumnPlan[]): ReaderProblem[] | undefined {
  let found: ReaderProblem[] | undefined;
  for (const column of columns) {
    const text = cells[column.index];
    if (text === undefined || text === '') continue;
    const textColumn = column.type === 'string' || column.type === 'list';
    if (!textColumn && !isRetypeCell(text)) continue;
    // A problem of its field: the rules' own complaint about the same text is not said beside it.
    const problem = (message: string) => (found ??= []).push({ field: column.path, value: text.trim(), message });
    const noNames = column.type === 'list' ? separatorsOnlyProblem(column.path, text) : undefined;
    if (textColumn && isSpreadsheetError(text))
      problem(
        `field "${column.path}" holds ${text.trim()}, the error a spreadsheet formula gave, not a value; correct the formula or type the value, and export again`,
      );
    else if (isRetypeCell(text)) problem(retypeProblem(column.path, text));
    else if (noNames !== undefined) problem(noNames);
  }
  return found;
}

/** The number cells of a file whose separator is not settled that read a thousandfold otherwise (`1.000`); see ambiguousNumber. */
function groupingProblems(cells: readonly string[], columns: readonly ColumnPlan[]): ReaderProblem[] | undefined {
  let found: ReaderProblem[] | undefined;
  for (const column of columns) {
    if (column.type !== 'number' && column.type !== 'integer') continue;
    const text = cells[column.index] ?? '';
    const problem = text === '' ? undefined : ambiguousNumber(column.path, text);
    if (problem) (found ??= []).push(problem);
  }
  return found;
}

/** The records of every row after the header, a batch of rows at a time: a million rows are a thousand awaits. */
async function* shapedBatches(
  rows: CsvRowCursor,
  shape: (batch: CsvRowBatch, from: number) => InputRecord[],
): AsyncGenerator<InputRecord[]> {
  try {
    // The rest of the batch that held the header first, then every batch as it comes.
    const afterHeader = shape(rows.batch, rows.position);
    rows.position = rows.batch.rows.length;
    if (afterHeader.length > 0) yield afterHeader;
    for (;;) {
      const next = await rows.batches.next();
      if (next.done) return;
      const shaped = shape(next.value, 0);
      if (shaped.length > 0) yield shaped;
    }
  } finally {
    // A consumer that stops early (an error, Ctrl-C) closes the reader and its file, as for-await did.
    await rows.batches.return(undefined);
  }
}

/** The records of batches one at a time. */
async function* oneAtATime(batches: AsyncGenerator<InputRecord[]>): AsyncGenerator<InputRecord> {
  try {
    for await (const batch of batches) for (const record of batch) yield record;
  } finally {
    await batches.return(undefined);
  }
}

/**
 * The cells with b2bctl's formula guard read back (readFormulaGuard), and the problems of the cells a field reads
 * that hold a guard-like `'` outside an errors file; the same array when no cell holds a `'` (nearly every row), so
 * a million rows do not make a million copies.
 */
function readFormulaGuards(
  cells: string[],
  columns: readonly ColumnPlan[],
  errorsFile: boolean,
): { cells: string[]; problems?: ReaderProblem[] } {
  if (!holdsApostrophe(cells)) return { cells };
  const read = cells.map((cell) => readFormulaGuard('', cell, errorsFile).text);
  let problems: ReaderProblem[] | undefined;
  for (const column of columns) {
    const text = cells[column.index] ?? '';
    const { problem } = readFormulaGuard(column.path, text, errorsFile);
    if (problem) {
      read[column.index] = text;
      (problems ??= []).push({ field: column.path, value: text.trim(), message: problem });
    }
  }
  return { cells: read, problems };
}

/**
 * The cells with Excel's text formula (`="000123"`) read as Excel shows it (excelTextFormula); the same array when no
 * cell starts with `=` (nearly every row).
 */
function readTextFormulas(cells: string[]): string[] {
  let read: string[] | undefined;
  for (let index = 0; index < cells.length; index++) {
    const shown = excelTextFormula(cells[index] as string);
    if (shown !== undefined) (read ??= [...cells])[index] = shown;
  }
  return read ?? cells;
}

/** Whether any cell holds a `'`: a loop, not some(), as it runs on each of a million rows. */
function holdsApostrophe(cells: readonly string[]): boolean {
  for (let index = 0; index < cells.length; index++) if ((cells[index] as string).includes("'")) return true;
  return false;
}

/** The row as the errors file writes it, each refused cell marked to be typed again (retypeMarker). */
function markRefused(cells: string[], problems: readonly ReaderProblem[], columns: readonly ColumnPlan[]): string[] {
  const marked = [...cells];
  for (const problem of problems) {
    const column = columns.find((planned) => planned.path === problem.field);
    if (column) marked[column.index] = `${retypeMarker} ${marked[column.index] ?? ''}`;
  }
  return marked;
}
