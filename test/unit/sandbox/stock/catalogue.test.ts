import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Catalogue, generatedSku, loadCatalogue } from '../../../../src/sandbox/stock/catalogue.js';
import { temporaryFolder } from '../../../support/temporary.js';

const samples = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'samples');

describe('Catalogue', () => {
  const catalogue = new Catalogue(
    [
      { sku: 'ON', name: 'on sale', active: true },
      { sku: 'OFF', name: 'off sale', active: false },
    ],
    2_000_000,
  );

  it.each([
    ['ON', true],
    ['OFF', true],
    ['on', false],
    ['GEN-0000001', true],
    ['GEN-2000000', true],
    ['GEN-2000001', false],
    ['GEN-0000000', false],
    ['GEN-000001', false],
    ['GEN-00000001', false],
    ['GEN-1', false],
    ['gen-0000001', false],
    [' GEN-0000001', false],
  ])('knows %s: %s', (sku, known) => {
    expect(catalogue.has(sku)).toBe(known);
  });

  it('numbers generated SKUs with at least 7 digits', () => {
    expect(generatedSku(1)).toBe('GEN-0000001');
    expect(generatedSku(2_000_000)).toBe('GEN-2000000');
    expect(generatedSku(12_345_678)).toBe('GEN-12345678');
    expect(new Catalogue([], 12_345_678).has('GEN-12345678')).toBe(true);
  });

  it('knows no generated SKU when the range is 0', () => {
    expect(new Catalogue([], 0).has('GEN-0000001')).toBe(false);
  });

  it('reactivates an off-sale product and resets to the seed', () => {
    const fresh = new Catalogue([{ sku: 'OFF', name: 'x', active: false }], 10);
    expect([fresh.isActive('OFF'), fresh.offSaleCount]).toEqual([false, 1]);
    fresh.reactivate('OFF');
    expect([fresh.isActive('OFF'), fresh.offSaleCount]).toEqual([true, 0]);
    fresh.reactivate('OFF');
    expect(fresh.offSaleCount).toBe(0);
    fresh.reset();
    expect([fresh.isActive('OFF'), fresh.offSaleCount]).toEqual([false, 1]);
    expect(fresh.isActive('GEN-0000010')).toBe(true);
    expect(fresh.isActive('NOPE')).toBe(false);
  });
});

/** A seed folder holding only this products.json. */
function seedWith(products: unknown): string {
  const folder = temporaryFolder('b2bctl-catalogue-');
  writeFileSync(join(folder, 'products.json'), JSON.stringify(products));
  return folder;
}

describe('loadCatalogue', () => {
  it('seeds the sample products, about a fifth of them off sale', () => {
    const catalogue = loadCatalogue(samples, 5);
    expect(catalogue.seededCount).toBeGreaterThanOrEqual(45);
    expect(catalogue.offSaleCount).toBeGreaterThanOrEqual(8);
    expect(catalogue.offSaleCount).toBeLessThan(catalogue.seededCount / 2);
  });

  it('takes an absent active flag as on sale', () => {
    expect(loadCatalogue(seedWith([{ sku: 'A', name: 'a' }]), 0).isActive('A')).toBe(true);
  });

  it.each([
    { name: 'not an array', products: { sku: 'A' }, message: 'expected an array of {sku, name, active}' },
    {
      name: 'a blank SKU',
      products: [{ sku: ' ', name: 'a' }],
      message: 'product 1: sku must be a non-empty code without surrounding spaces',
    },
    {
      name: 'a SKU twice',
      products: [
        { sku: 'A', name: 'a' },
        { sku: 'A', name: 'b' },
      ],
      message: 'product 2: sku A appears twice',
    },
    {
      name: 'a SKU in the generated range',
      products: [{ sku: 'GEN-0000001', name: 'a' }],
      message: 'product 1: sku GEN-0000001 is in the generated range; choose another code',
    },
    { name: 'no name', products: [{ sku: 'A' }], message: 'product 1: name must be text' },
    {
      name: 'active as text',
      products: [{ sku: 'A', name: 'a', active: 'yes' }],
      message: 'product 1: active must be true or false',
    },
  ])('refuses $name', ({ products, message }) => {
    expect(() => loadCatalogue(seedWith(products), 0)).toThrow(message);
  });
});
