import { describe, expect, it } from 'vitest';
import { StockStore } from '../../../../src/sandbox/stock/store.js';

describe('StockStore', () => {
  it('keeps one line per SKU and warehouse', () => {
    const store = new StockStore();
    store.apply({ sku: 'A', quantity: 5 });
    store.apply({ sku: 'A', quantity: 7, warehouse: 'CD-SP' });
    store.apply({ sku: 'B', quantity: 1, price: 2.5 });
    expect(store.get('A')).toEqual({
      sku: 'A',
      warehouse: null,
      quantity: 5,
      price: null,
      salePrice: null,
      updates: 1,
    });
    expect(store.get('A', 'CD-SP')).toEqual({
      sku: 'A',
      warehouse: 'CD-SP',
      quantity: 7,
      price: null,
      salePrice: null,
      updates: 1,
    });
    expect(store.get('A', 'CD-RJ')).toBeUndefined();
    expect(store.size).toBe(3);
    expect(store.totalQuantity).toBe(13);
  });

  it('sets the quantity, sets prices that are sent and keeps those that are not', () => {
    const store = new StockStore();
    store.apply({ sku: 'A', quantity: 5, price: 10, salePrice: 9.5 });
    store.apply({ sku: 'A', quantity: 3, price: 0 });
    expect(store.get('A')).toEqual({ sku: 'A', warehouse: null, quantity: 3, price: 0, salePrice: 9.5, updates: 2 });
    expect(store.totalQuantity).toBe(3);
  });

  it('a null sale price ends the promotion: the line shows none', () => {
    const store = new StockStore();
    store.apply({ sku: 'A', quantity: 5, price: 10, salePrice: 9 });
    store.apply({ sku: 'A', quantity: 5, price: 10, salePrice: null });
    expect(store.get('A')).toEqual({ sku: 'A', warehouse: null, quantity: 5, price: 10, salePrice: null, updates: 2 });
  });

  it('grows past its first capacity and lists lines in first-applied order', () => {
    const store = new StockStore();
    for (let position = 0; position < 5_000; position++)
      store.apply({ sku: `S${position}`, quantity: position, price: position / 100 });
    store.apply({ sku: 'S0', quantity: 1 });
    expect(store.size).toBe(5_000);
    expect(store.get('S4999')).toEqual({
      sku: 'S4999',
      warehouse: null,
      quantity: 4999,
      price: 49.99,
      salePrice: null,
      updates: 1,
    });
    const entries = [...store.entries()];
    expect(entries.map((entry) => entry.sku).slice(0, 3)).toEqual(['S0', 'S1', 'S2']);
    expect(entries[0]).toEqual({ sku: 'S0', warehouse: null, quantity: 1, price: 0, salePrice: null, updates: 2 });
    expect(store.totalQuantity).toBe((4999 * 5000) / 2 + 1);
  });

  it('forgets everything on clear', () => {
    const store = new StockStore();
    store.apply({ sku: 'A', quantity: 5, price: 1 });
    store.clear();
    expect([store.size, store.totalQuantity, store.get('A')]).toEqual([0, 0, undefined]);
    store.apply({ sku: 'A', quantity: 1 });
    expect(store.get('A')).toEqual({
      sku: 'A',
      warehouse: null,
      quantity: 1,
      price: null,
      salePrice: null,
      updates: 1,
    });
  });
});
