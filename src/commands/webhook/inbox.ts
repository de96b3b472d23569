import { countOf } from '../../lib/plural.js';
import { wordWrap } from '../../lib/word-wrap.js';
import { type Context, stdoutStyle } from '../../context.js';
import { createRecordWriter, type RecordLayout, type RecordWriter } from '../../io/output/record-writer.js';
import { importNdjsonInbox, oldInboxFileName } from '../../webhook/store/ndjson-import.js';
import { openStore, type StoreLocation } from '../../webhook/store/open.js';
import { sqliteFileName } from '../../webhook/store/sqlite-store.js';
import type { StoredEvent } from '../../webhook/store/types.js';
import { checkImportedInboxLink } from '../../config/folder-safety.js';
import { eventSubjectId, inboxTable, subjectOf } from './inbox-table.js';
import { hiddenColumnsNote, terminalColumns } from '../../io/output/table.js';
import { join } from 'node:path';
import { once } from 'node:events';
import { eventText } from '../../webhook/consumers.js';
import { existsSync, statSync } from 'node:fs';
import { specialFileKind } from '../../lib/file-owners.js';
import { rename } from 'node:fs/promises';
import { InputError, PartialFailureError, UsageError } from '../../base/errors.js';
import { spokenBytes } from '../../webhook/retention.js';
import { storeLocation } from './store-url.js';
import { type EventSelectionFlags, selectionOf } from '../../webhook/inbox-access.js';
import { printable } from '../../lib/printable.js';
import { parseJsonKeepingDigits } from '../../lib/written-json.js';

export interface InboxOptions extends EventSelectionFlags {
  inbox?: string;
  store?: string;
  /** An old NDJSON inbox folder (or file) to take into the store. */
  import?: string;
  /** Rewrite the SQLite file to give back free space (and switch it to incremental vacuum). */
  compact?: boolean;
  /** Remove the hand-off of this name (its position and dead letters). */
  dropHandoff?: string;
}

const inboxLayout: RecordLayout<StoredEvent> = {
  table: [
    { header: 'ID', value: (event) => String(event.id) },
    { header: 'RECEIVED', value: (event) => event.receivedAt },
    { header: 'KIND', value: (event) => event.kind },
    { header: 'EVENT', value: (event) => eventSubjectId(event) },
    { header: 'FROM', value: (event) => event.clientAddress || '-' },
    { header: 'FLAGS', value: (event) => event.flags.join('; ') || '-' },
  ],
  csv: [
    'id',
    'receivedAt',
    'kind',
    'deliveryId',
    'clientAddress',
    'event.id',
    'event.document',
    'event.status',
    'event.lastUpdated',
    'flags',
  ],
};

/**
 * --import, --compact and --drop-handoff each do one thing to the whole store: a selection flag beside one, or two of
 * them, would look honoured (`--import old --kind orders` imported every kind).
 */
function refuseMixedActions(options: InboxOptions): void {
  const actions = [
    options.import !== undefined ? '--import' : undefined,
    options.compact ? '--compact' : undefined,
    options.dropHandoff !== undefined ? '--drop-handoff' : undefined,
  ].filter((flag) => flag !== undefined);
  if (actions.length === 0) return;
  const choosing = [
    options.kind !== undefined ? '--kind' : undefined,
    options.since !== undefined ? '--since' : undefined,
    options.until !== undefined ? '--until' : undefined,
    options.pending ? '--pending' : undefined,
    options.dead ? '--dead' : undefined,
  ].filter((flag) => flag !== undefined);
  const extra = [...actions.slice(1), ...choosing];
  if (extra.length > 0)
    throw new UsageError(
      `${actions[0]} works on the whole store, alone: ${extra.join(', ')} would not apply. Run it without ${extra.length === 1 ? 'that flag' : 'those flags'}.`,
    );
}

/** `b2bctl webhook inbox`: streams stored events (ndjson when piped), or imports an old NDJSON inbox. */
export async function run(options: InboxOptions, context: Context): Promise<void> {
  const location = await storeLocation(options, context);
  refuseMixedActions(options);
  if (options.import !== undefined) return importInbox(options.import, location, context);
  if (options.compact) return compactInbox(location, context);
  if (options.dropHandoff !== undefined) return dropHandOff(options.dropHandoff, location, context);
  const { store } = await openStore(
    location,
    { mustExist: true, beside: { command: 'webhook inbox', warn: context.log.warn, readsEventsOnly: true } },
    { interrupt: context.interrupt },
  );
  try {
    const format = context.outputFormat('ndjson');
    const style = stdoutStyle(context);
    // A row wider than the terminal wraps and the table is unreadable: fit it (a pipe keeps every column).
    const width = terminalColumns(context.io.stdout);
    const table =
      format === 'table' ? await inboxTable(context.io.stdout, style.color, width, await store.newestId()) : undefined;
    const writer =
      table !== undefined
        ? table
        : format === 'ndjson'
          ? asStoredWriter(context.io.stdout)
          : parsedOnly(createRecordWriter(format, context.io.stdout, inboxLayout, style), format === 'csv');
    const unshown: number[] = [];
    for await (const event of store.select(selectionOf(options))) {
      const shown = format === 'ndjson' ? event : withNumbersAsWritten(event);
      if (!(await writeOrSkip(writer, shown, context))) unshown.push(event.id);
    }
    const count = await writer.end();
    context.log.info(`${count} event${count === 1 ? '' : 's'} in ${store.description}.`);
    if (table !== undefined && table.hiddenColumns.length > 0)
      // Prose: wrapped at spaces to the terminal, not cut mid-word by it.
      for (const line of wordWrap(
        hiddenColumnsNote(table.hiddenColumns, width, '-o csv or -o ndjson'),
        terminalColumns(context.io.stderr),
      ))
        context.log.info(line);
    if (unshown.length > 0)
      throw new PartialFailureError(
        `${unshown.length} event${unshown.length === 1 ? '' : 's'} could not be shown (ids ${unshown.join(', ')}); every other one was.`,
      );
  } finally {
    await store.close();
  }
}

/**
 * NDJSON of the events as they were stored: each line the stored event with its `event` as it came (a number past
 * 2^53 keeps its digits), as the hand-offs pass it on.
 */
function asStoredWriter(stream: NodeJS.WritableStream): RecordWriter<StoredEvent> {
  let count = 0;
  return {
    async write(event) {
      if (!stream.write(`${eventText(event)}\n`)) await once(stream, 'drain');
      count++;
    },
    end: async () => count,
    abandon: async () => {},
  };
}

/**
 * The event read again from its stored text keeping every number's digits, as `b2bctl api` shows an answer: parsed
 * as a double, order 18014398509481985 showed as 18014398509481984 in `-o json`, in CSV's event.id and in the table,
 * beside a key naming …985 (a user test). An event whose text cannot be read so is shown as the store parsed it.
 */
function withNumbersAsWritten(event: StoredEvent): StoredEvent {
  if (event.eventJson === undefined) return event;
  try {
    return { ...event, event: parseJsonKeepingDigits(event.eventJson) };
  } catch {
    return event;
  }
}

/** JSON and CSV show the parsed event (JSON's array is indented), without the text it was parsed from. */
function parsedOnly(writer: RecordWriter<StoredEvent>, asCsv = false): RecordWriter<StoredEvent> {
  return {
    // CSV's event.* columns read the order where the receiver reads it (its key, --fetch-orders): in an `order` or
    // `data` envelope too, else an operator looking for order 6 found an empty event.id (a user test). JSON keeps it whole.
    write: ({ eventJson: _text, ...event }) =>
      writer.write(asCsv && event.kind === 'orders' ? { ...event, event: subjectOf(event) } : event),
    end: () => writer.end(),
    abandon: () => writer.abandon(),
  };
}

/**
 * Writes one event, or says why it cannot and goes on: an event stored before the receiver refused hostile shapes
 * may be nested too deeply for JSON.stringify, and one such row must not hide every row after it.
 */
async function writeOrSkip(writer: RecordWriter<StoredEvent>, event: StoredEvent, context: Context): Promise<boolean> {
  try {
    await writer.write(event);
    return true;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    context.log.warn(
      `Event ${event.id} (${event.kind}, received ${event.receivedAt}) cannot be shown: ${error.message}; left out.`,
    );
    return false;
  }
}

async function importInbox(from: string, location: StoreLocation, context: Context): Promise<void> {
  const file = from.endsWith('.ndjson') ? from : join(from, oldInboxFileName);
  for (const path of new Set([from, file])) checkImportedInboxLink(path);
  if (!existsSync(file)) {
    throw new InputError(
      `No NDJSON inbox at ${printable(file)}; pass the folder an earlier webhook listen wrote events.ndjson in.`,
      {
        file,
        missing: true,
      },
    );
  }
  // Looked at without opening it: a FIFO nobody writes to would hold the import, deaf to SIGTERM, for ever.
  const stats = statSync(file);
  if (!stats.isFile())
    throw new InputError(`Cannot import ${printable(file)}: it is ${specialFileKind(stats)}, not a file.`, {
      file,
      missing: true,
    });
  const { store, release } = await openStore(
    location,
    { exclusive: { command: 'webhook inbox --import', warn: context.log.warn } },
    { interrupt: context.interrupt },
  );
  try {
    const counts = await importNdjsonInbox(file, store);
    // A torn last line is what a receiver killed mid-write leaves; any other line not taken is the operator's to see.
    const lost = counts.unreadable - (counts.lastLineUnreadable ? 1 : 0);
    // Renamed (never over an earlier import's copy), so no later run takes it again once the keys have expired.
    const done = freeName(`${file}.imported`);
    const renamed =
      lost > 0
        ? ` ${printable(file)} stays where it is.`
        : await rename(file, done).then(
            () => ` ${printable(file)} is now ${printable(done)}.`,
            (error: NodeJS.ErrnoException) => ` ${printable(file)} stays where it is (${error.code ?? error.message}).`,
          );
    const skipped = counts.unreadable
      ? `, ${countOf(counts.unreadable, 'unreadable lines')} skipped (line ${counts.unreadableLines.join(', ')}${counts.unreadable > counts.unreadableLines.length ? ', …' : ''})`
      : '';
    const line = `Imported ${countOf(counts.stored, 'events')} from ${printable(file)} into ${store.description}; ${counts.duplicates} already there${skipped}.${renamed}`;
    if (lost > 0)
      throw new PartialFailureError(
        `${line} Those lines are not whole events (not a JSON object, no arrival time, an unknown kind): fix them and import the file again; the events already taken are recognised.`,
      );
    context.log.info(line);
  } finally {
    await store.close();
    release();
  }
}

/** `path`, or `path-2`, `path-3`… when an earlier import's copy holds that name. */
function freeName(path: string): string {
  let name = path;
  for (let index = 2; existsSync(name); index++) name = `${path}-${index}`;
  return name;
}

/** `--compact`: the one-time VACUUM of an inbox, under the receiver's lock (a running receiver refuses it, exit 75). */
async function compactInbox(location: StoreLocation, context: Context): Promise<void> {
  if (location.url)
    throw new UsageError('--compact is for the SQLite inbox: PostgreSQL gives space back with its autovacuum.');
  if (!existsSync(join(location.inbox, sqliteFileName)))
    throw new InputError(
      `No webhook inbox in ${printable(location.inbox)} (no ${sqliteFileName}); pass webhook listen's --inbox.`,
      {
        file: location.inbox,
        missing: true,
      },
    );
  const { store, release } = await openStore(location, {
    exclusive: { command: 'webhook inbox --compact', warn: context.log.warn },
  });
  try {
    context.log.info(
      `Compacting ${store.description}: the whole file is rewritten, which takes a while on a big inbox.`,
    );
    const sizes = await (store.compact as NonNullable<typeof store.compact>)();
    context.log.info(
      `Compacted ${store.description}: ${spokenBytes(sizes.before)} before, ${spokenBytes(sizes.after)} after; retention now gives space back as it goes.`,
    );
  } finally {
    await store.close();
    release();
  }
}

/**
 * `--drop-handoff NAME`: a hand-off left by an earlier configuration (an `--exec` replaced by `--forward-to`, a
 * renamed `--handoff`) holds every event after its position from retention and stays "stuck" on /healthz. Under the
 * receiver's lock for a folder; a PostgreSQL store's receivers must not run it.
 */
async function dropHandOff(name: string, location: StoreLocation, context: Context): Promise<void> {
  const { store, release } = await openStore(
    location,
    {
      mustExist: true,
      exclusive: location.url ? undefined : { command: 'webhook inbox --drop-handoff', warn: context.log.warn },
    },
    { interrupt: context.interrupt },
  );
  try {
    const outcome = await store.dropHandOff(name);
    if (outcome === 'unknown')
      throw new UsageError(`${store.description} has no hand-off named "${name}"; b2bctl webhook status lists them.`);
    if (outcome === 'command recorded')
      throw new UsageError(
        `Hand-off "${name}" has a command recorded as running (its receiver was killed during it): start the receiver with --handoff ${name} once, so it settles that command, then drop it.`,
      );
    context.log.info(
      `Dropped hand-off "${name}" from ${store.description}: its position and dead letters are gone, and retention no longer keeps events for it.`,
    );
  } finally {
    await store.close();
    release();
  }
}
