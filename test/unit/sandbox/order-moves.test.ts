import { describe, expect, it } from 'vitest';
import { applyMove, movesOf } from '../../../src/sandbox/orders/moves.js';
import { OrderStore } from '../../../src/sandbox/orders/store.js';

const now = Date.parse('2026-11-23T12:00:00Z');
const material = {
  customers: [{ document: '11.222.333/0001-81', name: 'Loja', zipcode: '01001-000', number: '1' }],
  products: [{ sku: 'SKU-1', name: 'Produto' }],
};

function storeWithOrder() {
  const store = new OrderStore(material, () => 0.5);
  const changes: string[] = [];
  store.onOrderChanged.push((order, change) => changes.push(`${order.id} ${change} ${order.status}`));
  const order = store.create(now);
  return { store, order, changes };
}

describe('the sandbox order state machine', () => {
  it('moves an order forward, stores each move’s fields, stamps lastUpdated and tells the listeners', () => {
    const { store, order, changes } = storeWithOrder();
    expect(applyMove(store, order, 'ready', { erpNumber: 'PV-1' }, now + 1000)).toMatchObject({ kind: 'moved' });
    expect(
      applyMove(store, order, 'invoice', { invoiceKey: '35261011222333000181550010000012341123456787' }, now + 2000),
    ).toMatchObject({ kind: 'moved' });
    expect(
      applyMove(store, order, 'ship', { trackingCode: 'SS123456785BR', carrier: 'Correios' }, now + 3000),
    ).toMatchObject({ kind: 'moved' });
    expect(order).toMatchObject({
      status: 'SHIPPED',
      erpOrderNumber: 'PV-1',
      invoice: { accessKey: '35261011222333000181550010000012341123456787', series: '001', number: '000001234' },
      tracking: { code: 'SS123456785BR', carrier: 'Correios' },
      lastUpdated: new Date(now + 3000).toISOString(),
    });
    expect(changes.slice(1)).toEqual([
      `${order.id} updated READY_TO_SHIP`,
      `${order.id} updated INVOICED`,
      `${order.id} updated SHIPPED`,
    ]);
    expect(movesOf(store).map((move) => move.action)).toEqual(['ready', 'invoice', 'ship']);
  });

  it('refuses a forbidden move and a move without its field, changing nothing', () => {
    const { store, order, changes } = storeWithOrder();
    applyMove(store, order, 'cancel', { reason: 'sem estoque' }, now);
    expect(applyMove(store, order, 'ready', { erpNumber: 'PV-1' }, now)).toEqual({
      kind: 'forbidden',
      message: `Order [${order.id}]: the order is canceled: it moves no further`,
      field: 'status',
    });
    const other = store.create(now);
    expect(applyMove(store, other, 'ship', {}, now)).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('trackingCode'),
    });
    expect(
      applyMove(store, other, 'invoice', { invoiceKey: '35261011222333000181550010000012341123456788' }, now),
    ).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('check digit'),
    });
    expect(other.status).toBe('AWAITING_PAYMENT');
    expect(changes.filter((change) => change.includes('updated'))).toEqual([`${order.id} updated CANCELED`]);
  });

  it('refuses an NF-e key another order holds, naming that order', () => {
    const { store, order } = storeWithOrder();
    const key = '35261011222333000181550010000012341123456787';
    applyMove(store, order, 'invoice', { invoiceKey: key }, now);
    const other = store.create(now);
    expect(applyMove(store, other, 'invoice', { invoiceKey: key }, now)).toEqual({
      kind: 'invalid',
      field: 'accessKey',
      message: `NF-e key ${key} is already the invoice of order ${order.orderId} (id ${order.id})`,
    });
    expect(other).not.toHaveProperty('invoice');
    // The same order may be sent its own key again.
    expect(applyMove(store, order, 'invoice', { invoiceKey: key }, now)).toMatchObject({ kind: 'moved' });
  });

  it('a replacement corrects what a move stored, keeps the status, and only for a move the order took', () => {
    const { store, order } = storeWithOrder();
    expect(applyMove(store, order, 'ready', { erpNumber: 'PV-2' }, now, true)).toMatchObject({
      kind: 'forbidden',
      message: `Order [${order.id}]: the order is AWAITING_PAYMENT: it has no ready to replace`,
    });
    applyMove(store, order, 'ready', { erpNumber: 'PV-1' }, now);
    applyMove(store, order, 'ship', { trackingCode: 'SS123456785BR' }, now);
    expect(applyMove(store, order, 'ready', { erpNumber: 'PV-2' }, now, true)).toMatchObject({ kind: 'moved' });
    expect(order).toMatchObject({ status: 'SHIPPED', erpOrderNumber: 'PV-2' });
    expect(movesOf(store).at(-1)).toMatchObject({ action: 'ready', replaced: true });
  });
});
