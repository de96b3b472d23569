import { wordWrap } from '../../lib/word-wrap.js';
import { displayWidth, firstCharacter, leadingColumns } from './display-width.js';
import { printableOnOneLine } from '../../lib/one-line.js';

/** A column of a table whose long cells wrap inside the column instead of across the terminal. */
export interface WrappingColumn<T> {
  header: string;
  value(record: T): string;
  /** This column's cells wrap to fit (the others keep their width). */
  wrap?: boolean;
}

const gap = 2;
/** A wrapping column keeps at least this many characters, so its lines still read as words. */
const narrowestWrap = 12;

/**
 * A table at most `width` columns wide: the wrapping columns share what the others leave, their cells cut into
 * lines at spaces (a word longer than the column at `/`, `,` or anywhere), each row as tall as its tallest cell.
 * Undefined when it cannot fit: the other columns leave the wrapping ones less than their narrowest.
 */
export function renderWrappingTable<T>(
  columns: readonly WrappingColumn<T>[],
  rows: readonly T[],
  width: number,
): string | undefined {
  const cells = rows.map((row) => columns.map((column) => printableOnOneLine(column.value(row))));
  const natural = columns.map((column, index) =>
    Math.max(displayWidth(column.header), ...cells.map((row) => displayWidth(row[index] ?? ''))),
  );
  const widths = shareWidth(columns, natural, width);
  if (widths === undefined) return undefined;
  const lines: string[] = [];
  // Padded to the columns a terminal gives each cell: a Chinese name would push the columns after it to the right.
  const pad = (text: string, index: number) =>
    text + ' '.repeat(Math.max(0, (widths[index] ?? 0) - displayWidth(text)));
  const draw = (parts: readonly string[][]) => {
    const height = Math.max(...parts.map((part) => part.length));
    for (let line = 0; line < height; line++) {
      const text = parts
        .map((part, index) => (index === parts.length - 1 ? (part[line] ?? '') : pad(part[line] ?? '', index)))
        .join(' '.repeat(gap));
      lines.push(text.trimEnd());
    }
  };
  draw(columns.map((column) => [column.header]));
  for (const row of cells) draw(row.map((cell, index) => wrapCell(cell, widths[index] ?? displayWidth(cell))));
  return `${lines.join('\n')}\n`;
}

/** Each record as a block: a first line of `heading` cells, then its long fields indented and wrapped to `width`. */
export function renderStacked<T>(
  records: readonly T[],
  layout: { heading(record: T): string; fields(record: T): string[]; indent: number },
  width: number,
): string {
  const indent = ' '.repeat(layout.indent);
  const lines: string[] = [];
  for (const record of records) {
    // A heading too long for the line goes on under its own text, past the indent, not at the edge (a user test).
    const heading = printableOnOneLine(layout.heading(record)).normalize('NFC');
    const first = wrapCell(heading, width)[0] ?? '';
    const rest = heading.slice(first.length).trimStart();
    const after = rest === '' ? [] : wrapCell(rest, width - indent.length).map((line) => indent + line.trimEnd());
    lines.push(first.trimEnd(), ...after);
    for (const field of layout.fields(record).filter((text) => text !== '')) {
      lines.push(...wrapCell(printableOnOneLine(field), width - indent.length).map((line) => indent + line));
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Labelled values, one per line (`Token:    valid until …`, a record of a table too wide for the terminal): each
 * value's lines wrapped under its own column, `labelWidth` from the edge (a hanging indent), never back at the edge.
 * A terminal too narrow to leave the values `narrowestWrap` columns beside the labels puts each label on a line of
 * its own and its value on the lines below, indented. Nothing is cut: every character shows, on some line.
 */
export function labelledLines(
  pairs: readonly (readonly [label: string, value: string])[],
  width: number,
  labelWidth = Math.max(0, ...pairs.map(([label]) => displayWidth(label))) + gap,
): string[] {
  const beside = width - labelWidth >= narrowestWrap;
  const valueIndent = ' '.repeat(beside ? labelWidth : gap);
  const lines: string[] = [];
  for (const [label, value] of pairs) {
    const valueLines = wrapCell(printableOnOneLine(value), width - valueIndent.length);
    if (beside) {
      const [first = '', ...rest] = valueLines;
      lines.push(`${label}${' '.repeat(Math.max(0, labelWidth - displayWidth(label)))}${first}`.trimEnd());
      lines.push(...rest.map((line) => valueIndent + line.trimEnd()));
    } else {
      lines.push(
        ...wrapCell(label, width),
        ...valueLines.filter((line) => line !== '').map((line) => valueIndent + line.trimEnd()),
      );
    }
  }
  return lines;
}

/**
 * The columns' widths within `width`: the wrapping ones each get their narrowest, then what is left in proportion to
 * what each lacks of its whole cells; undefined when their narrowest do not fit beside the other columns.
 */
function shareWidth<T>(
  columns: readonly WrappingColumn<T>[],
  natural: readonly number[],
  width: number,
): number[] | undefined {
  const fixed = columns.reduce((sum, column, index) => sum + (column.wrap ? 0 : (natural[index] ?? 0)), 0);
  const wrapping = columns.flatMap((column, index) => (column.wrap ? [index] : []));
  const available = width - fixed - gap * (columns.length - 1);
  const widths = [...natural];
  const wanted = wrapping.reduce((sum, index) => sum + (natural[index] ?? 0), 0);
  if (wanted <= available) return widths;
  const floors = wrapping.map((index) =>
    Math.min(natural[index] ?? 0, Math.max(narrowestWrap, columns[index]?.header.length ?? 0)),
  );
  const spare = available - floors.reduce((sum, floor) => sum + floor, 0);
  if (spare < 0) return undefined;
  const lacking = wrapping.map((index, position) => (natural[index] ?? 0) - (floors[position] ?? 0));
  const lackingInAll = lacking.reduce((sum, each) => sum + each, 0);
  // The last one takes what rounding left, never more than it lacks.
  let left = spare;
  for (const [position, index] of wrapping.entries()) {
    const share =
      position === wrapping.length - 1 ? left : Math.floor(((lacking[position] ?? 0) / lackingInAll) * spare);
    const extra = Math.min(lacking[position] ?? 0, share);
    widths[index] = (floors[position] ?? 0) + extra;
    left -= extra;
  }
  return widths;
}

/**
 * `text` in lines of at most `width` terminal columns: at spaces, and a longer word after a `/`, `,` or `.` where it
 * can, else at the last whole character that fits (never half an ideograph or an emoji).
 */
export function wrapCell(text: string, width: number): string[] {
  if (displayWidth(text) <= width) return [text];
  const lines: string[] = [];
  // Composed first, so the cuts below count the same characters `leadingColumns` does.
  for (const line of wordWrap(text.normalize('NFC'), width, displayWidth)) {
    let rest = line;
    while (displayWidth(rest) > width) {
      const window = leadingColumns(rest, width);
      const breakAt = Math.max(window.lastIndexOf('/'), window.lastIndexOf(','), window.lastIndexOf('.'));
      // A character wider than the whole column still goes on a line of its own, or the loop would never end.
      const cut = breakAt >= window.length / 2 ? breakAt + 1 : Math.max(window.length, firstCharacter(rest).length);
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    if (rest !== '' || lines.length === 0) lines.push(rest);
  }
  return lines;
}
