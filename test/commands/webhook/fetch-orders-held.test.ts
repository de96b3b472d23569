/**
 * --fetch-orders and one order whose fetch keeps failing (the platform answers 500 for that order only): every hand-off
 * keeps store order, so the fetches after it and the ERP's hand-off wait behind it for up to --give-up-after. A user
 * test found that hold silent but for the failure lines: it is said in one warning naming the order and until when it
 * may hold, on /healthz (`delivery held`) while it lasts, and in one line when it ends.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { orderDetail, simplifiedOrder } from '../../support/fetch-orders-receiver.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { standInErp } from '../../support/stand-in-erp.js';
import { until } from '../../support/until.js';
import {
  listenInProcess,
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const platform = useScriptedPlatform();

const stamp = '2026-11-30T23:29:11.081Z';
const simplified = (id: number) => simplifiedOrder(id, stamp);
const detail = (id: number) => orderDetail(id, stamp);

/** The receiver's /healthz body. */
async function health(url: string): Promise<{ status: string; problems: Record<string, unknown>[] }> {
  return (await (await fetch(`${url}/healthz`)).json()) as { status: string; problems: Record<string, unknown>[] };
}

describe('--fetch-orders: one order whose fetch keeps failing holds the later events, and says so', () => {
  it('a warning naming the order and how long it may hold, /healthz "delivery held", then the line that it ended', async () => {
    // Order 2's detail answers 500 once, then the test holds its next request until it has looked.
    let heldAnswer: ServerResponse | undefined;
    let askedForOrder2 = 0;
    platform.routes['GET /v1/orders/1'] = (_request, _body, response) => answerJson(response, 200, detail(1));
    platform.routes['GET /v1/orders/3'] = (_request, _body, response) => answerJson(response, 200, detail(3));
    platform.routes['GET /v1/orders/2'] = (_request, _body, response) => {
      if (++askedForOrder2 === 1) answerJson(response, 500, { error: 'internal error' });
      else heldAnswer = response;
    };
    const erp = await standInErp();
    const inbox = temporaryFolder();
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'platform-token' };
    const { url, stop, memory } = await listenInProcess(inbox, { fetchOrders: true, forwardTo: erp.url }, { env });
    try {
      const token = await receiverToken(url);
      for (const id of [1, 2, 3]) expect((await postEvent(url, 'orders', simplified(id), token)).status).toBe(200);
      await until(() => heldAnswer !== undefined, "order 2's second fetch");

      const warnings = memory
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('warning: hand-off'));
      expect(warnings).toEqual([
        'warning: hand-off "fetch-orders" fails on order 2 (orders event 2): every later event waits behind it, in store order, and hand-off "forward" with it, until it goes through or for at most 72 h more (until 2026-11-26T12:00:00.000Z, --give-up-after), when it becomes a dead letter.',
      ]);
      // The promise kept: order 3 is neither fetched nor handed to the ERP before order 2.
      expect(platform.received.filter((request) => request === 'GET /v1/orders/3')).toEqual([]);
      await until(() => erp.received.length === 1, 'order 1 at the ERP');
      expect(erp.received.map((request) => (JSON.parse(request.body) as { event: { id: number } }).event.id)).toEqual([
        1,
      ]);
      const held = await health(url);
      expect(held.status).toBe('degraded');
      expect(held.problems).toEqual([
        {
          problem: 'delivery held',
          handOff: 'fetch-orders',
          eventId: 2,
          seconds: expect.any(Number) as number,
          givesUpInSeconds: expect.any(Number) as number,
          waiting: ['forward'],
        },
      ]);
      const [problem] = held.problems as [{ seconds: number; givesUpInSeconds: number }];
      // Each rounded to the second on its own.
      expect(Math.abs(problem.seconds + problem.givesUpInSeconds - 72 * 3600)).toBeLessThanOrEqual(1);
      // /healthz names no order: it answers without a token.
      expect(JSON.stringify(held)).not.toContain('order 2');

      answerJson(heldAnswer as ServerResponse, 200, detail(2));
      await until(() => erp.received.length === 3, 'orders 2 and 3 at the ERP');
      expect(memory.stderr()).toContain(
        'Hand-off "fetch-orders": order 2 (orders event 2) went through; the events behind it go on.\n',
      );
      expect((await health(url)).problems).toEqual([]);
    } finally {
      await stop();
      await erp.close();
    }
  });

  it('an event whose failure is not its order\'s own (no orders event) is no hold: no warning, no "delivery held"', async () => {
    const inbox = temporaryFolder();
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'platform-token' };
    // The ERP fails a customers event once: its outage holds events as ever, said by the failure lines alone.
    let customersTries = 0;
    const failingErp = await standInErp((request) =>
      request.body.includes('"kind":"customers"') && ++customersTries === 1 ? { status: 500 } : { status: 200 },
    );
    const { url, stop, memory } = await listenInProcess(
      inbox,
      { fetchOrders: true, forwardTo: failingErp.url },
      { env },
    );
    try {
      const token = await receiverToken(url);
      expect((await postEvent(url, 'customers', { id: 9, document: '11222333000181' }, token)).status).toBe(200);
      await until(() => failingErp.received.length === 2, 'the customers event taken on its second try');
      expect(memory.stderr()).toMatch(/customers event 1 failed \(attempt 1/);
      expect(memory.stderr()).not.toMatch(/warning: hand-off|went through/);
      expect((await health(url)).problems).toEqual([]);
    } finally {
      await stop();
      await failingErp.close();
    }
  });
});
