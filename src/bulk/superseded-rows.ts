import { createReadStream } from 'node:fs';
import { rewriteFileDurably } from '../io/output/durable-file.js';
import { removeAbandonedTemporaries } from '../lib/private-file.js';
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
 * private file beside it that replaces it durably (rewriteFileDurably): a kill or a full disk on the way leaves the
 * old report, whole and still resumable, and at most the temporary file, which a process that exits removes and the
 * next rewrite sweeps. Returns the rows dropped.
 */
export async function dropSupersededRows(reportPath: string): Promise<number> {
  // The copies an earlier rewrite left when it was killed: only a run of this command and profile rewrites the
  // report, and the profile's lock keeps it to one at a time, so none of them is being written.
  removeAbandonedTemporaries(reportPath);
  const lastRows = new LastRowOfPlace();
  let delimiter: number | undefined;
  let index = 0;
  await eachRow(reportPath, (bytes, start, end) => {
    delimiter ??= reportDelimiterOf(bytes.toString('utf8', start, end)).charCodeAt(0);
    const place = index > 0 ? placeOfRow(bytes, start, end, delimiter) : undefined;
    if (place !== undefined) lastRows.set(place, index);
    index++;
  });
  if (lastRows.superseded === 0 || delimiter === undefined) return 0;
  const shape = delimiter;
  await rewriteFileDurably(
    reportPath,
    async (descriptor) => {
      const copy = new RangeCopy(descriptor);
      let copied = 0;
      await eachRow(reportPath, (bytes, start, end) => {
        const place = copied > 0 ? placeOfRow(bytes, start, end, shape) : undefined;
        // The header, and a row whose place cannot be read (not one b2bctl wrote), are kept as they are.
        if (place === undefined || lastRows.isLast(place, copied)) copy.keep(bytes, start, end);
        copied++;
      });
      copy.finish();
    },
    // Swept above already, before the report was read.
    { swept: true },
  );
  return lastRows.superseded;
}

/**
 * Calls `visit` with each row of the file (`bytes` from `start` to `end`, its line end included), as the bytes it is:
 * a row ends at a line feed outside quotes (a message cell may hold a line break). A last row without a line end is a
 * row too. Rows are found with indexOf, not byte by byte: a million-row report is read twice.
 */
async function eachRow(path: string, visit: (bytes: Buffer, start: number, end: number) => void): Promise<void> {
  let inQuotes = false;
  let carried: Buffer | undefined;
  for await (const read of createReadStream(path, { highWaterMark: flushBytes }) as AsyncIterable<Buffer>) {
    // The start of a row the last chunk cut: its quotes were counted already.
    const chunk = carried === undefined ? read : Buffer.concat([carried, read]);
    let at = carried?.length ?? 0;
    let rowStart = 0;
    let nextQuote = chunk.indexOf(quote, at);
    for (let lineEnd = chunk.indexOf(lineFeed, at); lineEnd >= 0; lineEnd = chunk.indexOf(lineFeed, at)) {
      while (nextQuote >= 0 && nextQuote < lineEnd) {
        inQuotes = !inQuotes;
        nextQuote = chunk.indexOf(quote, nextQuote + 1);
      }
      at = lineEnd + 1;
      if (inQuotes) continue;
      visit(chunk, rowStart, at);
      rowStart = at;
    }
    while (nextQuote >= 0) {
      inQuotes = !inQuotes;
      nextQuote = chunk.indexOf(quote, nextQuote + 1);
    }
    // Copied out: a subarray would keep the whole megabyte chunk alive until the row ends.
    carried = rowStart < chunk.length ? Buffer.from(chunk.subarray(rowStart)) : undefined;
  }
  if (carried !== undefined) visit(carried, 0, carried.length);
}

/** Writes the rows kept, a run of neighbouring rows as one piece and a megabyte at a time. */
class RangeCopy {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private range: { bytes: Buffer; start: number; end: number } | undefined;

  private readonly descriptor: number;
  constructor(descriptor: number) {
    this.descriptor = descriptor;
  }

  keep(bytes: Buffer, start: number, end: number): void {
    if (this.range?.bytes === bytes && this.range.end === start) {
      this.range.end = end;
      return;
    }
    this.closeRange();
    this.range = { bytes, start, end };
  }

  finish(): void {
    this.closeRange();
    this.flush();
  }

  private closeRange(): void {
    if (this.range === undefined) return;
    const piece = this.range.bytes.subarray(this.range.start, this.range.end);
    this.range = undefined;
    this.pending.push(piece);
    this.pendingBytes += piece.length;
    if (this.pendingBytes >= flushBytes) this.flush();
  }

  private flush(): void {
    if (this.pendingBytes > 0) writeWholeSync(this.descriptor, Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/** The record a report row names, from its first cell (`8`, or `"1:2345 (element 17)"`); undefined for any other. */
function placeOfRow(bytes: Buffer, start: number, end: number, delimiter: number): RecordPlace | undefined {
  // Most rows start with the line's digits and a delimiter: read as a number, without a string or a pattern.
  let line = 0;
  let at = start;
  while (at < end && (bytes[at] as number) >= 0x30 && (bytes[at] as number) <= 0x39)
    line = line * 10 + (bytes[at++] as number) - 0x30;
  if (at > start && at < end && bytes[at] === delimiter) return { line };
  if (bytes[start] === quote) {
    const close = bytes.indexOf(quote, start + 1);
    return close < 0 || close >= end ? undefined : parsePlace(bytes.toString('utf8', start + 1, close));
  }
  const cellEnd = bytes.indexOf(delimiter, start);
  return cellEnd < 0 || cellEnd >= end ? undefined : parsePlace(bytes.toString('latin1', start, cellEnd));
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
