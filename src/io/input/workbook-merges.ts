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
  /** Ranges not yet reached or not yet passed, by their top row. */
  private readonly waiting: MergedRange[];
  private readonly active: { range: MergedRange; value: WorkbookCell | undefined }[] = [];

  constructor(ranges: readonly MergedRange[] = []) {
    this.waiting = ranges.toSorted((first, second) => second.top - first.top);
  }

  /** A range found while reading (OpenDocument names it on its first cell), from that row on. */
  add(range: MergedRange): void {
    if (range.bottom > range.top || range.right > range.left) this.waiting.push(range);
    this.waiting.sort((first, second) => second.top - first.top);
  }

  /** Forgets the ranges that start on or above `row` (the header's): a merged title or header fills nothing. */
  skipThrough(row: number): void {
    for (let index = this.waiting.length - 1; index >= 0; index--)
      if ((this.waiting[index] as MergedRange).top <= row) this.waiting.splice(index, 1);
    this.active.length = 0;
  }

  get count(): number {
    return this.waiting.length + this.active.length;
  }

  /** Fills the row's cells covered by a range with the range's value, in place. */
  fill(row: WorkbookRow): void {
    while (this.waiting.length > 0 && (this.waiting.at(-1) as MergedRange).top <= row.row) {
      const range = this.waiting.pop() as MergedRange;
      if (range.bottom >= row.row) this.active.push({ range, value: undefined });
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
