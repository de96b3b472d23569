import { describe, expect, it } from 'vitest';
import { type StockItem, type StockSchema, toWireItem, wireItemJsonWriter } from '../../../src/domain/stock.js';
import { jsonFieldPrefixes, jsonOfCells, jsonString } from '../../../src/lib/json-text.js';
import { seededRandom } from '../../support/seeded-text.js';

/** Characters JSON escapes or that are easy to get wrong, among plain ones. */
const awkward = [
  '"',
  '\\',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\ud83d\ude00',
  '\ud800',
  '\udfff',
  'é',
  '/',
];

function randomText(random: () => number): string {
  const length = Math.floor(random() * 8);
  let text = '';
  for (let index = 0; index < length; index++) {
    text +=
      random() < 0.3
        ? (awkward[Math.floor(random() * awkward.length)] as string)
        : String.fromCharCode(0x20 + Math.floor(random() * 0x5f));
  }
  return text;
}

const numbers = [0, -0, 1, -1, 0.1 + 0.2, 10.5, 1e21, 5e-7, 123456789.12, Number.MAX_SAFE_INTEGER, -1e-300];

describe('JSON text without JSON.stringify: the same bytes', () => {
  it('strings, plain and awkward (quotes, controls, lone surrogates, U+2028)', () => {
    const random = seededRandom(1);
    for (let round = 0; round < 5000; round++) {
      const text = randomText(random);
      expect(jsonString(text)).toBe(JSON.stringify(text));
    }
  });

  it('cells as written: arrays of strings, and anything else as JSON.stringify writes it', () => {
    const random = seededRandom(2);
    for (let round = 0; round < 2000; round++) {
      const cells = Array.from({ length: Math.floor(random() * 6) }, () => randomText(random));
      expect(jsonOfCells(cells)).toBe(JSON.stringify(cells));
    }
    for (const other of [undefined, null, { a: 1 }, ['a', 1], [null], 'text', 3])
      expect(jsonOfCells(other)).toBe(JSON.stringify(other));
  });

  it('field prefixes: declined for names JSON.stringify would reorder (array indexes) or write once', () => {
    expect(jsonFieldPrefixes(['a', 'b"'])).toEqual(['"a":', '"b\\"":']);
    expect(jsonFieldPrefixes(['x', '0'])).toBeUndefined();
    expect(jsonFieldPrefixes(['x', '12'])).toBeUndefined();
    expect(jsonFieldPrefixes(['x', 'x'])).toBeUndefined();
    // Not array indexes: JSON.stringify keeps them in order.
    expect(jsonFieldPrefixes(['x', '012'])).toBeDefined();
    expect(jsonFieldPrefixes(['x', '4294967295'])).toBeDefined();
  });

  it('stock items under any schema: JSON.stringify(toWireItem(item, schema)), byte for byte', () => {
    const random = seededRandom(4);
    const schemas: StockSchema[] = [
      { fields: { sku: 'sku', quantity: 'quantity', price: 'price', salePrice: 'salePrice', warehouse: 'warehouse' } },
      { fields: { sku: 'codigo', quantity: 'estoque', price: 'preco', salePrice: 'promo', warehouse: 'filial' } },
      { fields: { sku: 'Código "SKU"', quantity: 'qtd', price: '2', salePrice: '1', warehouse: 'dep' } },
      { fields: { sku: 'a\nb', quantity: 'q\\', price: 'p', salePrice: 's', warehouse: 'w\ud800' } },
    ];
    for (const schema of schemas) {
      const write = wireItemJsonWriter(schema);
      for (let round = 0; round < 1000; round++) {
        const item: StockItem = { sku: randomText(random) || 'S', quantity: Math.floor(random() * 1000) };
        if (random() < 0.7) item.price = numbers[Math.floor(random() * numbers.length)] as number;
        if (random() < 0.05) item.price = random() < 0.5 ? Number.NaN : -Infinity;
        if (random() < 0.5) item.salePrice = Math.round(random() * 100000) / 100;
        // A null sale price ends a promotion: sent as null (decision 0030).
        else if (random() < 0.3) item.salePrice = null;
        if (random() < 0.5) item.warehouse = randomText(random);
        expect(write(item)).toBe(JSON.stringify(toWireItem(item, schema)));
      }
    }
  });
});
