/**
 * The search of a cart's text for a SKU number the answer writes otherwise (`1.50` answered `1.5`): found after its
 * key, with any white space JSON allows, and only with the value of one of the items' SKUs.
 */
import { describe, expect, it } from 'vitest';
import { rewrittenSku } from '../../../src/tax/sku-number-text.js';

describe('rewrittenSku', () => {
  it.each([
    ['a trailing zero', '{"items":[{"sku":1.50}]}', [1.5], { item: 1, sent: '1.50', answered: '1.5' }],
    [
      'a whole number written with a fraction',
      '[{"sku":7},{"sku" :\n 1.0}]',
      [7, 1],
      { item: 2, sent: '1.0', answered: '1' },
    ],
    ['an exponent', '[{"sku":1E2}]', [100], { item: 1, sent: '1E2', answered: '100' }],
    ['minus zero', '[{"sku":-0}]', [-0], { item: 1, sent: '-0', answered: '0' }],
    ['the number as it comes back', '[{"sku":1.5},{"sku":123}]', [1.5, 123], undefined],
    [
      'whole numbers, negative and zero',
      '[{"sku":-12},{"sku":0},{"sku":123456789012345}]',
      [-12, 0, 123456789012345],
      undefined,
    ],
    ['text', '[{"sku":"1.50"}]', ['1.50'], undefined],
    ['another key of the name with another value', '{"customer":{"sku":2.50},"items":[{"sku":3}]}', [3], undefined],
    ['a SKU refused for its digits', '[{"sku":12345678901234567.0}]', [12345678901234568], undefined],
    ['the key inside a text', '[{"note":"\\"sku\\":1.50","sku":1.5}]', [1.5], undefined],
  ])('%s', (_case, text, skus, expected) => {
    expect(rewrittenSku(text, 'sku', skus)).toEqual(expected);
  });

  it('reads the key a shape names, the last step of its path', () => {
    expect(rewrittenSku('[{"produto":{"codigo":10.00}}]', 'codigo', [10])).toEqual({
      item: 1,
      sent: '10.00',
      answered: '10',
    });
  });
});
