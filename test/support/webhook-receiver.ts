import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type ListenOptions, run as listen } from '../../src/commands/webhook/listen.js';
import {
  defaultReceiverPaths,
  type ReceivedEvent,
  type ReceiverOptions,
  type RunningReceiver,
  startReceiver,
} from '../../src/webhook/receiver.js';
import { sampleEvent } from '../../src/webhook/sender.js';
import { sqliteFileName, SqliteStore } from '../../src/webhook/store/sqlite-store.js';
import type { StoredEvent, StoreOptions } from '../../src/webhook/store/types.js';
import { collect, freshConfigDir, type RunResult, spawnCli } from './cli.js';
import { type AppendInterceptor, interceptedAppends } from './store-double.js';
import { type TestContext, testContext, type TestContextOptions } from './test-context.js';
import { removeTemporaryFolders, temporaryFolder } from './temporary.js';
import { afterAll, afterEach } from 'vitest';

export const clientId = 'erp-client';
// As long as `webhook listen` asks (32 characters at least).
export const clientSecret = 'receiver-s3cret-0123456789abcdef';

/** The orders event a receiver test posts: the sender's sample, made at 2026-11-23 06:00 UTC. */
export const sampleOrder = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));

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
  const database = new DatabaseSync(join(directory, sqliteFileName), { readOnly: true });
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

/**
 * A receiver in process on a free loopback port over a fresh SQLite store (or the given folder); `appendThrough`
 * puts a test double in front of the store's appends (store-double.ts).
 */
export async function startTestReceiver(
  testOverrides: Partial<ReceiverOptions> & { storeOptions?: StoreOptions; appendThrough?: AppendInterceptor } = {},
  directory = temporaryFolder(),
): Promise<TestReceiver> {
  const { appendThrough, ...overrides } = testOverrides;
  // One clock for the receiver and its store, as webhook listen gives them.
  const opened =
    (overrides.store as SqliteStore | undefined) ??
    (await SqliteStore.open(directory, { now: overrides.now, ...overrides.storeOptions }));
  const store = appendThrough ? interceptedAppends(opened, appendThrough) : opened;
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

/** A line of the NDJSON inbox earlier versions wrote (its event `{ id }`, received at second `id`). */
export function oldInboxLine(id: number): string {
  return JSON.stringify({
    receivedAt: `2026-11-23T06:00:0${id}.000Z`,
    kind: 'orders',
    deliveryId: `d${id}`,
    key: `orders:${id}:x`,
    flags: [],
    event: { id },
  });
}

/** A `webhook listen` of the built binary, its URL, and what it printed once it exits. */
export interface SpawnedReceiver {
  child: ChildProcess;
  url: string;
  done: Promise<RunResult>;
  /** What it has written to stderr so far, from its start: a test waits for a line there. */
  stderrSoFar: () => string;
}

/**
 * Spawns `webhook listen --port 0 --client-id …` with `extraArgs` and this file's client secret (and `env`, such as
 * the platform a --fetch-orders receiver fetches from), in a fresh config folder, and resolves with its URL, read from
 * the first stdout line.
 */
export async function spawnReceiver(
  extraArgs: readonly string[],
  env: Record<string, string> = {},
): Promise<SpawnedReceiver> {
  const child = spawnCli(
    ['webhook', 'listen', '--port', '0', '--client-id', clientId, ...extraArgs],
    freshConfigDir(),
    {
      B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret,
      ...env,
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = collect(child);
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const newline = text.indexOf('\n');
      if (newline >= 0) resolve(text.slice(0, newline));
    });
    child.on('close', (code) => reject(new Error(`listen exited ${code} before printing its URL`)));
  });
  return { child, url, done, stderrSoFar: () => stderr };
}

/** POSTs an event as `postEvent` does, with a token the receiver at `url` has just issued. */
export async function postWithToken(url: string, kind: 'customers' | 'orders', body: unknown): Promise<Response> {
  return postEvent(url, kind, body, await receiverToken(url));
}

/**
 * The pending count /healthz gives for hand-off `name` (`forward`, `exec`): read from the store, it is what a kill
 * would leave, so 0 says every event the ERP took is recorded as taken.
 */
export async function pendingOn(url: string, name: string): Promise<number | undefined> {
  const page = (await (await fetch(`${url}/healthz`)).json()) as { handOffs: { name: string; pending: number }[] };
  return page.handOffs.find((handOff) => handOff.name === name)?.pending;
}

/** The environment of a `webhook listen` in process: a config folder of its own, this file's client secret, `extra`. */
export function receiverEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret, ...extra };
}

/** A `webhook listen` running in process, once it has printed its URL. */
export interface ListeningReceiver {
  memory: TestContext;
  url: string;
  /** Interrupts it, as SIGTERM does, and waits until it has stopped. */
  stop(): Promise<void>;
}

/**
 * `webhook listen` on `inbox` with `extra` flags, run in process in the receiver's environment (`context.env` on
 * top of it) until its URL is printed.
 */
export async function listenInProcess(
  inbox: string,
  extra: Partial<ListenOptions> = {},
  context: TestContextOptions = {},
): Promise<ListeningReceiver> {
  const memory = testContext({ ...context, env: receiverEnv(context.env) });
  const running = listen(listenOptions(inbox, extra), memory.context);
  const url = await memory.firstLine();
  const stop = async () => {
    memory.interrupt();
    await running;
  };
  return { memory, url, stop };
}

/** `webhook listen` options as its flags' defaults give them, on a loopback ephemeral port, with `extra` on top. */
export function listenOptions(inbox: string, extra: Partial<ListenOptions> = {}): ListenOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    clientId,
    inbox,
    tokenTtl: 3600,
    bodyLimit: 1024 * 1024,
    requestTimeout: 10_000,
    maxConnections: 1024,
    maxConnectionsPerAddress: 64,
    fetchOrders: false,
    groupCommit: true,
    fromStart: false,
    giveUpAfter: 72 * 3_600_000,
    forwardTimeout: 30_000,
    forwardBatch: 1,
    logEvents: false,
    execTimeout: 60_000,
    dedupWindow: 7 * 86_400_000,
    stuckAfter: 900_000,
    ...extra,
  };
}

/**
 * Receivers started in a test file and closed after each test, with the file's folders removed after all: call it
 * at the top of the file and start receivers with what it returns.
 */
export function useTestReceivers(): (...parameters: Parameters<typeof startTestReceiver>) => Promise<TestReceiver> {
  const running: TestReceiver[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((started) => started.close()));
  });
  afterAll(removeTemporaryFolders);
  return async (...parameters) => {
    const started = await startTestReceiver(...parameters);
    running.push(started);
    return started;
  };
}
