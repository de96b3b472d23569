/**
 * orders poll --detail against a store where one order's detail answers 500 every time (a user test: that one order
 * stopped the run, and every later run stopped at it, so no order after it was ever written). The orders around it
 * are written, the run names it and exits 1, and the cursor keeps it pending: every later run asks for it again and
 * writes it once it answers, once. From a real HTTP server standing for the store.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { listingAsk, listingPage } from '../../support/scripted-order-listing.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const iso = (ms: number) => new Date(ms).toISOString();
const since = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const until = since + 600_000;

interface Entry {
  id: number;
  orderId: number;
  status: string;
  lastUpdated: string;
}

/** What the listing holds, oldest first; the ids whose detail answers `failing` with a body of the store's. */
let listed: Entry[] = [];
let failing = new Map<number, number>();

beforeEach(() => {
  listed = [1, 2, 3].map((id) => ({
    id,
    orderId: 100_000 + id,
    status: 'READY_TO_SHIP',
    lastUpdated: iso(since + 60_000 * id),
  }));
  failing = new Map([[2, 500]]);
  platform.routes['GET /v1/orders'] = (request, _body, response) =>
    answerJson(response, 200, listingPage(listed, listingAsk(request)));
  platform.routes['GET /v1/orders/*'] = (request, _body, response) => {
    const id = Number(request.url?.split('?')[0]?.split('/').at(-1));
    const status = failing.get(id);
    if (status !== undefined) return answerJson(response, status, { message: 'NullPointerException' });
    const entry = listed.find((order) => order.id === id);
    if (entry === undefined) return answerJson(response, 404, { message: 'not found' });
    answerJson(response, 200, { ...entry, items: [{ sku: `SKU-${id}` }] });
  };
});

/** One `orders poll --detail` of the window with the cursor given (a first run from --since); more flags after. */
async function poll(cursor: string, configDir: string, ...flags: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const window = ['--since', iso(since), '--until', iso(until)];
  return await runCommandLine(['orders', 'poll', '--detail', '-o', 'ndjson', '--cursor', cursor, ...window, ...flags], {
    configDir,
    env,
  });
}

const emitted = (stdout: string) =>
  ndjsonOf<{ id: number; items?: unknown[] }>(stdout).map((order) => [order.id, order.items !== undefined]);
const pendingIn = (cursor: string) =>
  (JSON.parse(readFileSync(cursor, 'utf8')) as { pending?: { id: unknown }[] }).pending?.map((order) => order.id);

describe('orders poll --detail: an order whose detail keeps failing', () => {
  it('writes the orders before and after it, names it in one line, exits 1, and keeps it pending', async () => {
    const cursor = join(temporaryFolder(), 'cursor.json');
    const first = await poll(cursor, freshConfigDir());
    expect(first.code).toBe(1);
    expect(emitted(first.stdout)).toEqual([
      [1, true],
      [3, true],
    ]);
    const named = first.stderr.split('\n').filter((line) => line.includes('order 2 '));
    expect(named).toEqual([
      expect.stringMatching(
        /^orders poll: order 2 \(number 100002, updated \S+\) was not written: its detail answered HTTP 500 \(NullPointerException\)/,
      ),
    ]);
    expect(named[0]).toContain('kept pending in the cursor file');
    expect(named[0]).toContain('b2bctl orders get 2');
    expect(first.stderr).toContain('1 order pending');
    expect(pendingIn(cursor)).toEqual([2]);
  });

  it('a store failing 105 details: the first 100 named, the other 5 counted in one line, all 105 pending', async () => {
    listed = Array.from({ length: 106 }, (_, index) => ({
      id: index + 1,
      orderId: 100_001 + index,
      status: 'READY_TO_SHIP',
      lastUpdated: iso(since + 1_000 * (index + 1)),
    }));
    failing = new Map(listed.slice(1).map((entry) => [entry.id, 500]));
    const cursor = join(temporaryFolder(), 'cursor.json');
    const run = await poll(cursor, freshConfigDir());
    expect(run.code).toBe(1);
    expect(emitted(run.stdout)).toEqual([[1, true]]);
    const lines = run.stderr.split('\n');
    expect(lines.filter((line) => /orders poll: order \d+ \(/.test(line))).toHaveLength(100);
    expect(lines.filter((line) => line.includes('orders poll: and 5 more orders not written'))).toHaveLength(1);
    expect(run.stderr).toContain('105 orders pending (their details failing: the first 100 named above)');
    expect(pendingIn(cursor)).toHaveLength(105);
  });

  it('is asked again by every later run, written once it answers, and then no more', async () => {
    const configDir = freshConfigDir();
    const cursor = join(temporaryFolder(), 'cursor.json');
    await poll(cursor, configDir);

    // Still failing: nothing new, the order named again, still pending.
    const again = await poll(cursor, configDir);
    expect(again.code).toBe(1);
    expect(emitted(again.stdout)).toEqual([]);
    expect(again.stderr).toMatch(/orders poll: order 2 .* HTTP 500/);
    expect(pendingIn(cursor)).toEqual([2]);

    // It answers: written once, with its detail; the cursor no longer holds it.
    failing.clear();
    const mended = await poll(cursor, configDir);
    expect(mended.code).toBe(0);
    expect(emitted(mended.stdout)).toEqual([[2, true]]);
    expect(pendingIn(cursor) ?? []).toEqual([]);

    const after = await poll(cursor, configDir);
    expect(after.code).toBe(0);
    expect(emitted(after.stdout)).toEqual([]);
  });

  it('a newer version of the pending order listed meanwhile is written once, in its place', async () => {
    const configDir = freshConfigDir();
    const cursor = join(temporaryFolder(), 'cursor.json');
    const folder = join(temporaryFolder(), 'out');
    const first = await poll(cursor, configDir, '--out-dir', folder);
    expect(first.code).toBe(1);
    expect(readdirSync(folder).map((name) => name.split('-')[0])).toEqual(['1', '3']);
    listed[1] = { ...listed[1]!, status: 'SHIPPED', lastUpdated: iso(until - 5_000) };
    failing.clear();
    const mended = await poll(cursor, configDir, '--out-dir', folder);
    expect(mended.code).toBe(0);
    const ofOrder2 = readdirSync(folder).filter((name) => name.startsWith('2-'));
    expect(ofOrder2).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(folder, ofOrder2[0]!), 'utf8'))).toMatchObject({ id: 2, status: 'SHIPPED' });
    expect(pendingIn(cursor) ?? []).toEqual([]);
  });

  it('an order pending in the cursor is kept there when a run stops on another failure (the listing down)', async () => {
    const configDir = freshConfigDir();
    const cursor = join(temporaryFolder(), 'cursor.json');
    await poll(cursor, configDir);
    platform.routes['GET /v1/orders'] = (_request, _body, response) => answerJson(response, 400, { message: 'no' });
    expect((await poll(cursor, configDir)).code).not.toBe(0);
    expect(pendingIn(cursor)).toEqual([2]);
  });
});
