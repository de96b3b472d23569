/**
 * A `webhook listen --fetch-orders` receiver on a test's scripted platform, fed whole orders: for the tests of which
 * version of an order its orders/<id>.json keeps.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ListenOptions } from '../../src/commands/webhook/listen.js';
import type { ScriptedPlatform } from './scripted-platform.js';
import { until } from './until.js';
import { listenInProcess, postEvent, receiverToken, temporaryFolder } from './webhook-receiver.js';

/** A whole order as the full-payload webhook carries it. */
export function wholeOrder(id: number | string, status: string, lastUpdated: unknown) {
  return { id, status, lastUpdated, items: [{ sku: 'A', quantity: status.length }] };
}

/** An order awaiting payment at `stamp` as the simplified orders webhook names it, its number 100,000 past its id. */
export function simplifiedOrder(id: number, stamp: string) {
  return { id, orderId: 100_000 + id, status: 'AWAITING_PAYMENT', lastUpdated: stamp };
}

/** The same order's detail, as the platform answers it to --fetch-orders. */
export function orderDetail(id: number, stamp: string) {
  return { ...wholeOrder(id, 'AWAITING_PAYMENT', stamp), orderId: 100_000 + id };
}

/**
 * A receiver with --fetch-orders (and `flags`) on PLATFORM: posts `events` in turn, then a last whole order whose file
 * says the hand-off went past them all (it hands events off in order); returns the inbox's orders folder, the status
 * of the order held in each file, and the receiver's stderr.
 */
export async function ordersAfterEvents(
  platform: ScriptedPlatform,
  events: unknown[],
  flags: Partial<ListenOptions> = {},
) {
  const inbox = temporaryFolder();
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'platform-token' };
  const { memory, url, stop } = await listenInProcess(inbox, { ...flags, fetchOrders: true }, { env });
  const token = await receiverToken(url);
  for (const event of events) expect((await postEvent(url, 'orders', event, token)).status).toBe(200);
  await postEvent(url, 'orders', wholeOrder(999, 'LAST', '2026-11-30T00:00:00Z'), token);
  const orders = join(inbox, 'orders');
  await until(() => existsSync(join(orders, '999.json')));
  await stop();
  const statusOf = (id: number | string) =>
    (JSON.parse(readFileSync(join(orders, `${id}.json`), 'utf8')) as { order: { status: string } }).order.status;
  return { orders, statusOf, stderr: memory.stderr() };
}
