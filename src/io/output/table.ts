import { displayWidth, leadingColumns } from './display-width.js';
import { printableOnOneLine } from '../../lib/one-line.js';
import { namedList } from '../../lib/plural.js';
import { labelledLines } from './fitted-layouts.js';

export interface TableColumn<T> {
  header: string;
  value(record: T): string;
  /**
   * For a table wider than the terminal: columns with a rank are dropped, highest rank first, before any cell
   * is cut; a column without one stays (its cells are cut with `…` when dropping was not enough).
   */
  dropRank?: number;
  /**
   * Cut this column's cells only when nothing else is left to cut (a document number cut in the middle is worse
   * than a dropped column, and better than a row that wraps on a terminal of some 40 columns).
   */
  keepWhole?: boolean;
  /**
   * Dropped, rather than a column kept whole being cut, when even cut to its narrowest it leaves those too little
   * room (an order's customer name goes before its update instant is cut, which leaves it unreadable).
   */
  yieldsToWhole?: boolean;
  /**
   * The width this column counts for when deciding what to drop, in place of its widest cell, so that a terminal
   * of a given width always shows the same columns whatever the page's data.
   */
  plannedWidth?: number;
  /**
   * The width this column's cells are cut down to before any column is dropped: deciding what to drop, it counts
   * its widest cell cut to this (never below its header), so one long text is cut with `…` rather than pushing
   * the columns after it off the screen (`b2bctl api -o table`, whose columns are whatever the answer holds).
   */
  cutBeforeDropping?: number;
}

/** How a table is drawn: bold header with colour; fitted to `maxWidth`, telling `onHiddenColumns` what it dropped. */
export interface TableOptions {
  color: boolean;
  maxWidth?: number;
  onHiddenColumns?: (headers: readonly string[]) => void;
}

/** The width of the terminal behind `stream`, when it is one (a tty.WriteStream has `columns`). */
export function terminalColumns(stream: NodeJS.WritableStream): number | undefined {
  const columns = (stream as { columns?: unknown }).columns;
  return typeof columns === 'number' && columns > 0 ? columns : undefined;
}

/**
 * The note under a table fitted to the terminal, naming the columns it left out (`A, B and C hidden to fit 100
 * columns: …`) and the output formats that show every field.
 */
export function hiddenColumnsNote(headers: readonly string[], width: number | undefined, everyField: string): string {
  const named = namedList(headers);
  return `${named} hidden to fit ${width} columns: widen the terminal, or ${everyField} for every field.`;
}

/** A plain-text table with padded columns; the header is bold when colour is on. */
export async function renderTable<T>(
  columns: readonly TableColumn<T>[],
  rows: readonly T[],
  options: TableOptions,
): Promise<string> {
  const fullCells = rows.map((row) => columns.map((column) => printableOnOneLine(column.value(row))));
  const fullWidths = columns.map((column, index) =>
    Math.max(column.header.length, ...fullCells.map((row) => displayWidth(row[index] ?? ''))),
  );
  const fitted =
    options.maxWidth === undefined
      ? { columns, cells: fullCells, widths: fullWidths, tooNarrow: false }
      : fitToWidth(columns, fullCells, fullWidths, options.maxWidth);
  const hidden = columns.filter((column) => !fitted.columns.includes(column)).map((column) => column.header);
  if (hidden.length > 0) options.onHiddenColumns?.(hidden);
  if (fitted.tooNarrow && options.maxWidth !== undefined) {
    const shown = fitted.columns.map((column) => columns.indexOf(column));
    return recordBlocks(
      fitted.columns.map((column) => column.header),
      fullCells.map((row) => shown.map((index) => row[index] ?? '')),
      options.maxWidth,
    );
  }
  return drawTable(fitted.columns, fitted.cells, fitted.widths, options.color);
}

/**
 * The rows of a table too wide for the terminal even with every cell cut to its narrowest (some 30 columns): each
 * row a block of `HEADER  value` lines, its values whole and wrapped under their own column, a blank line between
 * two rows, as `psql`'s expanded display and `kubectl describe` show a record. A table whose rows wrap reads as noise.
 */
function recordBlocks(headers: readonly string[], rows: readonly string[][], width: number): string {
  const labelWidth = Math.max(...headers.map((header) => header.length)) + gap;
  const blocks = rows.map((row) =>
    labelledLines(
      headers.map((header, index) => [header, row[index] ?? ''] as const),
      width,
      labelWidth,
    ).join('\n'),
  );
  // No row, no block: a header alone says nothing the command's note does not.
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

async function drawTable<T>(
  columns: readonly TableColumn<T>[],
  cells: readonly string[][],
  widths: readonly number[],
  color: boolean,
): Promise<string> {
  const pad = (text: string, index: number) =>
    index === columns.length - 1 ? text : text + ' '.repeat((widths[index] ?? 0) - displayWidth(text));
  let header = columns
    .map((column, index) => pad(column.header, index))
    .join('  ')
    .trimEnd();
  if (color) {
    const { Chalk } = await import('chalk');
    header = new Chalk({ level: 1 }).bold(header);
  }
  const body = cells
    .map(
      (row) =>
        `${row
          .map((cell, index) => pad(cell, index))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
  return `${header}\n${body}`;
}

const gap = 2;
/** A cut column keeps at least this many characters (or its header's width), so it still says something. */
const narrowestCut = 6;

/**
 * A table that fits `maxWidth` columns: rows that wrap on a terminal are unreadable. Droppable columns go first
 * (highest rank first), then the widest cells are cut with `…`, never below their header's width.
 */
function fitToWidth<T>(
  columns: readonly TableColumn<T>[],
  cells: readonly string[][],
  widths: readonly number[],
  maxWidth: number,
): { columns: TableColumn<T>[]; cells: string[][]; widths: number[]; tooNarrow: boolean } {
  let kept = columns.map((_, index) => index);
  // A column kept whole counts for its planned width too, even when this page's cells are wider: which columns show
  // depends on the width alone (two pages at one width show the same columns); the wider cells are made room for
  // below, by cutting the other columns' cells.
  const planned = columns.map((column, index) => plannedWidthOf(column, widths[index] ?? 0));
  const total = () => kept.reduce((sum, index) => sum + (planned[index] ?? 0), 0) + gap * (kept.length - 1);
  const droppable = columns
    .map((column, index) => ({ rank: column.dropRank, index }))
    .filter((entry): entry is { rank: number; index: number } => entry.rank !== undefined)
    .toSorted((a, b) => b.rank - a.rank);
  const dropped: number[] = [];
  for (const { index } of droppable) {
    if (total() <= maxWidth) break;
    kept = kept.filter((keptIndex) => keptIndex !== index);
    dropped.push(index);
  }
  // The last column dropped may have freed more room than needed: bring back the more useful of the others that fit,
  // counting a column kept whole at its widest cell when that is wider than planned. What the person searched for
  // (`sellers list --email`'s e-mails) is shown whole before a column left out comes back: CODE came back at 60
  // columns and cut a 35-character e-mail.
  const roomFor = (index: number) =>
    columns[index]?.keepWhole ? Math.max(planned[index] ?? 0, widths[index] ?? 0) : (planned[index] ?? 0);
  for (const index of dropped.toReversed()) {
    const withIt = [...kept, index].toSorted((a, b) => a - b);
    const width = withIt.reduce((sum, keptIndex) => sum + roomFor(keptIndex), 0) + gap * (withIt.length - 1);
    if (width <= maxWidth) kept = withIt;
  }
  kept = withoutYielding(columns, kept, planned, maxWidth);
  const keptWidths = kept.map((index) => widths[index] ?? 0);
  const floor = kept.map((index) =>
    columns[index]?.keepWhole ? (widths[index] ?? 0) : Math.max(columns[index]?.header.length ?? 0, narrowestCut),
  );
  const excess = keptWidths.reduce((sum, width) => sum + width, 0) + gap * (kept.length - 1) - maxWidth;
  const left = shrink(keptWidths, floor, excess);
  // Still too wide with every other column at its narrowest (a terminal of some 40 columns): a row that wraps is
  // unreadable, so the columns kept whole are cut too, as a last resort.
  const stillOver =
    left > 0
      ? shrink(
          keptWidths,
          kept.map((index) => Math.max(columns[index]?.header.length ?? 0, narrowestCut)),
          left,
        )
      : 0;
  return {
    columns: kept.map((index) => columns[index] as TableColumn<T>),
    cells: cells.map((row) => kept.map((index, position) => cut(row[index] ?? '', keptWidths[position] ?? 0))),
    widths: keptWidths,
    // Narrower than even that (some 30 columns): every row would wrap, so each is drawn as a block (recordBlocks).
    tooNarrow: stillOver > 0,
  };
}

/** The width a column counts for when deciding what to drop (see plannedWidth and cutBeforeDropping). */
function plannedWidthOf<T>(column: TableColumn<T>, widest: number): number {
  if (column.plannedWidth !== undefined) return Math.max(column.header.length, column.plannedWidth);
  if (column.cutBeforeDropping !== undefined)
    return Math.min(widest, Math.max(column.header.length, column.cutBeforeDropping));
  return widest;
}

/**
 * `kept` less the columns that yield to those kept whole, the rightmost first, while the kept ones would not fit even
 * with every column not kept whole cut to its narrowest. Planned widths decide, as for dropping: which columns a
 * terminal of a given width shows does not depend on the data.
 */
function withoutYielding<T>(
  columns: readonly TableColumn<T>[],
  kept: readonly number[],
  planned: readonly number[],
  maxWidth: number,
): number[] {
  const narrowest = (index: number) => {
    const column = columns[index];
    const width = planned[index] ?? 0;
    return column?.keepWhole ? width : Math.min(width, Math.max(column?.header.length ?? 0, narrowestCut));
  };
  let left = [...kept];
  for (const index of kept.toReversed()) {
    if (left.reduce((sum, keptIndex) => sum + narrowest(keptIndex), 0) + gap * (left.length - 1) <= maxWidth) break;
    if (columns[index]?.yieldsToWhole) left = left.filter((keptIndex) => keptIndex !== index);
  }
  return left;
}

/**
 * Takes `excess` characters off `widths` (in place), from the widest column that is still above its floor, one
 * character at a time so the cuts are shared fairly; returns what could not be taken.
 */
function shrink(widths: number[], floor: readonly number[], excess: number): number {
  let left = excess;
  while (left > 0) {
    let widest = -1;
    for (let position = 0; position < widths.length; position++) {
      if ((widths[position] ?? 0) <= (floor[position] ?? 0)) continue;
      if (widest < 0 || (widths[position] ?? 0) > (widths[widest] ?? 0)) widest = position;
    }
    if (widest < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    left--;
  }
  return left;
}

/** `text` within `width` columns, its end replaced by `…` when cut (never inside a character as it is shown). */
function cut(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  return `${leadingColumns(text, width - 1)}…`;
}
