import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { WebhookKind } from '../../domain/webhook-events.js';
import type { EventStore, NewEvent } from './types.js';

/** A line of the NDJSON inbox that earlier versions wrote (events.ndjson). */
interface OldRecord {
  receivedAt: string;
  kind: WebhookKind;
  deliveryId: string;
  key: string;
  flags?: string[];
  event: unknown;
}

export const oldInboxFileName = 'events.ndjson';

/** What an import did: events stored, already there, and the lines it could not take (1-based numbers). */
export interface ImportCounts {
  stored: number;
  duplicates: number;
  unreadable: number;
  /** The line numbers of the first unreadable lines (at most 5), and whether the file's last line was one. */
  unreadableLines: number[];
  lastLineUnreadable: boolean;
}

const kinds: ReadonlySet<string> = new Set(['customers', 'orders']);

/**
 * Moves the events of an NDJSON inbox into the store, line by line; its de-duplication keys make a second import
 * store nothing. A line that is not a whole record (a torn or NUL-filled tail, no arrival time, an unknown kind) is
 * counted with its number and skipped, never taken for one already there.
 */
export async function importNdjsonInbox(file: string, store: EventStore): Promise<ImportCounts> {
  const counts: ImportCounts = {
    stored: 0,
    duplicates: 0,
    unreadable: 0,
    unreadableLines: [],
    lastLineUnreadable: false,
  };
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let batch: Promise<{ stored: boolean }>[] = [];
  const settle = async () => {
    for (const result of await Promise.all(batch)) {
      if (result.stored) counts.stored++;
      else counts.duplicates++;
    }
    batch = [];
  };
  let number = 0;
  for await (const line of lines) {
    number++;
    counts.lastLineUnreadable = false;
    if (line.replace(/\0/g, '').trim() === '') continue;
    const record = oldRecordOf(line);
    if (record === undefined) {
      counts.unreadable++;
      counts.lastLineUnreadable = true;
      if (counts.unreadableLines.length < 5) counts.unreadableLines.push(number);
      continue;
    }
    batch.push(store.append(record));
    if (batch.length >= 1000) await settle();
  }
  await settle();
  return counts;
}

/** A line as the event to store, or undefined when it is not a whole record of the old inbox. */
function oldRecordOf(line: string): NewEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  // A line is any JSON value: `null` (a hand edit, a writer padding with a literal), a number, a list or a string
  // is no record, and is counted as unreadable as a torn line is (a user test: `null` stopped the import half-way).
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Partial<OldRecord>;
  const receivedAt = typeof record.receivedAt === 'string' ? Date.parse(record.receivedAt) : Number.NaN;
  if (
    typeof record.key !== 'string' ||
    typeof record.deliveryId !== 'string' ||
    record.kind === undefined ||
    !kinds.has(record.kind) ||
    Number.isNaN(receivedAt) ||
    !('event' in record) ||
    !(
      record.flags === undefined ||
      (Array.isArray(record.flags) && record.flags.every((flag) => typeof flag === 'string'))
    )
  )
    return undefined;
  return {
    receivedAt,
    kind: record.kind,
    deliveryId: record.deliveryId,
    key: record.key,
    flags: record.flags ?? [],
    clientAddress: '',
    raw: eventTextOf(line, record.event),
  };
}

/**
 * The event's text as the line wrote it: re-written from the parsed value, a number past 2^53 (an order id of 17
 * digits) would be stored with other digits. Only a line with such a long number is looked at closely: its `event`,
 * the last field the old inbox wrote, is taken from the text when it reads back to the same value.
 */
function eventTextOf(line: string, event: unknown): string {
  const rewritten = JSON.stringify(event);
  if (!/\d{16,}/.test(line)) return rewritten;
  const start = line.lastIndexOf('"event":');
  const end = line.lastIndexOf('}');
  if (start < 0 || end <= start) return rewritten;
  const written = line.slice(start + '"event":'.length, end).trim();
  try {
    return JSON.stringify(JSON.parse(written)) === rewritten ? written : rewritten;
  } catch {
    return rewritten;
  }
}
