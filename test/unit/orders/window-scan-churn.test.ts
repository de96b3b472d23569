/**
 * The orders scan's repair of a broken chain of offset pages, request by request, against listings that churn in set
 * ways: where it looks back, how many rounds and pages it spends before it splits the window by time instead. The
 * seeded proof (orders-scan.test.ts) shows that nothing is missed; these pin what the repair costs.
 */
import { describe, expect, it } from 'vitest';
import type { ScanOptions } from '../../../src/orders/window-scan.js';
import type { TimeWindow } from '../../../src/domain/orders-window.js';
import { asked, idsRead, type Order, ordersAt, range, spread, stillListing } from './still-listing.js';

const at = (instant: number) => new Date(instant).toISOString();

/**
 * A listing that churns while `window` is read: each order a page of it lists is updated before the next request (its
 * new version is stamped after every window here, so it leaves), and with `refill`, as many new orders are committed
 * late, stamped at the window's start. No two pages of that window ever share an order.
 */
function churning(orders: Order[], window: TimeWindow, refill: boolean, options: Partial<ScanOptions<Order>> = {}) {
  const listing = stillListing(orders, options);
  const fetchPage = listing.scan.fetchPage;
  let listed = new Set<number>();
  let movedTo = 10_000_000;
  listing.scan.fetchPage = async (part, offset, signal) => {
    const leaving = orders.filter((order) => listed.has(order.id));
    for (const order of leaving) order.lastUpdated = at(movedTo++);
    const next = orders.length + 1;
    if (refill) orders.push(...leaving.map((_order, index) => ({ id: next + index, lastUpdated: at(window.from) })));
    listed = new Set();
    const page = await fetchPage(part, offset, signal);
    if (part.from === window.from && part.to === window.to) listed = new Set(page.orders.map((order) => order.id));
    return page;
  };
  return listing;
}

/** The orders of the first `count` that were never updated during the scan. */
const unchanged = (orders: Order[], count: number, instants: number[]) =>
  orders
    .slice(0, count)
    .flatMap((order, index) => (Date.parse(order.lastUpdated) === instants[index] ? [order.id] : []));

const inWindow = (listing: { requests: { window: TimeWindow; offset: number }[] }, window: TimeWindow) =>
  listing.requests
    .filter((request) => request.window.from === window.from && request.window.to === window.to)
    .map((request) => request.offset);

describe('scanWindow repairing a broken chain of offset pages', () => {
  it('a chain broken twice at the same place: the second look-back is 13 orders further back (35, then 22)', async () => {
    const orders = ordersAt(range(90, 10));
    const listing = stillListing(orders);
    const fetchPage = listing.scan.fetchPage;
    listing.scan.fetchPage = async (window, offset, signal) => {
      // Right after the page at 24 is read, its 25 orders (25 to 49) are updated: they leave the window.
      if (offset === 48) for (const order of orders.slice(24, 49)) order.lastUpdated = new Date(5000).toISOString();
      return fetchPage(window, offset, signal);
    };
    const read = await idsRead({ from: 0, to: 999 }, listing.scan);
    expect(read.toSorted((a, b) => a - b)).toEqual(range(90, 1, 1));
    // The page at 48 now holds 74 to 90: the chain breaks after 24. The look-back at 35 (24 + 24 - 13) holds 61 to 85,
    // which joins 48 but not 24: the chain breaks there again. The next, 13 further back at 22, holds 23 and 24 (of
    // the head page) and 50 to 72 (of the page at 35): head to end joined. The short page at 48 is read on where it
    // ends (65, empty), and its last order read again after that (64) proves the end, beside the first look-back.
    expect(listing.requests.map((request) => request.offset)).toEqual([0, 5000, 24, 48, 65, 35, 64, 22]);
    expect(listing.steps).toEqual(['offset-pages', 'look-back', 'look-back']);
  });

  it('churn that never settles: one look-back a round for 8 rounds (at 11, then 7 at the head), then the split by time', async () => {
    const instants = range(30, 10, 10);
    const orders = ordersAt(instants);
    const window = { from: 0, to: 9999 };
    const listing = churning(orders, window, true);
    const read = await idsRead(window, listing.scan);
    expect(read).toEqual(expect.arrayContaining(unchanged(orders, 30, instants)));
    // The head page and the page at 24 share nothing, nor does any look-back with what came before: the chain keeps
    // breaking after the head. The short page at 24 is read on (30), then a look-back at 11 and the end read again
    // (29); 8 rounds of look-backs later, the window is split by time.
    expect(inWindow(listing, window).slice(0, 6)).toEqual([0, 5000, 24, 30, 11, 29]);
    const lookBacks = listing.steps.indexOf('time-split') - 1;
    expect(listing.steps.slice(0, lookBacks + 2)).toEqual([
      'offset-pages',
      ...Array.from({ length: lookBacks }, () => 'look-back'),
      'time-split',
    ]);
    // One look-back a round for the head's break, a round more each while it fails: 8 rounds, never a ninth.
    expect(lookBacks).toBeGreaterThanOrEqual(8);
    expect(inWindow(listing, window).length - 4).toBeLessThanOrEqual(32);
  });

  it('churn that breaks every page: look-backs in rounds up to 32 extra pages in all, then the window read whole', async () => {
    const instants = range(670, 10);
    const orders = ordersAt(instants);
    const window = { from: 0, to: 99_999 };
    const listing = churning(orders, window, false);
    const read = await idsRead(window, listing.scan);
    expect(read).toEqual(expect.arrayContaining(unchanged(orders, 670, instants)));
    expect(inWindow(listing, window)).toEqual([
      0,
      5000,
      ...range(14, 24, 24),
      // Every full page breaks the chain: 13 look-backs and the end read again (336: the page at 336 came back
      // empty), then 13, then 2, 29 extra pages in all (of the 32 allowed, as the window took 15 pages), which leave
      // the chain still broken.
      ...range(13, 24, 11),
      336,
      0,
      22,
      22,
      46,
      46,
      70,
      70,
      94,
      94,
      118,
      118,
      142,
      142,
      156,
      179,
      // No fourth round, which would pass 32: the window split by time instead.
    ]);
    expect(listing.steps).toEqual([
      'offset-pages',
      ...Array.from({ length: 27 }, () => 'look-back'),
      ...listing.steps.slice(28),
    ]);
    expect(listing.steps[28]).toBe('time-split');
  });

  it('a split by time before any window was measured takes its pieces from the first split`s guess: 4 pieces, not 2', async () => {
    const instants = [...spread(30, 10, 900), ...spread(100, 1000, 1000)];
    const orders = ordersAt(instants);
    const first = { from: 0, to: 999 };
    const listing = churning(orders, first, true, { offsetReadBudget: 100 });
    const read = await idsRead({ from: 0, to: 1999 }, listing.scan);
    expect(read).toEqual(expect.arrayContaining(unchanged(orders, 130, instants)));
    // The whole holds at least 130 orders: 2 pieces, and a guess of 130 / 2000 orders per ms. The first second's offset
    // read never settles; the split by time that replaces it has measured no window yet, so it takes the guess: 1000 ms
    // at 0.065 are 65 orders, 4 pieces of 18 at most (without one, 2: one per request slot, and at least 2).
    expect(asked(listing.requests).slice(0, 6)).toEqual([
      '0-1999@0',
      '0-1999@100',
      '0-1999@800',
      '0-999@0',
      '0-999@100',
      '0-999@24',
    ]);
    const pieces = asked(listing.requests).filter((request) => !/^0-(1999|999)@/.test(request));
    expect(pieces.slice(0, 4)).toEqual(['0-249@0', '250-499@0', '500-749@0', '750-999@0']);
  });
});
