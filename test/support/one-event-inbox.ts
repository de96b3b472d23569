import { SqliteStore } from '../../src/webhook/store/sqlite-store.js';
import type { NewEvent } from '../../src/webhook/store/types.js';
import { temporaryFolder } from './temporary.js';

/**
 * A new inbox of this user's holding one orders event, as a receiver left it: for the commands that read one.
 * `event` replaces what a test needs otherwise (a key an earlier b2bctl wrote, another instant).
 */
export async function inboxWithOneEvent(event: Partial<NewEvent> = {}): Promise<string> {
  const folder = temporaryFolder();
  const store = await SqliteStore.open(folder);
  await store.append({
    receivedAt: Date.parse('2026-11-23T06:00:00Z'),
    kind: 'orders',
    deliveryId: 'delivery-1',
    key: 'orders:1',
    flags: [],
    clientAddress: '203.0.113.7',
    raw: JSON.stringify({ id: 1 }),
    ...event,
  });
  await store.close();
  return folder;
}
