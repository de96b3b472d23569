import { describe, expect, it } from 'vitest';
import { orderIdAsRoutesTakeIt, orderKeyOf, orderNumberValueOf, sameOrderKey } from '../../../src/domain/order-keys.js';

describe('orderKeyOf and sameOrderKey: one order, leading zeros aside', () => {
  it.each([
    ['00042', '42'],
    [42, '42'],
    [' 42 ', '42'],
    ['0', '0'],
    ['000', '0'],
    ['A-0042', 'A-0042'],
    ['0042A', '0042A'],
  ])('%j is named %j', (value, key) => {
    expect(orderKeyOf(value)).toBe(key);
  });

  it.each([
    ['00042', 42, true],
    ['000123', '123', true],
    [' 42', '042', true],
    ['420', '0042', false],
    ['A-0042', 'A-42', false],
    ['0', '00', true],
  ])('%j and %j: %s', (one, other, same) => {
    expect(sameOrderKey(one, other)).toBe(same);
  });
});

describe('one rule for the same order: the key, the id a route is sent, the number a search bisects', () => {
  // [spelling, its key, what an order route is sent, its number (undefined: no number)]
  const spellings: [string | number, string, string | number, bigint | undefined][] = [
    ['42', '42', '42', 42n],
    [42, '42', 42, 42n],
    ['00042', '42', '42', 42n],
    [' 42', '42', '42', 42n],
    ['42 ', '42', '42', 42n],
    [' 0042 ', '42', '42', 42n],
    ['0', '0', '0', 0n],
    ['000', '0', '0', 0n],
    ['A-0042', 'A-0042', 'A-0042', undefined],
    [' A-0042 ', 'A-0042', ' A-0042 ', undefined],
    ['0042A', '0042A', '0042A', undefined],
    ['-42', '-42', '-42', undefined],
    ['9'.repeat(31), '9'.repeat(31), '9'.repeat(31), undefined],
  ];

  it.each(spellings)('%j: key %j, sent as %j, number %s', (spelling, key, sent, number) => {
    expect(orderKeyOf(spelling)).toBe(key);
    expect(orderIdAsRoutesTakeIt(spelling)).toBe(sent);
    expect(orderNumberValueOf(spelling)).toBe(number);
  });

  it('every spelling of digits is sent and numbered as its key: the three readings agree', () => {
    for (const [spelling] of spellings) {
      const number = orderNumberValueOf(spelling);
      if (number === undefined) continue;
      expect(String(orderIdAsRoutesTakeIt(spelling))).toBe(orderKeyOf(spelling));
      expect(String(number)).toBe(orderKeyOf(spelling));
    }
  });
});
