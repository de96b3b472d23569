import { closeSync, createReadStream, fsyncSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { syncFolder } from '../io/output/durable-file.js';
import { createFileExclusively, temporaryPathBeside } from '../lib/private-file.js';
import { writeWholeSync } from '../lib/whole-write.js';
import { parsePlace, type RecordPlace, reportDelimiterOf } from './report.js';

const quote = 0x22;
const lineFeed = 0x0a;
/** What is gathered before one write to the new report: a system call per row was most of the time. */
const flushBytes = 1 << 20;

/**
 * Rewrites a resumed report with one row per record: a resumed run appends a row for each record it sends again, after
 * the interrupted run's `failed` or `unknown` one, and a morning's `grep ,failed,` or a spreadsheet filter then counted
 * records the resume had done. The last row of a record is its outcome (the resume wrote it); the others go, and the
 * rows kept stay in their order, byte for byte. Streamed twice (the last row of each place, then the copy) into a new
 * private file beside it, fsynced and renamed over it: a kill or a full disk on the way leaves the old report, whole
 * and still resumable, and at most the temporary file, which a process that exits removes. Returns the rows dropped.
 */
export async function dropSupersededRows(reportPath: string): Promise<number> {
  const lastRows = new LastRowOfPlace();
  let delimiter: number | undefined;
  let index = 0;
  await eachRow(reportPath, (row) => {
    delimiter ??= reportDelimiterOf(row.toString('utf8')).charCodeAt(0);
    const place = index > 0 ? placeOfRow(row, delimiter) : undefined;
    if (place !== undefined) lastRows.set(place, index);
    index++;
  });
  if (lastRows.superseded === 0 || delimiter === undefined) return 0;
  const shape = delimiter;
  const temporary = temporaryPathBeside(reportPath);
  const removeTemporary = () => rmSync(temporary, { force: true });
  process.once('exit', removeTemporary);
  const descriptor = createFileExclusively(temporary);
  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = () => {
      writeWholeSync(descriptor, Buffer.concat(pending, pendingBytes));
      pending = [];
      pendingBytes = 0;
    };
    let copied = 0;
    await eachRow(reportPath, (row) => {
      const place = copied > 0 ? placeOfRow(row, shape) : undefined;
      // The header, and a row whose place cannot be read (not one b2bctl wrote), are kept as they are.
      if (place === undefined || lastRows.isLast(place, copied)) {
        pending.push(row);
        pendingBytes += row.length;
        if (pendingBytes >= flushBytes) flush();
      }
      copied++;
    });
    flush();
    fsyncSync(descriptor);
    closeSync(descriptor);
    renameSync(temporary, reportPath);
  } catch (error) {
    try {
      closeSync(descriptor);
    } catch {
      // Already closed before the rename failed.
    }
    removeTemporary();
    throw error;
  } finally {
    process.off('exit', removeTemporary);
  }
  syncFolder(dirname(reportPath));
  return lastRows.superseded;
}

/**
 * Calls `visit` with each row of the file, its line end included, as the bytes it is: a row ends at a line feed outside
 * quotes (a message cell may hold a line break). A last row without a line end is a row too.
 */
async function eachRow(path: string, visit: (row: Buffer) => void): Promise<void> {
  let inQuotes = false;
  let carried: Buffer[] = [];
  for await (const chunk of createReadStream(path, { highWaterMark: flushBytes }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let at = 0; at < chunk.length; at++) {
      const byte = chunk[at];
      if (byte === quote) inQuotes = !inQuotes;
      else if (byte === lineFeed && !inQuotes) {
        const piece = chunk.subarray(start, at + 1);
        visit(carried.length === 0 ? piece : Buffer.concat([...carried, piece]));
        carried = [];
        start = at + 1;
      }
    }
    // Copied out: a subarray would keep the whole megabyte chunk alive until the row ends.
    if (start < chunk.length) carried.push(Buffer.from(chunk.subarray(start)));
  }
  if (carried.length > 0) visit(Buffer.concat(carried));
}

/** The record a report row names, from its first cell (`8`, or `"1:2345 (element 17)"`); undefined for any other. */
function placeOfRow(row: Buffer, delimiter: number): RecordPlace | undefined {
  if (row[0] === quote) {
    const end = row.indexOf(quote, 1);
    return end < 0 ? undefined : parsePlace(row.toString('utf8', 1, end));
  }
  const end = row.indexOf(delimiter);
  return end < 0 ? undefined : parsePlace(row.toString('latin1', 0, end));
}

/** The index of the last row of each place, one slot per line (and per element of minified JSON), as LineKeys keeps keys. */
class LastRowOfPlace {
  private lines = new Uint32Array(1024);
  private elements = new Uint32Array(1024);
  /** Rows that a later row of the same place replaces. */
  superseded = 0;

  set(place: RecordPlace, rowIndex: number): void {
    const byElement = place.element !== undefined;
    const slot = place.element ?? place.line;
    let slots = byElement ? this.elements : this.lines;
    if (slot >= slots.length) {
      const grown = new Uint32Array(Math.max(slots.length * 2, slot + 1));
      grown.set(slots);
      slots = grown;
      if (byElement) this.elements = grown;
      else this.lines = grown;
    }
    // Stored plus one: 0 is a place with no row.
    if (slots[slot] !== 0) this.superseded++;
    slots[slot] = rowIndex + 1;
  }

  isLast(place: RecordPlace, rowIndex: number): boolean {
    const slots = place.element === undefined ? this.lines : this.elements;
    const slot = place.element ?? place.line;
    return slot >= slots.length || slots[slot] === rowIndex + 1;
  }
}
