import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../../src/sandbox/clock.js';
import { OrderStore, summaryOf } from '../../../src/sandbox/orders/store.js';
import { SandboxState } from '../../../src/sandbox/state.js';
import type { OutboxEvent } from '../../../src/sandbox/events.js';

const material = {
  customers: [{ document: '11.222.333/0001-81', name: 'Comercial Exemplo Ltda', zipcode: '01310-100', number: '1' }],
  products: [{ sku: 'SKU-1', name: 'Parafuso' }],
};

describe('the sandbox publishes the orders webhook through its outbox', () => {
  it('for a generated order and for an update, with the summary fields of the webhook', () => {
    const clock = new SandboxClock(() => Date.parse('2026-11-23T08:00:00Z'));
    const state = new SandboxState(clock, new OrderStore(material, () => 0.5));
    const published: OutboxEvent[] = [];
    state.events.subscribe((event) => published.push(event));

    const order = state.orders.create(clock.now(), { notify: true });
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ kind: 'orders', payload: summaryOf(order) });
    expect(Object.keys(published[0]?.payload as object)).not.toContain('items');

    const updated = state.orders.update(order.id, clock.now() + 60_000);
    expect(published).toHaveLength(2);
    expect(published[1]).toMatchObject({
      kind: 'orders',
      payload: { id: order.id, lastUpdated: updated?.lastUpdated },
    });
  });

  it('not for the orders seeded before the state existed', () => {
    const orders = new OrderStore(material, () => 0.5);
    orders.create(Date.parse('2026-11-01T00:00:00Z'), { notify: true });
    const state = new SandboxState(new SandboxClock(), orders);
    expect(state.events.list()).toEqual([]);
  });
});

describe("an order's lastUpdated is its version", () => {
  it('two changes in one millisecond get two stamps, so neither is taken for a redelivery of the other', () => {
    const instant = Date.parse('2026-11-23T08:00:00Z');
    const orders = new OrderStore(material, () => 0.5);
    const order = orders.create(instant);
    const stamps = [orders.update(order.id, instant)?.lastUpdated, orders.update(order.id, instant)?.lastUpdated];
    expect(stamps).toEqual(['2026-11-23T08:00:00.001Z', '2026-11-23T08:00:00.002Z']);
    // A late commit the sandbox plays, stamped well in the past, keeps its stamp.
    orders.lastUpdatedSkewMs = 120_000;
    expect(orders.update(order.id, instant)?.lastUpdated).toBe('2026-11-23T07:58:00.000Z');
  });
});
