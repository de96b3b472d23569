/** The file --fetch-orders keeps an order in: one per id, never outside its folder. */
import { describe, expect, it } from 'vitest';
import { orderFileName } from '../../../src/commands/webhook/hand-offs.js';

describe('orderFileName', () => {
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
    const ids = ['a/b', 'a_b', 'a%2Fb', 'a b', 'a+b', 'a:b', 'A/B'];
    expect(new Set(ids.map(orderFileName)).size).toBe(ids.length);
  });
});
