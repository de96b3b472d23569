/**
 * --fetch-orders and the shapes an orders event or its detail come in: an id written with leading zeros (a user test), an
 * event whose lines list is empty (a user test), a detail in an envelope (a user test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ordersAfterEvents, wholeOrder } from '../../support/fetch-orders-receiver.js';
import { answerJson, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeReceiverFolders } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const platform = useScriptedPlatform();

const stamp = '2026-11-30T23:00:00.000Z';

/** The simplified orders event of order `id`. */
const simplified = (id: number | string, extra: Record<string, unknown> = {}) => ({
  id,
  orderId: 100_000 + Number(id),
  status: 'AWAITING_PAYMENT',
  lastUpdated: stamp,
  ...extra,
});

/** The order's detail as the platform answers it: its lines. */
const detail = (id: number) => ({ ...wholeOrder(id, 'AWAITING_PAYMENT', stamp), orderId: 100_000 + id });

/** A detail in the store's own envelope. */
const pedido = (id: number) => ({ pedido: detail(id) });

function answering(body: unknown): RouteHandler {
  return (_request, _body, response) => answerJson(response, 200, body);
}

/** What orders/<id>.json holds as the order. */
const orderIn = (orders: string, id: number) =>
  (JSON.parse(readFileSync(join(orders, `${id}.json`), 'utf8')) as { order: unknown }).order;

describe('--fetch-orders reads an id as the order routes do (a user test)', () => {
  it('"00042" is order 42: its detail asked as 42, written to 42.json, and the next order is not held behind it', async () => {
    // An integer route answers /v1/orders/00042 with order 42's record, as the stand-in did.
    platform.routes['GET /v1/orders/00042'] = answering(detail(42));
    platform.routes['GET /v1/orders/42'] = answering(detail(42));
    platform.routes['GET /v1/orders/43'] = answering(detail(43));
    const { orders, stderr } = await ordersAfterEvents(platform, [simplified('00042'), simplified(43)]);
    expect(platform.received).toEqual(['GET /v1/orders/42', 'GET /v1/orders/43']);
    expect(orderIn(orders, 42)).toEqual(detail(42));
    expect(orderIn(orders, 43)).toEqual(detail(43));
    expect(stderr).not.toMatch(/failed \(attempt|dead after|another order/);
  });
});

describe('an orders event whose lines list is empty carries no order: its detail is fetched (a user test)', () => {
  it.each([
    ['"items": []', simplified(1, { items: [] })],
    ['"itens": [] beside a buyer', simplified(1, { itens: [], cliente: { nome: 'X' } })],
    ['an order envelope whose items are []', { order: simplified(1, { items: [] }) }],
    ['a data envelope whose lines are []', { requestId: 'r-1', data: simplified(1, { lines: [] }) }],
  ])('%s: GET /v1/orders/1, and the file holds the detail with its lines', async (_name, event) => {
    platform.routes['GET /v1/orders/1'] = answering(detail(1));
    const { orders, stderr } = await ordersAfterEvents(platform, [event]);
    expect(platform.received).toEqual(['GET /v1/orders/1']);
    expect(orderIn(orders, 1)).toEqual(detail(1));
    expect(stderr).not.toMatch(/failed \(attempt|dead after/);
  });

  it('an event with lines is still the full order: kept as it came, nothing asked', async () => {
    const event = simplified(2, { items: [{ sku: 'B', quantity: 1 }] });
    const { orders } = await ordersAfterEvents(platform, [event]);
    expect(platform.received).toEqual([]);
    expect(orderIn(orders, 2)).toEqual(event);
  });
});

describe('a fetched detail in an envelope is read as orders poll --detail reads it (a user test)', () => {
  it('a data envelope is unwrapped: the file holds the order, whose lastUpdated the next event compares', async () => {
    platform.routes['GET /v1/orders/2'] = answering({ data: detail(2) });
    const { orders, stderr } = await ordersAfterEvents(platform, [simplified(2)]);
    expect(orderIn(orders, 2)).toEqual(detail(2));
    expect(stderr).not.toMatch(/warning/);
  });

  it.each([
    ['an order envelope around a data envelope', { order: { data: detail(5) } }],
    ['three envelopes deep', { result: { order: { data: detail(5) } } }],
  ])('%s is unwrapped to the order, without a warning', async (_name, answer) => {
    platform.routes['GET /v1/orders/5'] = answering(answer);
    const { orders, stderr } = await ordersAfterEvents(platform, [simplified(5)]);
    expect(orderIn(orders, 5)).toEqual(detail(5));
    expect(stderr).not.toMatch(/warning/);
  });

  it("the store's own envelope is written as it came, with poll's warning naming answers.order.detail, once a run", async () => {
    platform.routes['GET /v1/orders/3'] = answering(pedido(3));
    platform.routes['GET /v1/orders/4'] = answering(pedido(4));
    const { orders, stderr } = await ordersAfterEvents(platform, [simplified(3), simplified(4)]);
    expect([orderIn(orders, 3), orderIn(orders, 4)]).toEqual([pedido(3), pedido(4)]);
    const warnings = stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      "warning: order 3's detail shows neither an id nor a number where b2bctl reads them (the answer's root, or a data, order, result or content envelope): written as it came, as every such detail of this run. If the answer holds the order under a field of its own, set answers.order.detail to it (b2bctl orders get 3 shows the answer).",
    ]);
  });
});
