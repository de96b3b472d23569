/**
 * The files orders are written to, by `webhook listen --fetch-orders` (one per order) and `orders poll --out-dir`
 * (one per version): one grammar, never outside the folder, never one file for two orders.
 */
import { describe, expect, it } from 'vitest';
import { orderFileName } from '../../../src/domain/order-file-name.js';

const lastUpdated = '2026-11-27T10:15:00.123Z';
const instant = '20261127T101500123Z';

describe('orderFileName of an order (--fetch-orders)', () => {
  it.each([
    ['48213', '48213.json'],
    ['PED-2026.001_a', 'PED-2026.001_a.json'],
    ['a/b', 'a%2Fb.json'],
    ['a_b', 'a_b.json'],
    ['a%2Fb', 'a%252Fb.json'],
    ['../x', '..%2Fx.json'],
    ['..', '%2E%2E.json'],
    ['São 1', 'S%C3%A3o%201.json'],
  ])('%j is kept in %s', (id, file) => {
    expect(orderFileName(id)).toBe(file);
  });

  it('gives two ids two files', () => {
    const ids = ['a/b', 'a_b', 'a%2Fb', 'a b', 'a+b', 'a:b', 'A/B', 'a-b'];
    expect(new Set(ids.map((id) => orderFileName(id))).size).toBe(ids.length);
  });
});

describe('orderFileName of a version (orders poll --out-dir)', () => {
  it.each([
    [217, 100217, `217-100217-${instant}.json`],
    [217, undefined, `217--${instant}.json`],
    ['A-1', undefined, `A%2D1--${instant}.json`],
    ['A_1', undefined, `A_1--${instant}.json`],
    ['a/b', 'N 1', `a%2Fb-N%201-${instant}.json`],
    ['../x', '..', `..%2Fx-%2E%2E-${instant}.json`],
    ['São', 'PED-7', `S%C3%A3o-PED%2D7-${instant}.json`],
  ])('id %j numbered %j is kept in %s', (id, orderNumber, file) => {
    expect(orderFileName(id, { orderNumber, lastUpdated })).toBe(file);
  });

  it('gives two versions two files, whatever their ids and numbers differ in, and splits back at `-`', () => {
    const versions: [string, string | undefined][] = [
      ['A-1', undefined],
      ['A_1', undefined],
      ['A', '1-'],
      ['a/b', undefined],
      ['a b', undefined],
      ['a_b', undefined],
      ['10', '2026-5'],
      ['10-2026', '5'],
    ];
    const names = versions.map(([id, orderNumber]) => orderFileName(id, { orderNumber, lastUpdated }));
    expect(new Set(names).size).toBe(versions.length);
    for (const name of names) expect(name.slice(0, -'.json'.length).split('-')).toHaveLength(3);
  });
});

const named = (id: string | number, orderNumber?: string | number) => orderFileName(id, { orderNumber, lastUpdated });

describe('orderFileName: one order, one name, however an answer spells its id or number', () => {
  it('a zero-padded id or number names the order of that number, as every order command reads it', () => {
    expect(named('000007', '0100007')).toBe(named(7, 100007));
    expect(named(' 7 ')).toBe(named(7));
    expect(orderFileName('000007')).toBe(orderFileName(7));
    expect(orderFileName('000007')).toBe('7.json');
  });

  it('text that is not digits alone is written as it is', () => {
    expect(orderFileName('07A', { lastUpdated })).toBe(`07A--${instant}.json`);
    expect(orderFileName('A-0007')).toBe('A-0007.json');
  });
});
