/**
 * The orders scan's requests against a still listing, request by request: which windows and offsets it asks for, how
 * many at once, and when it stops. The seeded proof (orders-scan.test.ts) shows that nothing is missed under churn;
 * these show that it is done with the requests intended (mutation testing found the cost of each path unchecked).
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { scanWindow } from '../../../src/orders/window-scan.js';
import { asked, idsRead, type Order, ordersAt, range, spread, stillListing } from './still-listing.js';

describe('scanWindow against a still listing', () => {
  it('a window of less than a page: three requests, the page, the empty page where it ends, its last order again', async () => {
    const listing = stillListing(ordersAt(range(24, 10)));
    expect(await idsRead({ from: 0, to: 999 }, listing.scan)).toEqual(range(24, 1, 1));
    // A short page proves no end (a store may cap its pages lower, or drop an entry it hides): the empty page at 24
    // does; the page at 23, asked after it, holds every order from the 24th to the end, joined to the first by it.
    expect(listing.requests.map((request) => request.offset)).toEqual([0, 24, 23]);
    expect(listing.requests.every((request) => request.window.from === 0 && request.window.to === 999)).toBe(true);
  });

  it('an empty window: one request', async () => {
    const listing = stillListing(ordersAt(range(24, 10)));
    expect(await idsRead({ from: 5000, to: 5999 }, listing.scan)).toEqual([]);
    expect(listing.requests).toEqual([{ window: { from: 5000, to: 5999 }, offset: 0 }]);
  });

  it('a listing that answers its first page at every offset: stopped after it came back twice, not read for ever', async () => {
    const listing = stillListing(ordersAt(range(3, 10)));
    const fetchPage = listing.scan.fetchPage;
    const offsets: number[] = [];
    listing.scan.fetchPage = (window, offset, signal) => {
      offsets.push(offset);
      return fetchPage(window, 0, signal);
    };
    await expect(idsRead({ from: 0, to: 999 }, listing.scan)).rejects.toThrow(
      'the order listing answered the same page at offset 5 as at offset 0: it does not seem to page by offset; stopped instead of reading it for ever (the cursor does not pass this window).',
    );
    // The page of 3 read on at 3 (the head again), overlapping it at 5 (the head once more): stopped.
    expect(offsets).toEqual([0, 3, 5]);
  });

  it('a full window under the budget: one look at the budget`s end, then pages overlapping by one order', async () => {
    const listing = stillListing(ordersAt(range(60, 10)));
    expect(await idsRead({ from: 0, to: 999 }, listing.scan)).toEqual(range(60, 1, 1));
    // The short page at 48 is read on where it ends (60, empty), and its last order again after that (59).
    expect(listing.requests.map((request) => request.offset)).toEqual([0, 5000, 24, 48, 60, 59]);
    expect(listing.steps).toEqual(['offset-pages']);
  });

  it('a window over the budget: the budget`s end, then 8 times further, and split in pieces of about the budget', async () => {
    const listing = stillListing(ordersAt(range(300, 10)), { offsetReadBudget: 100 });
    expect(await idsRead({ from: 0, to: 2999 }, listing.scan)).toEqual(range(300, 1, 1));
    const top = listing.requests.filter((request) => request.window.from === 0 && request.window.to === 2999);
    expect(top.map((request) => request.offset)).toEqual([0, 100, 800]);
    // 125 orders at least: two pieces, each of them again over the budget, split in two.
    const offsetReads = listing.requests.filter((request) => request.offset === 24).map((request) => request.window);
    expect(offsetReads).toEqual([
      { from: 0, to: 749 },
      { from: 750, to: 1499 },
      { from: 1500, to: 2249 },
      { from: 2250, to: 2999 },
    ]);
    expect(listing.steps.filter((step) => step === 'budget-split')).toHaveLength(3);
  });

  it('a store capping its pages at 10: a window over the budget is read on to the budget, then split by it', async () => {
    const listing = stillListing(ordersAt(range(300, 10)), { offsetReadBudget: 100 });
    const fetchPage = listing.scan.fetchPage;
    listing.scan.fetchPage = async (window, offset, signal) => {
      const page = await fetchPage(window, offset, signal);
      return { orders: page.orders.slice(0, 10), listed: Math.min(page.listed, 10) };
    };
    expect(await idsRead({ from: 0, to: 2999 }, listing.scan)).toEqual(range(300, 1, 1));
    const top = listing.requests.filter((request) => request.window.from === 0 && request.window.to === 2999);
    // Pages of 10 overlapping by one up to the budget (0, 10, 19 … 100), then the look at the budget's end and 8
    // times further: at least 110 orders, 2 pieces.
    expect(top.map((request) => request.offset)).toEqual([0, 10, ...range(10, 9, 19), 100, 800]);
    expect(listing.steps.filter((step) => step === 'budget-split').length).toBeGreaterThanOrEqual(1);
  });

  it('a window far over the budget: found by pages 8 times further each, split into as many pieces', async () => {
    const listing = stillListing(ordersAt(range(1000, 3)), { offsetReadBudget: 25 });
    expect(await idsRead({ from: 0, to: 2999 }, listing.scan)).toEqual(range(1000, 1, 1));
    const top = listing.requests.filter((request) => request.window.from === 0 && request.window.to === 2999);
    expect(top.map((request) => request.offset)).toEqual([0, 25, 200, 1600]);
    // At least 200 + 25 orders: ceil(225 / 20) = 12 pieces of 250 ms.
    const firstLevel = listing.requests.filter(
      (request) => request.offset === 0 && request.window.to - request.window.from === 249,
    );
    expect(firstLevel).toHaveLength(12);
  });

  it('the density measured in windows read whole sizes the later splits', async () => {
    const listing = stillListing(ordersAt(range(700, 10)), { offsetReadBudget: 100 });
    expect(await idsRead({ from: 0, to: 6999 }, listing.scan)).toEqual(range(700, 1, 1));
    const offsetReads = listing.requests.filter((request) => request.offset === 24).map((request) => request.window);
    // The first half knows only the lower bound of the whole (125 orders in 7 s) and is halved twice; the windows read
    // whole there measure 0.1 order per ms, which cuts the second quarter in 3 and the second half in 5.
    expect(offsetReads.map((window) => window.to - window.from + 1)).toEqual([
      875, 875, 583, 583, 584, 700, 700, 700, 700, 700,
    ]);
  });

  it('a millisecond holding more than a page: read by passes at every page, until a pass brings nothing new', async () => {
    const listing = stillListing(ordersAt(range(60, 0, 500)));
    expect((await idsRead({ from: 500, to: 500 }, listing.scan)).toSorted((a, b) => a - b)).toEqual(range(60, 1, 1));
    // Each pass reads on past the short page at 50 until the empty page at 60.
    expect(listing.requests.map((request) => request.offset)).toEqual([0, 0, 25, 50, 60, 0, 25, 50, 60]);
    expect(listing.steps).toEqual(['instant-pass', 'instant-pass']);
  });

  it('a millisecond read with nobody observing', async () => {
    const listing = stillListing(ordersAt(range(30, 0, 500)), { observe: undefined });
    expect(await idsRead({ from: 500, to: 500 }, listing.scan)).toHaveLength(30);
  });

  it('a millisecond whose orders move on between passes: passes go on while they bring new versions', async () => {
    const orders = ordersAt(range(60, 0, 500));
    let pass = 0;
    const listing = stillListing(orders);
    const fetchPage = listing.scan.fetchPage;
    listing.scan.fetchPage = async (window, offset, signal) => {
      // Before each pass's first page, the first order still at the instant gets a new version there.
      if (offset === 0 && pass++ < 3) (orders[pass] as Order).id += 1000;
      return fetchPage(window, offset, signal);
    };
    const read = await idsRead({ from: 500, to: 500 }, listing.scan);
    // 2 and 3 are renumbered before the first page and the first pass; 4 before the second pass, which brings 1004
    // besides the 4 read in the first; the third brings nothing new.
    expect(read.toSorted((a, b) => a - b)).toEqual([1, ...range(57, 1, 4), 1002, 1003, 1004]);
    expect(listing.steps).toEqual(['instant-pass', 'instant-pass', 'instant-pass']);
  });

  it('a millisecond whose orders never settle: ten passes at most, then what was read', async () => {
    const orders = ordersAt(range(30, 0, 500));
    let renumbered = 0;
    const listing = stillListing(orders);
    const fetchPage = listing.scan.fetchPage;
    listing.scan.fetchPage = async (window, offset, signal) => {
      // Before every pass, an order gets a new version at the same instant: each pass brings something new.
      if (offset === 0) (orders[renumbered++ % orders.length] as Order).id += 1000;
      return fetchPage(window, offset, signal);
    };
    expect((await idsRead({ from: 500, to: 500 }, listing.scan)).length).toBeGreaterThan(30);
    expect(listing.steps).toEqual(Array.from({ length: 10 }, () => 'instant-pass'));
  });

  it('an order that leaves the window between two pages breaks their chain: one page read half a page further back', async () => {
    const orders = ordersAt(range(60, 10));
    const listing = stillListing(orders);
    const fetchPage = listing.scan.fetchPage;
    listing.scan.fetchPage = async (window, offset, signal) => {
      // Before the second page, the first order is updated: it leaves the window and every order moves up one place.
      if (offset === 24) (orders[0] as Order).lastUpdated = new Date(5000).toISOString();
      return fetchPage(window, offset, signal);
    };
    expect((await idsRead({ from: 0, to: 999 }, listing.scan)).toSorted((a, b) => a - b)).toEqual(range(60, 1, 1));
    // Pages 0 and 24 share no order: the page at 11 (0 + 24 - ceil(25 / 2)) joins them, read beside the last order
    // again (58) after the empty page at 59 where the short page at 48 ends.
    expect(listing.requests.map((request) => request.offset)).toEqual([0, 5000, 24, 48, 59, 11, 58]);
    expect(listing.steps).toEqual(['offset-pages', 'look-back']);
  });

  it('concurrency 3: three requests in flight at most, and that many are', async () => {
    const listing = stillListing(ordersAt(range(300, 10)), { offsetReadBudget: 100, concurrency: 3 });
    expect((await idsRead({ from: 0, to: 2999 }, listing.scan)).length).toBe(300);
    expect(listing.mostInFlight()).toBe(3);
  });

  it('concurrency 0 is taken as 1; nobody observing is no error', async () => {
    const listing = stillListing(ordersAt(range(300, 10)), {
      offsetReadBudget: 100,
      concurrency: 0,
      observe: undefined,
    });
    expect((await idsRead({ from: 0, to: 2999 }, listing.scan)).length).toBe(300);
    expect(listing.mostInFlight()).toBe(1);
  });

  it('a caller that stops early cancels the requests in flight; so does the caller`s signal, with its reason', async () => {
    const orders = ordersAt(range(300, 10));
    const signals: AbortSignal[] = [];
    const listing = stillListing(orders, { offsetReadBudget: 100, concurrency: 3 });
    const fetchPage = listing.scan.fetchPage;
    listing.scan.fetchPage = async (window, offset, signal) => {
      signals.push(signal);
      return fetchPage(window, offset, signal);
    };
    for await (const scanned of scanWindow({ from: 0, to: 2999 }, listing.scan)) if (scanned) break;
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((signal) => signal.aborted)).toBe(true);

    const caller = new AbortController();
    const seen: AbortSignal[] = [];
    const waiting = stillListing(orders, {
      signal: caller.signal,
      fetchPage: (_window, _offset, signal) => {
        seen.push(signal);
        if (seen.length === 1) setTimeout(() => caller.abort(new Error('stopped by the caller')), 1);
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
        );
      },
    });
    await expect(idsRead({ from: 0, to: 2999 }, waiting.scan)).rejects.toThrow('stopped by the caller');
    expect(seen[0]?.aborted).toBe(true);
  });
});

/** 50 orders at 500 ms and 20 spread before it: windows over a budget of 25 are split down to that millisecond. */
const crowded = () => ordersAt([...spread(20, 0, 400), ...range(50, 0, 500)]);

describe('a millisecond whose pages are full up to an empty page (the split`s floor)', () => {
  it('read whole when the listing is seen to answer that deep: the run`s window asked there once', async () => {
    const listing = stillListing(crowded(), { offsetReadBudget: 25 });
    expect((await idsRead({ from: 0, to: 999 }, listing.scan)).toSorted((a, b) => a - b)).toEqual(range(70, 1, 1));
    expect(asked(listing.requests).filter((request) => request === '0-999@50')).toHaveLength(1);
  });

  it('stopped when nothing answers that deep (a listing answering [] past offset 50): the instant and the offset named', async () => {
    const listing = stillListing(crowded(), { offsetReadBudget: 25 });
    const fetchPage = listing.scan.fetchPage;
    listing.scan.fetchPage = (window, offset, signal) =>
      offset >= 50 ? Promise.resolve({ orders: [], listed: 0 }) : fetchPage(window, offset, signal);
    await expect(idsRead({ from: 0, to: 999 }, listing.scan)).rejects.toThrow(
      'the order listing cannot be read whole at 1970-01-01T00:00:00.500Z: its pages of the orders updated at that instant were full up to offset 50, where it answered no orders',
    );
  });
});

/**
 * A window over the budget is split into pieces of about 80% of it, by the larger of its lower bound and its width
 * times the density measured so far. A millisecond too many or too few in that arithmetic changes the pieces only
 * where the count sits at a piece boundary; these windows are built so that it does.
 */
describe('the density that sizes a split', () => {
  it('windows read whole measure the density: 45 orders in 100 ms make the next 100 ms 3 pieces, not the 2 its 30 orders give', async () => {
    const listing = stillListing(ordersAt([...spread(45, 0, 100), ...spread(30, 100, 100)]), { offsetReadBudget: 25 });
    expect(await idsRead({ from: 0, to: 299 }, listing.scan)).toEqual(range(75, 1, 1));
    // The whole: at least 50 orders, 3 pieces. The first: 45 orders, 3 pieces read whole (15 each). The second holds
    // 30, but 100 ms at 0.45 orders per ms are 45: 3 pieces of 20 at most.
    expect(asked(listing.requests)).toEqual([
      '0-299@0',
      '0-299@25',
      '0-299@200',
      '0-99@0',
      '0-99@25',
      '0-99@200',
      // Each window read whole: its page, the empty page where it ends, its last order again.
      '0-32@0',
      '0-32@15',
      '0-32@14',
      '33-65@0',
      '33-65@15',
      '33-65@14',
      '66-99@0',
      '66-99@15',
      '66-99@14',
      '100-199@0',
      '100-199@25',
      '100-199@200',
      '100-132@0',
      '100-132@10',
      '100-132@9',
      '133-165@0',
      '133-165@10',
      '133-165@9',
      '166-199@0',
      '166-199@10',
      '166-199@9',
      '200-299@0',
    ]);
  });

  it('a window read whole counts both its ends: 40 orders in 100 ms put the next 100 ms at exactly 40, 2 pieces of 20', async () => {
    const listing = stillListing(ordersAt([...spread(40, 0, 100), ...spread(30, 100, 100)]), { offsetReadBudget: 25 });
    expect(await idsRead({ from: 0, to: 299 }, listing.scan)).toEqual(range(70, 1, 1));
    expect(asked(listing.requests).slice(6)).toEqual([
      '0-49@0',
      '0-49@20',
      '0-49@19',
      '50-99@0',
      '50-99@20',
      '50-99@19',
      '100-199@0',
      '100-199@25',
      '100-199@200',
      '100-149@0',
      '100-149@15',
      '100-149@14',
      '150-199@0',
      '150-199@15',
      '150-199@14',
      '200-299@0',
    ]);
  });

  it('a window read by offset counts both its ends: 80 orders in 200 ms put the next 200 ms at exactly 80, 2 pieces of 40', async () => {
    const instants = [...spread(40, 0, 100), ...spread(40, 100, 100), ...spread(60, 200, 200)];
    const listing = stillListing(ordersAt(instants), { offsetReadBudget: 50 });
    expect(await idsRead({ from: 0, to: 399 }, listing.scan)).toEqual(range(140, 1, 1));
    // Halves of 200 ms, the first halved again: two windows of 40 orders read by offset (a page, then one at 24, the
    // empty page where that one ends, its last order again).
    expect(asked(listing.requests).slice(6)).toEqual([
      '0-99@0',
      '0-99@50',
      '0-99@24',
      '0-99@40',
      '0-99@39',
      '100-199@0',
      '100-199@50',
      '100-199@24',
      '100-199@40',
      '100-199@39',
      '200-399@0',
      '200-399@50',
      '200-399@400',
      '200-299@0',
      '200-299@50',
      '200-299@24',
      '200-299@30',
      '200-299@29',
      '300-399@0',
      '300-399@50',
      '300-399@24',
      '300-399@30',
      '300-399@29',
    ]);
  });

  it('a window split over the budget counts both its ends: at 0.4 orders per ms, 201 ms hold 80.4 orders, 3 pieces', async () => {
    const instants = [...spread(40, 0, 100), ...spread(40, 100, 100), ...spread(60, 200, 200)];
    const listing = stillListing(ordersAt(instants), { offsetReadBudget: 50 });
    expect(await idsRead({ from: 0, to: 400 }, listing.scan)).toEqual(range(140, 1, 1));
    expect(asked(listing.requests).slice(16)).toEqual([
      '200-400@0',
      '200-400@50',
      '200-400@400',
      '200-266@0',
      '200-266@21',
      '200-266@20',
      '267-333@0',
      '267-333@20',
      '267-333@19',
      '334-400@0',
      '334-400@19',
      '334-400@18',
    ]);
  });
});

describe('the caller`s signal', () => {
  it('is left without the scan`s listener once the scan ends, read to the end or stopped early', async () => {
    const caller = new AbortController();
    const listing = stillListing(ordersAt(range(300, 10)), { offsetReadBudget: 100, signal: caller.signal });
    expect(await idsRead({ from: 0, to: 2999 }, listing.scan)).toHaveLength(300);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    for await (const scanned of scanWindow({ from: 0, to: 2999 }, listing.scan)) {
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
      if (scanned) break;
    }
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});
