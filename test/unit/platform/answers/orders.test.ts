import { describe, expect, it } from 'vitest';
import { entryDigest } from '../../../../src/domain/coarse-stamps.js';
import {
  detailHoldsNoOrder,
  detailNotTheOrder,
  locateOrderListing,
  olderDetailInstant,
  orderListingNotAPage,
  readBuyerDocument,
  readHeldMoveData,
  readListedOrder,
  readOrderDetail,
  readOrderListingPage,
  readOrderTotal,
} from '../../../../src/platform/answers/orders.js';

const order = { id: 7, orderId: 100_007, status: 'SHIPPED', lastUpdated: '2026-11-20T10:00:00.000Z' };

describe('readOrderListingPage: the orders of a page, bare or in an envelope', () => {
  it.each([
    ['a bare array', [order], ''],
    ['content (Spring pages)', { content: [order], numberOfElements: 1 }, 'content'],
    ['data', { data: [order] }, 'data'],
    ['items', { items: [order], offset: 0, count: 1 }, 'items'],
    ['orders', { orders: [order], total: 1 }, 'orders'],
  ])('%s', (_name, body, path) => {
    expect(readOrderListingPage(body)).toEqual([order]);
    expect(locateOrderListing(body)).toEqual({ path, count: 1, idPath: 'id', lastUpdatedPath: 'lastUpdated' });
  });

  it('an empty 200 or an envelope without records is an empty page; an unknown envelope is undefined', () => {
    expect(readOrderListingPage(undefined)).toEqual([]);
    expect(readOrderListingPage('')).toEqual([]);
    expect(readOrderListingPage({ total: 0, items: null })).toEqual([]);
    expect(readOrderListingPage({ page: { rows: [order] } })).toBeUndefined();
    expect(readOrderListingPage({ page: { rows: [order] } }, { items: 'page.rows' })).toEqual([order]);
  });
});

describe('orderListingNotAPage: an error answered with 200 is no page, never an empty one (a user test)', () => {
  it.each([
    [{ success: false, message: 'Internal error' }, 'it says it failed'],
    [{ error: 'Internal error' }, 'it says it failed'],
    [{ data: [], success: false }, 'it says it failed'],
    [{ totalElements: '40' }, 'it counts 40 and lists none'],
    [{ total_count: 3, page: 1 }, 'it counts 3 and lists none'],
    [{ mensagem: 'Nenhum pedido encontrado' }, 'it holds no list'],
    [{ content: 'erro' }, 'it holds no list'],
    [{ orders: 0 }, 'it holds no list'],
  ])('%j: %s, and readOrderListingPage reads no page of it', (body, why) => {
    expect(orderListingNotAPage(body)).toBe(why);
    expect(readOrderListingPage(body)).toBeUndefined();
  });

  it.each([
    [{}],
    [{ total: 0, items: null }],
    [{ data: null, page: 3, size: 25 }],
    [{ content: [], totalElements: 40, last: true }],
    [{ orders: [order], success: false }],
    [{ pedidos: [order] }],
    ['erro'],
    [[]],
  ])('%j may be a page (an empty one, or one whose records the settings place): undefined', (body) => {
    expect(orderListingNotAPage(body)).toBeUndefined();
  });

  it('answers.orders.items names where the list belongs', () => {
    expect(orderListingNotAPage({ pedidos: 'erro' }, { items: 'pedidos' })).toBe('it holds no list');
    expect(orderListingNotAPage({ pedidos: [], total: 0 }, { items: 'pedidos' })).toBeUndefined();
  });
});

describe('readListedOrder: the id and update instant the poller tracks', () => {
  it('lastUpdated as the document names it; the platform object is kept as sent', () => {
    expect(readListedOrder(order)).toEqual({
      id: 7,
      lastUpdated: '2026-11-20T10:00:00.000Z',
      orderNumber: 100_007,
      status: 'SHIPPED',
      record: order,
      // Its stamp is to the second: the digest of the entry tells versions under it apart (coarse-stamps.ts).
      contentDigest: entryDigest(order),
      stampSpanMs: 1000,
    });
  });

  it.each(['updatedAt', 'lastModifiedDate', 'updated_at', 'dateUpdated'])(
    'the update instant under %s, normalised to UTC milliseconds',
    (field) => {
      const entry = { id: '7', [field]: '2026-11-20T07:00:00-03:00' };
      expect(readListedOrder(entry)).toMatchObject({ id: '7', lastUpdated: '2026-11-20T10:00:00.000Z' });
    },
  );

  it('epoch milliseconds and seconds are instants too', () => {
    expect(readListedOrder({ id: 1, updatedAt: 1_795_600_800_000 })?.lastUpdated).toBe('2026-11-25T10:00:00.000Z');
    expect(readListedOrder({ id: 1, updatedAt: 1_795_600_800 })?.lastUpdated).toBe('2026-11-25T10:00:00.000Z');
  });

  it('answers.orders.lastUpdated and answers.orders.id name fields no default knows', () => {
    const entry = { code: 'A-7', audit: { changed: '2026-11-20T10:00:00Z' } };
    expect(readListedOrder(entry)).toBeUndefined();
    expect(readListedOrder(entry, { id: 'code', lastUpdated: 'audit.changed' })).toMatchObject({
      id: 'A-7',
      lastUpdated: '2026-11-20T10:00:00.000Z',
    });
  });

  it('an entry without an id or a readable instant is not tracked', () => {
    expect(readListedOrder({ lastUpdated: order.lastUpdated })).toBeUndefined();
    expect(readListedOrder({ id: 7, lastUpdated: 'yesterday' })).toBeUndefined();
    expect(readListedOrder({ id: 7 })).toBeUndefined();
    expect(readListedOrder('7')).toBeUndefined();
  });

  it('doctor names the missing field of the first order', () => {
    expect(locateOrderListing({ data: [{ id: 7, changed: 'x' }] })).toEqual({
      path: 'data',
      count: 1,
      idPath: 'id',
      lastUpdatedPath: undefined,
    });
  });
});

describe('olderDetailInstant: a detail older than the version named for it (poll --detail, --fetch-orders)', () => {
  const named = readListedOrder(order)!;
  it.each([
    ['older', { ...order, lastUpdated: '2026-11-20T09:59:59.999Z' }, '2026-11-20T09:59:59.999Z'],
    ['older, in another zone', { ...order, lastUpdated: '2026-11-20T06:59:00-03:00' }, '2026-11-20T09:59:00.000Z'],
    ['the same version', order, undefined],
    ['newer', { ...order, lastUpdated: '2026-11-20T10:00:01Z' }, undefined],
    ['no update stamp', { ...order, lastUpdated: undefined }, undefined],
    [
      'its stamp unset, an older creation instant',
      { ...order, lastUpdated: null, dateCreated: '2026-11-01T00:00:00Z' },
      undefined,
    ],
    ['a stamp b2bctl does not read', { ...order, lastUpdated: '20/11/2026 09:00:00' }, undefined],
    ['no order', null, undefined],
  ])('%s', (_name, detail, older) => {
    expect(olderDetailInstant(named, detail)).toBe(older);
  });

  it('reads the detail where answers.orders.lastUpdated says', () => {
    const detail = { id: 7, modified: '2026-11-19T10:00:00Z', lastUpdated: '2026-11-21T10:00:00Z' };
    expect(olderDetailInstant(named, detail, { lastUpdated: 'modified' })).toBe('2026-11-19T10:00:00.000Z');
  });
});

describe('readOrderDetail: the order out of its envelope', () => {
  it('an order at the root is returned as sent', () => {
    expect(readOrderDetail(order)).toBe(order);
  });
  it.each(['data', 'order', 'result'])('an order under %s is unwrapped', (key) => {
    expect(readOrderDetail({ requestId: 'r-1', [key]: order })).toBe(order);
  });
  it('answers.order.detail points at it; a body we cannot place is returned unchanged', () => {
    expect(readOrderDetail({ payload: { order } }, { detail: 'payload.order' })).toBe(order);
    const odd = { status: 'ok', count: 1 };
    expect(readOrderDetail(odd)).toBe(odd);
  });
});

describe('detailNotTheOrder: a detail that holds no order, or another order', () => {
  it.each([
    [null, 'JSON null'],
    [[], 'a JSON array'],
    [[order], 'a JSON array'],
    [42, 'a JSON number'],
    [true, 'a JSON boolean'],
  ])('%j is no object: %s', (detail, instead) => {
    expect(detailNotTheOrder(detail, { id: 7 })).toBe(instead);
  });
  it('the order asked for, its id as text or as a number: undefined', () => {
    expect(detailNotTheOrder(order, { id: '7', number: 100_007 })).toBeUndefined();
    expect(detailNotTheOrder({ id: '7' }, { id: 7 })).toBeUndefined();
  });
  it('an object that shows neither an id nor a number is taken as the order (the document shows no detail body)', () => {
    expect(detailNotTheOrder({ status: 'NEW', items: [] }, { id: 7, number: 100_007 })).toBeUndefined();
  });
  it('the same id written with leading zeros is the order, not another (a user test)', () => {
    expect(detailNotTheOrder({ ...order, id: 42 }, { id: '00042' })).toBeUndefined();
    expect(detailNotTheOrder({ ...order, id: '0042' }, { id: 42 })).toBeUndefined();
    expect(detailNotTheOrder({ ...order, id: 420 }, { id: '0042' })).toBe('the record of another order (id 420)');
    expect(detailNotTheOrder({ ...order, id: 'A42' }, { id: 'A042' })).toBe('the record of another order (id A42)');
  });
  // A user test: an event naming order number 123 whose detail shows "000123" was held as another order's record
  // (retried for --give-up-after with every later order behind it), where the moves took them for one order.
  it('the same number written with leading zeros is the order, not another', () => {
    expect(detailNotTheOrder({ ...order, orderId: '000123' }, { id: 7, number: '123' })).toBeUndefined();
    expect(detailNotTheOrder({ ...order, orderId: 123 }, { id: 7, number: '0123' })).toBeUndefined();
    expect(detailNotTheOrder({ ...order, orderId: '1230' }, { id: 7, number: '0123' })).toBe(
      'the record of another order (number 1230, not 0123)',
    );
  });

  it("another order's id, or another number where the order's is known", () => {
    expect(detailNotTheOrder({ ...order, id: 8 }, { id: 7 })).toBe('the record of another order (id 8)');
    expect(detailNotTheOrder({ ref: 8 }, { id: 7 }, { id: 'ref' })).toBe('the record of another order (id 8)');
    expect(detailNotTheOrder(order, { id: 7, number: 100_008 })).toBe(
      'the record of another order (number 100007, not 100008)',
    );
    // With no number known (an order asked by its id), a detail's number is not compared.
    expect(detailNotTheOrder(order, { id: 7 })).toBeUndefined();
  });
});

describe('detailHoldsNoOrder: a detail showing no id nor number that is an error or an empty envelope (a user test)', () => {
  it.each([
    [
      { success: false, message: 'Internal error' },
      'an answer that says it failed ({"success":false,"message":"Internal error"})',
    ],
    [{ data: null }, 'an envelope holding no order ({"data":null})'],
    [{ order: null }, 'an envelope holding no order ({"order":null})'],
    [{ data: [] }, 'an envelope holding no order ({"data":[]})'],
    [{ result: 'OK' }, 'an envelope holding no order ({"result":"OK"})'],
    [{ content: {} }, 'an empty object ({"content":{}})'],
    [{}, 'an empty object ({})'],
  ])('%j: %s', (body, instead) => {
    expect(detailHoldsNoOrder(body)).toBe(instead);
  });

  it.each([
    [order],
    [{ data: order }],
    [{ status: 'NEW', items: [] }],
    // An order shows its id: its own fields are never read as a refusal.
    [{ id: 7, status: 'PAYMENT_FAILED', errors: ['card refused'] }],
    [{ orderId: 100_007, content: 'gift wrap' }],
  ])('%j may be the order: undefined', (body) => {
    expect(detailHoldsNoOrder(body)).toBeUndefined();
  });

  it('answers.order.detail names the envelope: the order there is read, not guessed at', () => {
    expect(detailHoldsNoOrder({ pedido: { status: 'NEW' }, data: null }, { detail: 'pedido' })).toBeUndefined();
  });
});

describe("readBuyerDocument: the buyer's CNPJ or CPF an NF-e is checked against", () => {
  it.each<[string, unknown, string | undefined, string | undefined]>([
    [
      'partnerDocument (the listing field)',
      { ...order, partnerDocument: '11.444.777/0001-61' },
      undefined,
      '11.444.777/0001-61',
    ],
    ['customer.document', { ...order, customer: { document: '52998224725' } }, undefined, '52998224725'],
    ['customer.cnpj', { ...order, customer: { cnpj: '11444777000161' } }, undefined, '11444777000161'],
    [
      'a setting where no default looks',
      { ...order, comprador: { doc: '529.982.247-25' } },
      'comprador.doc',
      '529.982.247-25',
    ],
    ['no document anywhere', { ...order, customer: { name: 'Ana' } }, undefined, undefined],
    ['too short to be one', { ...order, partnerDocument: '123' }, undefined, undefined],
    [
      'a name where the document would be',
      { ...order, partnerDocument: 'Distribuidora Galvão Ltda' },
      undefined,
      undefined,
    ],
  ])('%s', (_case, detail, setting, expected) => {
    expect(readBuyerDocument(detail, { buyerDocument: setting })).toBe(expected);
  });
});

describe("readOrderTotal: the order's total an NF-e's vNF is compared with", () => {
  it.each<[string, unknown, string | undefined]>([
    ['totals.total (the sandbox)', { ...order, totals: { items: 2600, total: 2642.26 } }, '2642.26'],
    ['total, flat', { ...order, total: '2642.26' }, '2642.26'],
    ['amounts.totals.total (nested deeper)', { ...order, amounts: { totals: { total: 99.9 } } }, '99.9'],
    ['none shown', order, undefined],
    ['a total that is no plain amount', { ...order, total: 'R$ 2.642,26' }, undefined],
    ['a number JSON wrote with an exponent', { ...order, ...JSON.parse('{"total": 1e2}') }, '100'],
    ['a number JavaScript writes with an exponent (no amount)', { ...order, total: 1e21 }, undefined],
    ['a tiny number JavaScript writes with an exponent', { ...order, total: 1e-7 }, undefined],
    ['a text with an exponent', { ...order, total: '1e2' }, undefined],
    // pt-BR text left the NF-e total check silently off (a user test).
    ['pt-BR text, grouped', { ...order, totals: { total: '2.642,26' } }, '2642.26'],
    ['pt-BR text, ungrouped', { ...order, totals: { total: '2642,26' } }, '2642.26'],
    ['pt-BR text, millions', { ...order, total: '1.002.642,2' }, '1002642.2'],
    ['a comma with a bad grouping', { ...order, total: '26.42,26' }, undefined],
  ])('%s', (_case, detail, expected) => {
    expect(readOrderTotal(detail)).toBe(expected);
  });
});

describe('readHeldMoveData: what the moves gave an order, as its detail shows it', () => {
  it('a value where a recognised place holds one; shown empty (null, "", an empty list) is "": none', () => {
    expect(
      readHeldMoveData({
        erpOrderNumber: 'PV-9',
        invoice: null,
        tracking: { code: '', carrier: null },
      }),
    ).toEqual({ erpNumber: 'PV-9', invoiceKey: '', invoiceXml: '', trackingCode: '', carrier: '' });
    expect(readHeldMoveData({ invoices: [] })).toMatchObject({ invoiceKey: '', invoiceXml: '' });
  });

  it('a place the detail does not show is left out: unknown, not none', () => {
    expect(readHeldMoveData({ id: 7, status: 'CANCELED' })).toEqual({});
    expect(readHeldMoveData({ tracking: { code: 'SS123456785BR' } })).toEqual({ trackingCode: 'SS123456785BR' });
  });
});
