/**
 * `orders poll` against stores whose pages come back shorter than the 25 asked before the end of the listing: one
 * that caps its pages at 10 ("above the cap, the cap applies with no error"), one that drops an order it hides from
 * the first page after paging (24 of 25). The platform document ends a listing with an empty array only: a short
 * page is read on, every order is emitted once, and the cursor moves to the run's upper bound only then.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/orders/poll.js';
import { FakeClock } from '../../support/fake-clock.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

const now = Date.parse('2026-11-30T04:47:24.000Z');
const at = (ms: number) => new Date(ms).toISOString();

/** 60 orders updated in the last hour, three a minute, created one a minute from two hours back. */
const orders = Array.from({ length: 60 }, (_, index) => ({
  id: 1000 + index,
  orderId: 200_000 + index,
  status: 'AWAITING_PAYMENT',
  dateCreated: at(now - 7_200_000 + index * 60_000),
  lastUpdated: at(now - 3_600_000 + Math.floor(index / 3) * 60_000),
}));

/**
 * A store listing `orders` newest first by creation, filtered by update date, paged by offset with pages of at most
 * `cap`; `shown` may drop entries from a page after paging (a page shorter than the limit before the end), or answer
 * the page in an envelope stating the window's `total`.
 */
async function store(
  cap: number,
  shown: (page: typeof orders, offset: number, total: number) => unknown = (page) => page,
) {
  const offsets: number[] = [];
  const server = createServer((request, response) => {
    response.setHeader('date', new Date(now).toUTCString());
    const url = new URL(request.url ?? '/', 'http://localhost');
    const from = Date.parse(url.searchParams.get('updatedFrom') ?? '');
    const to = Date.parse(url.searchParams.get('updatedTo') ?? '');
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 5), cap);
    offsets.push(offset);
    const listed = orders
      .filter((order) => Date.parse(order.lastUpdated) >= from && Date.parse(order.lastUpdated) <= to)
      .toSorted((left, right) => right.dateCreated.localeCompare(left.dateCreated));
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(shown(listed.slice(offset, offset + limit), offset, listed.length)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const configDir = temporaryFolder('b2bctl-orders-short-pages-');
  const env = {
    B2BCTL_CONFIG_DIR: configDir,
    B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    B2BCTL_TOKEN: 'stub-token',
  };
  return { env, configDir, offsets, close: () => new Promise((resolve) => server.close(resolve)) };
}

const options = { statuses: [], detail: false, watch: false, intervalSeconds: 60, concurrency: 4 };

async function pollOnce(platform: Awaited<ReturnType<typeof store>>, since?: string) {
  const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
  const code = await memory.run(run, { ...options, since });
  const cursor = JSON.parse(readFileSync(join(platform.configDir, 'cursors', 'default.orders-poll.json'), 'utf8')) as {
    cursor: string;
  };
  return { code, ids: ndjsonOf<{ id: number }>(memory.stdout()).map((order) => order.id), cursor: cursor.cursor };
}

describe('orders poll over pages shorter than asked before the end of the listing', () => {
  it('a store capping its pages at 10: all 60 orders, once each, and the cursor at the run`s upper bound', async () => {
    const platform = await store(10);
    try {
      const first = await pollOnce(platform, '3h');
      expect(first.code).toBe(0);
      expect(first.ids.toSorted((left, right) => left - right)).toEqual(orders.map((order) => order.id));
      expect(first.cursor).toBe(at(now - 2_000));
      // Read on past each page of 10 (overlapping by one order once pages of 10 are seen), the empty page at 60, then
      // a look-back joining the first two (at 4: half a page before the head page's last order) and the last order
      // again after the empty page.
      expect(platform.offsets).toEqual([0, 10, 19, 28, 37, 46, 55, 60, 4, 59]);
      const again = await pollOnce(platform);
      expect([again.code, again.ids]).toEqual([0, []]);
    } finally {
      await platform.close();
    }
  });

  it('a first page of 24 (an order it hides dropped after paging): every order it shows, once', async () => {
    const hidden = orders[52]?.id;
    const platform = await store(25, (page) => page.filter((order) => order.id !== hidden));
    try {
      const first = await pollOnce(platform, '3h');
      expect(first.code).toBe(0);
      const shown = orders.map((order) => order.id).filter((id) => id !== hidden);
      expect(first.ids.toSorted((left, right) => left - right)).toEqual(shown);
      expect(first.cursor).toBe(at(now - 2_000));
      // The page of 24 is read on at 24 (a page of 25), the page after overlapping it by one order, then the end.
      expect(platform.offsets).toEqual([0, 24, 48, 60, 59]);
    } finally {
      await platform.close();
    }
  });

  it.each([
    { cap: 10, emptyAt: 2 },
    { cap: 10, emptyAt: 4 },
    { cap: 24, emptyAt: 2 },
    // Pages of 25 (a catch-up read 4 pages in flight, its 3rd request empty), and of 5 (the document's default, for a store ignoring limit).
    { cap: 25, emptyAt: 3 },
    { cap: 5, emptyAt: 3 },
  ])(
    'a store capping pages at $cap answering one spurious empty page (request $emptyAt): read on past it, all 60 once',
    async ({ cap, emptyAt }) => {
      // A user test: the page read again after that empty page came back as long as the store's pages, which shows it was
      // not the end; taken as the end, the run stopped there, exit 0, its cursor past every order after it.
      let requests = 0;
      const platform = await store(cap, (page) => (++requests === emptyAt ? [] : page));
      try {
        const first = await pollOnce(platform, '3h');
        expect(first.code).toBe(0);
        expect(first.ids.toSorted((left, right) => left - right)).toEqual(orders.map((order) => order.id));
        expect(first.cursor).toBe(at(now - 2_000));
        // Read on to the true end, an empty page at 60 that nothing contradicts, and its last order again.
        expect(platform.offsets.slice(-2)).toEqual([60, 59]);
        const again = await pollOnce(platform);
        expect([again.code, again.ids]).toEqual([0, []]);
      } finally {
        await platform.close();
      }
    },
  );

  it.each([{ empties: [3, 4, 5] }, { empties: [2, 3] }, { empties: [3, 4, 5, 6] }, { empties: [2, 3, 4, 5, 6] }])(
    'a store capping pages at 10 answering $empties.length empty pages in a row (requests $empties): all 60 once',
    async ({ empties }) => {
      // A user test: after three empty answers, full pages of 10 each ended where an empty page had been answered,
      // and the run took that as the end: 20 of 60 emitted, exit 0, the cursor past the other 40.
      let requests = 0;
      const platform = await store(10, (page) => (empties.includes(++requests) ? [] : page));
      try {
        const first = await pollOnce(platform, '3h');
        expect(first.code).toBe(0);
        expect(first.ids.toSorted((left, right) => left - right)).toEqual(orders.map((order) => order.id));
        expect(first.cursor).toBe(at(now - 2_000));
        const again = await pollOnce(platform);
        expect([again.code, again.ids]).toEqual([0, []]);
      } finally {
        await platform.close();
      }
    },
  );

  it('a catch-up whose first answer is an empty page stating a total of 60: read again, all 60 once', async () => {
    // A user test: taken as an empty window, the run said "0 new order versions", exit 0, its cursor past all 60.
    let requests = 0;
    const platform = await store(25, (page, _offset, total) => ({ data: ++requests === 1 ? [] : page, total }));
    try {
      const first = await pollOnce(platform, '3h');
      expect(first.code).toBe(0);
      expect(first.ids.toSorted((left, right) => left - right)).toEqual(orders.map((order) => order.id));
      expect(first.cursor).toBe(at(now - 2_000));
      expect(platform.offsets.slice(0, 2)).toEqual([0, 0]);
    } finally {
      await platform.close();
    }
  });

  it('a first page that stays empty beside a total of 60: exit 69, nothing emitted, no cursor, 4 requests', async () => {
    const platform = await store(25, (_page, _offset, total) => ({ data: [], total }));
    try {
      const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
      expect(await memory.run(run, { ...options, since: '3h' })).toBe(69);
      expect(memory.stderr()).toMatch(
        /^error: the order listing contradicts itself: its first page of the orders updated \S+ … \S+ lists none while its answer states a total of 60, 4 times in a row; stopped instead of taking the window as empty \(the cursor does not pass this window\)\./m,
      );
      expect(memory.stdout()).toBe('');
      expect(existsSync(join(platform.configDir, 'cursors', 'default.orders-poll.json'))).toBe(false);
      expect(platform.offsets).toEqual([0, 0, 0, 0]);
    } finally {
      await platform.close();
    }
  });

  it.each([
    { answer: [], shape: 'a bare empty list' },
    { answer: { data: [], total: 0 }, shape: 'a total of 0' },
  ])('an empty first page stating no orders ($shape) is an empty window: one request, exit 0', async ({ answer }) => {
    const platform = await store(25, () => answer);
    try {
      const first = await pollOnce(platform, '3h');
      expect([first.code, first.ids, first.cursor]).toEqual([0, [], at(now - 2_000)]);
      expect(platform.offsets).toEqual([0]);
    } finally {
      await platform.close();
    }
  });

  it('a window of 3 orders, the minute a cron job reads: 3 requests, the page, the empty page, its last order again', async () => {
    const platform = await store(25);
    try {
      // The last three orders were updated 41 minutes ago: a window from 41.5 minutes back holds them alone.
      const first = await pollOnce(platform, at(now - 2_490_000));
      expect([first.code, first.ids]).toEqual([0, [1057, 1058, 1059]]);
      expect(platform.offsets).toEqual([0, 3, 2]);
    } finally {
      await platform.close();
    }
  });
});

describe('orders poll against a listing that ignores the offset', () => {
  it.each([1, 3])(
    'a page of %i order(s) answered at every offset: stopped with one line, exit 1, no cursor, few requests',
    async (size) => {
      // Every offset answers the window's first page, as a store that does not page by offset does.
      const platform = await store(size, (_page, offset) =>
        orders
          .filter((order) => Date.parse(order.lastUpdated) <= now)
          .toSorted((left, right) => right.dateCreated.localeCompare(left.dateCreated))
          .slice(0, size)
          .map((order) => ({ ...order, offset })),
      );
      try {
        const memory = testContext({ env: platform.env, clock: new FakeClock(now) });
        expect(await memory.run(run, { ...options, since: '3h' })).toBe(1);
        expect(memory.stderr()).toMatch(
          /^error: the order listing answered the same page at offset \d+ as at offset 0: it does not seem to page by offset; stopped instead of reading it for ever \(the cursor does not pass this window\)\.$/m,
        );
        expect(memory.stdout()).toBe('');
        expect(platform.offsets.length).toBeLessThan(20);
      } finally {
        await platform.close();
      }
    },
  );
});
