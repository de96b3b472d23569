import { printable } from './printable.js';

export interface TableColumn<T> {
  header: string;
  value(record: T): string;
}

/** A plain-text table with padded columns; the header is bold when colour is on. */
export async function renderTable<T>(
  columns: readonly TableColumn<T>[],
  rows: readonly T[],
  options: { color: boolean },
): Promise<string> {
  const cells = rows.map((row) => columns.map((column) => oneLine(column.value(row))));
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((row) => displayWidth(row[index] ?? ''))),
  );
  const pad = (text: string, index: number) =>
    index === columns.length - 1 ? text : text + ' '.repeat((widths[index] ?? 0) - displayWidth(text));
  let header = columns
    .map((column, index) => pad(column.header, index))
    .join('  ')
    .trimEnd();
  if (options.color) {
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

function oneLine(text: string): string {
  return printable(text.replace(/\s*[\r\n]+\s*/g, ' '));
}

/** Characters as a terminal shows them: combining marks take no column. */
function displayWidth(text: string): number {
  return text.normalize('NFC').replace(/\p{M}/gu, '').length;
}
