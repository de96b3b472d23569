import { describe, expect, it } from 'vitest';
import { orderKeyOf, sameOrderKey } from '../../../src/domain/order-keys.js';

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
