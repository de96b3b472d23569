import { type Context, type OutputFormat, stdoutStyle } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { createRecordWriter, type RecordLayout, type RecordWriter } from '../../io/output/record-writer.js';
import { cellText } from '../../io/output/csv-format.js';
import { hiddenColumnsNote, terminalColumns } from '../../io/output/table.js';
import { wordWrap } from '../../lib/word-wrap.js';
import { namedList } from '../../lib/plural.js';
import { isObject } from '../../domain/customer-values.js';

/** Items written in an output format, a page at a time: the page held in memory gives the CSV its columns. */
export interface ItemWriter extends RecordWriter<unknown> {
  /** A page of items. The first page's fields, in first-seen order, are the CSV columns. */
  writePage(items: readonly unknown[]): Promise<void>;
}

/**
 * A cell of `b2bctl api`'s table counts this many characters when the table is fitted to the terminal: the widest
 * cells (a long customer name) are cut down to it before any column is left out, so a long text does not push the
 * document or the credit figures off the screen. A cell of 20 still reads as what it is.
 */
export const narrowestApiCell = 20;

/**
 * Items in an output format. The columns are the fields of every item the writer holds, in first-seen order: a
 * platform that leaves out null fields (Jackson's NON_NULL) makes the first item's fields a subset, and whole columns
 * were lost without a word. The table waits for every row anyway, so its columns are every item's fields; CSV is
 * streamed, so its columns are the first page's fields, and the fields later items have beyond them are named on
 * stderr at the end. A table wider than the terminal cuts its widest cells, then leaves out columns from the right,
 * and says which: its rows would otherwise wrap, unreadable.
 */
export function itemWriter(format: OutputFormat, context: Context): ItemWriter {
  let writer: RecordWriter<unknown> | undefined;
  let hidden: readonly string[] = [];
  let columns: readonly string[] = [];
  /** Fields of items after the first page that the CSV columns lack, in first-seen order. */
  const leftOut = new Set<string>();
  const tableRows: unknown[] = [];
  const width = terminalColumns(context.io.stdout);
  const open = (items: readonly unknown[]) => {
    columns = fieldsOf(items, format);
    return createRecordWriter(format, context.io.stdout, layoutOf(columns), {
      ...stdoutStyle(context),
      maxWidth: width,
      onHiddenColumns: (headers) => (hidden = headers),
    });
  };
  const writePage = async (items: readonly unknown[]) => {
    if (format === 'table') {
      tableRows.push(...items);
      return;
    }
    if (items.length === 0) return;
    if (writer === undefined) writer = open(items);
    else if (format === 'csv')
      for (const field of fieldsOf(items, format)) if (!columns.includes(field)) leftOut.add(field);
    for (const item of items) await writer.write(item);
  };
  return {
    writePage,
    write: (item) => writePage([item]),
    async end() {
      writer ??= open(tableRows);
      for (const row of tableRows) await writer.write(row);
      const count = await writer.end();
      const notes: string[] = [];
      if (hidden.length > 0) notes.push(hiddenColumnsNote(hidden, width, '-o json'));
      if (leftOut.size > 0) notes.push(leftOutNote([...leftOut]));
      // Prose: wrapped at spaces to the terminal's width, not cut mid-word by the terminal.
      for (const note of notes)
        for (const line of wordWrap(note, terminalColumns(context.io.stderr))) context.log.info(line);
      return count;
    },
    async abandon() {
      await writer?.abandon();
    },
  };
}

/** The note naming the fields later items had beyond the CSV's columns (fixed by its header, already written). */
function leftOutNote(fields: readonly string[]): string {
  const named = namedList(fields);
  return `warning: later items have ${fields.length === 1 ? 'a field' : 'fields'} the CSV columns (the first page's fields) lack, left out: ${named}; -o json or -o ndjson writes every field, or run without --paginate to have one page's fields as the columns.`;
}

/**
 * Every field of the items that are objects, in first-seen order. CSV and table rows need objects: a list whose first
 * item is none is refused (a later one is a row of empty cells, as it always was).
 */
function fieldsOf(items: readonly unknown[], format: OutputFormat): string[] {
  if (format !== 'csv' && format !== 'table') return [];
  if (items.length > 0 && !isObject(items[0]))
    throw new UsageError(`-o ${format} needs a list of objects; use -o json or -o ndjson for this list.`);
  const fields = new Set<string>();
  for (const item of items) if (isObject(item)) for (const key of Object.keys(item)) fields.add(key);
  return [...fields];
}

function layoutOf(keys: readonly string[]): RecordLayout<unknown> {
  return {
    csv: keys,
    table: keys.map((key, index) => ({
      header: key.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase(),
      value: (record: unknown) => cellText((record as Record<string, unknown>)[key]),
      cutBeforeDropping: narrowestApiCell,
      // When cutting is not enough, the last fields go first; the first one (an id, most often) stays.
      ...(index > 0 ? { dropRank: index } : {}),
    })),
  };
}
