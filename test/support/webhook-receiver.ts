import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  defaultReceiverPaths,
  type ReceivedEvent,
  type ReceiverOptions,
  type RunningReceiver,
  startReceiver,
} from '../../src/webhook/receiver.js';
import { sqliteFileName, SqliteStore } from '../../src/webhook/store/sqlite-store.js';
import type { StoredEvent, StoreOptions } from '../../src/webhook/store/types.js';
import { temporaryFolder } from './temporary.js';

export const clientId = 'erp-client';
export const clientSecret = 'receiver-s3cret';

export interface TestReceiver {
  url: string;
  directory: string;
  store: SqliteStore;
  receiver: RunningReceiver;
  stored: ReceivedEvent[];
  /** The events of the store, read from disk by a connection of its own. */
  onDisk(): StoredEvent[];
  close(): Promise<void>;
}

// The receiver tests' folders are the shared temporary ones.
export { removeTemporaryFolders as removeReceiverFolders, temporaryFolder } from './temporary.js';

/** The events of a SQLite store on disk, read through a separate read-only connection. */
export function inboxOnDisk(directory: string): StoredEvent[] {
  const database = new Database(join(directory, sqliteFileName), { readonly: true });
  try {
    const rows = database.prepare('SELECT * FROM events ORDER BY id').all() as Record<string, unknown>[];
    return rows.map((row) => ({
      id: row.id as number,
      receivedAt: new Date(row.received_at as number).toISOString(),
      kind: row.kind as StoredEvent['kind'],
      deliveryId: row.delivery_id as string,
      key: row.key as string,
      flags: JSON.parse(row.flags as string) as string[],
      clientAddress: row.client_address as string,
      event: JSON.parse(row.event as string) as unknown,
    }));
  } finally {
    database.close();
  }
}

/** A receiver in process on a free loopback port over a fresh SQLite store (or the given folder). */
export async function startTestReceiver(
  overrides: Partial<ReceiverOptions> & { storeOptions?: StoreOptions } = {},
  directory = temporaryFolder(),
): Promise<TestReceiver> {
  const store =
    (overrides.store as SqliteStore | undefined) ?? (await SqliteStore.open(directory, overrides.storeOptions));
  const stored: ReceivedEvent[] = [];
  const receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    clientId,
    clientSecret,
    tokenTtlSeconds: 3600,
    paths: defaultReceiverPaths,
    bodyLimitBytes: 1024 * 1024,
    requestTimeoutMs: 10_000,
    stuckAfterMs: 900_000,
    onStored: (event) => stored.push(event),
    ...overrides,
    store,
  });
  return {
    url: receiver.url,
    directory,
    store,
    receiver,
    stored,
    onDisk: () => inboxOnDisk(directory),
    async close() {
      await receiver.close();
      await store.close();
    },
  };
}

/** A token from the receiver in the Basic style. */
export async function receiverToken(url: string, id = clientId, secret = clientSecret): Promise<string> {
  const answer = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (answer.status !== 200) throw new Error(`token: HTTP ${answer.status}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** POSTs an event body (text as is, anything else as JSON) with a Bearer token. */
export function postEvent(
  url: string,
  kind: 'customers' | 'orders',
  body: unknown,
  token: string | undefined,
  contentType = 'application/json',
): Promise<Response> {
  return fetch(`${url}/webhooks/${kind}`, {
    method: 'POST',
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
