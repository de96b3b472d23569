/**
 * A PostgreSQL store that stops answering once opened (a network partition, a stopped VM, its backend stopped with
 * SIGSTOP) held the receiver's writes and `webhook status` for ever: only opening had a time limit. Every statement
 * now has one (the webhook.storeTimeout setting): the receiver answers the webhook 503, so the platform sends it
 * again, and takes it once the database answers again; a reading command ends with one line and exit 69; SIGTERM
 * stops a reading command at once. The database here is real; a proxy in front of it stops forwarding mid-run.
 */
import { Client } from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { PostgresStore } from '../../../src/webhook/store/postgres-store.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { type FreezingProxy, freezingProxy } from '../../support/freezing-proxy.js';
import { createDatabase, usePostgresCluster } from '../../support/postgres.js';
import type { TestContext } from '../../support/test-context.js';
import {
  clientSecret,
  listenInProcess,
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

const postgres = usePostgresCluster();
afterAll(removeReceiverFolders);
const proxies: FreezingProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

/** A database of its own, with the store's tables, and a proxy in front of it; the store's URL through the proxy. */
async function storeBehindProxy(name: string): Promise<{ url: string; direct: string; proxy: FreezingProxy }> {
  const direct = await createDatabase(postgres.cluster(), name);
  await (await PostgresStore.open(direct)).close();
  const proxy = await freezingProxy(Number(new URL(direct).port));
  proxies.push(proxy);
  const url = new URL(direct);
  url.port = String(proxy.port);
  return { url: url.href, direct, proxy };
}

async function storedEvents(direct: string): Promise<number> {
  const client = new Client({ connectionString: direct });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]?.n);
  } finally {
    await client.end();
  }
}

/** A limit of one second on every statement of the store (webhook.storeTimeout). */
const oneSecondLimit = { env: { B2BCTL_STORE_TIMEOUT: '1s' } };

const unanswered = (port: number, seconds: number) =>
  `The PostgreSQL store at 127.0.0.1:${port} did not answer within ${seconds} s; check that the database is up (the webhook.storeTimeout setting waits longer).`;

describe.skipIf(postgres.missing)(`a PostgreSQL store that stops answering mid-run${postgres.note}`, () => {
  it('the receiver answers the webhook 503 and stores it when the platform sends it again', async () => {
    const { url, direct, proxy } = await storeBehindProxy('hang_receiver');
    const { memory, url: receiver, stop } = await listenInProcess(temporaryFolder(), { store: url }, oneSecondLimit);
    try {
      const token = await receiverToken(receiver);
      const event = { ...sampleEvent('orders', new Date('2026-11-30T12:00:00Z')), id: 4711 };

      proxy.freeze();
      const refused = await postEvent(receiver, 'orders', event, token);
      expect([refused.status, await refused.json()]).toEqual([
        503,
        { error: 'inbox_unavailable', error_description: 'The event could not be stored; send it again later' },
      ]);
      expect(memory.stderr()).toContain(
        `Could not store a orders event in PostgreSQL hang_receiver@127.0.0.1: ${unanswered(proxy.port, 1).replace(/\.$/, '')}. Answered 503 so the platform can resend it.\n`,
      );
      // Not acknowledged, not stored; the connection left waiting was dropped, not given back to the pool.
      expect(await storedEvents(direct)).toBe(0);
      expect(proxy.abandoned).toBeGreaterThan(0);

      proxy.thaw();
      const resent = await postEvent(receiver, 'orders', event, token);
      expect(resent.status).toBe(200);
      expect(((await resent.json()) as { status: string }).status).toBe('stored');
      expect(await storedEvents(direct)).toBe(1);
    } finally {
      await stop();
    }
  });

  it('/healthz answers 503 degraded naming the store while it does not answer, and 200 once it does', async () => {
    const { url, proxy } = await storeBehindProxy('hang_health');
    const store = `${url}?connect_timeout=1`;
    const { url: receiver, stop } = await listenInProcess(temporaryFolder(), { store }, oneSecondLimit);
    try {
      proxy.freeze();
      // Not a 500 server_error: the receiver works, its store does not answer, and it cannot take events (a user test).
      const stalled = await fetch(`${receiver}/healthz`);
      expect([stalled.status, await stalled.json()]).toEqual([
        503,
        { status: 'degraded', problems: [{ problem: 'store cannot answer' }] },
      ]);
      proxy.thaw();
      const answered = await fetch(`${receiver}/healthz`);
      expect([answered.status, ((await answered.json()) as { status: string }).status]).toEqual([200, 'ok']);
    } finally {
      await stop();
    }
  });

  it('after a stall that failed a write, /healthz finds by itself that the store writes again: 200, no event needed', async () => {
    const { url, direct, proxy } = await storeBehindProxy('hang_health_write');
    const store = `${url}?connect_timeout=1`;
    const { url: receiver, stop } = await listenInProcess(temporaryFolder(), { store }, oneSecondLimit);
    try {
      const token = await receiverToken(receiver);
      proxy.freeze();
      expect((await postEvent(receiver, 'orders', { id: 4713 }, token)).status).toBe(503);
      proxy.thaw();
      // A balancer took the receiver out on the 503 and sends it nothing more: /healthz alone must see the store back
      // (it stayed 503 "store cannot write" until an event was stored).
      const answered = await fetch(`${receiver}/healthz`);
      expect([answered.status, await answered.json()]).toEqual([200, { status: 'ok', problems: [], handOffs: [] }]);
      // What it wrote is the digest of a token nobody holds, already expired; no event.
      expect(await storedEvents(direct)).toBe(0);
    } finally {
      await stop();
    }
  });

  it('the receiver stops on SIGTERM while a commit waits: the event is answered 503, not acknowledged', async () => {
    const { url, direct, proxy } = await storeBehindProxy('hang_receiver_stop');
    const { memory, url: receiver, stop } = await listenInProcess(temporaryFolder(), { store: url });
    const token = await receiverToken(receiver);
    proxy.freezeOn('INSERT INTO dedup');
    const posted = postEvent(receiver, 'orders', { id: 4712 }, token);
    // The default limit (30 s) is far off: only the stop's grace for the commits in flight ends the wait.
    await proxy.held();
    await stop();
    expect((await posted).status).toBe(503);
    expect(memory.stderr()).toContain('Webhook receiver stopped.\n');
    expect(await storedEvents(direct)).toBe(0);
    await expect.poll(() => proxy.open).toBe(0);
  });

  it('webhook status ends with one line naming the store, exit 69', async () => {
    const { url, proxy } = await storeBehindProxy('hang_status');
    // Opened and checked; the database stops answering at the first of status's own statements.
    proxy.freezeOn('handoffs');
    const result = await runCommandLine(['webhook', 'status', '--store', url], {
      configDir: freshConfigDir(),
      env: { B2BCTL_STORE_TIMEOUT: '1s' },
    });
    expect(result.stderr).toBe(`error: ${unanswered(proxy.port, 1)}\n`);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    // Every connection was dropped: nothing is left to keep the process alive.
    await expect.poll(() => proxy.open).toBe(0);
    expect(proxy.abandoned).toBe(1);
  });

  it('webhook status whose connection is cut mid-run ends with one line naming the store, exit 69', async () => {
    const { url, proxy } = await storeBehindProxy('cut_status');
    proxy.cutOn('handoffs');
    const result = await runCommandLine(['webhook', 'status', '--store', url], { configDir: freshConfigDir() });
    expect(result.stderr).toBe(
      `error: Lost the connection to the PostgreSQL store at 127.0.0.1:${proxy.port} (Connection terminated unexpectedly); check that the database is up.\n`,
    );
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
  });

  it('webhook status stops at once on SIGTERM while a statement waits (exit 75)', async () => {
    const { url, proxy } = await storeBehindProxy('hang_status_stop');
    proxy.freezeOn('handoffs');
    let test: TestContext | undefined;
    // The default limit (30 s) is far off: only the signal can end the wait here.
    void proxy.held().then(() => test?.interrupt('SIGTERM'));
    const result = await runCommandLine(['webhook', 'status', '--store', url], {
      configDir: freshConfigDir(),
      started: (started) => (test = started),
    });
    expect(result.stderr).toBe(
      `error: Stopped by SIGTERM while waiting for the PostgreSQL store at 127.0.0.1:${proxy.port}.\n`,
    );
    expect(result.code).toBe(75);
    expect(result.stdout).toBe('');
    await expect.poll(() => proxy.open).toBe(0);
    expect(proxy.abandoned).toBe(1);
  });

  it('a webhook.storeTimeout that is not a time is refused before connecting (exit 2)', async () => {
    const { url, proxy } = await storeBehindProxy('hang_setting');
    proxy.freeze();
    const result = await runCommandLine(['webhook', 'status', '--store', url], {
      configDir: freshConfigDir(),
      env: { B2BCTL_STORE_TIMEOUT: 'soon' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('B2BCTL_STORE_TIMEOUT');
    expect(proxy.abandoned).toBe(0);
  });

  it('a receiver whose connection is cut while it creates the tables ends with one line, exit 69, not a crash', async () => {
    // A database restart half a second into the receiver's life: the session opening the store was not listened to,
    // and pg's error event ended the process with a stack trace (a user test).
    const { url, proxy } = await storeBehindProxy('cut_opening');
    proxy.cutOn('schema_version');
    const result = await runCommandLine(
      ['webhook', 'listen', '--port', '0', '--client-id', 'erp', '--inbox', temporaryFolder(), '--store', url],
      { configDir: freshConfigDir(), env: { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret } },
    );
    expect(result.stderr).toBe(
      `error: Cannot open the PostgreSQL store "cut_opening" at 127.0.0.1:${proxy.port} (Connection terminated unexpectedly); check --store and that the database is up.\n`,
    );
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
  });

  it("a database that does not exist is named with its address and the server's words, never the password", async () => {
    const url = new URL(postgres.cluster().url);
    url.password = 'pg-S3CRET';
    url.pathname = '/nodb';
    const result = await runCommandLine(['webhook', 'status', '--store', url.href], { configDir: freshConfigDir() });
    expect(result.stderr).toContain(
      `\nerror: Cannot open the PostgreSQL store "nodb" at 127.0.0.1:${url.port}: the server answered "database "nodb" does not exist" (3D000); check the database, user and password that --store gives.\n`,
    );
    expect(result.stderr.replace(/^warning: .*\n/, '')).not.toContain('S3CRET');
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
  });

  it('a password given as ?password= is warned about as user:password@ is, and is in no other line (a user test)', async () => {
    const url = new URL(postgres.cluster().url);
    url.pathname = '/nodb';
    url.search = '?password=SuperSecret99';
    const result = await runCommandLine(['webhook', 'status', '--store', url.href], { configDir: freshConfigDir() });
    expect(result.stderr.split('\n')[0]).toBe(
      'warning: --store puts the database password in the process list and shell history; leave it out of the URL and set PGPASSWORD or a ~/.pgpass line, or pass the whole URL in an environment variable with --store-env VAR.',
    );
    expect(result.stderr.replace(/^warning: .*\n/, '')).not.toContain('SuperSecret99');
    expect(result.code).toBe(69);
  });

  it("libpq's socket form with a user and no host is taken, as psql and pg take it (a user test)", async () => {
    const { socketFolder, port } = postgres.cluster();
    const store = `postgresql://postgres@/webhooks?host=${encodeURIComponent(socketFolder)}&port=${port}`;
    // The receiver first: it makes the tables, which a command beside it only reads.
    const { url: receiver, memory, stop } = await listenInProcess(temporaryFolder(), { store });
    try {
      const token = await receiverToken(receiver);
      expect((await postEvent(receiver, 'orders', { id: 4714 }, token)).status).toBe(200);
      expect(memory.stderr()).toContain(`PostgreSQL webhooks@${socketFolder}`);
      const status = await runCommandLine(['webhook', 'status', '--store', store, '-o', 'json'], {
        configDir: freshConfigDir(),
      });
      expect([status.code, status.stderr]).toEqual([
        0,
        'No hand-off yet: start webhook listen with --forward-to or --exec.\n',
      ]);
    } finally {
      await stop();
    }
  });

  it('a receiver whose store connections are cut while it runs answers 503 and takes the event when sent again', async () => {
    const { url, direct, proxy } = await storeBehindProxy('cut_running');
    const { url: receiver, stop } = await listenInProcess(temporaryFolder(), { store: url });
    try {
      const token = await receiverToken(receiver);
      // Every connection, the idle ones and the lock session included, goes at the first append (a restart).
      proxy.cutOn('INSERT INTO dedup');
      const refused = await postEvent(receiver, 'orders', { id: 4713 }, token);
      expect(refused.status).toBe(503);
      proxy.cutOn('never sent');
      const resent = await postEvent(receiver, 'orders', { id: 4713 }, token);
      expect(resent.status).toBe(200);
      expect(await storedEvents(direct)).toBe(1);
    } finally {
      await stop();
    }
  });

  it("a lost session holding the hand-offs' locks is opened again, not the end of the receiver", async () => {
    const { direct } = await storeBehindProxy('lost_lock_session');
    const store = await PostgresStore.open(direct);
    const admin = new Client({ connectionString: direct });
    await admin.connect();
    const lockHolder = async () =>
      (await admin.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory'")).rows[0]?.pid;
    try {
      expect(await store.claimHandOff('erp')).toBe(true);
      const first = await lockHolder();
      // The database ends the session (as a restart or a connection lost does): its lock goes with it.
      await admin.query('SELECT pg_terminate_backend($1)', [first]);
      // Claimed again, on a new session of its own (the store knows its old one is gone once pg says so).
      const claimedAnew = async () => {
        const claimed = await store.claimHandOff('erp').catch(() => false);
        const holder = await lockHolder();
        return claimed && holder !== undefined && holder !== first;
      };
      await expect.poll(claimedAnew).toBe(true);
    } finally {
      await admin.end();
      await store.close();
    }
  });
});
