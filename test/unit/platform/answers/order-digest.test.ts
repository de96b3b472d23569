import { describe, expect, it } from 'vitest';
import { entryDigest } from '../../../../src/domain/coarse-stamps.js';
import { WrittenNumber } from '../../../../src/lib/written-json.js';
import { listedEntryDigests } from '../../../../src/platform/answers/order-digest.js';

const entry = (id: unknown, orderId: unknown = 100_007) => ({ id, orderId, status: 'NEW', lastUpdated: '…T10:00Z' });

describe('listedEntryDigests: the fields that name the order read as one order is named', () => {
  it('an entry listing its id as a number keeps the digest it always had, with no former one', () => {
    expect(listedEntryDigests(entry(7), ['id', 'orderId'])).toEqual({ contentDigest: entryDigest(entry(7)) });
  });
  it.each(['7', '000007', ' 7 '])('the id %j digests as 7, its digest as written kept as the former', (id) => {
    expect(listedEntryDigests(entry(id), ['id', 'orderId'])).toEqual({
      contentDigest: entryDigest(entry(7)),
      formerContentDigest: entryDigest(entry(id)),
    });
  });
  it('a zero-padded number digests as its number too; other text is as written', () => {
    expect(listedEntryDigests(entry(7, '00100007'), ['id', 'orderId']).contentDigest).toBe(entryDigest(entry(7)));
    expect(listedEntryDigests(entry('07A'), ['id', 'orderId'])).toEqual({ contentDigest: entryDigest(entry('07A')) });
  });
  it('an id past 2^53 as digits digests as the number the answer kept as written', () => {
    const big = '9007199254740993';
    expect(listedEntryDigests(entry(`0${big}`), ['id']).contentDigest).toBe(entryDigest(entry(new WrittenNumber(big))));
  });
  it('an id under a path of its own (answers.orders.id), copied, the entry itself untouched', () => {
    const nested = { pedido: { codigo: '000007' }, lines: [{ sku: 'A' }] };
    const digests = listedEntryDigests(nested, ['pedido.codigo']);
    expect(digests.contentDigest).toBe(entryDigest({ pedido: { codigo: 7 }, lines: [{ sku: 'A' }] }));
    expect(nested.pedido.codigo).toBe('000007');
  });
});
