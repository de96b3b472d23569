/**
 * orders poll against platforms that write `lastUpdated` coarser than a millisecond, to the minute
 * (`2026-11-30T23:04Z`) or to the second (a user test): an order updated again within the same stamp after a run
 * (AWAITING_PAYMENT, then CANCELED) was taken as already emitted by every later run, exit 0, and the cancellation never
 * reached the ERP. A changed entry under the same stamp is a new version now; an unchanged one is not emitted twice,
 * and a cursor an older b2bctl wrote (keys without a digest) still loads without emitting its versions again.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { listingAsk, listingPage } from '../../support/scripted-order-listing.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

/** A whole minute two minutes back: inside the first run's --since and every later run's look-back. */
const minute = Math.floor(Date.now() / 60_000) * 60_000 - 120_000;
const toTheMinute = new Date(minute).toISOString().slice(0, 16) + 'Z';
const toTheSecond = new Date(minute + 53_000).toISOString().slice(0, 19) + 'Z';
const toTheMillisecond = new Date(minute + 53_417).toISOString();

type Order = Record<string, unknown> & { id: number; lastUpdated: string };

/** A store listing `orders` as they are when asked: filtered by their stamp, newest first by creation, by offset. */
function useStore(orders: Order[]): void {
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const newestFirst = orders.toSorted((left, right) => right.id - left.id);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(listingPage(newestFirst, listingAsk(request))));
  };
}

function storeOf(stamp: string): Order[] {
  return [1, 2, 3].map((id) => ({ id, orderId: 100_000 + id, status: 'AWAITING_PAYMENT', lastUpdated: stamp }));
}

function poll(configDir: string, args: string[] = []) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['orders', 'poll', '-o', 'ndjson', ...args], { configDir, env });
}

const emitted = (stdout: string) =>
  ndjsonOf<{ id: number; status: string }>(stdout).map((order) => `${order.id} ${order.status}`);
const cursorFile = (configDir: string) => join(configDir, 'cursors', 'default.orders-poll.json');

describe('orders poll, a platform writing its update stamps coarser than a millisecond', () => {
  it.each([
    ['to the minute', toTheMinute],
    ['to the second', toTheSecond],
  ])('stamps %s: an order canceled within the stamp after a run is emitted by the next run, once', async (_, stamp) => {
    const orders = storeOf(stamp);
    useStore(orders);
    const configDir = freshConfigDir();
    const first = await poll(configDir, ['--since', '10m']);
    expect([first.code, emitted(first.stdout).toSorted()]).toEqual([
      0,
      ['1 AWAITING_PAYMENT', '2 AWAITING_PAYMENT', '3 AWAITING_PAYMENT'],
    ]);
    // Canceled within the same stamp: the platform lists it with the lastUpdated it had.
    orders[1] = { ...(orders[1] as Order), status: 'CANCELED' };
    const second = await poll(configDir);
    expect([second.code, emitted(second.stdout)]).toEqual([0, ['2 CANCELED']]);
    expect(second.stderr).not.toMatch(/error|warning/);
    // Listed again unchanged (its fields in another order, as a platform may write them): not emitted again.
    orders[1] = Object.fromEntries(Object.entries(orders[1] as Order).toReversed()) as Order;
    const third = await poll(configDir);
    expect([third.code, emitted(third.stdout)]).toEqual([0, []]);
  });

  it('a listing filtering by the true instant: orders of the minute --since falls in, updated after it, are emitted', async () => {
    // A user test: the platform lists them (their true instant, 23:35:15, is after --since, 23:35:14); their stamp reads
    // 23:35:00. Dropped as outside the window, none was written, exit 0, with a warning that the filter was coarse.
    const orders = storeOf(toTheMinute);
    const trueInstant = minute + 15_000;
    platform.routes['GET /v1/orders'] = (request, _body, response) => {
      const query = new URL(request.url ?? '/', platform.url).searchParams;
      const [from, to] = [Date.parse(query.get('updatedFrom') ?? ''), Date.parse(query.get('updatedTo') ?? '')];
      const offset = Number(query.get('offset'));
      const inside = trueInstant >= from && trueInstant <= to ? orders.toReversed() : [];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(inside.slice(offset, offset + Number(query.get('limit')))));
    };
    const configDir = freshConfigDir();
    const first = await poll(configDir, ['--since', new Date(minute + 14_000).toISOString()]);
    expect([first.code, emitted(first.stdout).toSorted()]).toEqual([
      0,
      ['1 AWAITING_PAYMENT', '2 AWAITING_PAYMENT', '3 AWAITING_PAYMENT'],
    ]);
    expect(first.stderr).not.toMatch(/warning/);
    const again = await poll(configDir);
    expect([again.code, emitted(again.stdout)]).toEqual([0, []]);
  });

  it('stamps to the millisecond: remembered by id and instant alone, as before', async () => {
    useStore(storeOf(toTheMillisecond));
    const configDir = freshConfigDir();
    expect((await poll(configDir, ['--since', '10m'])).code).toBe(0);
    const cursor = JSON.parse(readFileSync(cursorFile(configDir), 'utf8')) as { emitted: string[] };
    expect(cursor.emitted).toEqual([1, 2, 3].map((id) => `${id}@${toTheMillisecond}`));
  });

  it('a cursor an older b2bctl wrote (keys without a digest): its versions are not emitted again, a change is', async () => {
    const orders = storeOf(toTheMinute);
    useStore(orders);
    const configDir = freshConfigDir();
    const instant = new Date(minute).toISOString();
    mkdirSync(dirname(cursorFile(configDir)), { recursive: true, mode: 0o700 });
    writeFileSync(
      cursorFile(configDir),
      JSON.stringify({
        profile: 'default',
        cursor: new Date(minute + 30_000).toISOString(),
        emitted: [1, 2, 3].map((id) => `${id}@${instant}`),
      }),
      { mode: 0o600 },
    );
    const upgraded = await poll(configDir);
    expect([upgraded.code, emitted(upgraded.stdout)]).toEqual([0, []]);
    orders[2] = { ...(orders[2] as Order), status: 'CANCELED' };
    const changed = await poll(configDir);
    expect([changed.code, emitted(changed.stdout)]).toEqual([0, ['3 CANCELED']]);
  });
});
