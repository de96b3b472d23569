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

/** A cart posted to a sandbox whose checkout asks `tax serve` (the fixture table) for its taxes. */
async function closeOrder(cart: unknown): Promise<ClosedOrder> {
  const { table } = await watchedFixtureTable('b2bctl-sandbox-totals-');
  closers.push(() => table.close());
  const taxServer = await startLoopbackTaxServer(
    { table, auth: { kind: 'bearer', token }, log: { warn: () => {} } },
    closers,
  );
  const sandbox = await startTestSandbox({ taxCallback: { url: `${taxServer.url}/tax`, token, timeoutMs: 3000 } });
  closers.push(() => sandbox.close());
  const answer = await fetch(`${sandbox.url}/_sandbox/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(cart),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as ClosedOrder;
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
});
