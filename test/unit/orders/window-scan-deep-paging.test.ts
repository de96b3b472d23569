/**
 * The orders scan against stores that limit how deep their listing pages (a user test): pages capped at 10 (below the
 * 25 asked) or at 25, and `[]` at any offset of 50 or more, or a 400 there. Such an empty page is no end of a window
 * whose pages were full up to it: the window is split by time until its pieces fit above the limit, and every order
 * is read, once. A window that really ends where a page does is still read with a request or two more at most.
 */
import { describe, expect, it } from 'vitest';
import { asked, depthLimited, idsRead, ordersAt, range, stillListing } from './still-listing.js';

/** 600 orders, one every 10 ms: a window of 6 s. */
const sixHundred = () => ordersAt(range(600, 10));
const whole = { from: 0, to: 5999 };

describe('a store answering [] past offset 50', () => {
  it('pages capped at 10: all 600 orders, each once, by a split by time', async () => {
    const listing = depthLimited(stillListing(sixHundred(), { concurrency: 4 }), { cap: 10, limit: 50 });
    const ids = await idsRead(whole, listing.scan);
    expect(ids).toEqual(range(600, 1, 1));
    expect(listing.steps).toContain('time-split');
  });

  it('pages of 25: all 600 orders, each once', async () => {
    const listing = depthLimited(stillListing(sixHundred(), { concurrency: 4 }), { limit: 50 });
    expect(await idsRead(whole, listing.scan)).toEqual(range(600, 1, 1));
    expect(listing.steps).toContain('time-split');
  });
});

describe('a store refusing offsets of 50 or more with 400', () => {
  it('pages of 25: all 600 orders, each once, the refused offset asked once', async () => {
    const listing = depthLimited(stillListing(sixHundred(), { concurrency: 4 }), { limit: 50, refuse: true });
    expect(await idsRead(whole, listing.scan)).toEqual(range(600, 1, 1));
    // The look at the budget's end refused once: the store's limit is its own, no later window asks that deep.
    expect(listing.refused).toEqual([5000]);
  });

  it('pages capped at 10: all 600 orders, each once', async () => {
    const listing = depthLimited(stillListing(sixHundred(), { concurrency: 4 }), { cap: 10, limit: 50, refuse: true });
    expect(await idsRead(whole, listing.scan)).toEqual(range(600, 1, 1));
  });
});

describe('a window that really ends where a page does', () => {
  it('50 orders in pages of 25: its pages, the empty page where they end, its last order again', async () => {
    const listing = stillListing(ordersAt(range(50, 10)));
    expect(await idsRead({ from: 0, to: 999 }, listing.scan)).toEqual(range(50, 1, 1));
    expect(asked(listing.requests)).toEqual(['0-999@0', '0-999@5000', '0-999@24', '0-999@48', '0-999@50', '0-999@49']);
  });

  it('30 orders in pages capped at 10: pages overlapping by one, the empty page at 30, its last order again', async () => {
    const listing = depthLimited(stillListing(ordersAt(range(30, 10))), { cap: 10, limit: 1000 });
    expect(await idsRead({ from: 0, to: 999 }, listing.scan)).toEqual(range(30, 1, 1));
    // The page at 10 shares no order with the first (a first page of 10 was taken as short): one look between them, at 4.
    expect(listing.requests.map((request) => request.offset)).toEqual([0, 10, 19, 28, 30, 4, 29]);
  });
});
