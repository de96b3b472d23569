import { describe, expect, it } from 'vitest';
import { countOf, singularOf } from '../../../src/lib/plural.js';

describe('countOf', () => {
  it.each([
    [0, 'records', '0 records'],
    [1, 'records', '1 record'],
    [2, 'records', '2 records'],
    [1, 'customers', '1 customer'],
    [1, 'items', '1 item'],
    [1, 'rows', '1 row'],
    [1, 'retries', '1 retry'],
    [3, 'retries', '3 retries'],
    [1, 'addresses', '1 address'],
    [1, 'sales reps', '1 sales rep'],
    [1, 'problems', '1 problem'],
    [1, 'requests', '1 request'],
  ])('%i %s reads "%s"', (count, plural, expected) => {
    expect(countOf(count, plural)).toBe(expected);
  });

  it('leaves a word that is not a plural alone', () => {
    expect(singularOf('status')).toBe('status');
  });
});
