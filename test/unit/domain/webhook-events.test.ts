import { describe, expect, it } from 'vitest';
import { deduplicationKey, formerDeduplicationKey, payloadMismatches } from '../../../src/domain/webhook-events.js';
import { sampleEvent } from '../../../src/webhook/sender.js';

const now = new Date('2026-11-23T06:00:00Z');

describe('payloadMismatches', () => {
  it.each(['customers', 'orders'] as const)('finds nothing wrong with the sample %s event', (kind) => {
    expect(payloadMismatches(kind, sampleEvent(kind, now))).toEqual([]);
  });

  it.each([
    ['customers', [1, 2], ['payload is an array, not an object']],
    ['orders', null, ['payload is null, not an object']],
    ['orders', 'text', ['payload is a string, not an object']],
    ['orders', { ...sampleEvent('orders', now), id: '12' }, ['id is not an integer']],
    ['customers', { ...sampleEvent('customers', now), documentType: 'cnpj' }, ['documentType "cnpj" is not pf or pj']],
  ] as const)('%s %j is flagged', (kind, payload, expected) => {
    expect(payloadMismatches(kind, payload)).toEqual(expected);
  });

  it('names each missing field and accepts nulls and extra fields', () => {
    const withoutStatus = Object.fromEntries(
      Object.entries(sampleEvent('orders', now)).filter(([field]) => field !== 'status'),
    );
    expect(payloadMismatches('orders', { ...withoutStatus, partnerCompanyName: null, extra: 1 })).toEqual([
      'status missing',
    ]);
  });
});

/** A key without the digest a stamp coarser than a millisecond adds (`#…`): the order and version as meant. */
const versionPart = (key: string) => key.split('#')[0];
/** An order event's key as the receiver makes it: from the parsed event and its text. */
const keyOf = (raw: string) => deduplicationKey('orders', JSON.parse(raw), 'd', raw);

describe('a full-payload orders event that wraps its order (under data or order)', () => {
  const order = { ...sampleEvent('orders', now), items: [{ sku: 'A', quantity: 1 }] };
  it.each([{ data: order }, { order }])('is judged and keyed by the order it carries: %#', (payload) => {
    expect(payloadMismatches('orders', payload)).toEqual([]);
    expect(versionPart(deduplicationKey('orders', payload, 'd-1'))).toBe(`orders:48213:${now.toISOString()}`);
  });
});

describe('deduplicationKey', () => {
  it('keys an order by id and lastUpdated, whatever else changed under a stamp to the millisecond', () => {
    const order = sampleEvent('orders', now);
    expect(versionPart(deduplicationKey('orders', order, 'd-1'))).toBe(`orders:48213:${now.toISOString()}`);
    const fine = { ...order, lastUpdated: '2026-11-23T06:00:00.123Z' };
    expect(deduplicationKey('orders', { ...fine, status: 'PAID' }, 'd-2')).toBe(
      deduplicationKey('orders', fine, 'd-1'),
    );
    expect(deduplicationKey('orders', { ...order, status: 'PAID' }, 'd-2')).not.toBe(
      deduplicationKey('orders', order, 'd-1'),
    );
    expect(deduplicationKey('orders', { ...order, lastUpdated: '2026-11-23T07:00:00.000Z' }, 'd-3')).not.toBe(
      deduplicationKey('orders', order, 'd-1'),
    );
  });

  it('keys an order id past 2^53 by its digits as written: two orders that parse to one number stay two', () => {
    const first = '{"id":9007199254740993,"orderId":1,"status":"NEW","lastUpdated":"2026-11-29T12:00:00Z"}';
    const second = '{ "id" : 9007199254740992, "orderId":2,"status":"CANCELED","lastUpdated":"2026-11-29T12:00:00Z"}\n';
    expect(versionPart(keyOf(first))).toBe('orders:9007199254740993:2026-11-29T12:00:00.000Z');
    expect(versionPart(keyOf(second))).toBe('orders:9007199254740992:2026-11-29T12:00:00.000Z');
    // A nested id (an item's) is not the order's.
    const nested = '{"items":[{"id":9007199254740993}],"id":18014398509481985,"lastUpdated":"2026-11-29T12:00:00Z"}';
    expect(versionPart(keyOf(nested))).toBe('orders:18014398509481985:2026-11-29T12:00:00.000Z');
  });

  it('keys each customers delivery apart, the same content too: it may be a change the event does not show', () => {
    // A phone changed and changed back, or a state registration (not in the event) changed: the same content, a new
    // change. Taken for a resend, it would never reach the ERP.
    const customer = sampleEvent('customers', now);
    expect(deduplicationKey('customers', customer, 'd-1')).toBe('customers:1017:d-1');
    expect(deduplicationKey('customers', { ...customer }, 'd-2')).not.toBe(
      deduplicationKey('customers', customer, 'd-1'),
    );
  });

  it('keys an order with a blank lastUpdated by its content, as one without: a blank stamp is no version', () => {
    const order = { id: 150002, orderId: 150002, status: 'SHIPPED', lastUpdated: ' ' };
    expect(deduplicationKey('orders', order, 'd-1')).toMatch(/^orders:150002:[\w-]{22}$/);
    expect(deduplicationKey('orders', { ...order, status: 'DELIVERED' }, 'd-2')).not.toBe(
      deduplicationKey('orders', order, 'd-1'),
    );
    expect(payloadMismatches('orders', order)).toContain('lastUpdated is blank');
  });

  it.each(['0000-00-00 00:00:00', 'null', 'undefined', '0', '0001-01-01T00:00:00', '30/11/2026 12:00:00'])(
    'keys an order whose lastUpdated is no instant (%j) by its content, flagged: it is no version (a user test)',
    (stamp) => {
      const order = { id: 150005, orderId: 150005, status: 'SHIPPED', lastUpdated: stamp };
      expect(deduplicationKey('orders', order, 'd-1')).toMatch(/^orders:150005:[\w-]{22}$/);
      expect(deduplicationKey('orders', { ...order, status: 'DELIVERED' }, 'd-2')).not.toBe(
        deduplicationKey('orders', order, 'd-1'),
      );
      expect(payloadMismatches('orders', order)).toContain(
        `lastUpdated ${JSON.stringify(stamp)} is no instant b2bctl reads`,
      );
    },
  );

  // The flag quotes at most 40 characters of the stamp, inside its quotes: 42 with them, whole; one more, cut.
  it.each([
    ['x'.repeat(40), `"${'x'.repeat(40)}"`],
    ['x'.repeat(41), `"${'x'.repeat(39)}…"`],
  ])('quotes a stamp that is no instant at most 40 characters long (%s)', (stamp, shown) => {
    const order = { id: 150005, orderId: 150005, status: 'SHIPPED', lastUpdated: stamp };
    expect(payloadMismatches('orders', order)).toContain(`lastUpdated ${shown} is no instant b2bctl reads`);
  });

  it.each(['', 0, -1, '0', ' '])('keys an order whose id names no order (%j) by its orderId', (id) => {
    const order = { id, orderId: 160002, status: 'A', lastUpdated: '2026-11-30T10:00:00Z' };
    expect(versionPart(deduplicationKey('orders', order, 'd-1'))).toBe('orders:160002:2026-11-30T10:00:00.000Z');
    expect(deduplicationKey('orders', { ...order, orderId: 0 }, 'd-1')).toMatch(/^orders:-:[\w-]{22}$/);
  });

  it('keys a payload without an id by kind and content', () => {
    expect(deduplicationKey('orders', [1], 'd-1')).toMatch(/^orders:-:/);
    expect(deduplicationKey('orders', [1], 'd-1')).toBe(deduplicationKey('orders', [1], 'd-2'));
    expect(deduplicationKey('orders', [1], 'd-1')).not.toBe(deduplicationKey('customers', [1], 'd-1'));
  });
});

const order = (id: unknown, lastUpdated: unknown) => ({ id, orderId: 100_077, status: 'X', lastUpdated });
const key = (payload: unknown) => deduplicationKey('orders', payload, 'd');
const former = (payload: unknown) => formerDeduplicationKey('orders', payload, 'd');

describe('an orders key reads the id and the stamp as the platform means them (a user test)', () => {
  it('one instant written three ways is one version; the key is its UTC form to the millisecond, and past it', () => {
    for (const stamp of [
      '2026-11-30T23:00:00.000Z',
      '2026-11-30T23:00:00Z',
      '2026-11-30T20:00:00-03:00',
      '2026-11-30 20:00:00.000-0300',
    ])
      expect(key(order(77, stamp))).toBe(key(order(77, '2026-11-30T23:00:00.000Z')));
    expect(versionPart(key(order(77, '2026-11-30T23:00:00Z')))).toBe('orders:77:2026-11-30T23:00:00.000Z');
    expect(key(order(77, '1796079600000'))).toBe(key(order(77, '2026-11-30T23:00:00.000Z')));
    expect(key(order(77, '2026-11-30T23:00:00.000123Z'))).toBe('orders:77:2026-11-30T23:00:00.000123Z');
    expect(key(order(77, '2026-11-30T23:00:00.000124Z'))).not.toBe(key(order(77, '2026-11-30T23:00:00.000123Z')));
  });

  it("a stamp with no zone is kept as written: read in this machine's zone, it could name another instant later", () => {
    expect(versionPart(key(order(77, '2026-11-30T20:00:00')))).toBe('orders:77:2026-11-30T20:00:00');
  });

  it('"00042" and 42 are order 42; another text id is as written', () => {
    expect(key(order('00042', '2026-11-30T23:00:00Z'))).toBe(key(order(42, '2026-11-30T23:00:00Z')));
    expect(versionPart(key(order('A-042', '2026-11-30T23:00:00Z')))).toBe('orders:A-042:2026-11-30T23:00:00.000Z');
  });

  it('the former key is the one an earlier b2bctl stored, where it differs: its redeliveries still match it', () => {
    expect(former(order(77, '2026-11-30T20:00:00-03:00'))).toBe('orders:77:2026-11-30T20:00:00-03:00');
    expect(former(order('00042', '2026-11-30T23:00:00.000Z'))).toBe('orders:00042:2026-11-30T23:00:00.000Z');
    expect(former(order(77, '2026-11-30T23:00:00.123Z'))).toBeUndefined();
    // Under a stamp to the second, the earlier key had no digest: an event stored by it is still matched.
    expect(former(order(77, '2026-11-30T23:00:00.000Z'))).toBe('orders:77:2026-11-30T23:00:00.000Z');
    expect(former({ id: 1017, document: 'x' })).toBeUndefined();
  });
});

describe('an orders key under a stamp to the minute or second tells versions apart by their content (a user test)', () => {
  it.each(['2026-12-01T00:40Z', '2026-12-01T00:40:05Z', '2026-12-01T00:40:05.000Z'])(
    'a cancellation under the stamp %s of the order’s previous event is another event; a resend is not',
    (stamp) => {
      const awaiting = { id: 2, orderId: 100_002, status: 'AWAITING_PAYMENT', lastUpdated: stamp };
      const canceled = { ...awaiting, status: 'CANCELED' };
      expect(key(canceled)).not.toBe(key(awaiting));
      expect(key({ lastUpdated: stamp, status: 'CANCELED', orderId: 100_002, id: 2 })).toBe(key(canceled));
      expect(key({ ...canceled, id: '00002' })).toBe(key(canceled));
      // An inbox an earlier b2bctl filled keyed both by id and stamp alone: a resend of its event still matches.
      expect(former(canceled)).toBe(`orders:2:${stamp}`);
    },
  );

  it('one version written to the minute and to the millisecond of that minute’s start is one event', () => {
    expect(key(order(2, '2026-12-01T00:40Z'))).toBe(key(order(2, '2026-12-01T00:40:00.000Z')));
  });
});
