import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../../src/webhook/store/postgres-store.js';
import { sqliteFileName, SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { SqliteDatabase } from '../../../src/webhook/store/sqlite-database.js';
import type { EventSelection, EventStore, NewEvent, StoreOptions } from '../../../src/webhook/store/types.js';
import { requireThat } from '../../support/external-tools.js';
import { FakeClock } from '../../support/fake-clock.js';
import { createDatabase, postgresBin, startPostgres, type TestPostgres } from '../../support/postgres.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

// What every store keeps, run against SQLite and against a throwaway PostgreSQL cluster (when installed): the
// delivery position, the dead letters, de-duplication and retention are where a store loses or repeats events.

const minute = 60_000;
const start = Date.parse('2026-11-23T06:00:00Z');
const postgres = requireThat(
  postgresBin() !== undefined,
  'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
);

function event(id: number, receivedAt = start + id * minute, kind: NewEvent['kind'] = 'orders'): NewEvent {
  return {
    receivedAt,
    kind,
    deliveryId: `delivery-${id}`,
    key: `${kind}:${id}`,
    flags: id % 2 ? [] : ['no order number'],
    clientAddress: `10.0.0.${id % 250}`,
    raw: JSON.stringify({ id }),
  };
}

async function idsOf(store: EventStore, selection: EventSelection = {}): Promise<number[]> {
  const ids: number[] = [];
  for await (const stored of store.select(selection)) ids.push((stored.event as { id: number }).id);
  return ids;
}

async function storedOf(store: EventStore, id: number) {
  for await (const stored of store.select({})) if ((stored.event as { id: number }).id === id) return stored;
  throw new Error(`event ${id} not stored`);
}

async function appendAll(store: EventStore, ids: number[]): Promise<void> {
  for (const id of ids) expect(await store.append(event(id))).toEqual({ stored: true });
}

let cluster: TestPostgres | undefined;
let databases = 0;
const opened: EventStore[] = [];

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
afterAll(() => {
  cluster?.stop();
  removeReceiverFolders();
});

/** A fresh, empty database of the cluster for each test. */
async function freshPostgresUrl(): Promise<string> {
  return createDatabase(cluster as TestPostgres, `contract_${++databases}`);
}

interface Kind {
  name: string;
  skip: boolean;
  setUp: () => Promise<void>;
  open: (options?: StoreOptions) => Promise<{ store: EventStore; again: () => Promise<EventStore> }>;
}

const kinds: Kind[] = [
  {
    name: 'SQLite',
    skip: false,
    setUp: async () => undefined,
    open: async (options) => {
      const directory = temporaryFolder();
      const store = await SqliteStore.open(directory, options);
      opened.push(store);
      return {
        store,
        again: async () => {
          const other = await SqliteStore.open(directory);
          opened.push(other);
          return other;
        },
      };
    },
  },
  {
    name: `PostgreSQL${postgres.note}`,
    skip: postgres.missing,
    setUp: async () => {
      cluster ??= await startPostgres();
    },
    open: async (options) => {
      const url = await freshPostgresUrl();
      const store = await PostgresStore.open(url, options);
      opened.push(store);
      return {
        store,
        again: async () => {
          const other = await PostgresStore.open(url);
          opened.push(other);
          return other;
        },
      };
    },
  },
];

describe.each(kinds)('the $name store', (kind) => {
  beforeAll(kind.setUp, 120_000);
  const open = (options?: StoreOptions) => kind.open(options);

  it.skipIf(kind.skip)(
    "knows its largest event id (0 when empty): the inbox table's ID column is sized to it",
    async () => {
      const { store } = await open();
      expect(await store.newestId()).toBe(0);
      await appendAll(store, [1, 2, 3]);
      const ids: number[] = [];
      for await (const stored of store.select({})) ids.push(stored.id);
      expect(await store.newestId()).toBe(Math.max(...ids));
    },
  );

  it.skipIf(kind.skip)(
    'an event whose former key the store keeps is a duplicate (a key stored before keys read ids and stamps as meant)',
    async () => {
      const { store } = await open();
      // As an earlier b2bctl stored it: the stamp as written.
      expect(await store.append({ ...event(7), key: 'orders:7:2026-11-30T20:00:00-03:00' })).toEqual({ stored: true });
      const again = { ...event(7), key: 'orders:7:2026-11-30T23:00:00.000Z' };
      expect(await store.append({ ...again, formerKey: 'orders:7:2026-11-30T20:00:00-03:00' })).toEqual({
        stored: false,
      });
      // In one batch too; a former key the store does not keep stores the event under its key.
      const batch = await Promise.all([
        store.append({ ...again, deliveryId: 'd-b', formerKey: 'orders:7:2026-11-30T20:00:00-03:00' }),
        store.append({
          ...event(8),
          key: 'orders:8:2026-11-30T23:00:00.000Z',
          formerKey: 'orders:8:2026-11-30T23:00:00Z',
        }),
      ]);
      expect(batch).toEqual([{ stored: false }, { stored: true }]);
      expect(await store.append({ ...event(8), key: 'orders:8:2026-11-30T23:00:00.000Z' })).toEqual({ stored: false });
      expect(await idsOf(store)).toEqual([7, 8]);
    },
  );

  it.skipIf(kind.skip)('keeps each event as sent, once per key, and tells a duplicate', async () => {
    const { store } = await open();
    expect(await store.append(event(2))).toEqual({ stored: true });
    expect(await store.append({ ...event(2), raw: '{"id":2,"again":true}' })).toEqual({ stored: false });
    // Copies of one event in one batch: the first is stored, the others are duplicates.
    const copies = await Promise.all([store.append(event(3)), store.append(event(3)), store.append(event(4))]);
    expect(copies).toEqual([{ stored: true }, { stored: false }, { stored: true }]);
    const first = await storedOf(store, 2);
    expect(first).toEqual({
      id: first.id,
      receivedAt: new Date(start + 2 * minute).toISOString(),
      kind: 'orders',
      deliveryId: 'delivery-2',
      key: 'orders:2',
      flags: ['no order number'],
      clientAddress: '10.0.0.2',
      event: { id: 2 },
      // The text as it came, for the hand-offs (a number past 2^53 is not what `event` holds once parsed).
      eventJson: expect.any(String),
    });
    expect(JSON.parse(first.eventJson as string)).toEqual({ id: 2 });
    expect(typeof first.id).toBe('number');
    expect(await idsOf(store)).toEqual([2, 3, 4]);
    expect(store.description).toMatch(
      kind.name === 'SQLite' ? /^SQLite \/.*inbox\.sqlite$/ : /^PostgreSQL contract_\d+@127\.0\.0\.1$/,
    );
  });

  it.skipIf(kind.skip)(
    'drops a hand-off no receiver runs: its position and dead letters go; not while a command run is recorded',
    async () => {
      const { store } = await open();
      await appendAll(store, [1, 2, 3]);
      await store.openHandOff('old', 'exec /bin/true', true);
      await store.openHandOff('forward', 'http://erp', true);
      await store.markDead('old', await storedOf(store, 1), 'exit 1', 1);
      await store.recordRun({ handOff: 'old', host: 'h', processGroup: 42, eventId: 2, startedAt: start });
      expect(await store.dropHandOff('old')).toBe('command recorded');
      await store.forgetRun('old', 'h', 42);
      expect(await store.dropHandOff('old')).toBe('dropped');
      expect((await store.backlog()).map((handOff) => handOff.name)).toEqual(['forward']);
      expect(await store.deadLetters()).toEqual([]);
      expect(await store.dropHandOff('old')).toBe('unknown');
      // Opened again, it is a new hand-off.
      expect(await store.openHandOff('old', 'exec /bin/true', false)).toEqual({ created: true });
    },
  );

  it.skipIf(kind.skip)(
    'keeps the event a hand-off fails on, since when and its failed tries, through a reopening, until it is delivered or dead',
    async () => {
      const { store, again } = await open();
      await appendAll(store, [1, 2, 3]);
      await store.openHandOff('forward', 'http://erp', true);
      expect(await store.failingEvent('forward')).toBeUndefined();
      const [first, second] = [await storedOf(store, 1), await storedOf(store, 2)];
      await store.recordFailing('forward', first.id, start + minute, 1);
      await store.recordFailing('forward', first.id, start + minute, 5);
      const failing = { eventId: first.id, since: start + minute, attempts: 5 };
      expect(await (await again()).failingEvent('forward')).toEqual(failing);
      // Another event delivered leaves it; its own delivery clears it.
      await store.markDelivered('forward', second);
      expect(await store.failingEvent('forward')).toEqual(failing);
      await store.markDelivered('forward', [first, second]);
      expect(await store.failingEvent('forward')).toBeUndefined();
      // Dead, likewise: a retried dead letter starts its clocks and its count again.
      await store.recordFailing('forward', second.id, start + 2 * minute, 8);
      await store.markDead('forward', second, 'HTTP 503', 9);
      expect(await store.failingEvent('forward')).toBeUndefined();
    },
  );

  it.skipIf(kind.skip)('selects by kind, since (inclusive) and until (exclusive), ids, pending and dead', async () => {
    const { store } = await open();
    for (const id of [1, 2, 3, 4, 5, 6])
      await store.append(event(id, start + id * minute, id % 2 ? 'orders' : 'customers'));
    expect(await idsOf(store, { kind: 'customers' })).toEqual([2, 4, 6]);
    expect(await idsOf(store, { since: start + 2 * minute, until: start + 5 * minute })).toEqual([2, 3, 4]);
    expect(await idsOf(store, { kind: 'orders', since: start + 3 * minute })).toEqual([3, 5]);
    expect(await idsOf(store, { until: start + 2 * minute })).toEqual([1]);
    const third = await storedOf(store, 3);
    const fifth = await storedOf(store, 5);
    expect(await idsOf(store, { ids: [fifth.id, third.id] })).toEqual([3, 5]);
    // Without a hand-off everything is pending.
    expect(await idsOf(store, { pending: true })).toEqual([1, 2, 3, 4, 5, 6]);
    await store.openHandOff('forward', 'http://erp/hook', true);
    await store.markDelivered('forward', await storedOf(store, 2));
    await store.markDead('forward', third, 'HTTP 422', 1);
    expect(await idsOf(store, { pending: true })).toEqual([4, 5, 6]);
    expect(await idsOf(store, { dead: true })).toEqual([3]);
    expect(await idsOf(store, { dead: true, kind: 'customers' })).toEqual([]);
  });

  it.skipIf(kind.skip)(
    'orders time selections by reception, and ids, pending and dead ones by store order',
    async () => {
      const { store } = await open();
      // Stored in the order 1, 2, 3, received in the order 3, 2, 1 (a clock stepped back, an import).
      for (const id of [1, 2, 3]) await store.append(event(id, start + (10 - id) * minute));
      expect(await idsOf(store)).toEqual([3, 2, 1]);
      expect(await idsOf(store, { since: start })).toEqual([3, 2, 1]);
      expect(await idsOf(store, { pending: true })).toEqual([1, 2, 3]);
      const stored = await Promise.all([1, 2, 3].map((id) => storedOf(store, id)));
      expect(await idsOf(store, { ids: stored.map((each) => each.id).toReversed() })).toEqual([1, 2, 3]);
      await store.openHandOff('erp', 'http://erp', true);
      for (const each of stored) await store.markDead('erp', each, 'HTTP 422', 1);
      expect(await idsOf(store, { dead: true })).toEqual([1, 2, 3]);
    },
  );

  it.skipIf(kind.skip)('reads a selection past one page, events of one instant across the page break', async () => {
    const { store } = await open();
    // 1,200 events, 700 of them received at the same millisecond: a page break falls among them.
    const events = Array.from({ length: 1200 }, (_, index) => event(index + 1, start + Math.max(0, index - 699)));
    const answers = await Promise.all(events.map((each) => store.append(each)));
    expect(answers.every((answer) => answer.stored)).toBe(true);
    const all = await idsOf(store);
    expect(all).toEqual(events.map((_, index) => index + 1));
    expect(await idsOf(store, { since: start })).toEqual(all);
    expect(await idsOf(store, { pending: true })).toEqual(all);
  });

  it.skipIf(kind.skip)(
    'starts a hand-off after the newest event, or from the start; a new target keeps the position',
    async () => {
      const { store } = await open();
      await appendAll(store, [1, 2]);
      expect(await store.openHandOff('fresh', 'http://a', false)).toEqual({ created: true });
      expect(await store.openHandOff('all', 'http://a', true)).toEqual({ created: true });
      expect(await store.nextForHandOff('fresh')).toBeUndefined();
      expect((await store.nextForHandOff('all'))?.event).toEqual({ id: 1 });
      await store.markDelivered('all', await storedOf(store, 1));
      expect(await store.openHandOff('all', 'http://a', true)).toEqual({ created: false });
      expect(await store.openHandOff('all', 'http://b', true)).toEqual({ created: false, previousTarget: 'http://a' });
      expect((await store.nextForHandOff('all'))?.event).toEqual({ id: 2 });
      // The statements' time is added to what the caller counts (Server-Timing on /healthz).
      const timing = { workMs: 0.5 };
      expect(await store.backlog(timing)).toEqual([
        { name: 'all', target: 'http://b', pending: 1, oldestPendingAt: start + 2 * minute, dead: 0 },
        { name: 'fresh', target: 'http://a', pending: 0, oldestPendingAt: undefined, dead: 0 },
      ]);
      expect(timing.workMs).toBeGreaterThan(0.5);
      // The caller's waits for a core where the statements run on its thread (SQLite), not the database's (PostgreSQL).
      expect(Object.keys(timing).toSorted()).toEqual(kind.name === 'SQLite' ? ['coreWaitMs', 'workMs'] : ['workMs']);
      await store.append(event(3));
      expect((await store.nextForHandOff('fresh'))?.event).toEqual({ id: 3 });
    },
  );

  it.skipIf(kind.skip)('keeps dead letters apart, retries one first, and never moves a position back', async () => {
    const { store } = await open();
    await appendAll(store, [1, 2, 3, 4]);
    await store.openHandOff('erp', 'http://erp', true);
    await store.openHandOff('audit', 'http://audit', true);
    const [one, two, three, four] = await Promise.all([1, 2, 3, 4].map((id) => storedOf(store, id)));
    if (!one || !two || !three || !four) throw new Error('not stored');
    await store.markDelivered('erp', one);
    await store.markDead('erp', two, 'HTTP 422: refused', 1);
    await store.markDead('audit', two, 'exit code 3', 4);
    await store.markDelivered('erp', three);
    await store.markDelivered('erp', four);
    const letters = await store.deadLetters();
    expect(
      letters.map(({ handOff, eventId, error, attempts, retry, kind: k }) => ({
        handOff,
        eventId,
        error,
        attempts,
        retry,
        k,
      })),
    ).toEqual([
      { handOff: 'audit', eventId: two.id, error: 'exit code 3', attempts: 4, retry: false, k: 'orders' },
      { handOff: 'erp', eventId: two.id, error: 'HTTP 422: refused', attempts: 1, retry: false, k: 'orders' },
    ]);
    expect(letters[0]?.receivedAt).toBe(two.receivedAt);
    expect(Date.parse(letters[0]?.diedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await store.deadLetters('erp')).map((letter) => letter.handOff)).toEqual(['erp']);
    expect(await store.nextForHandOff('erp')).toBeUndefined();
    expect(await store.backlog()).toMatchObject([
      { name: 'audit', pending: 2, dead: 1 },
      { name: 'erp', pending: 0, dead: 1 },
    ]);

    // Retried for one hand-off only: that one gets it first, the other does not.
    expect(await store.retryDead([two.id], 'erp')).toBe(1);
    expect((await store.deadLetters('erp'))[0]?.retry).toBe(true);
    expect((await store.deadLetters('audit'))[0]?.retry).toBe(false);
    expect((await store.nextForHandOff('erp'))?.id).toBe(two.id);
    expect((await store.nextForHandOff('audit'))?.id).toBe(three.id);
    // Dead again: recorded again with the new error, no longer marked for retry.
    await store.markDead('erp', two, 'HTTP 409', 2);
    expect(await store.deadLetters('erp')).toMatchObject([{ error: 'HTTP 409', attempts: 2, retry: false }]);
    expect(await store.nextForHandOff('erp')).toBeUndefined();
    // Delivered on its next retry: its letter goes, and the position stays past event 4.
    await store.retryDead([two.id]);
    await store.markDelivered('erp', two);
    expect(await store.deadLetters('erp')).toEqual([]);
    expect(await store.nextForHandOff('erp')).toBeUndefined();
    await store.append(event(5));
    expect((await store.nextForHandOff('erp'))?.event).toEqual({ id: 5 });
    // Dropped: gone from that hand-off only; a drop of what is not there changes nothing.
    expect(await store.dropDead([two.id, four.id], 'audit')).toBe(1);
    expect(await store.dropDead([two.id])).toBe(0);
    expect(await store.deadLetters()).toEqual([]);
  });

  it.skipIf(kind.skip)(
    'retention removes what every hand-off took, keeps dead and pending events; keys on their own clock',
    async () => {
      const { store } = await open();
      await appendAll(store, [1, 2, 3, 4, 5]);
      await store.openHandOff('erp', 'http://erp', true);
      await store.markDelivered('erp', await storedOf(store, 1));
      await store.markDead('erp', await storedOf(store, 2), 'HTTP 422', 1);
      await store.markDelivered('erp', await storedOf(store, 3));
      // Event 3 is delivered but received after the bound; 4 and 5 are pending.
      expect(await store.prune(start + 3 * minute, start + 2 * minute)).toEqual({ events: 1, keys: 1 });
      expect(await idsOf(store)).toEqual([2, 3, 4, 5]);
      expect(await store.append(event(1))).toEqual({ stored: true });
      expect(await store.append(event(2))).toEqual({ stored: false });
      // No event bound: only keys go.
      expect(await store.prune(undefined, start + 10 * minute)).toEqual({ events: 0, keys: 5 });
      // In time order: the event stored again was received first.
      expect(await idsOf(store)).toEqual([1, 2, 3, 4, 5]);
    },
  );

  it.skipIf(kind.skip)(
    'retention with two hand-offs at different positions removes only what the slower one has delivered too',
    async () => {
      const { store } = await open();
      await appendAll(store, [1, 2, 3, 4, 5, 6]);
      // The faster hand-off opened first, so a pass that read the first hand-off's position would prune by it.
      await store.openHandOff('erp', 'http://erp', true);
      await store.openHandOff('audit', 'http://audit', true);
      for (const id of [1, 2, 3, 4, 5]) await store.markDelivered('erp', await storedOf(store, id));
      for (const id of [1, 2]) await store.markDelivered('audit', await storedOf(store, id));
      // Every event is older than the bound: only 1 and 2, delivered to both, may go.
      expect(await store.prune(start + 60 * minute, 0)).toEqual({ events: 2, keys: 0 });
      expect(await idsOf(store)).toEqual([3, 4, 5, 6]);
      expect((await store.nextForHandOff('audit'))?.event).toEqual({ id: 3 });
      expect((await store.nextForHandOff('erp'))?.event).toEqual({ id: 6 });
      expect((await store.backlog()).map(({ name, pending }) => ({ name, pending }))).toEqual([
        { name: 'audit', pending: 4 },
        { name: 'erp', pending: 1 },
      ]);
      // The slower one catches up to 4: 3 and 4 go; 5 waits for it still.
      for (const id of [3, 4]) await store.markDelivered('audit', await storedOf(store, id));
      expect(await store.prune(start + 60 * minute, 0)).toEqual({ events: 2, keys: 0 });
      expect(await idsOf(store)).toEqual([5, 6]);
      expect((await store.nextForHandOff('audit'))?.event).toEqual({ id: 5 });
    },
  );

  it.skipIf(kind.skip)('without any hand-off, retention removes every event older than the bound', async () => {
    const { store } = await open();
    await appendAll(store, [1, 2, 3]);
    expect(await store.prune(start + 2.5 * minute, 0)).toEqual({ events: 2, keys: 0 });
    expect(await idsOf(store)).toEqual([3]);
  });

  it.skipIf(kind.skip)('tells listeners of a commit that stored something, until they unsubscribe', async () => {
    const { store } = await open();
    let calls = 0;
    const unsubscribe = store.onAppended(() => calls++);
    await store.append(event(1));
    expect(calls).toBe(1);
    await store.append(event(1));
    expect(calls).toBe(1);
    unsubscribe();
    await store.append(event(2));
    expect(calls).toBe(1);
  });

  // Listeners hear of each commit that stored something once: their calls count the commits.
  it.skipIf(kind.skip)('commits one event at a time when group commit is off', async () => {
    const { store } = await open({ groupCommit: false });
    let commits = 0;
    store.onAppended(() => commits++);
    await Promise.all([1, 2, 3].map((id) => store.append(event(id))));
    expect(commits).toBe(3);
    expect(await idsOf(store)).toEqual([1, 2, 3]);
  });

  it.skipIf(kind.skip)('commits the appends of one moment together by default', async () => {
    const { store } = await open();
    let commits = 0;
    store.onAppended(() => commits++);
    await Promise.all([1, 2, 3].map((id) => store.append(event(id))));
    expect(commits).toBe(1);
    expect(await idsOf(store)).toEqual([1, 2, 3]);
  });

  it.skipIf(kind.skip)('resolves an append only once another connection can read it', async () => {
    const { store, again } = await open();
    const other = await again();
    // Each reads right after its own append resolved: its event must be there, whichever batch took it.
    await Promise.all(
      [4, 5].map(async (id) => {
        await store.append(event(id));
        expect(await idsOf(other)).toContain(id);
      }),
    );
  });

  it.skipIf(kind.skip)('dates dead letters and expires tokens by its own clock', async () => {
    // A clock years away from the machine's: every time the store writes or compares is the one it was given.
    const clock = new FakeClock(Date.parse('2031-02-03T04:05:06Z'));
    const { store } = await open({ now: () => clock.now() });
    await store.append(event(1));
    await store.openHandOff('erp', 'http://erp', true);
    await store.markDead('erp', await storedOf(store, 1), 'HTTP 422', 1);
    expect((await store.deadLetters())[0]?.diedAt).toBe('2031-02-03T04:05:06.000Z');
    await store.shareToken('digest-old', clock.now() + minute, minute);
    clock.advance(3 * minute);
    // Sharing a token sweeps those expired more than a lifetime ago, judged by the store's clock (the old one's
    // expiry is years ahead of the machine's time): the old digest is gone even at a time when it would be valid.
    await store.shareToken('digest-new', clock.now() + minute, minute);
    expect(await store.tokenExpiry('digest-old', clock.now() - 3 * minute)).toBeUndefined();
    expect(await store.tokenExpiry('digest-new', clock.now())).toBe(clock.now() + minute);
  });

  it.skipIf(kind.skip)('close() waits for an append in flight, which a store opened again then holds', async () => {
    const { store, again } = await open();
    const pending = store.append(event(7));
    await store.close();
    opened.splice(opened.indexOf(store), 1);
    expect(await pending).toEqual({ stored: true });
    // Closed for good: its connections are gone.
    await expect(idsOf(store)).rejects.toThrow(/not open|after calling end/);
    expect(await idsOf(await again())).toEqual([7]);
  });

  it.skipIf(kind.skip)(
    'masks forms in kept dead letters in the order given, once per fingerprint under its own kept key',
    async () => {
      const { store, again } = await open();
      await appendAll(store, [1, 2, 3]);
      await store.openHandOff('forward', 'http://erp', true);
      await store.markDead('forward', await storedOf(store, 1), 'HTTP 401: usr:pa%_ss-word and pa%_ss-word', 1);
      await store.markDead('forward', await storedOf(store, 2), 'HTTP 422: no customer', 1);
      const keys: string[] = [];
      const masking = (forms: string[], key: string) => ({
        forms,
        mask: '[redacted]',
        fingerprint: (kept: string, form: string) => {
          keys.push(kept);
          return `${kept}/${form.length}`;
        },
        freshKey: () => key,
      });
      // The pair first (the longest), then the password: no piece of the pair is left; `%` and `_` are literal.
      expect(await store.maskInDeadLetters(masking(['usr:pa%_ss-word', 'pa%_ss-word'], 'key-1'))).toEqual({
        scanned: 2,
        changed: 1,
      });
      expect((await store.deadLetters()).map((letter) => letter.error)).toEqual([
        'HTTP 401: [redacted] and [redacted]',
        'HTTP 422: no customer',
      ]);
      await store.markDead('forward', await storedOf(store, 3), 'HTTP 401: pa%_ss-word', 1);
      // Known fingerprints (another connection: a restart): no form new, the first key kept, not replaced; the letter
      // that died since the last scan (an older receiver on a shared store) is masked all the same (a user test).
      const other = await again();
      expect(await other.maskInDeadLetters(masking(['usr:pa%_ss-word', 'pa%_ss-word'], 'key-2'))).toEqual({
        scanned: 0,
        changed: 1,
      });
      expect(new Set(keys)).toEqual(new Set(['key-1']));
      expect((await other.deadLetters()).map((letter) => letter.error)[2]).toBe('HTTP 401: [redacted]');
      // A new form (another credential) is scanned.
      expect(await other.maskInDeadLetters(masking(['another-token'], 'key-3'))).toEqual({ scanned: 1, changed: 0 });
    },
  );

  it.skipIf(kind.skip)(
    'keeps tokens as digests until they expire, and forgets them all with a new token key',
    async () => {
      const now = Date.parse('2026-11-23T06:00:00Z');
      const { store, again } = await open({ now: () => now });
      const first = { verifier: 'verifier-1', key: 'key-1' };
      const adopt = (target: EventStore, verifier: string, record = first) =>
        target.adoptTokenKey(
          (kept) => kept === verifier,
          () => record,
        );
      expect(await adopt(store, 'verifier-1')).toEqual({ key: 'key-1', revoked: false });
      await store.shareToken('digest-a', now + 3_600_000, 3_600_000);
      await store.shareToken('digest-a', now + 3_600_000, 3_600_000);
      const other = await again();
      // The same secret on another connection (a restart, another receiver): the same key, the token known.
      expect(await adopt(other, 'verifier-1', { verifier: 'unused', key: 'unused' })).toEqual({
        key: 'key-1',
        revoked: false,
      });
      expect(await other.tokenExpiry('digest-a', now)).toBe(now + 3_600_000);
      expect(await other.tokenExpiry('digest-a', now + 3_600_000)).toBeUndefined();
      expect(await other.tokenExpiry('digest-b', now)).toBeUndefined();
      // Another secret: a new key, and no token of the old one.
      expect(await adopt(other, 'verifier-2', { verifier: 'verifier-2', key: 'key-2' })).toEqual({
        key: 'key-2',
        revoked: true,
      });
      expect(await store.tokenExpiry('digest-a', now)).toBeUndefined();
      expect(await adopt(store, 'verifier-2')).toEqual({ key: 'key-2', revoked: false });
    },
  );
});

describe('SQLite store files', () => {
  it('opens read-only only an inbox that exists, creating nothing', async () => {
    const directory = join(temporaryFolder(), 'none');
    await expect(SqliteStore.open(directory, {}, true)).rejects.toThrow(/directory does not exist|unable to open/);
    expect(existsSync(directory)).toBe(false);
    // A folder that exists but holds no inbox: still refused, and no empty inbox is left in it.
    mkdirSync(directory);
    await expect(SqliteStore.open(directory, {}, true)).rejects.toThrow(/unable to open/);
    expect(readdirSync(directory)).toEqual([]);
    const store = await SqliteStore.open(directory);
    await store.append(event(1));
    await store.close();
    expect(existsSync(join(directory, sqliteFileName))).toBe(true);
    const reader = await SqliteStore.open(directory, {}, true);
    expect(await idsOf(reader)).toEqual([1]);
    await reader.close();
  });
});

describe('SQLite store settings', () => {
  it('creates its folder, nested, private to its owner, and commits to disk before returning (WAL, synchronous FULL)', async () => {
    const directory = join(temporaryFolder(), 'a', 'b');
    const store = await SqliteStore.open(directory);
    opened.push(store);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    const database = (store as unknown as { database: SqliteDatabase }).database;
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('synchronous', { simple: true })).toBe(2);
    expect(database.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('tells listeners once of a batch holding a duplicate and a new event', async () => {
    const store = await SqliteStore.open(temporaryFolder());
    opened.push(store);
    await store.append(event(1));
    let calls = 0;
    store.onAppended(() => calls++);
    expect(await Promise.all([store.append(event(1)), store.append(event(2))])).toEqual([
      { stored: false },
      { stored: true },
    ]);
    expect(calls).toBe(1);
  });

  it('prunes in chunks, serving the event loop between them', async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    opened.push(store);
    store.insertMany(Array.from({ length: 4500 }, (_, index) => event(index + 1, start + index)));
    const reader = new DatabaseSync(join(directory, sqliteFileName), { readOnly: true });
    const count = (table: string) => (reader.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    // What a turn of the event loop sees while a pass runs, every turn: the pass is served between its slices.
    const seenEachTurn = async (table: string, pass: Promise<unknown>) => {
      const seen = new Set<number>();
      let running = true;
      const watch = () => {
        if (!running) return;
        seen.add(count(table));
        setImmediate(watch);
      };
      setImmediate(watch);
      const result = await pass;
      running = false;
      return { result, seen: [...seen] };
    };
    // After the first slice of events: 500 of 4,500 are gone.
    const events = await seenEachTurn('events', store.prune(start + 4500, start + 4200));
    expect(events.result).toEqual({ events: 4500, keys: 4200 });
    expect(events.seen).toContain(4000);
    // Keys alone: served between their chunks too.
    store.insertMany(Array.from({ length: 2500 }, (_, index) => event(index + 5000, start + index)));
    const keys = await seenEachTurn('dedup', store.prune(undefined, start + 4500));
    expect(keys.result).toEqual({ events: 0, keys: 2800 });
    expect(keys.seen).toContain(2300);
    expect(count('events')).toBe(2500);
    reader.close();
  });
});

describe.skipIf(postgres.missing)(`PostgreSQL store shared by receivers${postgres.note}`, () => {
  beforeAll(async () => {
    cluster ??= await startPostgres();
  }, 120_000);

  it('lets one receiver deliver a hand-off until its session ends', async () => {
    const url = await freshPostgresUrl();
    const first = await PostgresStore.open(url);
    const second = await PostgresStore.open(url);
    opened.push(second);
    expect(await first.claimHandOff('erp')).toBe(true);
    expect(await first.claimHandOff('erp')).toBe(true);
    expect(await second.claimHandOff('erp')).toBe(false);
    expect(await second.claimHandOff('audit')).toBe(true);
    await first.close();
    expect(await second.claimHandOff('erp')).toBe(true);
  });

  it('shares token digests until they expire, removing expired ones', async () => {
    const url = await freshPostgresUrl();
    const first = await PostgresStore.open(url);
    const second = await PostgresStore.open(url);
    opened.push(first, second);
    const now = Date.now();
    await first.shareToken('digest-a', now + 3_600_000, 3_600_000);
    await first.shareToken('digest-a', now + 3_600_000, 3_600_000);
    // Expired, but less than a lifetime ago: kept, so that a client retrying it is told it expired.
    await first.shareToken('digest-expired', now - 1000, 3_600_000);
    await first.shareToken('digest-old', now - 3_600_001, 3_600_000);
    expect(await second.tokenExpiry('digest-a', now)).toBe(now + 3_600_000);
    expect(await second.tokenExpiry('digest-a', now + 3_600_000)).toBeUndefined();
    expect(await second.tokenExpiry('digest-b', now)).toBeUndefined();
    expect(await second.tokenExpiry('digest-expired', now - 3_600_000)).toBe(now - 1000);
    expect(await second.tokenExpiry('digest-expired', now)).toBeUndefined();
    await first.shareToken('digest-c', now + 1000, 3_600_000);
    const client = new Client({ connectionString: url });
    await client.connect();
    const digests = (await client.query<{ digest: string }>('SELECT digest FROM tokens ORDER BY digest')).rows;
    await client.end();
    expect(digests.map((row) => row.digest)).toEqual(['digest-a', 'digest-c', 'digest-expired']);
  });

  it('rolls back a transaction that fails midway and goes on with its connections', async () => {
    const store = await PostgresStore.open(await freshPostgresUrl());
    opened.push(store);
    for (const id of [1, 2]) await store.append(event(id));
    await store.openHandOff('erp', 'http://erp', true);
    const first = await storedOf(store, 1);
    // PostgreSQL text holds no NUL: the dead letter's insert fails after the transaction began.
    await expect(store.markDead('erp', first, 'bad\0text', 1)).rejects.toThrow(/0x00/);
    expect(await store.deadLetters()).toEqual([]);
    for (let round = 0; round < 10; round++) await store.markDelivered('erp', first);
    expect((await store.nextForHandOff('erp'))?.event).toEqual({ id: 2 });
  });

  it('refuses to open a database that does not answer, leaving nothing open', async () => {
    const url = (cluster as TestPostgres).url.replace(/\/webhooks$/, '/no_such_database');
    await expect(PostgresStore.open(url)).rejects.toThrow(/no_such_database/);
  });
});
