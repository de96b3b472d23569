import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../../src/webhook/store/postgres-store.js';
import type { NewEvent } from '../../../src/webhook/store/types.js';
import { requireThat } from '../../support/external-tools.js';
import { createDatabase, postgresBin, startPostgres, type TestPostgres } from '../../support/postgres.js';

// What keeps a PostgreSQL inbox whole when several receivers share it: a transaction that fails leaves nothing of
// itself, ids are visible in the order they were given, and two receivers starting together create the tables
// once. The moments in between are held open by the database itself (a trigger waiting on a lock this test
// holds), so what the store does while another receiver is midway is seen every time, not by chance.

const postgres = requireThat(
  postgresBin() !== undefined,
  'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
);
// Any number: the lock the test holds to stop another session's transaction midway.
const gate = 4242;

let cluster: TestPostgres | undefined;
let databases = 0;
const opened: PostgresStore[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const client of clients.splice(0)) await client.end();
});
afterAll(() => cluster?.stop());

function event(id: number): NewEvent {
  return {
    receivedAt: Date.parse('2026-11-23T06:00:00Z') + id,
    kind: 'orders',
    deliveryId: `delivery-${id}`,
    key: `orders:${id}`,
    flags: [],
    clientAddress: '10.0.0.1',
    raw: JSON.stringify({ id }),
  };
}

/** A fresh, empty database of the cluster, and a session of the test's own in it. */
async function freshDatabase(): Promise<{ url: string; name: string; client: Client }> {
  const name = `shared_${++databases}`;
  const url = await createDatabase(cluster as TestPostgres, name);
  const client = new Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return { url, name, client };
}

async function open(url: string): Promise<PostgresStore> {
  const store = await PostgresStore.open(url);
  opened.push(store);
  return store;
}

/** Waits until `count` lock requests of other sessions wait, or until `done` settles (what a broken store does). */
async function waitForWaiters(client: Client, count: number, done?: Promise<unknown>): Promise<'waiting' | 'done'> {
  let settled = false;
  void done?.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (;;) {
    const waiting = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_locks WHERE NOT granted');
    if (Number(waiting.rows[0]?.n) >= count) return 'waiting';
    if (settled) return 'done';
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What a hand-off delivers now: every event past its position, in id order, each marked delivered. */
async function deliverPending(store: PostgresStore, name: string): Promise<number[]> {
  const delivered: number[] = [];
  for (let next = await store.nextForHandOff(name); next; next = await store.nextForHandOff(name)) {
    delivered.push((next.event as { id: number }).id);
    await store.markDelivered(name, next);
  }
  return delivered;
}

describe.skipIf(postgres.missing)(`PostgreSQL store, receivers at once${postgres.note}`, () => {
  beforeAll(async () => {
    cluster ??= await startPostgres();
  }, 120_000);

  it('leaves no dead letter behind when moving the position fails in the same transaction', async () => {
    const { url, client } = await freshDatabase();
    const store = await open(url);
    for (const id of [1, 2, 3]) await store.append(event(id));
    await store.openHandOff('erp', 'http://erp', true);
    const stored = await deliverPendingUpTo(store, 'erp', 3);
    // The position's update is the transaction's second statement; the database refuses it past event 2.
    await client.query('ALTER TABLE handoffs ADD CONSTRAINT position_cap CHECK (position <= 2)');
    await expect(store.markDead('erp', stored, 'refused', 1)).rejects.toThrow(/position_cap/);
    expect(await store.deadLetters()).toEqual([]);
    expect((await store.nextForHandOff('erp'))?.id).toBe(stored.id);
  });

  it('gives ids in commit order: a reader following ids never skips an event another receiver commits later', async () => {
    const { url, client } = await freshDatabase();
    const [first, second] = [await open(url), await open(url)];
    await first.openHandOff('erp', 'http://erp', true);
    // The first receiver's insert of event 1 waits, its id given, until the test lets its transaction go on.
    await client.query(`CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(${gate}); RETURN NEW; END $$`);
    await client.query(`CREATE TRIGGER hold AFTER INSERT ON events FOR EACH ROW WHEN (NEW.key = 'orders:1')
      EXECUTE FUNCTION hold()`);
    await client.query('SELECT pg_advisory_lock($1)', [gate]);
    const held = first.append(event(1));
    expect(await waitForWaiters(client, 1, held)).toBe('waiting');
    const later = second.append(event(2));
    // The second receiver waits for the first's commit (a store without the append lock commits event 2 now).
    await waitForWaiters(client, 2, later);
    const before = await deliverPending(first, 'erp');
    await client.query('SELECT pg_advisory_unlock($1)', [gate]);
    expect([await held, await later]).toEqual([{ stored: true }, { stored: true }]);
    expect([...before, ...(await deliverPending(first, 'erp'))]).toEqual([1, 2]);
  });

  it('creates the tables once when two receivers open an empty database at the same moment', async () => {
    const { url, client } = await freshDatabase();
    // The first receiver's schema creation waits after its first table, uncommitted, until the test lets it go on.
    await client.query(`CREATE FUNCTION hold() RETURNS event_trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(${gate}); END $$`);
    await client.query('CREATE EVENT TRIGGER hold ON ddl_command_end EXECUTE FUNCTION hold()');
    await client.query('SELECT pg_advisory_lock($1)', [gate]);
    const firstOpening = open(url);
    expect(await waitForWaiters(client, 1, firstOpening)).toBe('waiting');
    const secondOpening = open(url);
    // Without the schema lock the second one's CREATE TABLE IF NOT EXISTS collides with the uncommitted table.
    expect(await waitForWaiters(client, 2, secondOpening)).toBe('waiting');
    await client.query('SELECT pg_advisory_unlock($1)', [gate]);
    const [first, second] = [await firstOpening, await secondOpening];
    await first.append(event(1));
    expect((await second.append(event(1))).stored).toBe(false);
  });

  it('describes a database reached through a URL naming no host as on localhost', async () => {
    const { name } = await freshDatabase();
    const port = new URL((cluster as TestPostgres).url).port;
    const host = process.env.PGHOST;
    delete process.env.PGHOST;
    try {
      const store = await open(`postgres:///${name}?port=${port}&user=postgres`);
      expect(store.description).toBe(`PostgreSQL ${name}@localhost`);
    } finally {
      if (host !== undefined) process.env.PGHOST = host;
    }
  });
});

/** Delivers the events before `last`, and gives back event `last` (the next one) undelivered. */
async function deliverPendingUpTo(store: PostgresStore, name: string, last: number) {
  for (;;) {
    const next = await store.nextForHandOff(name);
    if (!next) throw new Error(`event ${last} not reached`);
    if ((next.event as { id: number }).id === last) return next;
    await store.markDelivered(name, next);
  }
}
