import { SqliteStore } from '../../src/webhook/store/sqlite-store.js';
import { temporaryFolder } from './temporary.js';

/** A new inbox of this user's holding one orders event, as a receiver left it: for the commands that read one. */
export async function inboxWithOneEvent(): Promise<string> {
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
  });
  await store.close();
  return folder;
}
