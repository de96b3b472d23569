import { closeSync, lstatSync, mkdtempSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { writeWholeSync } from '../lib/whole-write.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileExclusively } from '../lib/private-file.js';
import { temporaryFolderError } from '../io/temporary-folder.js';
import { jsonOfCells, jsonString } from '../lib/json-text.js';
import { isProcessAlive } from '../lib/process-alive.js';
import type { RecordPlace } from './report.js';

/** A record as the validation pass judged it: the value to send, or the message of its problems. */
export interface JudgedRecord<T> extends RecordPlace {
  key: string;
  /** The record as the user wrote it (CSV cells or the JSON value), for the errors file. */
  original: unknown;
  /** Set when the record is valid. */
  value?: T;
  /** The value's JSON text, when the job wrote it itself (BulkJob.sendJson); else the spool writes JSON.stringify(value). */
  valueJson?: string;
  /** Set when the record is invalid: its problems, joined as the report shows them. */
  message?: string;
}

/** Characters gathered before one write to the spool; 1 MB buffers (and reads) cost ~10 MB of peak RSS on a 100k push. */
const flushAt = 1 << 16;
/** Bytes of one read of the spool in the sending pass. */
const readSize = 1 << 16;

/**
 * A record read back from the spool: place, key and the value's JSON text at once; the value and the cells as
 * written parsed when asked for (the cells only for a failure, for the errors file).
 */
export class SpooledRecord<T> implements JudgedRecord<T> {
  column?: number;
  element?: number;
  row?: number;
  /** Resumed runs only: see PendingRecord.unanswered. */
  unanswered?: boolean;
  /** Resumed runs only: see PendingRecord.reportedUnknown. */
  reportedUnknown?: boolean;
  /** Resumed runs only: see PendingRecord.reportedStatus. */
  reportedStatus?: number;
  private parsedOriginal: unknown;
  private parsedValue: T | undefined;

  readonly line: number;
  readonly key: string;
  /** The valid record's value as JSON text, exactly as JSON.stringify wrote it; undefined when invalid. */
  readonly json: string | undefined;
  /** The invalid record's problems, joined as the report shows them. */
  readonly message: string | undefined;
  private originalJson: string | undefined;
  constructor(
    line: number,
    key: string,
    json: string | undefined,
    message: string | undefined,
    originalJson: string | undefined,
  ) {
    this.line = line;
    this.key = key;
    this.json = json;
    this.message = message;
    this.originalJson = originalJson;
  }

  /**
   * The record with one more problem, found once the validation pass read on (RecordChecker.lateProblems): invalid,
   * whatever it was, with its cells as written for the errors file.
   */
  withLateProblem(message: string): SpooledRecord<T> {
    const joined = this.message === undefined ? message : `${this.message}; ${message}`;
    const record = new SpooledRecord<T>(this.line, this.key, undefined, joined, this.originalJson);
    record.parsedOriginal = this.parsedOriginal;
    record.column = this.column;
    record.element = this.element;
    record.row = this.row;
    return record;
  }

  get value(): T | undefined {
    if (this.parsedValue === undefined && this.json !== undefined) this.parsedValue = JSON.parse(this.json) as T;
    return this.parsedValue;
  }

  get original(): unknown {
    if (this.originalJson !== undefined) {
      this.parsedOriginal = JSON.parse(this.originalJson);
      this.originalJson = undefined;
    }
    return this.parsedOriginal;
  }
}

/** What the spool is, for a message naming the temporary folder it could not be written in. */
const spoolWhat = "the run's private list of its records' verdicts";

/**
 * The verdicts of the validation pass, in file order, on disk: the sending pass reads them instead of parsing and
 * judging the input again, so the input is read once (docs/decisions/0003-verdict-spool.md).
 * One record per line, its fields separated by tabs, each field a number or JSON text (JSON escapes
 * every tab and newline inside a string, so neither can occur in a field):
 * `line, 1 (valid) or 0, key, value or message, cells as written[, column, element | , row]`.
 * A valid record's value is stored as the JSON the sending pass can put on the wire as it is.
 * The file is private (0600, in a 0700 folder of its own) because records can hold customers'
 * passwords, and is removed when the run ends.
 */
export class VerdictSpool<T> {
  private readonly temporaryFolder: string;
  private readonly folder: string;
  readonly path: string;
  private fd: number | undefined;
  private buffer = '';

  constructor(temporaryFolder: string = tmpdir()) {
    removeAbandonedSpools(temporaryFolder);
    this.temporaryFolder = temporaryFolder;
    try {
      // The PID in the name lets a later run find and remove a spool whose run was killed (SIGKILL, a crash).
      this.folder = mkdtempSync(join(temporaryFolder, `${spoolPrefix}${process.pid}-`));
      this.path = join(this.folder, 'verdicts.tsv');
      this.fd = createFileExclusively(this.path);
    } catch (error) {
      throw temporaryFolderError(error, spoolWhat, temporaryFolder);
    }
    // Customer verdicts hold passwords: the spool must not stay in /tmp when a second Ctrl-C ends the process.
    process.once('exit', this.removeOnExit);
  }

  private readonly removeOnExit = (): void => this.remove();

  add(record: JudgedRecord<T>): void {
    const verdict =
      record.message === undefined
        ? `1\t${record.valueJson ?? JSON.stringify(record.value) ?? 'null'}`
        : `0\t${JSON.stringify(record.message)}`;
    // Only a record of minified JSON carries its column and element, and only a CSV record below a cell with a
    // line break its row (never both): the other entries stay as short as they were.
    const place =
      record.element !== undefined
        ? `\t${record.column ?? 1}\t${record.element}`
        : record.row !== undefined
          ? `\t${record.row}`
          : '';
    // JSON.stringify(undefined) is undefined, not JSON: such a record was written back as null before too.
    this.buffer += `${record.line}\t${jsonString(record.key)}\t${verdict}\t${jsonOfCells(record.original) ?? 'null'}${place}\n`;
    if (this.buffer.length >= flushAt) this.flush();
  }

  /** Writes what is gathered and closes the file; read() may follow. */
  finish(): void {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * The judged records in file order, in batches of what one read of the file holds. Plain synchronous reads into
   * one buffer, split at its last newline byte (never part of a multi-byte character): a read stream cost ~10%.
   */
  async *read(): AsyncGenerator<SpooledRecord<T>[]> {
    const fd = openSync(this.path, 'r');
    try {
      let buffer = Buffer.allocUnsafe(readSize);
      let filled = 0;
      for (;;) {
        const read = readSync(fd, buffer, filled, buffer.length - filled, null);
        const end = filled + read;
        if (read === 0) {
          if (end > 0) yield [spooledFrom<T>(buffer.toString('utf8', 0, end), 0, -1)];
          return;
        }
        const lastNewline = buffer.lastIndexOf(10, end - 1);
        if (lastNewline < 0) {
          // One record longer than the buffer (a customer with very long cells): make room for the rest of it.
          if (end === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
          filled = end;
          continue;
        }
        const text = buffer.toString('utf8', 0, lastNewline);
        buffer.copy(buffer, 0, lastNewline + 1, end);
        filled = end - lastNewline - 1;
        const batch: SpooledRecord<T>[] = [];
        let start = 0;
        for (;;) {
          const newline = text.indexOf('\n', start);
          batch.push(spooledFrom<T>(text, start, newline));
          if (newline < 0) break;
          start = newline + 1;
        }
        yield batch;
      }
    } finally {
      closeSync(fd);
    }
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
    try {
      writeWholeSync(this.fd, this.buffer);
    } catch (error) {
      throw temporaryFolderError(error, spoolWhat, this.temporaryFolder);
    }
    this.buffer = '';
  }
}

/** One spool line, text[start, end) (end -1: to the end of text), read field by field without splitting it into an array. */
function spooledFrom<T>(text: string, start: number, lineEnd: number): SpooledRecord<T> {
  const end = lineEnd < 0 ? text.length : lineEnd;
  const afterLine = text.indexOf('\t', start);
  const afterKey = text.indexOf('\t', afterLine + 1);
  const valid = text.charCodeAt(afterKey + 1) === 49; // '1'
  const afterVerdict = text.indexOf('\t', afterKey + 3);
  let afterOriginal = text.indexOf('\t', afterVerdict + 1);
  if (afterOriginal < 0 || afterOriginal > end) afterOriginal = end;
  // Most keys (SKUs, documents) have nothing to unescape: their JSON is the key in quotes, taken without a copy of
  // the quoted text; the line is read digit by digit. A million records' extra slices were visible in a push's GC.
  let line = 0;
  for (let index = start; index < afterLine; index++) line = line * 10 + text.charCodeAt(index) - 48;
  let escaped = false;
  for (let index = afterLine + 2; index < afterKey - 1; index++)
    if (text.charCodeAt(index) === 92) {
      escaped = true;
      break;
    }
  const key = escaped
    ? (JSON.parse(text.slice(afterLine + 1, afterKey)) as string)
    : text.slice(afterLine + 2, afterKey - 1);
  const verdict = text.slice(afterKey + 3, afterVerdict);
  const record = new SpooledRecord<T>(
    line,
    key,
    valid ? verdict : undefined,
    valid ? undefined : (JSON.parse(verdict) as string),
    text.slice(afterVerdict + 1, afterOriginal),
  );
  if (afterOriginal < end) {
    // One field more is a CSV record's spreadsheet row; two are a minified JSON record's column and element.
    const afterColumn = text.indexOf('\t', afterOriginal + 1);
    if (afterColumn < 0 || afterColumn > end) record.row = Number(text.slice(afterOriginal + 1, end));
    else {
      record.column = Number(text.slice(afterOriginal + 1, afterColumn));
      record.element = Number(text.slice(afterColumn + 1, end));
    }
  }
  return record;
}

const spoolPrefix = 'b2bctl-verdicts-';
/** A run's verdicts, or its private copy of stdin or of a workbook on stdin (spool.ts, workbook-copy.ts). */
const spoolName = /^b2bctl-(?:verdicts|stdin|workbook)-(\d+)-/;

/**
 * Removes the spools of runs that no longer exist, and their copies of stdin: a run killed with SIGKILL cannot
 * remove its own, and a customer spool or copy holds passwords. A folder of a live process (another run) is left
 * alone, and so is a copy named without a PID (by an earlier b2bctl), which cannot be told from a live run's, and
 * another user's.
 */
export function removeAbandonedSpools(temporaryFolder: string): void {
  let names: string[];
  try {
    names = readdirSync(temporaryFolder);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const match = spoolName.exec(name);
    if (!match || isProcessAlive(Number(match[1]))) continue;
    const path = join(temporaryFolder, name);
    try {
      // Another user's, in a shared /tmp, is theirs to remove: not ours to judge, and its 0700 folder cannot be
      // read to be removed (EACCES ended every bulk run of this user while that user's killed run's copy was there).
      if (uid !== undefined && lstatSync(path).uid !== uid) continue;
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile (another run removed it), or not removable: a clean-up never fails the run.
    }
  }
}
