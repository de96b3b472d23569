/**
 * `orders poll` against listings a run could read for ever: one that ignores `updatedFrom`/`updatedTo` (a gateway
 * dropping the query) while it lists orders updated after the run's upper bound, and a busy store whose clock is
 * behind, so that the orders it creates and updates while it is read land inside the window. Each run ends in a
 * bounded number of requests with one line, and SIGTERM stops one at once whatever it is doing.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/orders/poll.js';
import { FakeClock } from '../../support/fake-clock.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { temporaryFolder } from '../../support/temporary.js';
import { testContext, type TestContext } from '../../support/test-context.js';

const now = Date.parse('2026-11-30T11:41:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();

interface Order {
  id: number;
  dateCreated: string;
  lastUpdated: string;
}

interface StoreRules {
  /** Lists every order whatever the updatedFrom/updatedTo asked. */
  ignoresWindow?: boolean;
  /** Reads updatedFrom/updatedTo as dates: lists every order updated on the days they name (UTC), as DATE(updated). */
  filtersByDay?: boolean;
  /** Seconds the store's clock (its stamps and Date header) is behind this machine's. */
  behindSeconds?: number;
  /** On every request past offset 0, an order created and one updated, stamped by the store's clock. */
  churnPerRequest?: boolean;
  /** This machine's clock, which the store's follows (fixed at `now` without it). */
  clock?: { now(): number };
  /** Answers without a Date header, so b2bctl cannot tell where the store's clock is. */
  sendsNoDate?: boolean;
  /** Told of each request before it is answered, with how many came before it. */
  onRequest?: (count: number) => void;
}

/** A store listing `orders` newest first by creation, paged by offset with pages of at most 25. */
async function store(orders: Order[], rules: StoreRules = {}) {
  const requests: string[] = [];
  const storeNow = () => (rules.clock?.now() ?? now) - (rules.behindSeconds ?? 0) * 1000 + requests.length;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    rules.onRequest?.(requests.length);
    requests.push(url.search);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    if (rules.churnPerRequest && offset > 0) {
      const target = orders[requests.length % orders.length] as Order;
      target.lastUpdated = at(storeNow());
      orders.push({ id: 5000 + requests.length, dateCreated: at(storeNow()), lastUpdated: at(storeNow()) });
    }
    const day = 86_400_000;
    let from = Date.parse(url.searchParams.get('updatedFrom') ?? '');
    let to = Date.parse(url.searchParams.get('updatedTo') ?? '');
    if (rules.filtersByDay) [from, to] = [Math.floor(from / day) * day, Math.floor(to / day) * day + day - 1];
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), 25);
    const listed = orders
      .filter(
        (order) =>
          rules.ignoresWindow || (Date.parse(order.lastUpdated) >= from && Date.parse(order.lastUpdated) <= to),
      )
      .toSorted((left, right) => right.dateCreated.localeCompare(left.dateCreated));
    if (rules.sendsNoDate) response.sendDate = false;
    else response.setHeader('date', new Date(storeNow()).toUTCString());
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(listed.slice(offset, offset + limit)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const configDir = temporaryFolder('b2bctl-orders-endless-');
  const env = {
    B2BCTL_CONFIG_DIR: configDir,
    B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    B2BCTL_TOKEN: 'stub-token',
  };
  const cursorFile = join(configDir, 'cursors', 'default.orders-poll.json');
  const versions = () => orders.map((order) => `${order.id}@${order.lastUpdated}`);
  return { env, requests, cursorFile, versions, close: () => new Promise((resolve) => server.close(resolve)) };
}

const options = { statuses: [], detail: false, watch: false, intervalSeconds: 60, concurrency: 4 };

/** `count` orders created a minute apart from two hours back, each updated `updatedAgoMs` before now. */
function ordersUpdated(count: number, updatedAgoMs: number): Order[] {
  return Array.from({ length: count }, (_, index) => ({
    id: 1000 + index,
    dateCreated: at(now - 7_200_000 + index * 60_000),
    lastUpdated: at(now - updatedAgoMs),
  }));
}

/**
 * A store's orders over several days: 20 updated within orders.lag (after the run's upper bound), 20 two days back. A
 * listing of them all for a window of today is no listing filtered by day (a user test).
 */
function wholeStore(): Order[] {
  const recent = ordersUpdated(20, 500);
  const older = ordersUpdated(20, 2 * 86_400_000).map((order) => ({ ...order, id: order.id + 20 }));
  return [...recent, ...older];
}

describe('orders poll against a listing that ignores the update-date window', () => {
  it('40 orders of several days, 20 updated within orders.lag, listed for every window: exit 69 in one line, nothing sent on, no cursor', async () => {
    const platform = await store(wholeStore(), { ignoresWindow: true });
    try {
      const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, { ...options, since: '5m' })).toBe(69);
      const lines = memory.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^error: orders poll: the order listing does not filter by update date: 3 answers listed mostly orders updated outside the updatedFrom\/updatedTo asked \(order \d+ updated 2026-11-28T11:41:00\.000Z among those asked for 2026-11-30T11:36:00\.000Z … 2026-11-30T11:40:58\.000Z\).*the cursor does not pass this window\. Check that nothing between b2bctl and the platform drops the query/,
      );
      expect(memory.stdout()).toBe('');
      expect(existsSync(platform.cursorFile)).toBe(false);
      expect(platform.requests.length).toBeLessThanOrEqual(10);
    } finally {
      await platform.close();
    }
  });

  it('a saved cursor stays where it was', async () => {
    const platform = await store(wholeStore(), { ignoresWindow: true });
    try {
      mkdirSync(join(platform.env.B2BCTL_CONFIG_DIR, 'cursors'), { recursive: true, mode: 0o700 });
      const saved = `${JSON.stringify({ profile: 'default', cursor: at(now - 60_000), emitted: [] })}\n`;
      writeFileSync(platform.cursorFile, saved, { mode: 0o600 });
      const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, options)).toBe(69);
      expect(memory.stdout()).toBe('');
      expect(readFileSync(platform.cursorFile, 'utf8')).toBe(saved);
      expect(platform.requests.length).toBeLessThanOrEqual(10);
    } finally {
      await platform.close();
    }
  });

  it('the same listing with every order inside the window: all 40 emitted once, exit 0 (nothing to tell)', async () => {
    const platform = await store(ordersUpdated(40, 3_000), { ignoresWindow: true });
    try {
      const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, { ...options, since: '5m' })).toBe(0);
      expect(ndjsonOf<{ id: number }>(memory.stdout())).toHaveLength(40);
      expect(memory.stderr()).not.toMatch(/does not filter/);
    } finally {
      await platform.close();
    }
  });
});

/** 20 orders updated inside a 5-minute run, 10 earlier today, 10 within orders.lag, 10 yesterday (never listed). */
function oneDay(): Order[] {
  const inside = ordersUpdated(20, 180_000);
  const earlier = ordersUpdated(10, 3 * 3_600_000).map((order) => ({ ...order, id: order.id + 20 }));
  const recent = ordersUpdated(10, 500).map((order) => ({ ...order, id: order.id + 30 }));
  const yesterday = ordersUpdated(10, 86_400_000).map((order) => ({ ...order, id: order.id + 40 }));
  return [...inside, ...earlier, ...recent, ...yesterday];
}

describe('orders poll against a listing that filters by update date, day by day (a user test)', () => {
  it('emits the orders inside the window only, once, exit 0, with one warning saying the listing filters coarsely', async () => {
    const platform = await store(oneDay(), { filtersByDay: true });
    try {
      const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, { ...options, since: '5m' })).toBe(0);
      const ids = ndjsonOf<{ id: number }>(memory.stdout()).map((order) => order.id);
      expect(ids.toSorted()).toEqual(Array.from({ length: 20 }, (_, index) => 1000 + index));
      expect(memory.stderr()).not.toMatch(/does not filter/);
      const warnings = memory
        .stderr()
        .split('\n')
        .filter((line) => line.includes('filters by update date coarsely'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^warning: orders poll: the order listing filters by update date coarsely \(by day or hour\): asked for 2026-11-30T11:36:00\.000Z … .*, it also listed order 10[23]\d updated 2026-11-30T/,
      );
      expect(JSON.parse(readFileSync(platform.cursorFile, 'utf8'))).toMatchObject({
        cursor: '2026-11-30T11:40:58.000Z',
      });
      expect(platform.requests.length).toBeLessThanOrEqual(10);
      const again = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await again.run(run, options)).toBe(0);
      expect(again.stdout()).toBe('');
    } finally {
      await platform.close();
    }
  });
});

describe('orders poll against a listing that filters by update date, a quiet minute (a user test)', () => {
  it('a window holding no order, its day listing 40 outside it: nothing emitted, exit 0, the cursor moves, bounded requests', async () => {
    const outside = oneDay().filter((order) => order.id >= 1020);
    const platform = await store(outside, { filtersByDay: true });
    try {
      const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, { ...options, since: '1m' })).toBe(0);
      expect(memory.stdout()).toBe('');
      expect(memory.stderr()).toContain('filters by update date coarsely');
      expect(JSON.parse(readFileSync(platform.cursorFile, 'utf8'))).toMatchObject({
        cursor: '2026-11-30T11:40:58.000Z',
      });
      expect(platform.requests.length).toBeLessThanOrEqual(10);
    } finally {
      await platform.close();
    }
  });
});

describe('orders poll against a listing filtered by day that holds more than a window can be read by offset (a user test)', () => {
  it('6000 orders earlier today, none in the window: exit 69 in one line, bounded requests, no cursor', async () => {
    const day = ordersUpdated(6000, 3_600_000).map((order, index) => ({
      ...order,
      dateCreated: at(now - 7_000_000 + index),
      lastUpdated: at(now - 3_600_000 - index),
    }));
    const platform = await store(day, { filtersByDay: true });
    try {
      const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, { ...options, since: '1m' })).toBe(69);
      const lines = memory.stderr().trim().split('\n');
      expect(lines.at(-1)).toMatch(
        /^error: orders poll: the order listing filters by update date only by day \(or hour\), or not at all, and lists more than 5000 orders for the window asked/,
      );
      expect(memory.stdout()).toBe('');
      expect(existsSync(platform.cursorFile)).toBe(false);
      expect(platform.requests.length).toBeLessThanOrEqual(20);
    } finally {
      await platform.close();
    }
  });
});

describe('orders poll against a busy store whose clock is behind', () => {
  it('an order created and one updated at every request: read up to its clock less orders.lag, none missed or twice', async () => {
    const clock = new FakeClock(now);
    const rules: StoreRules = { behindSeconds: 600, churnPerRequest: true, clock };
    const platform = await store(ordersUpdated(20, 3_600_000), rules);
    try {
      const first = testContext({ env: platform.env, clock });
      expect(await first.run(run, { ...options, since: '2h' })).toBe(0);
      const firstRequests = platform.requests.length;
      // The store's Date says 11:31:00 (600 s behind): read up to the end of that second less the 2 s lag.
      const bound = '2026-11-30T11:30:58.999Z';
      expect(platform.requests[1]).toContain(`updatedTo=${encodeURIComponent(at(Date.parse(bound) + 1))}`);
      expect(first.stderr()).toContain(`updated 2026-11-30T09:41:00.000Z … ${bound}; cursor`);
      expect(first.stderr()).toMatch(/warning: the platform's clock is 600 s behind this machine's/);
      const cursor = JSON.parse(readFileSync(platform.cursorFile, 'utf8')) as { cursor: string };
      expect(Date.parse(cursor.cursor)).toBeLessThanOrEqual(Date.parse(bound));
      // What the store created and updated meanwhile is stamped past the bound: the next run's.
      rules.churnPerRequest = false;
      clock.advance(60_000);
      const second = testContext({ env: platform.env, clock });
      expect(await second.run(run, options)).toBe(0);
      const emitted = [...ndjsonOf<Order>(first.stdout()), ...ndjsonOf<Order>(second.stdout())].map(
        (order) => `${order.id}@${order.lastUpdated}`,
      );
      // Every version the store ends with, none twice (an order updated between the runs was emitted before too).
      expect(emitted).toEqual(expect.arrayContaining(platform.versions()));
      expect(new Set(emitted).size).toBe(emitted.length);
      // An update and a creation at every request past the first page: a few dozen requests, not a budget's 270.
      expect(firstRequests).toBeLessThan(50);
      expect(platform.requests.length - firstRequests).toBeLessThan(20);
    } finally {
      await platform.close();
    }
  });

  it('the same store answering with no Date header: stopped in bounded requests, exit 1', async () => {
    const platform = await store(ordersUpdated(20, 3_600_000), {
      behindSeconds: 600,
      churnPerRequest: true,
      sendsNoDate: true,
    });
    try {
      const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, { ...options, since: '2h' })).toBe(1);
      expect(memory.stderr()).toMatch(
        /^error: the order listing changed faster than it could be read: \d+ listing requests of the orders updated \S+ … \S+ listed \d+ entries, fewer than 4 a request past the first 200.*stopped instead of reading it for ever/m,
      );
      expect(existsSync(platform.cursorFile)).toBe(false);
      expect(platform.requests.length).toBeLessThan(1_000);
    } finally {
      await platform.close();
    }
  });
});

/**
 * A clock for `--watch`: every wait is recorded and takes no time; `onWait` is told of each, with how many came
 * before it, and stops the watch by calling the interrupt.
 */
class WatchClock extends FakeClock {
  private readonly onWait: (waits: number) => void;
  constructor(start: number, onWait: (waits: number) => void) {
    super(start);
    this.onWait = onWait;
  }

  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await super.sleep(ms, signal);
    this.onWait(this.waits.length);
    signal?.throwIfAborted();
  }
}

describe('orders poll --watch against listings a run cannot read', () => {
  it('a listing that ignores the update-date window ends the watch at its first cycle: exit 69, one line, no wait', async () => {
    const platform = await store(wholeStore(), { ignoresWindow: true });
    try {
      let memory: TestContext | undefined;
      const clock = new WatchClock(now, () => memory?.interrupt('SIGTERM'));
      memory = testContext({ env: platform.env, clock });
      expect(await memory.run(run, { ...options, since: '5m', watch: true })).toBe(69);
      const lines = memory.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^error: orders poll: the order listing does not filter by update date: 3 answers/);
      expect(clock.waits).toEqual([]);
      expect([memory.stdout(), existsSync(platform.cursorFile)]).toEqual(['', false]);
      expect(platform.requests.length).toBeLessThanOrEqual(10);
    } finally {
      await platform.close();
    }
  });

  it('a window outrun by a busy store is tried again after the back-off, a line each time, until it passes', async () => {
    // No Date header: b2bctl cannot read by the store's clock, and the window is outrun while the store churns.
    const rules: StoreRules = { behindSeconds: 600, churnPerRequest: true, sendsNoDate: true };
    const platform = await store(ordersUpdated(20, 3_600_000), rules);
    try {
      let memory: TestContext | undefined;
      const clock = new WatchClock(now, (waits) => {
        if (waits === 1) rules.churnPerRequest = false;
        if (waits === 2) memory?.interrupt('SIGTERM');
      });
      memory = testContext({ env: platform.env, clock });
      expect(await memory.run(run, { ...options, since: '2h', watch: true })).toBe(0);
      const lines = memory.stderr().trim().split('\n');
      const outrun =
        /^orders poll: cycle failed \(the order listing changed faster than it could be read: .*\); trying again in /;
      expect(lines[0]).toMatch(outrun);
      expect(lines[0]).toMatch(/; trying again in 1 min, from the cursor\.$/);
      expect(lines[1]).toMatch(/^orders poll: \d+ new order versions updated /);
      expect(lines.at(-1)).toBe('orders poll: stopped between two runs; the next one continues from the cursor.');
      // The failed cycle's back-off (the interval, doubled for each further failure in a row), then the interval.
      expect(clock.waits).toEqual([60_000, 60_000]);
      expect(lines).toHaveLength(3);
      // Every version the store ends with, once.
      const emitted = ndjsonOf<Order>(memory.stdout()).map((order) => `${order.id}@${order.lastUpdated}`);
      expect(emitted).toEqual(expect.arrayContaining(platform.versions()));
      expect(new Set(emitted).size).toBe(emitted.length);
    } finally {
      await platform.close();
    }
  });
});

describe('orders poll stopped by SIGTERM', () => {
  it('a run with no end in sight stops at the signal: exit 75, no request after it', async () => {
    let memory: TestContext | undefined;
    let requestsAtSignal = 0;
    const platform = await store(ordersUpdated(20, 3_600_000), {
      behindSeconds: 600,
      churnPerRequest: true,
      sendsNoDate: true,
      onRequest: (count) => {
        if (count !== 30) return;
        requestsAtSignal = count + 1;
        memory?.interrupt('SIGTERM');
      },
    });
    try {
      memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, { ...options, since: '2h' })).toBe(75);
      expect(memory.stderr()).toMatch(
        /^error: orders poll interrupted: 0 order versions written; no cursor was saved/m,
      );
      // The requests already in flight when the signal came (at most --concurrency), none after.
      expect(platform.requests.length - requestsAtSignal).toBeLessThan(options.concurrency);
    } finally {
      await platform.close();
    }
  });
});
