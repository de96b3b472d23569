import { closeSync, createReadStream, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../lib/process-alive.js';
import type { RecordPlace } from './report.js';

/** A record as the validation pass judged it: the value to send, or the message of its problems. */
export interface JudgedRecord<T> extends RecordPlace {
  key: string;
  /** The record as the user wrote it (CSV cells or the JSON value), for the errors file. */
  original: unknown;
  /** Set when the record is valid. */
  value?: T;
  /** Set when the record is invalid: its problems, joined as the report shows them. */
  message?: string;
}

/** Characters gathered before one write to the spool; 1 MB buffers (and reads) cost ~10 MB of peak RSS on a 100k push. */
const flushAt = 1 << 16;

/**
 * The verdicts of the validation pass, in file order, on disk: the sending pass reads them instead of
 * parsing and judging the input a second time (issue 14: half of the sending pass's CPU), and the
 * input is read once, so a file that changes after its one pass cannot change what is sent.
 * One JSON array per line; the file is private (0600, in a 0700 folder of its own) because records
 * can hold customers' passwords, and is removed when the run ends.
 */
export class VerdictSpool<T> {
  private readonly folder: string;
  readonly path: string;
  private fd: number | undefined;
  private buffer = '';

  constructor(temporaryFolder: string = tmpdir()) {
    removeAbandonedSpools(temporaryFolder);
    // The PID in the name lets a later run find and remove a spool whose run was killed (SIGKILL, a crash).
    this.folder = mkdtempSync(join(temporaryFolder, `${spoolPrefix}${process.pid}-`));
    this.path = join(this.folder, 'verdicts.ndjson');
    this.fd = openSync(this.path, 'w', 0o600);
    // Customer verdicts hold passwords: the spool must not stay in /tmp when a second Ctrl-C ends the process.
    process.once('exit', this.removeOnExit);
  }

  private readonly removeOnExit = (): void => this.remove();

  add(record: JudgedRecord<T>): void {
    const entry: SpoolEntry<T> =
      record.message === undefined
        ? [record.line, record.key, record.original, 1, record.value as T]
        : [record.line, record.key, record.original, 0, record.message];
    // Only a record of minified JSON carries its column and element, and only a CSV record below a cell with a
    // line break its row (never both): the other entries stay as short as they were.
    if (record.element !== undefined) entry.push(record.column ?? 1, record.element);
    else if (record.row !== undefined) entry.push(record.row);
    this.buffer += `${JSON.stringify(entry)}\n`;
    if (this.buffer.length >= flushAt) this.flush();
  }

  /** Writes what is gathered and closes the file; read() may follow. */
  finish(): void {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** The judged records in file order, in batches of what one read of the file holds. */
  async *read(): AsyncGenerator<JudgedRecord<T>[]> {
    let rest = '';
    for await (const chunk of createReadStream(this.path, { encoding: 'utf8', highWaterMark: 1 << 16 })) {
      const text = rest + (chunk as string);
      const lastNewline = text.lastIndexOf('\n');
      if (lastNewline < 0) {
        rest = text;
        continue;
      }
      rest = text.slice(lastNewline + 1);
      const batch: JudgedRecord<T>[] = [];
      // JSON escapes every newline inside a string: a newline ends an entry.
      let start = 0;
      while (start <= lastNewline) {
        const end = text.indexOf('\n', start);
        batch.push(judgedFrom(JSON.parse(text.slice(start, end)) as SpoolEntry<T>));
        start = end + 1;
      }
      yield batch;
    }
    if (rest !== '') yield [judgedFrom(JSON.parse(rest) as SpoolEntry<T>)];
  }

  /** Closes and deletes the spool; safe to call more than once. */
  remove(): void {
    process.removeListener('exit', this.removeOnExit);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.folder, { recursive: true, force: true });
  }

  private flush(): void {
    if (this.buffer === '' || this.fd === undefined) return;
    writeSync(this.fd, this.buffer);
    this.buffer = '';
  }
}

const spoolPrefix = 'b2bctl-verdicts-';
const spoolName = /^b2bctl-verdicts-(\d+)-/;

/**
 * Removes the spools of runs that no longer exist: a run killed with SIGKILL cannot remove its own,
 * and a customer spool holds passwords. A folder of a live process (another run) is left alone.
 */
export function removeAbandonedSpools(temporaryFolder: string): void {
  let names: string[];
  try {
    names = readdirSync(temporaryFolder);
  } catch {
    return;
  }
  for (const name of names) {
    const match = spoolName.exec(name);
    if (!match || isProcessAlive(Number(match[1]))) continue;
    rmSync(join(temporaryFolder, name), { recursive: true, force: true });
  }
}

type SpoolEntry<T> = [
  line: number,
  key: string,
  original: unknown,
  ok: 0 | 1,
  valueOrMessage: T | string,
  /** The column of a minified JSON record, or the spreadsheet row of a CSV record when it differs from the line. */
  columnOrRow?: number,
  element?: number,
];

function judgedFrom<T>([
  line,
  key,
  original,
  ok,
  valueOrMessage,
  columnOrRow,
  element,
]: SpoolEntry<T>): JudgedRecord<T> {
  const judged: JudgedRecord<T> =
    ok === 1
      ? { line, key, original, value: valueOrMessage as T }
      : { line, key, original, message: valueOrMessage as string };
  if (element !== undefined) {
    judged.column = columnOrRow;
    judged.element = element;
  } else if (columnOrRow !== undefined) judged.row = columnOrRow;
  return judged;
}
