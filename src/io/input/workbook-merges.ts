import type { WorkbookCell, WorkbookRow } from './workbook-cells.js';

/** A merged range of cells, columns from 0 and rows from 1, both ends included. */
export interface MergedRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * Merged cells read as a person reads them, below the header: a range merged down rows gives its value to each of
 * its rows (a warehouse merged down three rows is the warehouse of the three), in its first column only. The columns
 * it spans to the right stay empty, as a CSV export leaves them: a company name widened over the trading name and the
 * contact columns names neither, and a price spread over the sale price column is no sale price.
 * Rows must come in order.
 */
export class MergedCells {
  /**
   * Ranges not yet reached, by their top row from `next` on: OpenDocument adds them in reading order, so each goes at
   * the end (a sort on every add was a pass over them all, minutes for a hostile file of 262,144 ranges).
   */
  private waiting: MergedRange[];
  private next = 0;
  private readonly active: { range: MergedRange; value: WorkbookCell | undefined }[] = [];

  constructor(ranges: readonly MergedRange[] = []) {
    this.waiting = ranges.toSorted((first, second) => first.top - second.top);
  }

  /** A range found while reading (OpenDocument names it on its first cell), from that row on. */
  add(range: MergedRange): void {
    if (!(range.bottom > range.top || range.right > range.left)) return;
    let at = this.waiting.length;
    while (at > this.next && (this.waiting[at - 1] as MergedRange).top > range.top) at--;
    this.waiting.splice(at, 0, range);
  }

  /** Forgets the ranges that start on or above `row` (the header's): a merged title or header fills nothing. */
  skipThrough(row: number): void {
    while (this.next < this.waiting.length && (this.waiting[this.next] as MergedRange).top <= row) this.next++;
    this.active.length = 0;
  }

  get count(): number {
    return this.waiting.length - this.next + this.active.length;
  }

  /** Fills the row's cells covered by a range with the range's value, in place. */
  fill(row: WorkbookRow): void {
    while (this.next < this.waiting.length && (this.waiting[this.next] as MergedRange).top <= row.row) {
      const range = this.waiting[this.next++] as MergedRange;
      if (range.bottom >= row.row) this.active.push({ range, value: undefined });
    }
    // The ranges passed are let go once they are half of what is kept.
    if (this.next > 1024 && this.next * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.next);
      this.next = 0;
    }
    if (this.active.length === 0) return;
    for (let index = this.active.length - 1; index >= 0; index--) {
      const merged = this.active[index] as { range: MergedRange; value: WorkbookCell | undefined };
      const { range } = merged;
      if (range.bottom < row.row) {
        this.active.splice(index, 1);
        continue;
      }
      if (row.row === range.top) merged.value = row.cells[range.left];
      else row.cells[range.left] = merged.value;
    }
  }
}
