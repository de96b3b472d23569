import { describe, expect, it } from 'vitest';
import { inUpdateOrder, offsetBreaks, offsetCoverage, timeOrderedChunks } from '../../../src/domain/orders-window.js';

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => String(from + index));

describe('offsetCoverage: overlapping offset pages prove nothing unchanged was skipped', () => {
  it('a short head page is the whole window', () => {
    expect(offsetCoverage([{ offset: 0, full: false, ids: [] }])).toEqual({ proven: true });
  });

  it('pages overlapping by one order, ending with a short page, are proven', () => {
    expect(
      offsetCoverage([
        { offset: 0, full: true, ids: ids(1, 25) },
        { offset: 24, full: true, ids: ids(25, 49) },
        { offset: 48, full: false, ids: ids(49, 60) },
      ]),
    ).toEqual({ proven: true });
  });

  it('an order that left the window between two pages breaks the chain: the frontier says where to look', () => {
    // Order 3 left before the second page was read: everything moved up one place, order 25 was skipped.
    expect(
      offsetCoverage([
        { offset: 0, full: true, ids: ids(1, 25) },
        { offset: 24, full: true, ids: ids(27, 51) },
        { offset: 48, full: false, ids: ids(51, 60) },
      ]),
    ).toEqual({ proven: false, frontier: 0 });
  });

  it('a bridge page holding orders of both sides repairs it, in whatever order the pages were read', () => {
    expect(
      offsetCoverage([
        { offset: 24, full: true, ids: ids(27, 51) },
        { offset: 0, full: true, ids: ids(1, 25) },
        { offset: 48, full: false, ids: ids(51, 60) },
        { offset: 12, full: true, ids: ids(14, 38) },
      ]),
    ).toEqual({ proven: true });
  });

  it('a chain that ends with a full page, or with an empty short page, is not proven', () => {
    expect(
      offsetCoverage([
        { offset: 0, full: true, ids: ids(1, 25) },
        { offset: 24, full: true, ids: ids(25, 49) },
      ]),
    ).toEqual({ proven: false, frontier: 24 });
    expect(
      offsetCoverage([
        { offset: 0, full: true, ids: ids(1, 25) },
        { offset: 24, full: false, ids: [] },
      ]),
    ).toEqual({ proven: false, frontier: 0 });
  });
});

describe('offsetBreaks: every place the chain breaks, to repair them in one round', () => {
  it('each full page whose next page shares none of its orders, and a last full page with nothing after it', () => {
    expect(
      offsetBreaks([
        { offset: 0, full: true, ids: ids(1, 25) },
        { offset: 24, full: true, ids: ids(27, 51) },
        { offset: 48, full: true, ids: ids(51, 75) },
        { offset: 72, full: true, ids: ids(77, 101) },
      ]),
    ).toEqual([0, 48, 72]);
  });

  it('nothing past the first short page counts; pages read twice at one offset count together', () => {
    expect(
      offsetBreaks([
        { offset: 0, full: true, ids: ids(1, 25) },
        { offset: 24, full: true, ids: ids(27, 51) },
        { offset: 24, full: true, ids: ids(25, 49) },
        { offset: 48, full: false, ids: ids(49, 55) },
        { offset: 72, full: true, ids: ids(90, 114) },
      ]),
    ).toEqual([]);
  });
});

const order = (id: number, instant: number) => ({ id, lastUpdated: new Date(instant).toISOString() });

describe('timeOrderedChunks: a window read whole, handed over oldest first', () => {
  it('tiles the window in time order; orders of one instant stay in one chunk', () => {
    const orders = [order(1, 50), order(2, 10), order(3, 20), order(4, 20), order(5, 30), order(6, 40)];
    const chunks = timeOrderedChunks({ from: 0, to: 100 }, orders, 2);
    expect(chunks.map((chunk) => chunk.window)).toEqual([
      { from: 0, to: 20 },
      { from: 21, to: 40 },
      { from: 41, to: 100 },
    ]);
    expect(chunks.map((chunk) => chunk.orders.map((one) => one.id))).toEqual([[2, 3, 4], [5, 6], [1]]);
  });

  it('no orders: one chunk, the whole window', () => {
    expect(timeOrderedChunks({ from: 0, to: 100 }, [], 250)).toEqual([{ window: { from: 0, to: 100 }, orders: [] }]);
  });
});

describe('inUpdateOrder: the order a poll hands orders over in', () => {
  it('by update instant, oldest first, then by id (9 before 10), whatever the listing order', () => {
    // As the listing gives them: newest first by creation.
    const listed = [order(12, 30), order(10, 20), order(9, 20), order(7, 40), order(3, 10)];
    expect(inUpdateOrder(listed).map((one) => one.id)).toEqual([3, 9, 10, 12, 7]);
  });

  it('text ids within one instant in text order; an instant that does not parse last', () => {
    const listed = [
      { id: 'b', lastUpdated: '2026-11-29T10:00:00.000Z' },
      { id: 'x', lastUpdated: 'not a date' },
      { id: 'a', lastUpdated: '2026-11-29T10:00:00.000Z' },
    ];
    expect(inUpdateOrder(listed).map((one) => one.id)).toEqual(['a', 'b', 'x']);
  });
});
