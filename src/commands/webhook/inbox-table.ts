import type { RecordWriter } from '../../io/output/record-writer.js';
import { displayWidth, leadingColumns } from '../../io/output/display-width.js';
import { printable } from '../../lib/printable.js';
import { orderOfEvent } from '../../domain/webhook-events.js';
import type { StoredEvent } from '../../webhook/store/types.js';

interface InboxColumn {
  header: string;
  /** Its width on screen (the last column takes what the others leave). */
  width: number;
  value: (event: StoredEvent) => string;
  /** Left out on a terminal too narrow for every column, highest rank first; ID, RECEIVED and FLAGS always stay. */
  dropRank?: number;
  /** Narrowed (its cells cut with …) down to its header, on a terminal too narrow even once the others are left out. */
  givesWay?: boolean;
}

/**
 * The columns of `webhook inbox -o table`, each of a fixed width (the last takes the rest): a listing of millions of
 * rows streams with the same layout from its first page to its last. Piped, a longer cell pushes only its own row;
 * on a terminal it is cut with …, since a row wider than the terminal wraps and the table is unreadable. The ID
 * column is sized once, before the first row, to the digits of the store's largest id (idColumnWidth).
 */
const columns: InboxColumn[] = [
  // Its width is set by idColumnWidth when the table starts.
  { header: 'ID', width: 2, value: (event) => String(event.id) },
  // Cut from its end, an instant loses its milliseconds first: the FLAGS header stays whole down to 17 columns beside the ID column.
  { header: 'RECEIVED', width: 24, value: (event) => event.receivedAt, givesWay: true },
  { header: 'KIND', width: 9, value: (event) => event.kind, dropRank: 2 },
  {
    header: 'EVENT',
    width: 12,
    value: (event) => eventSubjectId(event),
    dropRank: 1,
  },
  // The sender's address matters least when reading what came in: it goes first.
  { header: 'FROM', width: 15, value: (event) => event.clientAddress || '-', dropRank: 3 },
  { header: 'FLAGS', width: 0, value: (event) => event.flags.join('; ') || '-' },
];

const gap = 2;

/**
 * The columns a terminal `width` wide shows: those with a rank are left out, highest first, until the others fit
 * with the last one at least as wide as its header; then one that gives way is narrowed, down to its own header.
 * The width and the ID column's (`idWidth`) decide, never the events. Below the narrowest layout (17 columns beside
 * the ID column) rows wrap, no header is cut.
 */
function columnsToFit(width: number | undefined, idWidth: number): InboxColumn[] {
  let shown = columns.map((column) => (column.header === 'ID' ? { ...column, width: idWidth } : column));
  const needed = () =>
    shown.reduce((sum, column, index) => sum + (index === shown.length - 1 ? column.header.length : column.width), 0) +
    gap * (shown.length - 1);
  const droppable = shown.filter((column) => column.dropRank !== undefined);
  for (const column of droppable.toSorted((a, b) => (b.dropRank ?? 0) - (a.dropRank ?? 0))) {
    if (width === undefined || needed() <= width) break;
    shown = shown.filter((kept) => kept !== column);
  }
  if (width === undefined) return shown;
  return shown.map((column) => {
    const over = needed() - width;
    if (!column.givesWay || over <= 0) return column;
    return { ...column, width: Math.max(column.header.length, column.width - over) };
  });
}

/**
 * The ID column's width: the digits of the largest id the listing can show (the store's largest, a bound for any
 * filter), at least its header's. A fixed 10 kept 8 blank columns beside the ids of a young inbox while a narrow
 * terminal cut the RECEIVED instant it had room for (a user test). An id stored after this was measured (the
 * receiver running) is longer at most by a digit, and pushes only its own row: an id is never cut.
 */
export function idColumnWidth(largestId: number): number {
  return Math.max('ID'.length, String(Math.max(0, Math.trunc(largestId))).length);
}

/** `text` within `width` screen columns, its end replaced by `…` when cut. */
function cut(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  return `${leadingColumns(text, Math.max(0, width - 1))}…`;
}

function lineOf(shown: readonly InboxColumn[], cells: string[], width: number | undefined): string {
  let used = 0;
  return cells
    .map((cell, index) => {
      const column = shown[index];
      const last = index === cells.length - 1;
      // The id names the event (`--id`, `replay`): never cut; a longer one pushes its own row.
      // The last column keeps at least its header's width: below the narrowest layout a row wraps, a header is not cut.
      const room =
        width === undefined || column?.header === 'ID'
          ? undefined
          : last
            ? Math.max(width - used, column?.header.length ?? 0)
            : column?.width;
      const text = room === undefined ? cell : cut(cell, room);
      used += (column?.width ?? 0) + gap;
      return last ? text : text + ' '.repeat(Math.max(0, (column?.width ?? 0) - displayWidth(text)));
    })
    .join(' '.repeat(gap))
    .trimEnd();
}

/** The inbox table's writer, and the headers of the columns it left out to fit the terminal. */
export type InboxTableWriter = RecordWriter<StoredEvent> & { hiddenColumns: readonly string[] };

/**
 * The table writer: its header at the top, and again at each screen page on a terminal of known height; fitted to
 * a terminal's `width` (undefined when piped: every column), its ID column to `largestId` (idColumnWidth).
 */
export async function inboxTable(
  stream: NodeJS.WritableStream,
  color: boolean,
  width: number | undefined,
  largestId: number,
): Promise<InboxTableWriter> {
  const shown = columnsToFit(width, idColumnWidth(largestId));
  let header = lineOf(
    shown,
    shown.map((column) => column.header),
    width,
  );
  if (color) {
    const { Chalk } = await import('chalk');
    header = new Chalk({ level: 1 }).bold(header);
  }
  const screenRows = (stream as { rows?: unknown }).rows;
  const pageRows = typeof screenRows === 'number' && screenRows > 1 ? screenRows - 1 : Number.POSITIVE_INFINITY;
  let count = 0;
  let buffered = '';
  const flush = async () => {
    if (buffered === '') return;
    const text = buffered;
    buffered = '';
    if (!stream.write(text)) await new Promise((resolve) => stream.once('drain', resolve));
  };
  return {
    hiddenColumns: columns
      .filter((column) => !shown.some((kept) => kept.header === column.header))
      .map((column) => column.header),
    async write(event) {
      if (count % pageRows === 0) buffered += `${header}\n`;
      const cells = shown.map((column) => printable(column.value(event)).replace(/\s+/g, ' '));
      buffered += `${lineOf(shown, cells, width)}\n`;
      count++;
      if (buffered.length > 64 * 1024) await flush();
    },
    async end() {
      if (count === 0) buffered += `${header}\n`;
      await flush();
      return count;
    },
    // The rows read so far are whole lines: they go out, as they would have in the next flush.
    abandon: flush,
  };
}

/** What an event is about: an orders event's order where the receiver reads it (its root, or an envelope). */
export function subjectOf(event: StoredEvent): unknown {
  return event.kind === 'orders' && event.event !== null && typeof event.event === 'object'
    ? orderOfEvent(event.event)
    : event.event;
}

/** The EVENT column: the id of what the event is about, `-` when it shows none. */
export function eventSubjectId(event: StoredEvent): string {
  return String((subjectOf(event) as { id?: unknown } | null)?.id ?? '-');
}
