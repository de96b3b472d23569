/**
 * `orders poll` against stores that limit how deep their listing pages (a user test): one answering `[]` at any
 * offset past its limit, one refusing such an offset with 400. Orders of distinct instants are reached by the split
 * by time; orders sharing one update instant (a batch job, under stamps to the second) past the limit cannot be, and
 * the run must say so instead of ending exit 0 with its cursor past them. b2bctl's own look at offset 5,000 (how
 * large a window is) refused with 400 is no failure of the listing: the window is split by time instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/orders/poll.js';
import { FakeClock } from '../../support/fake-clock.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeTemporaryFolders);

const now = Date.parse('2026-12-01T06:30:00.000Z');
/** Whole seconds, as a store stamping to the second writes them. */
const second = (ms: number) => `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;

interface Order {
  id: number;
  orderId: number;
  status: string;
  dateCreated: string;
  lastUpdated: string;
}

/** `count` orders, ids from `firstId`, the i-th updated at `updated(i)` and created in id order. */
const orders = (firstId: number, count: number, updated: (index: number) => number): Order[] =>
  Array.from({ length: count }, (_, index) => ({
    id: firstId + index,
    orderId: 100_000 + firstId + index,
    status: 'AWAITING_PAYMENT',
    dateCreated: second(now - 86_400_000 + (firstId + index) * 1_000),
    lastUpdated: second(updated(index)),
  }));

/**
 * A store listing `stock` newest first by creation, filtered by update date, pages of at most `cap` (25 unless told);
 * at an offset of `limit` or more it answers `[]`, or, with `refuse`, `400 {"mensagem":"offset máximo é LIMIT"}`.
 */
async function store(stock: Order[], limit: number, refuse = false, cap = 25) {
  const offsets: number[] = [];
  const clock = { now };
  const server = createServer((request, response) => {
    response.setHeader('date', new Date(clock.now).toUTCString());
    response.setHeader('content-type', 'application/json');
    const url = new URL(request.url ?? '/', 'http://localhost');
    const from = Date.parse(url.searchParams.get('updatedFrom') ?? '');
    const to = Date.parse(url.searchParams.get('updatedTo') ?? '');
    const offset = Number(url.searchParams.get('offset') ?? 0);
    offsets.push(offset);
    if (offset >= limit && refuse) {
      response.statusCode = 400;
      response.end(JSON.stringify({ mensagem: `offset máximo é ${limit}` }));
      return;
    }
    const listed = stock
      .filter((order) => Date.parse(order.lastUpdated) >= from && Date.parse(order.lastUpdated) <= to)
      .toSorted((left, right) => right.dateCreated.localeCompare(left.dateCreated));
    const limitAsked = Math.min(Number(url.searchParams.get('limit') ?? 5), cap);
    response.end(JSON.stringify(offset >= limit ? [] : listed.slice(offset, offset + limitAsked)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const configDir = temporaryFolder('b2bctl-orders-offset-limit-');
  const env = {
    B2BCTL_CONFIG_DIR: configDir,
    B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    B2BCTL_TOKEN: 'stub-token',
  };
  return { env, configDir, offsets, clock, close: () => new Promise((resolve) => server.close(resolve)) };
}

const options = { statuses: [], detail: false, watch: false, intervalSeconds: 60, concurrency: 4 };

async function pollOnce(platform: Awaited<ReturnType<typeof store>>, since?: string) {
  const memory = testContext({ env: platform.env, clock: new FakeClock(platform.clock.now) });
  const code = await memory.run(run, { ...options, since });
  const cursorPath = join(platform.configDir, 'cursors', 'default.orders-poll.json');
  const cursor = existsSync(cursorPath)
    ? (JSON.parse(readFileSync(cursorPath, 'utf8')) as { cursor: string }).cursor
    : undefined;
  const ids = ndjsonOf<{ id: number }>(memory.stdout()).map((order) => order.id);
  return { code, ids, cursor, stderr: memory.stderr() };
}

const sorted = (ids: readonly number[]) => ids.toSorted((left, right) => left - right);

describe('orders poll on a listing that pages no deeper than a limit', () => {
  it('130 orders sharing one second past a limit of 100 answered []: exit 69, the cursor before that second, one line', async () => {
    const batch = now - 600_000;
    const before = orders(1, 20, (index) => now - 3_000_000 + index * 60_000);
    const stock = [...before, ...orders(1000, 130, () => batch), ...orders(2000, 5, (index) => now - 300_000 + index)];
    const platform = await store(stock, 100);
    try {
      // A run before the batch: the orders before it, once.
      platform.clock.now = batch - 600_000;
      const run0 = await pollOnce(platform, '1h');
      expect([run0.code, sorted(run0.ids)]).toEqual([0, before.map((order) => order.id)]);
      platform.clock.now = now;
      const run1 = await pollOnce(platform);
      // None of the batch (it cannot be proven whole), nor any order after it; the cursor where it was, before it.
      expect([run1.code, run1.ids, run1.cursor]).toEqual([69, [], run0.cursor]);
      expect(Date.parse(run1.cursor as string)).toBeLessThan(batch);
      expect(run1.stderr).toContain(
        `error: the order listing cannot be read whole at ${new Date(batch).toISOString()}: its pages of the orders updated at that instant were full up to offset 100, where it answered no orders, and no page of the listing has been seen to answer orders that deep`,
      );
      // The next run stops there again: nothing passes the orders it could not read.
      const run2 = await pollOnce(platform);
      expect([run2.code, run2.ids, run2.cursor]).toEqual([69, [], run1.cursor]);
    } finally {
      await platform.close();
    }
  });

  it('orders of distinct seconds past a limit of 100 answered []: every one, once, exit 0', async () => {
    const stock = orders(1, 330, (index) => now - 3_000_000 + index * 7_000);
    const platform = await store(stock, 100);
    try {
      const run1 = await pollOnce(platform, '1h');
      expect(run1.code).toBe(0);
      expect(sorted(run1.ids)).toEqual(stock.map((order) => order.id));
    } finally {
      await platform.close();
    }
  });

  it.each([
    ['answering [] past offset 50', false],
    ['refusing offsets of 50 or more with 400', true],
  ])(
    '600 orders on a store capping its pages at 10 and %s: every one, once, exit 0, the cursor at the run`s end',
    async (_how, refuses) => {
      const stock = orders(1, 600, (index) => now - 3_000_000 + index * 4_000);
      const platform = await store(stock, 50, refuses, 10);
      try {
        const run1 = await pollOnce(platform, '1h');
        expect([run1.code, run1.stderr]).toEqual([0, expect.not.stringContaining('error')]);
        expect(run1.ids).toHaveLength(600);
        expect(sorted(run1.ids)).toEqual(stock.map((order) => order.id));
        expect(run1.cursor).toBe(new Date(now - 2_000).toISOString());
        // The next run has nothing new to say.
        const run2 = await pollOnce(platform);
        expect([run2.code, run2.ids]).toEqual([0, []]);
      } finally {
        await platform.close();
      }
    },
  );

  it('30 orders on a store refusing offsets of 1,000 or more with 400: every one, once, exit 0, offset 5,000 asked once, no word of timePrecision', async () => {
    const stock = orders(1, 30, (index) => now - 540_000 + index * 11_000);
    const platform = await store(stock, 1000, true);
    try {
      const run1 = await pollOnce(platform, '10m');
      expect(run1.code).toBe(0);
      expect(sorted(run1.ids)).toEqual(stock.map((order) => order.id));
      expect(run1.stderr).not.toContain('timePrecision');
      expect(run1.cursor).toBe(new Date(now - 2_000).toISOString());
      // The look at offset 5,000 refused once: the store's limit is its own, so later windows are split without it.
      expect(platform.offsets.filter((offset) => offset >= 1000)).toEqual([5000]);
    } finally {
      await platform.close();
    }
  });

  it('300 orders on a store refusing offsets of 100 or more with 400: every one, once, exit 0', async () => {
    const stock = orders(1, 300, (index) => now - 3_000_000 + index * 9_000);
    const platform = await store(stock, 100, true);
    try {
      const run1 = await pollOnce(platform, '1h');
      expect([run1.code, run1.stderr]).toEqual([0, expect.not.stringContaining('timePrecision')]);
      expect(sorted(run1.ids)).toEqual(stock.map((order) => order.id));
    } finally {
      await platform.close();
    }
  });

  it('130 orders sharing one second on a store refusing offsets of 100 or more with 400: exit 69, naming the refusal', async () => {
    const batch = now - 600_000;
    const stock = orders(1000, 130, () => batch);
    const platform = await store(stock, 100, true);
    try {
      const run1 = await pollOnce(platform, '1h');
      expect([run1.code, run1.ids]).toEqual([69, []]);
      expect(run1.stderr).toContain(
        `error: the order listing cannot be read whole at ${new Date(batch).toISOString()}: its pages of the orders updated at that instant were full up to offset 100, where it was refused (HTTP 400: offset máximo é 100)`,
      );
      expect(run1.stderr).not.toContain('timePrecision');
    } finally {
      await platform.close();
    }
  });
});
