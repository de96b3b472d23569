/** The pure rules of the orders window, each at its edges (table-driven; the seeded proof is orders-scan.test.ts). */
import { describe, expect, it } from 'vitest';
import {
  cursorAfter,
  maximumPieces,
  newVersions,
  offsetBreaks,
  offsetCoverage,
  parseInstantOrDuration,
  piecesForFullWindow,
  runWindow,
  splitWindow,
  timeOrderedChunks,
  versionKey,
  versionsToRemember,
} from '../../../src/domain/orders-window.js';

const at = (ms: number) => new Date(ms).toISOString();
const order = (id: number, ms: number) => ({ id, lastUpdated: at(ms) });

describe('splitWindow', () => {
  it.each([
    [
      { from: 0, to: 9 },
      2,
      [
        { from: 0, to: 4 },
        { from: 5, to: 9 },
      ],
    ],
    [
      { from: 10, to: 19 },
      3,
      [
        { from: 10, to: 12 },
        { from: 13, to: 15 },
        { from: 16, to: 19 },
      ],
    ],
    [
      { from: 0, to: 2 },
      10,
      [
        { from: 0, to: 0 },
        { from: 1, to: 1 },
        { from: 2, to: 2 },
      ],
    ],
    [{ from: 5, to: 5 }, 4, [{ from: 5, to: 5 }]],
    [{ from: 0, to: 9 }, 0, [{ from: 0, to: 9 }]],
    [
      { from: 0, to: 9 },
      2.9,
      [
        { from: 0, to: 4 },
        { from: 5, to: 9 },
      ],
    ],
  ])('%j in %d pieces', (window, pieces, expected) => {
    expect(splitWindow(window, pieces)).toEqual(expected);
  });
});

describe('piecesForFullWindow', () => {
  it.each([
    ['no density yet: the fallback', undefined, 4, 4],
    ['no density, a fallback of 1: at least 2', undefined, 1, 2],
    ['no density, a huge fallback: at most the maximum', undefined, 1000, maximumPieces],
    ['a density of 0 counts as none', 0, 5, 5],
    ['a negative density counts as none', -1, 5, 5],
    ['a thin density: a full page still means 26 orders, 2 pieces', 0.000_001, 9, 2],
    ['18 orders per piece', 0.1, 9, Math.ceil(100 / 18)],
    ['a dense window: at most the maximum', 10, 9, maximumPieces],
  ])('%s', (_name, density, fallback, pieces) => {
    expect(piecesForFullWindow({ from: 0, to: 999 }, density, fallback)).toBe(pieces);
  });
});

describe('timeOrderedChunks', () => {
  it('cuts after `size` orders at a change of instant, oldest first, tiling the window', () => {
    const orders = [order(3, 30), order(1, 10), order(2, 20), order(4, 40), order(5, 50)];
    expect(timeOrderedChunks({ from: 0, to: 100 }, orders, 2)).toEqual([
      { window: { from: 0, to: 20 }, orders: [order(1, 10), order(2, 20)] },
      { window: { from: 21, to: 40 }, orders: [order(3, 30), order(4, 40)] },
      { window: { from: 41, to: 100 }, orders: [order(5, 50)] },
    ]);
  });

  it('orders of one instant stay together, even past `size`', () => {
    const orders = [order(1, 10), order(2, 10), order(3, 10), order(4, 11)];
    expect(timeOrderedChunks({ from: 0, to: 100 }, orders, 2)).toEqual([
      { window: { from: 0, to: 10 }, orders: [order(1, 10), order(2, 10), order(3, 10)] },
      { window: { from: 11, to: 100 }, orders: [order(4, 11)] },
    ]);
  });

  it('no cut at the window’s upper bound; none for the last order; one window when empty', () => {
    expect(timeOrderedChunks({ from: 0, to: 10 }, [order(1, 10), order(2, 10)], 1)).toEqual([
      { window: { from: 0, to: 10 }, orders: [order(1, 10), order(2, 10)] },
    ]);
    expect(timeOrderedChunks({ from: 0, to: 100 }, [order(1, 5)], 1)).toEqual([
      { window: { from: 0, to: 100 }, orders: [order(1, 5)] },
    ]);
    expect(timeOrderedChunks({ from: 0, to: 100 }, [], 16)).toEqual([{ window: { from: 0, to: 100 }, orders: [] }]);
  });

  it('an order stamped before the window (a late commit) cuts at the window’s start, not before it', () => {
    expect(timeOrderedChunks({ from: 50, to: 100 }, [order(1, 10), order(2, 60)], 1)).toEqual([
      { window: { from: 50, to: 50 }, orders: [order(1, 10)] },
      { window: { from: 51, to: 100 }, orders: [order(2, 60)] },
    ]);
  });
});

describe('versions', () => {
  it('a version key is the id and the instant written one way, or the text when it is no instant', () => {
    expect(versionKey({ id: 7, lastUpdated: '2026-11-20T10:00:00Z' })).toBe('7@2026-11-20T10:00:00.000Z');
    expect(versionKey({ id: 'A', lastUpdated: 'soon' })).toBe('A@soon');
  });

  it('new versions are those not emitted yet, each once', () => {
    const emitted = new Set(['1@1970-01-01T00:00:00.010Z']);
    expect(newVersions([order(1, 10), order(2, 20), order(2, 20), order(1, 11)], emitted)).toEqual([
      order(2, 20),
      order(1, 11),
    ]);
    expect([...emitted].toSorted()).toEqual([
      '1@1970-01-01T00:00:00.010Z',
      '1@1970-01-01T00:00:00.011Z',
      '2@1970-01-01T00:00:00.020Z',
    ]);
  });

  it('remembers the versions at or after the cursor minus the look-back, sorted; never a key without an instant', () => {
    const keys = [`b@${at(1000)}`, `a@${at(999)}`, `c@${at(2000)}`, 'd@soon', `e@x@${at(1500)}`];
    expect(versionsToRemember(keys, 1500, 500)).toEqual([`b@${at(1000)}`, `c@${at(2000)}`, `e@x@${at(1500)}`]);
  });

  it('the cursor moves over the flushed windows from the first, never back', () => {
    const windows = [
      { from: 0, to: 10, flushed: true },
      { from: 11, to: 20, flushed: true },
      { from: 21, to: 30, flushed: false },
      { from: 31, to: 40, flushed: true },
    ];
    expect(cursorAfter(5, windows)).toBe(20);
    expect(cursorAfter(25, windows)).toBe(25);
    expect(cursorAfter(5, [{ from: 0, to: 10, flushed: false }])).toBe(5);
    expect(cursorAfter(5, [])).toBe(5);
  });
});

describe('durations and instants', () => {
  it('an instant or a duration before now; a message naming the text when neither', () => {
    expect(parseInstantOrDuration('2h', 10_000_000)).toBe(10_000_000 - 7_200_000);
    expect(parseInstantOrDuration(' 2026-01-31T12:00:00Z ', 0)).toBe(Date.parse('2026-01-31T12:00:00Z'));
    expect(parseInstantOrDuration('2026-02-31x', 0)).toEqual({
      problem:
        '"2026-02-31x" is neither an ISO-8601 date or date-time (2026-01-31, 2026-01-31T12:00:00Z; local time without Z or an offset) nor a duration (15m, 2h, 7d)',
    });
    // A date alone is its local midnight, as a date-time without a zone is local: one rule for both.
    expect(parseInstantOrDuration('2026-01-31', 0)).toBe(new Date(2026, 0, 31).getTime());
    expect(parseInstantOrDuration('2026-02-31', 0)).toHaveProperty('problem');
    expect(parseInstantOrDuration('31/01/2026', 0)).toHaveProperty('problem');
    expect(parseInstantOrDuration('x2026-01-31', 0)).toHaveProperty('problem');
  });
});

describe('runWindow', () => {
  const base = { nowMs: 100_000, lookbackMs: 5_000, lagMs: 2_000 };

  it.each([
    ['--since: from it to now minus the lag', { since: 10_000 }, { from: 10_000, to: 98_000 }],
    ['the cursor minus the look-back', { cursor: 50_000 }, { from: 45_000, to: 98_000 }],
    ['--since wins over the cursor', { since: 10_000, cursor: 50_000 }, { from: 10_000, to: 98_000 }],
    ['--until before the ceiling bounds it', { since: 10_000, until: 60_000 }, { from: 10_000, to: 60_000 }],
    ['--until past the ceiling does not', { since: 10_000, until: 200_000 }, { from: 10_000, to: 98_000 }],
    ['--since inside the lag: an empty window at --since', { since: 99_000 }, { from: 99_000, to: 99_000 }],
    ['--since now exactly', { since: 100_000 }, { from: 100_000, to: 100_000 }],
    ['--since equal to --until', { since: 50_000, until: 50_000 }, { from: 50_000, to: 50_000 }],
    // A clock set back a little: the look-back still starts the run before now, so nothing is skipped.
    ['a cursor ahead of now by the look-back at most', { cursor: 105_000 }, { from: 100_000, to: 100_000 }],
    ['a floor at now exactly', { cursor: 101_000, floor: 100_000 }, { from: 100_000, to: 100_000 }],
    // --watch, its own cursor after this clock stepped back: the overlap up to the cursor, nothing past it.
    [
      'a cursor ahead further than the look-back, held (--watch)',
      { cursor: 165_000, cursorAhead: 'held' as const },
      { from: 160_000, to: 165_000 },
    ],
    [
      'a floor ahead, held (--watch)',
      { cursor: 101_000, floor: 100_001, cursorAhead: 'held' as const },
      { from: 100_001, to: 101_000 },
    ],
  ])('%s', (_name, input, window) => {
    expect(runWindow({ ...base, ...input })).toEqual(window);
  });

  it.each([
    [{ since: 100_001 }, `--since ${at(100_001)} is in the future`],
    [{ since: 60_000, until: 59_999 }, `--since ${at(60_000)} is after --until ${at(59_999)}`],
    [{}, 'the first run of this profile needs --since (an ISO-8601 date-time or a duration such as 2h)'],
    [
      { cursor: 105_001, cursorFile: '/srv/cur.json' },
      `the orders cursor /srv/cur.json has its "cursor" at ${at(105_001)}, in the future (this machine's clock: ${at(100_000)}), further ahead than orders.lookback reaches back: a run from it would skip every order updated until then; nothing was emitted. If this clock was set back since the cursor was written (an NTP step, a VM restored), run again once it has passed ${at(105_001)}, or poll with --watch, which waits for it; if this clock is right, the file was copied or edited: set its "cursor" to the last instant polled, or move the file aside and run again with --since to choose where to start`,
    ],
    [
      { cursor: 101_000, floor: 100_001, cursorFile: '/srv/cur.json' },
      `the orders cursor /srv/cur.json has its "floor" at ${at(100_001)}, in the future (this machine's clock: ${at(100_000)}), further ahead than orders.lookback reaches back: a run from it would skip every order updated until then; nothing was emitted. If this clock was set back since the cursor was written (an NTP step, a VM restored), run again once it has passed ${at(100_001)}, or poll with --watch, which waits for it; if this clock is right, the file was copied or edited: remove its "floor", or move the file aside and run again with --since to choose where to start`,
    ],
  ])('%j: %s', (input, problem) => {
    expect(runWindow({ ...base, ...input })).toEqual({ problem });
  });
});

describe('edges the mutation run found untested', () => {
  it('pieces follow the width exactly: 36.05 expected orders are 3 pieces of 18, not 2', () => {
    expect(piecesForFullWindow({ from: 0, to: 999 }, 0.036_05, 9)).toBe(3);
  });

  it('an empty head page proves the window read (it was empty) while no page listed orders', () => {
    expect(
      offsetCoverage([
        { offset: 0, listed: 0, ids: [], asked: 1, answered: 2 },
        { offset: 24, listed: 0, ids: [], asked: 3, answered: 4 },
      ]),
    ).toEqual({ proven: true });
    // A page listing orders beside it shows it may be a spurious empty answer (a user test): no proof by itself.
    expect(
      offsetCoverage([
        { offset: 0, listed: 0, ids: [], asked: 1, answered: 2 },
        { offset: 24, listed: 1, ids: ['x'], asked: 3, answered: 4 },
      ]).proven,
    ).toBe(false);
  });

  it('breaks are found in offset order, whatever order the pages were read in (repairs come late)', () => {
    const pages = [
      { offset: 48, listed: 25, ids: ['c', 'c2'], asked: 5, answered: 6 },
      { offset: 0, listed: 25, ids: ['a', 'b'], asked: 1, answered: 2 },
      { offset: 24, listed: 25, ids: ['b', 'c'], asked: 3, answered: 4 },
      { offset: 72, listed: 1, ids: ['d'], asked: 7, answered: 8 },
      { offset: 73, listed: 0, ids: [], asked: 9, answered: 10 },
    ];
    expect(offsetBreaks(pages)).toEqual({ breaks: [{ after: 48, last: 72 }], tail: { reach: 73, ended: true } });
  });

  it.each(['01/31/2026', '2026-01-3', 'on 2026-01-31'])(
    '%j, which Date.parse would read, is no ISO-8601 instant',
    (text) => {
      expect(parseInstantOrDuration(text, 0)).toHaveProperty('problem');
    },
  );

  it('--until without --since, from a cursor: a window, not a message', () => {
    expect(runWindow({ nowMs: 100_000, lookbackMs: 5_000, lagMs: 2_000, cursor: 50_000, until: 60_000 })).toEqual({
      from: 45_000,
      to: 60_000,
    });
  });
});
