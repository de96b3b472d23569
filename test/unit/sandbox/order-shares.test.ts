import { describe, expect, it } from 'vitest';
import { sharesOf } from '../../../src/sandbox/routes/orders.js';

describe("the sandbox's shares of an order's freight and discount among its items", () => {
  it.each([
    [100, [10, 10, 10], [33.34, 33.33, 33.33]],
    [1, [10, 10, 10, 10, 10, 10, 9], [0.15, 0.15, 0.15, 0.14, 0.14, 0.14, 0.13]],
    [0, [10, 20], [0, 0]],
    [12.5, [0, 0], [0, 0]],
  ])('%d over %j: %j, adding up to the amount', (amount, totals, expected) => {
    const shares = sharesOf(
      amount,
      totals.map((total) => ({ total })),
    );
    expect(shares).toEqual(expected);
    // Every amount adds up, but over items worth nothing, which share nothing.
    const worth = totals.some((total) => total > 0) ? amount : 0;
    expect(Math.round(shares.reduce((sum, share) => sum + share, 0) * 100)).toBe(Math.round(worth * 100));
  });
});
