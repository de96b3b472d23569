/**
 * The full-payload variant of the orders webhook: a sandbox sending whole orders in each dialect's detail shape, a
 * receiver with --fetch-orders that keeps them whole and asks the platform for nothing, and the simplified variant
 * still fetched through the API.
 */
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wholeOrderOf } from '../../../src/domain/webhook-events.js';
import { dialectNamed, type Dialect } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { fetchToken, startTestSandbox } from '../../support/sandbox.js';
import { until } from '../../support/until.js';
import {
  clientId,
  clientSecret,
  listenInProcess,
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

describe('the orders webhook, full or simplified', () => {
  it.each(['default', 'spring', 'legacy', 'gateway'])(
    '%s dialect: a whole order is recognised and kept as it came, with no request for its detail',
    async (name) => {
      const dialect = dialectNamed(name) as Dialect;
      const inbox = temporaryFolder();
      const sandbox = await startTestSandbox({ dialect, ordersWebhook: 'full', orderCount: 0 });
      try {
        // A profile that can reach the platform, though the receiver should never need to.
        const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: 'a-token-the-receiver-never-uses' };
        const { url: receiverUrl, stop } = await listenInProcess(inbox, { fetchOrders: true }, { env });
        await fetch(`${sandbox.url}/_sandbox/webhook-config`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: receiverUrl, style: 'body', clientId, clientSecret }),
        });
        const created = (await (await fetch(`${sandbox.url}/_sandbox/orders`, { method: 'POST' })).json()) as {
          id: number;
        };
        const file = join(inbox, 'orders', `${created.id}.json`);
        await until(() => existsSync(file));
        await stop();
        const kept = JSON.parse(readFileSync(file, 'utf8')) as { order: unknown };
        expect(kept.order).toEqual(dialect.orderDetail(sandbox.state.orders.orders.get(created.id)!));
        expect(wholeOrderOf(kept.order)).toBeDefined();
        const counts = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Record<string, number>;
        expect(Object.keys(counts).filter((route) => route.startsWith('GET /v1/orders/'))).toEqual([]);
      } finally {
        await sandbox.close();
      }
    },
  );

  it('tells the variants apart: the summary fields alone are no whole order', () => {
    expect(wholeOrderOf({ id: 1, orderId: 100001, status: 'AWAITING_PAYMENT' })).toBeUndefined();
    expect(wholeOrderOf({ id: 1, items: [{ sku: 'A' }] })).toEqual({ id: 1, items: [{ sku: 'A' }] });
    // An empty lines list carries no line: a summary whose collection was initialised empty (a user test).
    expect(wholeOrderOf({ id: 1, items: [] })).toBeUndefined();
    expect(wholeOrderOf({ data: { id: '1', lines: [] } })).toBeUndefined();
    expect(wholeOrderOf({ requestId: 'r', order: { id: 1, items: [{}] } })).toEqual({ id: 1, items: [{}] });
    expect(wholeOrderOf({ data: { id: '1', lines: [{}] } })).toEqual({ id: '1', lines: [{}] });
    expect(wholeOrderOf([{ items: [] }])).toBeUndefined();
    expect(wholeOrderOf(null)).toBeUndefined();
  });
});

/** Order 555 as the full-payload webhook carries it, at one version. */
function whole(status: string, lastUpdated: string) {
  return { id: 555, status, lastUpdated, items: [{ sku: 'X', quantity: status === 'PAID' ? 2 : 1 }] };
}

/** A receiver with --fetch-orders on `inbox`, whose profile reaches `sandbox`; its URL and a token for it. */
async function fetchingReceiver(inbox: string, sandbox: RunningSandbox) {
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: await fetchToken(sandbox) };
  const { memory, url: receiverUrl, stop } = await listenInProcess(inbox, { fetchOrders: true }, { env });
  return { memory, stop, receiverUrl, token: await receiverToken(receiverUrl) };
}

describe('--fetch-orders keeps the newest version, and gives up on an order the platform has not', () => {
  it('an older whole order after a newer one keeps the newer file; a 404 detail is a dead letter at once', async () => {
    const inbox = temporaryFolder();
    const sandbox = await startTestSandbox({ orderCount: 0 });
    try {
      const { memory, stop, receiverUrl, token } = await fetchingReceiver(inbox, sandbox);
      await postEvent(receiverUrl, 'orders', whole('PAID', '2026-11-29T07:05:00.000Z'), token);
      await postEvent(receiverUrl, 'orders', whole('NEW', '2026-11-29T07:01:00.000Z'), token);
      // An order the platform does not know: its detail answers 404.
      await postEvent(
        receiverUrl,
        'orders',
        { id: 999_999, status: 'NEW', lastUpdated: '2026-11-29T07:02:00.000Z' },
        token,
      );
      // The order after it goes on: its file is the sign that the hand-off moved past the 404.
      await postEvent(receiverUrl, 'orders', { ...whole('SHIPPED', '2026-11-29T07:09:00.000Z'), id: 556 }, token);
      const last = join(inbox, 'orders', '556.json');
      await until(() => existsSync(last));
      await stop();
      const kept = JSON.parse(readFileSync(join(inbox, 'orders', '555.json'), 'utf8')) as { order: { status: string } };
      expect(kept.order.status).toBe('PAID');
      expect(memory.stderr()).toMatch(
        /orders event \d+ is dead after 1 attempt \(the platform has no order 999999 \(HTTP 404\)\)/,
      );
    } finally {
      await sandbox.close();
    }
  });
});

describe('--fetch-orders checks its folder at every order, not only at start', () => {
  it('an orders folder made writable by others while the receiver runs gets no order, and says why', async () => {
    const inbox = temporaryFolder();
    const sandbox = await startTestSandbox({ orderCount: 0 });
    try {
      const { memory, stop, receiverUrl, token } = await fetchingReceiver(inbox, sandbox);
      await postEvent(receiverUrl, 'orders', whole('PAID', '2026-11-29T07:05:00.000Z'), token);
      const orders = join(inbox, 'orders');
      await until(() => existsSync(join(orders, '555.json')));
      // Another user's doing, in a shared inbox folder: the folder the ERP reads from is now anyone's to change.
      chmodSync(orders, 0o777);
      await postEvent(receiverUrl, 'orders', { ...whole('NEW', '2026-11-29T07:09:00.000Z'), id: 556 }, token);
      await until(() => memory.stderr().includes(`The orders folder ${orders} is writable by its group and others`));
      expect(existsSync(join(orders, '556.json'))).toBe(false);
      await stop();
    } finally {
      await sandbox.close();
    }
  });
});

describe('--fetch-orders writes a whole order with the numbers its event carried', () => {
  it('an id past 2^53, a 19-digit EAN and 20-digit decimals are written as they came, not as doubles', async () => {
    const inbox = temporaryFolder();
    const sandbox = await startTestSandbox({ orderCount: 0 });
    try {
      const { stop, receiverUrl, token } = await fetchingReceiver(inbox, sandbox);
      // As a platform on Java longs writes it (a user test): JSON.parse reads the id as order …984, the EAN rounded.
      const order =
        '{"id":18014398509481985,"orderId":777,"status":"PAID","lastUpdated":"2026-11-30T12:00:01.005Z",' +
        '"items":[{"sku":"A","quantity":1.0,"ean":7891234567890123456,"price":10.50}],"total":0.10000000000000000001}';
      expect((await postEvent(receiverUrl, 'orders', order, token)).status).toBe(200);
      const file = join(inbox, 'orders', '18014398509481985.json');
      await until(() => existsSync(file));
      await stop();
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/^\{"deliveryId":"[^"]+","order":(.*)\}\n$/);
      expect(/"order":(.*)\}\n$/.exec(text)?.[1]).toBe(order);
      expect(JSON.parse(text)).toMatchObject({ order: { orderId: 777, status: 'PAID' } });
      const counts = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Record<string, number>;
      expect(Object.keys(counts).filter((route) => route.startsWith('GET /v1/orders/'))).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
