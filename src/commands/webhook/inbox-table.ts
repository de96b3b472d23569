import type { RecordWriter } from '../../io/output/record-writer.js';
import { printable } from '../../io/output/printable.js';
import type { StoredEvent } from '../../webhook/store/types.js';

/**
 * The columns of `webhook inbox -o table`, each of a fixed width (the last takes the rest): a listing of millions of
 * rows streams with the same layout from its first page to its last. A longer cell pushes only its own row.
 */
const columns: { header: string; width: number; value: (event: StoredEvent) => string }[] = [
  { header: 'ID', width: 10, value: (event) => String(event.id) },
  { header: 'RECEIVED', width: 24, value: (event) => event.receivedAt },
  { header: 'KIND', width: 9, value: (event) => event.kind },
  { header: 'EVENT', width: 12, value: (event) => String((event.event as { id?: unknown } | null)?.id ?? '-') },
  { header: 'FROM', width: 15, value: (event) => event.clientAddress || '-' },
  { header: 'FLAGS', width: 0, value: (event) => event.flags.join('; ') || '-' },
];

function line(cells: string[]): string {
  return cells
    .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(columns[index]?.width ?? 0)))
    .join('  ')
    .trimEnd();
}

/** The table writer: its header at the top, and again at each screen page on a terminal of known height. */
export async function inboxTable(stream: NodeJS.WritableStream, color: boolean): Promise<RecordWriter<StoredEvent>> {
  let header = line(columns.map((column) => column.header));
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
    async write(event) {
      if (count % pageRows === 0) buffered += `${header}\n`;
      buffered += `${line(columns.map((column) => printable(column.value(event)).replace(/\s+/g, ' ')))}\n`;
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
