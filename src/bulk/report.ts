import { closeSync, existsSync, fstatSync, openSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { type InputRecord, recordPlace } from '../io/input/open-input.js';
import { csvLine } from '../io/output/csv-format.js';

/** What happened to one input record (DESIGN.md §7). */
export type Outcome =
  | 'created'
  | 'updated'
  | 'unchanged'
  | 'applied'
  /** Taken by the platform with a 2xx whose answer did not itemise the record. */
  | 'accepted'
  | 'queued'
  | 'rejected'
  | 'invalid'
  | 'failed'
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
 * one line) its column and element index too, because the line alone names every record there.
 */
export type RecordPlace = Pick<InputRecord, 'line' | 'column' | 'element'>;

/** Just the place of a record (or of anything that carries one), for a report row. */
export function placeOf(record: RecordPlace): RecordPlace {
  return record.element === undefined
    ? { line: record.line }
    : { line: record.line, column: record.column, element: record.element };
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
}

export const reportColumns = ['line', 'key', 'outcome', 'status', 'id', 'message'] as const;

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
  // stdin, and a process substitution (`/dev/fd/63`), have no folder of their own to write beside.
  const folder = outputDirectory ?? (inputPath === '-' || /^\/(dev|proc)\//.test(inputPath) ? '.' : dirname(inputPath));
  const name = inputPath === '-' ? 'stdin' : basename(inputPath, extname(inputPath));
  const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return join(folder, `${name}.${kind}-${stamp}${sequence > 1 ? `-${sequence}` : ''}${extension}`);
}

/**
 * The run's report: one CSV row per input record, written with a system call as each result
 * arrives, so a crash or a SIGKILL loses nothing that was answered (the OS holds it).
 */
export class ReportWriter {
  private readonly descriptor: number;
  rows = 0;

  constructor(readonly path: string) {
    this.descriptor = openSync(path, 'a', 0o600);
    if (fstatSync(this.descriptor).size === 0) writeSync(this.descriptor, csvLine([...reportColumns]));
  }

  write(rows: readonly ReportRow[]): void {
    if (rows.length === 0) return;
    const text = rows
      .map((row) =>
        csvLine([
          recordPlace(row),
          row.key,
          row.outcome,
          row.status === undefined ? '' : String(row.status),
          row.id === undefined ? '' : String(row.id),
          row.message ?? '',
        ]),
      )
      .join('');
    writeSync(this.descriptor, text);
    this.rows += rows.length;
  }

  close(): void {
    closeSync(this.descriptor);
  }
}

/**
 * Failed and invalid records in the input's own form plus an `error` column, ready to fix and feed
 * back: CSV (UTF-8 with BOM, the input's delimiter, so Excel opens it) for CSV input, NDJSON for JSON.
 */
export class ErrorsWriter {
  private descriptor: number | undefined;
  rows = 0;

  constructor(
    readonly path: string,
    private readonly form: { kind: 'csv'; headers: readonly string[]; delimiter: string } | { kind: 'ndjson' },
  ) {}

  /**
   * Checks before the run sends anything that the file can be written (an unwritable path is found
   * first), leaving nothing behind: a run with no failures, even a killed one, has no errors file.
   */
  checkWritable(): void {
    const existed = existsSync(this.path);
    closeSync(openSync(this.path, 'a', 0o600));
    // Only a file this check created goes: never a device (/dev/null) or a file that was there.
    if (!existed) rmSync(this.path, { force: true });
  }

  write(original: readonly string[] | unknown, error: string): void {
    this.descriptor ??= openSync(this.path, 'a', 0o600);
    if (this.rows === 0 && this.form.kind === 'csv' && fstatSync(this.descriptor).size === 0) {
      writeSync(this.descriptor, `\uFEFF${csvLine([...this.form.headers, 'error'], this.form.delimiter)}`);
    }
    const text =
      this.form.kind === 'csv'
        ? csvLine(
            [
              ...(original as readonly string[]).slice(0, this.form.headers.length),
              ...Array.from(
                { length: Math.max(0, this.form.headers.length - (original as readonly string[]).length) },
                () => '',
              ),
              error,
            ],
            this.form.delimiter,
          )
        : `${JSON.stringify(original !== null && typeof original === 'object' && !Array.isArray(original) ? { ...original, error } : { value: original, error })}\n`;
    writeSync(this.descriptor, text);
    this.rows++;
  }

  close(): void {
    if (this.descriptor === undefined) return;
    closeSync(this.descriptor);
    this.descriptor = undefined;
  }
}
