import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { rewriteFileDurably } from '../io/output/durable-file.js';
import { writeWholeSync } from '../lib/whole-write.js';

/*
 * The errors file in the input's order. Its rows are appended as the answers come (a crash keeps every one written),
 * and the answers come in no order: concurrent requests, a retried one, invalid records found before any is sent. A
 * person fixes the rows in a spreadsheet beside the ERP's list, so the file is put in the input's order once the run
 * ends (docs/bulk-runs.md). Holding the rows to write them in order would hold a 500,000-line file's failures in
 * memory; what is held is where each row is in the file (three numbers a row, some 12 MB for 500,000 rows), and the
 * rows are copied in order to a file beside it that is then renamed over it, one row in memory at a time.
 */

/** Where each row this run appended is in the errors file, and its record's place in the input. */
export class ErrorsFileOrder {
  private readonly lines: number[] = [];
  private readonly elements: number[] = [];
  private readonly offsets: number[] = [];
  private inOrder = true;
  private last = { line: 0, element: 0 };

  /** A row appended at `offset`, for the record at `place` (undefined: kept where it came). */
  add(offset: number, place: { line: number; element?: number } | undefined): void {
    const line = place?.line ?? this.last.line;
    const element = place?.element ?? (place === undefined ? this.last.element : 0);
    if (line < this.last.line || (line === this.last.line && element < this.last.element)) this.inOrder = false;
    this.last = { line, element };
    this.lines.push(line);
    this.elements.push(element);
    this.offsets.push(offset);
  }

  /**
   * Rewrites the regular file at `path`, `end` bytes long, with this run's rows (from the first one's offset on) in
   * the input's order, rows of one record in the order they came; what is before them (the header) is kept. The
   * rewritten file replaces it durably (rewriteFileDurably), so a failure on the way or a power cut after it leaves it
   * whole, as it was or in order, never short: it is the operator's list of the records to fix.
   */
  rewrite(path: string, end: number): void {
    if (this.inOrder || this.offsets.length < 2) return;
    const order = Array.from(this.offsets.keys()).toSorted(
      (first, second) =>
        (this.lines[first] as number) - (this.lines[second] as number) ||
        (this.elements[first] as number) - (this.elements[second] as number) ||
        first - second,
    );
    const start = this.offsets[0] as number;
    const source = openSync(path, 'r');
    try {
      rewriteFileDurably(
        path,
        (target) => {
          copyRange(source, target, 0, start);
          for (const index of order) {
            const from = this.offsets[index] as number;
            const to = index + 1 < this.offsets.length ? (this.offsets[index + 1] as number) : end;
            copyRange(source, target, from, to);
          }
        },
        { mode: fstatSync(source).mode & 0o777 },
      );
    } finally {
      closeSync(source);
    }
  }
}

/** Copies the bytes [from, to) of `source` to the end of `target`, a megabyte at a time at most. */
function copyRange(source: number, target: number, from: number, to: number): void {
  const buffer = Buffer.allocUnsafe(Math.min(Math.max(to - from, 0), 1 << 20));
  for (let at = from; at < to;) {
    const read = readSync(source, buffer, 0, Math.min(buffer.length, to - at), at);
    if (read === 0) throw new Error(`the errors file ended at byte ${at}, before ${to}`);
    writeWholeSync(target, buffer.subarray(0, read));
    at += read;
  }
}
