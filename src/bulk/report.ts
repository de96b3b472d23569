import { closeSync, fstatSync, ftruncateSync, openSync, readSync, rmSync } from 'node:fs';
import { WholeAppender, writeWholeSync } from '../lib/whole-write.js';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { type InputRecord, recordPlace } from '../io/input/open-input.js';
import { csvCell, csvLine, guardDigitsText } from '../io/output/csv-format.js';
import { errorsFileColumns } from '../io/input/record-shape.js';
import { openForAppend, pathTaken, removeAbandonedTemporaries } from '../lib/private-file.js';
import { ErrorsFileOrder } from './errors-order.js';
import { printable } from '../lib/printable.js';
import { systemErrorCause } from '../lib/system-error-cause.js';

/** What happened to one input record (docs/bulk-runs.md). */
export type Outcome =
  | 'created'
  | 'updated'
  | 'unchanged'
  | 'applied'
  /** Taken by the platform with a 2xx whose answer did not itemise the record. */
  | 'accepted'
  | 'queued'
  | 'rejected'
  /** Not sent: the record's data differs from what the platform already holds (an order's NF-e key, say). */
  | 'conflict'
  | 'invalid'
  | 'failed'
  /**
   * Sent by an interrupted run that never saw the answer, and nothing can tell whether the platform applied it: not
   * sent again. A later --resume checks it again as if it had no row; feeding the errors file back sends it.
   */
  | 'unknown'
  | 'skipped';

/** Outcomes after which a resumed run leaves the record alone. */
export const doneOutcomes: ReadonlySet<string> = new Set<Outcome>([
  'created',
  'updated',
  'unchanged',
  'applied',
  'accepted',
  'queued',
  'skipped',
]);

/**
 * Where a record is, as its report row names it: the line, and in minified JSON (several records on
 * one line) its column and element index too, because the line alone names every record there. A CSV
 * record also carries its spreadsheet row when a cell with a line break (or Excel's `sep=` line) made it
 * differ from the line; a resume keys on the line, never on the row.
 */
export type RecordPlace = Pick<InputRecord, 'line' | 'row' | 'column' | 'element'>;

/** Just the place of a record (or of anything that carries one), for a report row. */
export function placeOf(record: RecordPlace): RecordPlace {
  return withPlaceOf({ line: record.line }, record);
}

/**
 * `row` with the column and element (minified JSON) or the spreadsheet row (CSV) of `record`, set field by
 * field on the row itself: a report row per item built by spreading placeOf cost 14% of a 300k push's CPU.
 */
export function withPlaceOf<Row extends RecordPlace>(row: Row, record: RecordPlace): Row {
  if (record.element !== undefined) {
    row.column = record.column;
    row.element = record.element;
  }
  if (record.row !== undefined) row.row = record.row;
  return row;
}

/** A report's `line` cell read back: `8`, or `1:2345 (element 17)` as recordPlace writes it; undefined when it is neither. */
export function parsePlace(cell: string): RecordPlace | undefined {
  const match = /^(\d+)(?::(\d+) \(element (\d+)\))?$/.exec(cell);
  if (!match) return undefined;
  const line = Number(match[1]);
  return match[3] === undefined ? { line } : { line, column: Number(match[2]), element: Number(match[3]) };
}

export interface ReportRow extends RecordPlace {
  key: string;
  outcome: Outcome;
  status?: number;
  id?: string | number;
  message?: string;
  /**
   * Not written: the key of the command's flag (`upsert`) that is all this failed record needs, so the command
   * that feeds the errors file back carries it; sent without it, the record fails the same way again.
   */
  fixedBy?: string;
}

export const reportColumns = ['line', 'key', 'outcome', 'status', 'id', 'message'] as const;

/**
 * The column a report of a spreadsheet (CSV) input adds after them: the record's row as Excel or Calc
 * numbers it, on every row, so a person can go to it; `line` stays the file's line, which --resume keys on.
 */
export const rowColumn = 'row';

/**
 * A resumed report whose last row was cut short (a full disk, a crash mid-write: `414,` with no line end) loses that
 * piece before rows are appended: appended to, it became one merged row naming two records, and the next --resume
 * refused the report as another file's. Its record has no row, so the resume checks it again.
 */
function cutUnfinishedRow(descriptor: number): void {
  const size = fstatSync(descriptor).size;
  if (size === 0) return;
  const tail = Buffer.alloc(Math.min(size, 1_048_576));
  readSync(descriptor, tail, 0, tail.length, size - tail.length);
  if (tail.at(-1) === 0x0a) return;
  const lineEnd = tail.lastIndexOf(0x0a);
  // No line end in the last megabyte: not a row of ours; the resume's own checks speak for the file.
  if (lineEnd >= 0) ftruncateSync(descriptor, size - tail.length + lineEnd + 1);
}

/** The first line of a file that already has content (a resumed report), or undefined. */
export function headerLine(path: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    const buffer = Buffer.alloc(4096);
    const length = readSync(descriptor, buffer, 0, buffer.length, 0);
    const text = buffer
      .subarray(0, length)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    const end = text.search(/\r?\n/);
    return end < 0 ? text : text.slice(0, end);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The folder of a run's default report and errors file: outputDir, or the input's own folder. */
export function defaultOutputFolder(inputPath: string, outputDirectory?: string): string {
  // stdin, and a process substitution (`/dev/fd/63`), have no folder of their own to write beside.
  return outputDirectory ?? (inputPath === '-' || isSystemPath(inputPath) ? '.' : dirname(inputPath));
}

/** A path under /dev or /proc (a device, a process substitution): no folder to write files beside. */
export function isSystemPath(path: string): boolean {
  return /^\/(dev|proc)\//.test(resolve(path));
}

/**
 * `customers.report-20261122-021500.csv` beside `customers.csv`; `stdin.report-...` in the working
 * folder for stdin. A `sequence` above 1 adds `-2`, `-3`… for a second run started in the same second.
 */
export function siblingPath(
  inputPath: string,
  kind: 'report' | 'errors',
  startedAt: Date,
  extension: string,
  sequence = 1,
  outputDirectory?: string,
): string {
  const folder = defaultOutputFolder(inputPath, outputDirectory);
  const name = inputPath === '-' ? 'stdin' : basename(inputPath, extname(inputPath));
  const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return join(folder, `${name}.${kind}-${stamp}${sequence > 1 ? `-${sequence}` : ''}${extension}`);
}

/** The cells of a header line b2bctl wrote (plain names, no quotes needed). */
function csvCells(line: string | undefined): string[] {
  // A report saved again by a spreadsheet quotes its header cells (`"line","key",…,"row"`): the same names. They
  // hold neither a delimiter nor a quote, so a split and the quotes taken off read them.
  return line === undefined
    ? []
    : line.split(reportDelimiterOf(line)).map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
}

/** The cell separator of a report's header line: `;` for one written with --excel (its names hold neither). */
export function reportDelimiterOf(header: string | undefined): ',' | ';' {
  return header?.includes(';') ? ';' : ',';
}

/**
 * The run's report: one CSV row per input record, written with a system call as each result
 * arrives, so a crash or a SIGKILL loses nothing that was answered (the OS holds it).
 */
export class ReportWriter {
  private readonly descriptor: number;
  private readonly appender: WholeAppender;
  /** Whether rows carry the `row` column: a new report of a CSV input; a resumed report keeps its own columns. */
  readonly withRows: boolean;
  /** `;` for a report a pt-BR Excel opens as is (--excel, with a BOM); a resumed report keeps the one it has. */
  readonly delimiter: ',' | ';';
  rows = 0;

  readonly path: string;
  constructor(path: string, options: { spreadsheetRows?: boolean; excel?: boolean } = {}) {
    this.path = path;

    this.descriptor = openForAppend(path);
    if (fstatSync(this.descriptor).size === 0) {
      this.withRows = options.spreadsheetRows === true;
      this.delimiter = options.excel === true ? ';' : ',';
      const header = csvLine([...reportColumns, ...(this.withRows ? [rowColumn] : [])], this.delimiter);
      writeWholeSync(this.descriptor, options.excel === true ? `\uFEFF${header}` : header);
    } else {
      cutUnfinishedRow(this.descriptor);
      const header = headerLine(path);
      this.delimiter = reportDelimiterOf(header);
      // A report written before the row column (or of JSON input) gets rows of its own shape, never a cell without a header.
      this.withRows = options.spreadsheetRows === true && csvCells(header).at(-1) === rowColumn;
    }
    this.appender = new WholeAppender(this.descriptor);
  }

  /**
   * The rows as csvLine writes them, byte for byte, built as one string without an array of cells per row (~2 s of
   * a million-row push's CPU). Place, outcome, status and row are digits or fixed words, which csvLine leaves as
   * they are; the others go through its rules.
   */
  write(rows: readonly ReportRow[]): void {
    if (rows.length === 0) return;
    let text = '';
    const d = this.delimiter;
    // A queue batch reports its 200 items with one batch id: escaped once.
    let lastId: string | number | undefined;
    let lastIdCell = '';
    for (const row of rows) {
      // The file's line (and element): --resume keys on this cell, so the row has a column of its own.
      const place =
        row.element === undefined
          ? String(row.line)
          : csvCell(recordPlace({ line: row.line, column: row.column, element: row.element }), d);
      let idCell = '';
      if (row.id !== undefined) {
        if (row.id !== lastId) {
          lastId = row.id;
          lastIdCell = idText(row.id, d);
        }
        idCell = lastIdCell;
      }
      text += `${place}${d}${keyCell(row.key, d)}${d}${row.outcome}${d}${row.status === undefined ? '' : row.status}${d}${idCell}${d}${row.message === undefined ? '' : csvCell(row.message, d)}${this.withRows ? `${d}${row.row ?? row.line}\r\n` : '\r\n'}`;
    }
    // All of the rows or none: the summary can then say exactly which answers the report lacks.
    this.appender.append(text);
    this.rows += rows.length;
  }

  close(): void {
    closeSync(this.descriptor);
  }
}

/**
 * The key cell (a document, a SKU). In an --excel report, the one a person opens in a spreadsheet, a key a spreadsheet
 * would rewrite (`00360305000104` read as the number 360305000104, a CPF's leading zero gone) gets the `'` the errors
 * file gives it (guardDigitsText), so the operator finds the customer by the key shown; --resume takes it off.
 */
function keyCell(key: string, delimiter: ',' | ';'): string {
  return csvCell(delimiter === ';' ? guardDigitsText(key) : key, delimiter);
}

/** An id cell; a decimal number in an --excel report gets the decimal comma Excel reads (whole ones are as they are). */
function idText(id: string | number, delimiter: ',' | ';'): string {
  return delimiter === ';' && typeof id === 'number'
    ? csvCell(String(id).replace('.', ','), delimiter)
    : csvCell(String(id), delimiter);
}

/**
 * Failed and invalid records in the input's own form plus a `row` and an `error` column, ready to fix
 * and feed back: CSV (UTF-8 with BOM, the input's delimiter, so Excel opens it) for CSV input, NDJSON
 * for JSON. `row` is where the record was in the spreadsheet it came from; reading the file back
 * ignores both columns, as its own lines and rows are what the next run names.
 */
export class ErrorsWriter {
  private descriptor: number | undefined;
  private appender: WholeAppender | undefined;
  /** CSV: whether rows carry the `row` column (not when appending to an errors file written before it). */
  private withRows = true;
  /** Where this run's rows are in a regular file, and its size: put in the input's order at close. */
  private order: { rows: ErrorsFileOrder; size: number } | undefined;
  rows = 0;

  readonly path: string;
  private readonly form:
    | {
        kind: 'csv';
        headers: readonly string[];
        delimiter: string;
        /** The columns whose field is text (a SKU, a document): their digits are kept as text (guardDigitsText). */
        textColumns?: readonly number[];
      }
    | { kind: 'ndjson' };
  constructor(
    path: string,
    form:
      | {
          kind: 'csv';
          headers: readonly string[];
          delimiter: string;
          /** The columns whose field is text (a SKU, a document): their digits are kept as text (guardDigitsText). */
          textColumns?: readonly number[];
        }
      | { kind: 'ndjson' },
  ) {
    this.path = path;
    this.form = form;
  }

  /**
   * Checks before the run sends anything that the file can be written (an unwritable path is found
   * first), leaving nothing behind: a run with no failures, even a killed one, has no errors file.
   */
  checkWritable(): void {
    const existed = pathTaken(this.path);
    closeSync(openForAppend(this.path));
    // Only a file this check created goes: never a device (/dev/null) or a file that was there.
    if (!existed) rmSync(this.path, { force: true });
  }

  /**
   * Writes a failing record: its cells (or JSON value), the error, and for CSV its spreadsheet row. `place`, the
   * record's line (and element) in the input, puts the file in the input's order when the run ends (close).
   */
  write(
    original: readonly string[] | unknown,
    error: string,
    row?: number,
    place?: { line: number; element?: number },
  ): void {
    this.descriptor ??= openForAppend(this.path);
    if (this.rows === 0 && this.form.kind === 'csv') {
      if (fstatSync(this.descriptor).size === 0) {
        writeWholeSync(
          this.descriptor,
          `\uFEFF${csvLine([...this.form.headers, errorsRowColumn, 'error'], this.form.delimiter)}`,
        );
      } else {
        const header = headerLine(this.path)?.split(this.form.delimiter) ?? [];
        this.withRows = header.at(-2) === errorsRowColumn;
      }
    }
    if (this.appender === undefined) {
      this.appender = new WholeAppender(this.descriptor);
      const file = fstatSync(this.descriptor);
      // Only a regular file is put in order: a pipe or /dev/stderr is read as it is written. The copies an earlier
      // run's reordering left when it was killed go now, whether this run's rows need one or not.
      if (file.isFile()) {
        this.order = { rows: new ErrorsFileOrder(), size: file.size };
        removeAbandonedTemporaries(this.path);
      }
    }
    // A row longer than its header is kept whole, its `row` and `error` after it: cut to the header, the split
    // `6,5` of a comma file would come back `6`, and pass (decision 0031).
    const text =
      this.form.kind === 'csv'
        ? csvLine(
            [
              ...withDigitsKept([...(original as readonly string[])], this.form.textColumns),
              ...Array.from(
                { length: Math.max(0, this.form.headers.length - (original as readonly string[]).length) },
                () => '',
              ),
              ...(this.withRows ? [row === undefined ? '' : String(row)] : []),
              error,
            ],
            this.form.delimiter,
          )
        : `${JSON.stringify(original !== null && typeof original === 'object' && !Array.isArray(original) ? { ...original, error } : { value: original, error })}\n`;
    this.appender.append(text);
    if (this.order !== undefined) {
      this.order.rows.add(this.order.size, place);
      this.order.size += Buffer.byteLength(text);
    }
    this.rows++;
  }

  /**
   * Closes the file and puts it in the input's order. When that rewrite fails (a full disk, an I/O error, a folder
   * made read-only meanwhile) the file is left as it was, whole, in the order the answers came: `warn` is told so in
   * one line, since an operator fixing it beside the ERP's list would otherwise take its order for the input's.
   */
  close(warn: (message: string) => void = () => {}): void {
    if (this.descriptor === undefined) return;
    closeSync(this.descriptor);
    this.descriptor = undefined;
    this.appender = undefined;
    const order = this.order;
    this.order = undefined;
    try {
      order?.rows.rewrite(this.path, order.size);
    } catch (error) {
      const cause = systemErrorCause(error) ?? (error as Error).message;
      warn(
        `warning: ${printable(this.path)}: the errors file is in the order the answers came, not the input's: putting it in line order failed (${cause}); every row is there${this.form.kind === 'csv' && this.withRows ? ', and its row column gives the input order' : ''}.`,
      );
    }
  }
}

/**
 * The cells of a failed record with the codes of its text columns guarded (guardDigitsText): opened in a spreadsheet
 * and saved as CSV, as the docs foresee, `000123` would come back `123` and be fed back as another product's SKU.
 * The same array when there are no text columns.
 */
function withDigitsKept(cells: string[], textColumns: readonly number[] | undefined): string[] {
  if (textColumns === undefined) return cells;
  for (const index of textColumns) {
    const cell = cells[index];
    if (cell !== undefined) cells[index] = guardDigitsText(cell);
  }
  return cells;
}

/** The errors file's column before `error`: the record's row in the spreadsheet it came from. */
export const errorsRowColumn = 'row';

/**
 * The input's own headers of a CSV that may be an errors file b2bctl wrote, being fed back: its trailing
 * `row` and `error` columns (errorsFileColumns) are b2bctl's, not the input's.
 */
export function withoutErrorsColumns(headers: readonly string[]): readonly string[] {
  return headers.slice(0, headers.length - errorsFileColumns(headers));
}
