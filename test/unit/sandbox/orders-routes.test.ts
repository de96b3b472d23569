import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { fetchToken, startTestSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let token: string;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await fetchToken(sandbox);
});
afterAll(() => sandbox.close());

// oxlint-disable-next-line typescript/no-explicit-any -- the answers are read as the JSON they are
async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

describe('the sandbox order listing', () => {
  it('lists 5 by default, newest creation first, at most 25, [] past the end', async () => {
    const first = await get('/v1/orders');
    expect(first.body).toHaveLength(5);
    const created = first.body.map((order: { dateCreated: string }) => Date.parse(order.dateCreated));
    expect(created).toEqual([...created].toSorted((left, right) => right - left));
    expect(Object.keys(first.body[0]).toSorted()).toEqual(
      [
        'approvalWorkflow',
        'dateCreated',
        'id',
        'lastUpdated',
        'orderId',
        'partnerCompanyName',
        'partnerDocument',
        'status',
        'workflowIsApproved',
      ].toSorted(),
    );
    expect((await get('/v1/orders?limit=100')).body).toHaveLength(25);
    expect((await get('/v1/orders?offset=100000')).body).toEqual([]);
    const second = await get('/v1/orders?offset=5&limit=5');
    expect(second.body[0].id).not.toBe(first.body[4].id);
  });

  it('filters by update window and repeatable status', async () => {
    const from = '2026-01-01T00:00:00Z';
    const all = (await get(`/v1/orders?limit=25&updatedFrom=${from}`)).body as { lastUpdated: string }[];
    expect(all.every((order) => Date.parse(order.lastUpdated) >= Date.parse(from))).toBe(true);
    const statuses = (await get('/v1/orders?limit=25&status=SHIPPED&status=DELIVERED')).body as { status: string }[];
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses.map((order) => order.status))).toEqual(new Set(['SHIPPED', 'DELIVERED']));
  });

  it('answers 400 to a bad date and 404 to an unknown order', async () => {
    const bad = await get('/v1/orders?updatedFrom=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('updatedFrom');
    expect((await get('/v1/orders/999999')).status).toBe(404);
  });

  it('generates an order on demand, with its detail and a listener told', async () => {
    const told: number[] = [];
    sandbox.state.orders.onOrderChanged.push((order) => told.push(order.id));
    const response = await fetch(`${sandbox.url}/_sandbox/orders`, { method: 'POST' });
    const order = (await response.json()) as { id: number; items: { sku: string }[]; totals: { total: number } };
    expect(told).toEqual([order.id]);
    const detail = await get(`/v1/orders/${order.id}`);
    expect(detail.body.items.length).toBeGreaterThan(0);
    expect(detail.body.totals.total).toBeGreaterThan(0);
    expect(detail.body).toHaveProperty('deliveryAddress');
  });

  // A user test: these were answered 500 with a JavaScript error's text (`Cannot read properties of null (reading 'replace')`).
  it.each([
    [
      { customer: {}, items: [{ sku: 'F', quantity: 1, unitPrice: 100 }] },
      'Field [customer.document] with value [missing] must be a CPF or CNPJ as text',
    ],
    [{ customer: { document: null } }, 'Field [customer.document] with value [null] must be a CPF or CNPJ as text'],
    [{ customer: { document: 12345 } }, 'Field [customer.document] with value [12345] must be a CPF or CNPJ as text'],
    [{ customer: { paysIcms: false } }, 'Field [customer.document] with value [missing] must be a CPF or CNPJ as text'],
    ['x', 'The cart must be a JSON object, not "x"'],
    [{ customer: 'x' }, 'Field [customer] with value ["x"] must be an object with its "document"'],
    [{ items: 'x' }, 'Field [items] with value ["x"] must be a list of items'],
    [{ items: [null] }, 'Field [items[0]] with value [null] must be an object with quantity and unitPrice'],
    [
      { items: [{ sku: 'A', quantity: 'abc', unitPrice: 1 }] },
      'Field [items[0].quantity] with value ["abc"] must be a number above 0',
    ],
    [
      { items: [{ sku: 'A', quantity: 1, unitPrice: '45,90' }] },
      'Field [items[0].unitPrice] with value ["45,90"] must be a number of at least 0',
    ],
    [
      { items: [{ sku: 'A', quantity: 1, unitPrice: 1 }], shipping: -1 },
      'Field [shipping] with value [-1] must be a number of at least 0',
    ],
    [
      { items: [{ sku: { a: 1 }, quantity: 1, unitPrice: 1 }] },
      'Field [items[0].sku] with value [{"a":1}] must be text or a number',
    ],
    [{ items: [] }, 'The cart has no items: send at least one, or leave "items" out for a random cart'],
    // A user test: sent on to the tax callback, whose refusal came back as a 502; a checkout refuses it itself.
    [
      { items: [{ sku: 'A', quantity: 1, unitPrice: 10 }], discount: 50 },
      "Field [discount] with value [50] must be at most the items' value (10.00)",
    ],
    [
      {
        items: [
          { sku: 'A', quantity: 3, unitPrice: 0.1 },
          { sku: 'B', quantity: 1, unitPrice: 1 },
        ],
        discount: 1.31,
      },
      "Field [discount] with value [1.31] must be at most the items' value (1.30)",
    ],
  ])('refuses the cart %j 400 naming what is wrong, no order created', async (cart, message) => {
    const before = sandbox.state.orders.orders.size;
    const response = await fetch(`${sandbox.url}/_sandbox/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cart),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(JSON.stringify(message).slice(1, -1));
    expect(sandbox.state.orders.orders.size).toBe(before);
  });

  it('takes a discount of exactly the items’ value', async () => {
    const response = await fetch(`${sandbox.url}/_sandbox/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ sku: 'A', quantity: 3, unitPrice: 0.1 }], discount: 0.3 }),
    });
    expect(response.status).toBe(200);
  });

  it('has a clock a test can set, which stamps the orders', async () => {
    await fetch(`${sandbox.url}/_sandbox/clock`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ now: '2026-03-01T10:00:00Z' }),
    });
    const response = await fetch(`${sandbox.url}/_sandbox/orders/3/touch`, { method: 'POST' });
    expect(((await response.json()) as { lastUpdated: string }).lastUpdated).toBe('2026-03-01T10:00:00.000Z');
    await fetch(`${sandbox.url}/_sandbox/clock`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offsetMs: 0 }),
    });
  });

  it('seeds the same orders for the same instant', async () => {
    const { seedOrders, loadOrderMaterial } = await import('../../../src/sandbox/orders/seed.js');
    const material = loadOrderMaterial(new URL('../../../samples', import.meta.url).pathname);
    const at = Date.parse('2026-06-01T00:00:00Z');
    const one = [...seedOrders(material, at, 50).orders.values()];
    const two = [...seedOrders(material, at, 50).orders.values()];
    expect(one).toEqual(two);
    expect(one.every((order) => at - Date.parse(order.dateCreated) <= 30 * 86_400_000)).toBe(true);
  });
});
