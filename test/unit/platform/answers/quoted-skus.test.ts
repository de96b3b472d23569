/** Which SKU sent a refusal's words quote: the longest where one SKU sent is part of another the text quotes. */
import { describe, expect, it } from 'vitest';
import { otherSkuQuoted } from '../../../../src/platform/answers/quoted-skus.js';

describe('otherSkuQuoted', () => {
  const sent = ['KIT 10', 'KIT', 'BAD-1', 'SKU-00001'];

  it.each([
    // KIT stands inside KIT 10, which the text quotes: only KIT 10 is quoted.
    ['KIT 10 is out of stock', 'BAD-1', 'KIT 10'],
    ['KIT 10 is out of stock', 'KIT 10', undefined],
    ['KIT 10 is out of stock', 'KIT', 'KIT 10'],
    // KIT alone, then KIT 10: both quoted; KIT's own refusal names itself.
    ['KIT and KIT 10 are out of stock', 'KIT', undefined],
    ['KIT and KIT 10 are out of stock', 'BAD-1', 'KIT 10'],
    ['nothing named here', 'BAD-1', undefined],
    ['SKU-00001 not found', 'BAD-1', 'SKU-00001'],
    // As sent or in capitals only.
    ['sku-00001 not found', 'BAD-1', undefined],
  ])('%j for %s quotes %s', (text, own, other) => {
    expect(otherSkuQuoted([text], own, sent)).toBe(other);
  });

  it('a message repeating one SKU 20,000 times gives the same answer (its speed is measured by hand: 22 s before, 0.2 s now)', () => {
    const text = Array.from({ length: 20_000 }, () => 'KIT 10').join(', ');
    expect(otherSkuQuoted([text], 'BAD-1', sent)).toBe('KIT 10');
    expect(otherSkuQuoted([text], 'KIT', sent)).toBe('KIT 10');
  });
});
