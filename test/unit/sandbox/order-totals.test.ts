/**
 * The sandbox's order totals beside the taxes `tax serve` computed for the same cart: an integrator reconciling the
 * two must find the same centavos (fresh-user u/U9). Both sides are exact decimals rounded half to even.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../support/sandbox.js';
import { startLoopbackTaxServer } from '../../support/tax-server.js';
import { watchedFixtureTable } from '../../support/tax-table.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const token = '0123456789abcdef0123456789abcdef';
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).toReversed()) await close();
  removeTemporaryFolders();
});

interface ClosedOrder {
  items: { total: number }[];
  totals: { items: number; shipping: number; discount: number; total: number };
  taxes: { items: { ipi: { base: string } }[] };
}

/** A sandbox whose checkout asks `tax serve` (the fixture table) for its taxes, and the tax server's counts. */
async function checkout() {
  const { table } = await watchedFixtureTable('b2bctl-sandbox-totals-');
  closers.push(() => table.close());
  const taxServer = await startLoopbackTaxServer(
    { table, auth: { kind: 'bearer', token }, log: { warn: () => {} } },
    closers,
  );
  const sandbox = await startTestSandbox({ taxCallback: { url: `${taxServer.url}/tax`, token, timeoutMs: 3000 } });
  closers.push(() => sandbox.close());
  const post = async (cart: unknown) => {
    const answer = await fetch(`${sandbox.url}/_sandbox/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cart),
    });
    return { status: answer.status, body: (await answer.json()) as unknown };
  };
  return { post, counts: taxServer.counts };
}

/** A cart posted to a sandbox whose checkout asks `tax serve` (the fixture table) for its taxes. */
async function closeOrder(cart: unknown): Promise<ClosedOrder> {
  const answer = await (await checkout()).post(cart);
  expect(answer.status).toBe(200);
  return answer.body as ClosedOrder;
}

/** The sum of the items' operations (merchandise + freight) as the taxes computed them, in centavos. */
const operations = (order: ClosedOrder) =>
  order.taxes.items.reduce((sum, item) => sum + Math.round(Number(item.ipi.base) * 100), 0);

describe("the sandbox's order totals", () => {
  it('are exact: 2.5 × 19.99 is 49.975, shown 49.98, and the total is the taxes’ operations to the centavo', async () => {
    const order = await closeOrder({
      customer: { document: '11.222.333/0001-81' },
      state: 'RJ',
      shipping: 7.77,
      discount: 1.11,
      items: [
        { sku: 'A', ncm: '39269090', quantity: 0.333, unitPrice: 1.005 },
        { sku: 'B', ncm: '39269090', quantity: 2.5, unitPrice: 19.99 },
      ],
    });
    expect(order.items.map((item) => item.total)).toEqual([0.33, 49.98]);
    expect(order.totals).toEqual({ items: 50.31, shipping: 7.77, discount: 1.11, total: 56.97 });
    expect(operations(order)).toBe(5697);
  });

  it('match the taxes’ operations when a price has a third decimal: both round the gross value (vProd) first', async () => {
    // 0.045 is 0.04 (half to even), less a discount of 0.03, plus the freight: 7.78 on both sides, not 7.79 in the taxes.
    const order = await closeOrder({
      customer: { document: '11.222.333/0001-81' },
      state: 'RJ',
      shipping: 7.77,
      discount: 0.03,
      items: [{ ncm: '39269090', quantity: 1, unitPrice: 0.045 }],
    });
    expect(order.totals).toEqual({ items: 0.04, shipping: 7.77, discount: 0.03, total: 7.78 });
    expect(order.taxes.items.map((item) => item.ipi.base)).toEqual(['7.78']);
  });

  it('shares the freight of a cart whose items are all priced 0 equally, so it is in their tax base', async () => {
    const order = await closeOrder({
      customer: { document: '11.222.333/0001-81' },
      state: 'RJ',
      shipping: 10,
      items: [
        { sku: 'A', ncm: '39269090', quantity: 1, unitPrice: 0 },
        { sku: 'B', ncm: '39269090', quantity: 3, unitPrice: 0 },
        { sku: 'C', ncm: '39269090', quantity: 2, unitPrice: 0 },
      ],
    });
    expect(order.totals).toEqual({ items: 0, shipping: 10, discount: 0, total: 10 });
    expect(order.taxes.items.map((item) => item.ipi.base)).toEqual(['3.34', '3.33', '3.33']);
  });

  // A user test: the seeded orders' random freight and 5 % discount filled the parts a posted cart left out, so the same
  // cart was taxed on 436.05 or 459.00 with a freight between 10 and 100, depending on the order's id.
  it('keep a posted cart as it was sent: a freight or discount it leaves out is 0, in the order and in its taxes', async () => {
    const { post } = await checkout();
    const cart = {
      customer: { document: '11.222.333/0001-81' },
      state: 'RJ',
      items: [{ sku: 'A', ncm: '39269090', quantity: 10, unitPrice: 45.9 }],
    };
    for (let sent = 0; sent < 12; sent++) {
      const answer = await post(cart);
      expect(answer.status).toBe(200);
      const order = answer.body as ClosedOrder;
      expect(order.totals).toEqual({ items: 459, shipping: 0, discount: 0, total: 459 });
      // The callback was asked for the cart posted: its operation is the merchandise, no freight, no discount.
      expect(order.taxes.items.map((item) => item.ipi.base)).toEqual(['459.00']);
    }
    const withFreight = (await post({ ...cart, shipping: 12 })).body as ClosedOrder;
    expect(withFreight.totals).toEqual({ items: 459, shipping: 12, discount: 0, total: 471 });
    expect(withFreight.taxes.items.map((item) => item.ipi.base)).toEqual(['471.00']);
  });

  it('take a numeric SKU, which the callback gives back a number', async () => {
    const { post } = await checkout();
    const answer = await post({
      customer: { document: '11.222.333/0001-81' },
      state: 'RJ',
      items: [{ sku: 123, ncm: '39269090', quantity: 1, unitPrice: 1 }],
    });
    expect(answer.status).toBe(200);
    expect((answer.body as { taxes: { items: { sku: unknown }[] } }).taxes.items[0]?.sku).toBe(123);
  });

  it('refuse an empty cart 400, the callback not asked, rather than fill it with products nobody chose', async () => {
    const { post, counts } = await checkout();
    const answer = await post({ customer: { document: '11.222.333/0001-81' }, state: 'RJ', items: [] });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('The cart has no items');
    expect(counts).toMatchObject({ answered: 0, unreadable: 0, noRow: 0 });
  });
});
