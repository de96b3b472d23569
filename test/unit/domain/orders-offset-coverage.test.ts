import { describe, expect, it } from 'vitest';
import {
  endFullUpTo,
  inUpdateOrder,
  offsetBreaks,
  offsetCoverage,
  readOnOffset,
  timeOrderedChunks,
} from '../../../src/domain/orders-window.js';

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => String(from + index));
/** The same ids newest first, as the listing gives them. */
const down = (from: number, to: number) => ids(from, to).toReversed();

/** Pages as the scan stamps them: each asked and answered in turn, in the order given. */
const read = (...pages: { offset: number; ids: string[]; listed?: number }[]) =>
  pages.map((page, index) => ({
    offset: page.offset,
    listed: page.listed ?? page.ids.length,
    ids: page.ids,
    asked: 2 * index + 1,
    answered: 2 * index + 2,
  }));

describe('offsetCoverage: overlapping offset pages prove nothing unchanged was skipped', () => {
  it('an empty head page is the whole window: it was empty', () => {
    expect(offsetCoverage(read({ offset: 0, ids: [] }))).toEqual({ proven: true });
  });

  it('pages overlapping by one order, an empty page where they end, and the last order read again: proven', () => {
    expect(
      offsetCoverage(
        read(
          { offset: 0, ids: ids(1, 25) },
          { offset: 24, ids: ids(25, 49) },
          { offset: 48, ids: ids(49, 60) },
          { offset: 60, ids: [] },
          { offset: 59, ids: ids(60, 60) },
        ),
      ),
    ).toEqual({ proven: true });
  });

  it('a short page is no end: a store may cap pages lower or drop an entry it hides, so more may follow', () => {
    expect(
      offsetCoverage(
        read({ offset: 0, ids: ids(1, 10) }, { offset: 9, ids: ids(10, 19) }, { offset: 18, ids: ids(19, 24) }),
      ),
    ).toEqual({ proven: false, frontier: 18 });
  });

  it('a page read before the empty page proves nothing: an order may have left between, moving the rest up', () => {
    // Page 0 held 1 to 3 of 4; order 1 left before the page at 3, which came back empty: 4 was at 2 by then.
    expect(offsetCoverage(read({ offset: 0, ids: ids(1, 3) }, { offset: 3, ids: [] }))).toEqual({
      proven: false,
      frontier: 0,
    });
    // Read again after it, the page holds every order to the end: 4, joined to the chain by 3.
    expect(
      offsetCoverage(read({ offset: 0, ids: ids(1, 3) }, { offset: 3, ids: [] }, { offset: 1, ids: ids(3, 4) })),
    ).toEqual({ proven: true });
  });

  it('a page asked after the empty one but ending before its offset does not reach the end', () => {
    expect(
      offsetCoverage(
        read({ offset: 0, ids: ids(1, 10) }, { offset: 12, ids: [] }, { offset: 9, ids: ids(10, 10), listed: 1 }),
      ),
    ).toEqual({ proven: false, frontier: 9 });
  });

  it('an empty page a later page lists orders past is no end: the read goes on from there (a user test)', () => {
    // A store capping pages at 10 answered one spurious empty page at 10; read after it, the page at 9 held 10 of
    // 10: the window only loses orders, so past a true end nothing is listed, and this one was not the end.
    const pages = read({ offset: 0, ids: ids(1, 10) }, { offset: 10, ids: [] }, { offset: 9, ids: ids(10, 19) });
    expect(offsetCoverage(pages)).toEqual({ proven: false, frontier: 9 });
    expect(offsetBreaks(pages)).toEqual({ breaks: [], tail: { reach: 19, ended: false } });
    expect(readOnOffset(pages, 25)).toBe(18);
    // Read on to an empty page nothing contradicts, and its last order again: proven.
    expect(
      offsetCoverage([
        ...pages,
        ...read({ offset: 18, ids: ids(19, 20) }, { offset: 20, ids: [] }, { offset: 19, ids: ids(20, 20) }).map(
          (page) => ({ ...page, asked: page.asked + 6, answered: page.answered + 6 }),
        ),
      ]),
    ).toEqual({ proven: true });
  });

  it('empty answers several in a row: a full page ending where one starts ends nothing until it is read again', () => {
    // A store capping pages at 10 (a user test), newest first, answered its 3rd, 4th and 5th requests empty; the
    // full pages read after them each ended at an earlier empty offset: 40 of 60 orders were taken as past the end.
    const pages = read(
      { offset: 0, ids: down(51, 60) },
      { offset: 10, ids: down(41, 50) },
      { offset: 19, ids: [] },
      { offset: 4, ids: [] },
      { offset: 19, ids: [] },
      { offset: 4, ids: down(47, 56) },
      { offset: 9, ids: down(42, 51) },
    );
    expect(offsetCoverage(pages)).toEqual({ proven: false, frontier: 10 });
    expect(readOnOffset(pages, 25)).toBe(19);
    // Read there again after the full page: orders, so the listing goes on.
    const after = (extra: { offset: number; ids: string[] }[]) =>
      read(...extra).map((page) => ({ ...page, asked: page.asked + 14, answered: page.answered + 14 }));
    expect(offsetCoverage([...pages, ...after([{ offset: 19, ids: down(32, 41) }])]).proven).toBe(false);
    // Empty again there after the full page: the end is confirmed, and the page at 9 reached it.
    expect(offsetCoverage([...pages, ...after([{ offset: 19, ids: [] }])])).toEqual({ proven: true });
  });

  it('an empty head page read after pages that listed orders proves nothing: it may be one more spurious answer', () => {
    const pages = read(
      { offset: 0, ids: ids(1, 10) },
      { offset: 10, ids: [] },
      { offset: 9, ids: [] },
      { offset: 4, ids: [] },
      { offset: 0, ids: [] },
    );
    expect(offsetCoverage(pages).proven).toBe(false);
  });

  it('an order that left the window between two pages breaks the chain: the frontier says where to look', () => {
    // Order 3 left before the second page was read: everything moved up one place, order 25 was skipped.
    expect(
      offsetCoverage(
        read(
          { offset: 0, ids: ids(1, 25) },
          { offset: 24, ids: ids(27, 51) },
          { offset: 48, ids: ids(51, 60) },
          { offset: 58, ids: [] },
          { offset: 57, ids: ids(60, 60) },
        ),
      ),
    ).toEqual({ proven: false, frontier: 0 });
  });

  it('a bridge page holding orders of both sides repairs it, in whatever order the pages were read', () => {
    expect(
      offsetCoverage(
        read(
          { offset: 24, ids: ids(27, 51) },
          { offset: 0, ids: ids(1, 25) },
          { offset: 48, ids: ids(51, 60) },
          { offset: 58, ids: [] },
          { offset: 57, ids: ids(60, 60) },
          { offset: 12, ids: ids(14, 38) },
        ),
      ),
    ).toEqual({ proven: true });
  });

  it('a chain that ends with a page and nothing after it is not proven', () => {
    expect(offsetCoverage(read({ offset: 0, ids: ids(1, 25) }, { offset: 24, ids: ids(25, 49) }))).toEqual({
      proven: false,
      frontier: 24,
    });
  });
});

describe('offsetBreaks: every place the chain breaks, and its end, to repair them in one round', () => {
  it('each page whose next page shares none of its orders; the tail up to where it was read', () => {
    expect(
      offsetBreaks(
        read(
          { offset: 0, ids: ids(1, 25) },
          { offset: 24, ids: ids(27, 51) },
          { offset: 48, ids: ids(51, 75) },
          { offset: 72, ids: ids(77, 101) },
        ),
      ),
    ).toEqual({
      breaks: [
        { after: 0, last: 24 },
        { after: 48, last: 72 },
      ],
      tail: { reach: 97, ended: false },
    });
  });

  it('nothing past the first empty page counts; pages read twice at one offset count together', () => {
    expect(
      offsetBreaks(
        read(
          { offset: 0, ids: ids(1, 25) },
          { offset: 24, ids: ids(27, 51) },
          { offset: 24, ids: ids(25, 49) },
          { offset: 48, ids: ids(49, 55) },
          // In flight when the empty page was answered (asked before it was): it neither counts nor contradicts it.
          { offset: 72, ids: ids(90, 114) },
          { offset: 55, ids: [] },
        ),
      ),
    ).toEqual({ breaks: [], tail: { reach: 55, ended: true } });
  });

  it('no tail once a page has reached the end; none either when nothing was listed', () => {
    expect(
      offsetBreaks(read({ offset: 0, ids: ids(1, 3) }, { offset: 3, ids: [] }, { offset: 2, ids: ids(3, 3) })),
    ).toEqual({ breaks: [] });
    expect(offsetBreaks(read({ offset: 0, ids: [] }))).toEqual({ breaks: [] });
  });
});

describe('readOnOffset: where to read on, until an empty page', () => {
  it('a lone page shorter than asked: where it ends (the empty page that ends it, most often)', () => {
    expect(readOnOffset(read({ offset: 0, ids: ids(1, 3) }), 25)).toBe(3);
  });

  it('a page as long as the others: overlapping it by one order; one shorter: where it ends', () => {
    expect(readOnOffset(read({ offset: 0, ids: ids(1, 10) }, { offset: 10, ids: ids(11, 20) }), 25)).toBe(19);
    expect(readOnOffset(read({ offset: 0, ids: ids(1, 10) }, { offset: 9, ids: ids(10, 14) }), 25)).toBe(14);
  });

  it('nothing once an empty page was read where the furthest page ends, or before', () => {
    expect(readOnOffset(read({ offset: 0, ids: ids(1, 3) }, { offset: 3, ids: [] }), 25)).toBeUndefined();
    expect(readOnOffset(read({ offset: 0, ids: [] }), 25)).toBeUndefined();
  });

  it('a page of one order is read on where it ends, never at its own offset again', () => {
    expect(readOnOffset(read({ offset: 0, ids: ids(1, 3) }, { offset: 2, ids: ids(3, 3) }), 25)).toBe(3);
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

describe('endFullUpTo: an empty page the pages were full up to, which a limit on how deep a listing pages may answer', () => {
  it('a full page, then [] where the next overlaps it by an order: the empty page`s offset', () => {
    const pages = read(
      { offset: 0, ids: ids(1, 25) },
      { offset: 24, ids: ids(25, 49) },
      { offset: 48, ids: ids(49, 73) },
      { offset: 72, ids: [] },
    );
    expect(endFullUpTo(pages, 25)).toBe(72);
  });

  it('pages of a store capping them at 10: judged against the 10 once two pages that long were read', () => {
    const pages = read(
      { offset: 0, ids: ids(1, 10) },
      { offset: 10, ids: ids(11, 20) },
      { offset: 19, ids: ids(20, 29) },
      { offset: 28, ids: [] },
    );
    expect(endFullUpTo(pages, 25)).toBe(28);
    // One page of 10, then []: a window of 10 orders.
    expect(
      endFullUpTo(read({ offset: 0, ids: ids(1, 10) }, { offset: 10, ids: [] }, { offset: 9, ids: ids(10, 10) }), 25),
    ).toBe(undefined);
  });

  it('a last page shorter than the longest (the last order read again where the full page ends): a window`s end', () => {
    const pages = read(
      { offset: 0, ids: ids(1, 25) },
      { offset: 24, ids: ids(25, 49) },
      { offset: 48, ids: ids(49, 50) },
      { offset: 50, ids: [] },
      { offset: 49, ids: ids(50, 50) },
    );
    expect(endFullUpTo(pages, 25)).toBe(undefined);
    // 49 orders: the page at 24 reaches as far as the page at 48, which was asked deeper and listed one.
    expect(
      endFullUpTo(
        read(
          { offset: 0, ids: ids(1, 25) },
          { offset: 24, ids: ids(25, 49) },
          { offset: 48, ids: ids(49, 49) },
          { offset: 49, ids: [] },
        ),
        25,
      ),
    ).toBe(undefined);
  });

  it('no empty page: nothing ends the pages yet', () => {
    expect(endFullUpTo(read({ offset: 0, ids: ids(1, 25) }, { offset: 24, ids: ids(25, 49) }), 25)).toBe(undefined);
  });
});
