import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { backlogHealth } from '../../../src/webhook/backlog.js';
import { type EventConsumer, PermanentRefusal } from '../../../src/webhook/consumers.js';
import { HandOff, type HandOffOptions, type HandOffState } from '../../../src/webhook/hand-off.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { NewEvent, StoredEvent } from '../../../src/webhook/store/types.js';
import { FakeClock } from '../../support/fake-clock.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { untilWith } from '../../support/until.js';

const until = untilWith({ everyMs: 5, deadlineMs: 30_000 });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).toReversed()) await close();
});
afterAll(removeReceiverFolders);

const start = Date.UTC(2026, 10, 23, 6);
const minute = 60_000;

function event(id: number): NewEvent {
  return {
    receivedAt: start + id,
    kind: 'orders',
    deliveryId: `delivery-${id}`,
    key: `orders:${id}`,
    flags: [],
    clientAddress: '127.0.0.1',
    raw: JSON.stringify({ id }),
  };
}

async function openStore(): Promise<SqliteStore> {
  const store = await SqliteStore.open(temporaryFolder());
  closers.push(() => store.close());
  await store.openHandOff('erp', 'erp', false);
  return store;
}

/** An ERP in memory: `answer(id, attempt)` throws what the ERP would say, or returns to take the event. */
function erp(answer: (id: number, attempt: number) => void = () => undefined) {
  const taken: number[] = [];
  const attempts = new Map<number, number>();
  const consumer: EventConsumer = {
    target: 'erp',
    async deliver(stored) {
      const id = (stored.event as { id: number }).id;
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      answer(id, attempt);
      taken.push(id);
    },
  };
  return { consumer, taken, attempts };
}

function startHandOff(store: SqliteStore, consumer: EventConsumer, options: Partial<HandOffOptions>): HandOff {
  const handOff = new HandOff(store, 'erp', consumer, {
    clock: new FakeClock(start),
    log: () => undefined,
    giveUpAfterMs: 72 * 60 * minute,
    pollMs: 10,
    ...options,
  });
  handOff.start();
  closers.push(() => handOff.stop());
  return handOff;
}

describe('HandOff through an ERP outage', () => {
  it('keeps trying the same event through a 30-minute outage: every event later, in order, none dead', async () => {
    const store = await openStore();
    const clock = new FakeClock(start);
    const outageEnds = start + 30 * minute;
    const states: HandOffState[] = [];
    let handOff: HandOff | undefined;
    const target = erp(() => {
      if (handOff && clock.now() > start + 20 * minute && states.length === 0) states.push(handOff.state());
      if (clock.now() < outageEnds) throw new Error('HTTP 503: maintenance');
    });
    for (const id of [1, 2, 3, 4, 5]) await store.append(event(id));
    const log: string[] = [];
    handOff = startHandOff(store, target.consumer, { clock, log: (line) => log.push(line) });
    await until(() => target.taken.length === 5, 'the five deliveries');
    expect(target.taken).toEqual([1, 2, 3, 4, 5]);
    expect(await store.deadLetters()).toEqual([]);
    // Only the first event met the outage: tried until it ended, with steps that grew to 30 s and stayed there (each wait 15-30 s).
    expect(target.attempts.get(1)).toBeGreaterThan(60);
    expect([...target.attempts.values()].slice(1)).toEqual([1, 1, 1, 1]);
    expect(Math.max(...clock.waits)).toBeLessThanOrEqual(30_000);
    expect(clock.waits.slice(-10).every((wait) => wait >= 15_000)).toBe(true);
    // Logged while the waits grew, then once in five minutes: not a line per attempt.
    expect(log.length).toBeLessThan(20);
    // Meanwhile /healthz saw a stuck hand-off naming its last failure.
    expect(states[0]).toMatchObject({ name: 'erp', busySince: start, lastError: 'HTTP 503: maintenance' });
    const health = await backlogHealth(store, start + 20 * minute, 15 * minute, { handOffs: states });
    expect(health).toMatchObject({
      status: 'degraded',
      problems: [{ problem: 'delivery stuck', handOff: 'erp', seconds: 1200 }],
    });
  });

  it('gives up on an event only after --give-up-after, and at once on a permanent refusal', async () => {
    const store = await openStore();
    const clock = new FakeClock(start);
    const target = erp((id) => {
      if (id === 2) throw new PermanentRefusal('HTTP 422: no such SKU');
      if (id === 3) throw new Error('HTTP 500');
    });
    for (const id of [1, 2, 3, 4]) await store.append(event(id));
    startHandOff(store, target.consumer, { clock, giveUpAfterMs: 10 * minute });
    await until(() => target.taken.length === 2, 'the deliveries');
    expect(target.taken).toEqual([1, 4]);
    const dead = await store.deadLetters();
    expect(dead.map((letter) => [letter.eventId, letter.error])).toEqual([
      [2, 'HTTP 422: no such SKU'],
      [3, 'HTTP 500'],
    ]);
    expect(target.attempts.get(2)).toBe(1);
    // Event 3 failed for ten minutes of the fake clock, however many attempts that took.
    expect(clock.now() - start).toBeGreaterThanOrEqual(10 * minute);
  });
});

describe('HandOff when the store cannot record', () => {
  it('waits for the store to take the record, never sending an event twice, and says so', async () => {
    const store = await openStore();
    let refusals = 3;
    let records = 0;
    const fullDisk = Object.create(store) as SqliteStore;
    fullDisk.markDelivered = async (...parameters) => {
      if (refusals-- > 0) throw new Error('database or disk is full');
      records++;
      return store.markDelivered(...parameters);
    };
    const target = erp();
    const log: string[] = [];
    const states: HandOffState[] = [];
    const clock = new FakeClock(start);
    const handOff = startHandOff(fullDisk, target.consumer, {
      clock: {
        now: () => clock.now(),
        sleep: async (ms, signal) => {
          states.push(handOff.state());
          await clock.sleep(ms, signal);
        },
      },
      log: (line) => log.push(line),
      commitEvents: 1,
    });
    for (const id of [1, 2, 3]) await store.append(event(id));
    await until(async () => (await store.backlog())[0]?.pending === 0, 'every delivery recorded');
    expect(target.taken).toEqual([1, 2, 3]);
    expect([...target.attempts.values()]).toEqual([1, 1, 1]);
    expect(log.filter((line) => line.includes('the store cannot record'))).toEqual([
      'Hand-off "erp": the store cannot record the delivery of event 1 (database or disk is full); nothing more is sent until it can; trying again in 0.5 s.',
      'Hand-off "erp": the store cannot record the delivery of event 1 (database or disk is full); nothing more is sent until it can; trying again in 1 s.',
      'Hand-off "erp": the store cannot record the delivery of event 1 (database or disk is full); nothing more is sent until it can; trying again in 2 s.',
    ]);
    expect(log).toContain('Hand-off "erp": the store recorded the delivery of event 1; delivery goes on.');
    expect(states[0]).toMatchObject({ storeFailingSince: start, storeError: 'database or disk is full' });
    expect(handOff.state().storeFailingSince).toBeUndefined();
    expect(records).toBeGreaterThan(0);
  });

  it('goes on delivering the next group while one is recorded, and no further while the store refuses it', async () => {
    const store = await openStore();
    let refusing = true;
    const recorded: number[][] = [];
    const fullDisk = Object.create(store) as SqliteStore;
    fullDisk.markDelivered = async (name: string, events: StoredEvent | StoredEvent[]) => {
      if (refusing) throw new Error('database or disk is full');
      recorded.push((Array.isArray(events) ? events : [events]).map((each) => (each.event as { id: number }).id));
      return store.markDelivered(name, events);
    };
    const log: string[] = [];
    // How many events the ERP had taken at each refusal the hand-off logged.
    const takenAtRefusal: number[] = [];
    for (const id of [1, 2, 3, 4, 5, 6, 7]) await store.append(event(id));
    const target = erp();
    const clock = new FakeClock(start);
    const handOff = startHandOff(fullDisk, target.consumer, {
      // The backoff passes at once in the fake clock's time, after a turn of the event loop in real time.
      clock: {
        now: () => clock.now(),
        sleep: async (ms, signal) => {
          await new Promise((resolve) => setImmediate(resolve));
          await clock.sleep(ms, signal);
        },
      },
      log: (line) => {
        log.push(line);
        if (line.includes('cannot record')) takenAtRefusal.push(target.taken.length);
      },
      commitEvents: 2,
      commitEveryMs: 60 * minute,
    });
    // Group 1-2 is being recorded (refused) while group 3-4 goes out; 5 waits for the record of 1-2, refusal after
    // refusal.
    await until(() => takenAtRefusal.filter((taken) => taken === 4).length >= 20, 'refusals after group 3-4');
    expect(target.taken).toEqual([1, 2, 3, 4]);
    expect(log.filter((line) => line.includes('cannot record')).every((line) => line.includes('events 1-2'))).toBe(
      true,
    );
    refusing = false;
    await until(() => recorded.flat().length >= 6 && target.taken.length === 7, 'the groups recorded');
    // The last event waits for its group's hour (real time): stopping records it.
    await handOff.stop();
    expect(target.taken).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(recorded).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    expect((await store.backlog())[0]?.pending).toBe(0);
    expect(log).toContain('Hand-off "erp": the store recorded the delivery of events 1-2; delivery goes on.');
  });

  it('says, when stopped with deliveries the store never took, that they are sent once more at the next start', async () => {
    const store = await openStore();
    const fullDisk = Object.create(store) as SqliteStore;
    fullDisk.markDelivered = async () => {
      throw new Error('database or disk is full');
    };
    const target = erp();
    const log: string[] = [];
    const handOff = startHandOff(fullDisk, target.consumer, {
      clock: {
        now: Date.now,
        sleep: (_ms, signal) => new Promise((_, reject) => signal?.addEventListener('abort', reject)),
      },
      log: (line) => log.push(line),
    });
    await store.append(event(1));
    await until(() => log.length > 0, 'the refusal');
    await handOff.stop();
    expect(target.taken).toEqual([1]);
    expect(log.at(-1)).toBe(
      'Hand-off "erp": 1 delivered event could not be recorded (database or disk is full); it is sent once more at the next start.',
    );
    expect((await store.nextForHandOff('erp'))?.deliveryId).toBe('delivery-1');
  });
});

describe('HandOff group commit', () => {
  it('records deliveries in groups, not one commit per event, and none is left unrecorded when idle', async () => {
    const store = await openStore();
    let commits = 0;
    const counting = Object.create(store) as SqliteStore;
    counting.markDelivered = async (name: string, events: StoredEvent | StoredEvent[]) => {
      commits++;
      return store.markDelivered(name, events);
    };
    store.insertMany(Array.from({ length: 250 }, (_, index) => event(index + 1)));
    const target = erp();
    startHandOff(counting, target.consumer, { commitEvents: 100, commitEveryMs: 100 });
    await until(async () => (await store.backlog())[0]?.pending === 0, 'every delivery recorded');
    expect(target.taken).toEqual(Array.from({ length: 250 }, (_, index) => index + 1));
    // 100, 100, and the last 50 when the queue ran dry (one more if the 100 ms passed on a slow machine).
    expect(commits).toBeGreaterThanOrEqual(3);
    expect(commits).toBeLessThanOrEqual(6);
  });
});
