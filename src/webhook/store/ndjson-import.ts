import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { WebhookKind } from '../../domain/webhook-events.js';
import type { EventStore } from './types.js';

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

/**
 * Moves the events of an NDJSON inbox into the store, line by line; its de-duplication keys make a second import
 * store nothing. A line that does not parse (a torn or NUL-filled tail) is counted and skipped, never fatal.
 */
export async function importNdjsonInbox(
  file: string,
  store: EventStore,
): Promise<{ stored: number; duplicates: number; unreadable: number }> {
  const counts = { stored: 0, duplicates: 0, unreadable: 0 };
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let batch: Promise<{ stored: boolean }>[] = [];
  const settle = async () => {
    for (const result of await Promise.all(batch)) {
      if (result.stored) counts.stored++;
      else counts.duplicates++;
    }
    batch = [];
  };
  for await (const line of lines) {
    if (line.replace(/\0/g, '').trim() === '') continue;
    let record: OldRecord;
    try {
      record = JSON.parse(line) as OldRecord;
      if (typeof record.key !== 'string' || typeof record.kind !== 'string') throw new Error('not an inbox record');
    } catch {
      counts.unreadable++;
      continue;
    }
    batch.push(
      store.append({
        receivedAt: Date.parse(record.receivedAt),
        kind: record.kind,
        deliveryId: record.deliveryId,
        key: record.key,
        flags: record.flags ?? [],
        clientAddress: '',
        raw: JSON.stringify(record.event),
      }),
    );
    if (batch.length >= 1000) await settle();
  }
  await settle();
  return counts;
}
