import { describe, expect, it } from 'vitest';
import { sharesOf } from '../../../src/sandbox/routes/orders.js';

describe("the sandbox's shares of an order's freight and discount among its items", () => {
  it.each([
    [100, [10, 10, 10], [33.34, 33.33, 33.33]],
    [1, [10, 10, 10, 10, 10, 10, 9], [0.15, 0.15, 0.15, 0.14, 0.14, 0.14, 0.13]],
    [0, [10, 20], [0, 0]],
    [12.5, [0, 0], [6.25, 6.25]],
    [10, [0, 0, 0], [3.34, 3.33, 3.33]],
    [7.77, [0.33, 49.98], [0.05, 7.72]],
  ])('%d over %j: %j, adding up to the amount', (amount, totals, expected) => {
    const shares = sharesOf(
      amount,
      totals.map((total) => ({ total })),
    );
    expect(shares).toEqual(expected);
    // Every amount adds up, over items worth nothing too (a bonus shipment's freight is shared equally).
    expect(Math.round(shares.reduce((sum, share) => sum + share, 0) * 100)).toBe(Math.round(amount * 100));
  });
});
