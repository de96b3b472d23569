import { describe, expect, it } from 'vitest';
import {
  cursorAfter,
  listingBounds,
  mayBeListedFrom,
  newVersions,
  outsideListedWindow,
  parseInstantOrDuration,
  piecesForFullWindow,
  platformReadBound,
  rememberedKeyAsRead,
  runWindow,
  splitWindow,
  versionKey,
  versionsToRemember,
  windowUpTo,
} from '../../../src/domain/orders-window.js';

const now = Date.parse('2026-06-01T12:00:00Z');

describe('splitWindow', () => {
  it('tiles the window without gaps or overlaps', () => {
    const pieces = splitWindow({ from: 1000, to: 1999 }, 3);
    expect(pieces).toEqual([
      { from: 1000, to: 1332 },
      { from: 1333, to: 1665 },
      { from: 1666, to: 1999 },
    ]);
  });
  it('never makes more pieces than milliseconds', () => {
    expect(splitWindow({ from: 5, to: 6 }, 10)).toEqual([
      { from: 5, to: 5 },
      { from: 6, to: 6 },
    ]);
    expect(splitWindow({ from: 5, to: 5 }, 4)).toEqual([{ from: 5, to: 5 }]);
  });
});

describe('piecesForFullWindow', () => {
  it('uses the fallback before any density is known, and the density after', () => {
    expect(piecesForFullWindow({ from: 0, to: 999 }, undefined, 8)).toBe(8);
    // 1,000 ms at 0.18 orders/ms: 180 orders, 18 a piece.
    expect(piecesForFullWindow({ from: 0, to: 999 }, 0.18, 8)).toBe(10);
    // A full page means more than a page, even where the density says fewer.
    expect(piecesForFullWindow({ from: 0, to: 999 }, 0.001, 8)).toBe(2);
  });
});

describe('versions', () => {
  it('keys a version by id and instant, whatever the instant’s spelling', () => {
    expect(versionKey({ id: 7, lastUpdated: '2026-06-01T12:00:00Z' })).toBe(
      versionKey({ id: 7, lastUpdated: '2026-06-01T09:00:00.000-03:00' }),
    );
  });
  it('emits a version once and remembers only those inside the look-back', () => {
    const emitted = new Set<string>();
    const orders = [
      { id: 1, lastUpdated: '2026-06-01T11:50:00Z' },
      { id: 1, lastUpdated: '2026-06-01T11:50:00Z' },
      { id: 2, lastUpdated: '2026-06-01T11:59:00Z' },
    ];
    expect(newVersions(orders, emitted)).toHaveLength(2);
    expect(newVersions(orders, emitted)).toHaveLength(0);
    expect(versionsToRemember(emitted, now, 5 * 60_000)).toEqual(['2@2026-06-01T11:59:00.000Z']);
  });
  it.each<[string | number, string | number, boolean]>([
    [7, '000007', true],
    [7, '7', true],
    ['07', '000007', true],
    ['7', '07A', false],
    [7, '7A', false],
    ['A-7', 'A-07', false],
  ])('the ids %j and %j are one order: %s', (one, other, same) => {
    const lastUpdated = '2026-06-01T11:50:00.123Z';
    expect(versionKey({ id: one, lastUpdated }) === versionKey({ id: other, lastUpdated })).toBe(same);
    const emitted = new Set<string>();
    expect(
      newVersions(
        [
          { id: one, lastUpdated },
          { id: other, lastUpdated },
        ],
        emitted,
      ),
    ).toHaveLength(same ? 1 : 2);
  });
  it('reads a remembered key an older b2bctl wrote with the id as listed (000007@…) as versionKey does', () => {
    expect(rememberedKeyAsRead('000007@2026-06-01T11:50:00.000Z#abc')).toBe('7@2026-06-01T11:50:00.000Z#abc');
    expect(rememberedKeyAsRead('07A@2026-06-01T11:50:00.000Z')).toBe('07A@2026-06-01T11:50:00.000Z');
    expect(rememberedKeyAsRead('A@B@2026-06-01T11:50:00.000Z')).toBe('A@B@2026-06-01T11:50:00.000Z');
  });
  it('a version under a coarse stamp remembered by its former digest is not emitted again, and is remembered anew', () => {
    const lastUpdated = '2026-06-01T11:50:00Z';
    const emitted = new Set(['7@2026-06-01T11:50:00.000Z#former']);
    const order = { id: 7, lastUpdated, contentDigest: 'now', formerContentDigest: 'former' };
    expect(newVersions([order], emitted)).toEqual([]);
    expect(emitted.has('7@2026-06-01T11:50:00.000Z#now')).toBe(true);
    expect(newVersions([{ ...order, contentDigest: 'changed', formerContentDigest: 'other' }], emitted)).toHaveLength(
      1,
    );
  });
});

describe('versions whose instant has no zone (read in this machine’s zone, maybe hours off)', () => {
  // Brasília's 08:59 read on a UTC machine: three hours before the 11:59 the platform lists it at.
  const readEarly = '7@2026-06-01T08:59:00.000Z';
  const floor = now - 5 * 60_000;
  const memory = (listedUpTo: number) => ({
    listedUpTo: new Map([[readEarly, listedUpTo]]),
    undecided: new Set<string>(),
  });

  it('are remembered while the window the platform listed them in reaches the next run’s, stretched as it may be', () => {
    // The platform may list up to a millisecond and then a second (orders.timePrecision s) past either bound.
    expect(mayBeListedFrom(readEarly, floor, memory(floor - 2_002))).toBe(true);
    expect(mayBeListedFrom(readEarly, floor, memory(floor - 2_003))).toBe(false);
    expect(versionsToRemember([readEarly], now, 5 * 60_000, memory(now))).toEqual([readEarly]);
    expect(versionsToRemember([readEarly], now, 5 * 60_000)).toEqual([]);
  });

  it('are remembered, whatever their instant, while the run cannot tell where the platform lists them', () => {
    const undecided = { listedUpTo: new Map<string, number>(), undecided: new Set([readEarly]) };
    expect(versionsToRemember([readEarly], now, 5 * 60_000, undecided)).toEqual([readEarly]);
  });

  it('tell a platform of another zone by a window their reading falls outside, stretched as far as it may be', () => {
    const window = { from: now - 60_000, to: now };
    expect(outsideListedWindow(now - 60_000 - 1_001, window)).toBe(false);
    expect(outsideListedWindow(now - 60_000 - 1_002, window)).toBe(true);
    expect(outsideListedWindow(now + 1_001, window)).toBe(false);
    expect(outsideListedWindow(now - 3 * 3_600_000, window)).toBe(true);
  });
});

describe('cursorAfter', () => {
  it('moves over the flushed windows from the first only', () => {
    const windows = [
      { from: 0, to: 9, flushed: true },
      { from: 10, to: 19, flushed: false },
      { from: 20, to: 29, flushed: true },
    ];
    expect(cursorAfter(-1, windows)).toBe(9);
    expect(cursorAfter(-1, [{ from: 0, to: 9, flushed: false }])).toBe(-1);
  });
});

describe('runWindow and --since', () => {
  it('reads durations and ISO instants, and names what is neither', () => {
    expect(parseInstantOrDuration('2h', now)).toBe(now - 7_200_000);
    expect(parseInstantOrDuration('2026-05-01T00:00:00Z', now)).toBe(Date.parse('2026-05-01T00:00:00Z'));
    expect(parseInstantOrDuration('yesterday', now)).toEqual({ problem: expect.stringContaining('"yesterday"') });
  });
  it('starts a look-back before the cursor and stops a lag before now', () => {
    expect(runWindow({ nowMs: now, cursor: now - 60_000, lookbackMs: 300_000, lagMs: 2_000 })).toEqual({
      from: now - 360_000,
      to: now - 2_000,
    });
  });
  it('refuses a future --since, a --since after --until, and a first run without --since', () => {
    expect(runWindow({ nowMs: now, since: now + 1, lookbackMs: 0, lagMs: 0 })).toHaveProperty('problem');
    expect(runWindow({ nowMs: now, since: now - 10, until: now - 20, lookbackMs: 0, lagMs: 0 })).toHaveProperty(
      'problem',
    );
    expect(runWindow({ nowMs: now, lookbackMs: 0, lagMs: 0 })).toEqual({
      problem: expect.stringContaining('needs --since'),
    });
  });
});

const at = (text: string) => Date.parse(text);

describe('listingBounds', () => {
  it('ms: the bounds as they are', () => {
    expect(listingBounds({ from: at('2026-06-01T11:59:59.999Z'), to: at('2026-06-01T12:00:00.001Z') }, 'ms')).toEqual({
      updatedFrom: '2026-06-01T11:59:59.999Z',
      updatedTo: '2026-06-01T12:00:00.001Z',
    });
  });
  it('s: whole seconds, widened outward (lower bound down, upper up), never inward', () => {
    expect(listingBounds({ from: at('2026-06-01T11:59:59.999Z'), to: at('2026-06-01T12:00:00.001Z') }, 's')).toEqual({
      updatedFrom: '2026-06-01T11:59:59Z',
      updatedTo: '2026-06-01T12:00:01Z',
    });
    // A bound already on a whole second stays where it is.
    expect(listingBounds({ from: at('2026-06-01T11:00:00.000Z'), to: at('2026-06-01T12:00:00.000Z') }, 's')).toEqual({
      updatedFrom: '2026-06-01T11:00:00Z',
      updatedTo: '2026-06-01T12:00:00Z',
    });
  });
});

describe('platformReadBound and windowUpTo: a run reads no further than the platform clock less the lag', () => {
  it.each([
    // The Date header names a whole second: its end, less the lag.
    ['2026-06-01T12:00:00Z', 2_000, '2026-06-01T11:59:58.999Z'],
    ['2026-06-01T11:50:00Z', 0, '2026-06-01T11:50:00.999Z'],
  ])('Date %s, lag %d ms: %s', (date, lagMs, bound) => {
    expect(new Date(platformReadBound(at(date), lagMs)).toISOString()).toBe(bound);
  });
  it('a platform in step with this machine never lowers the bound of a run started within the second it names', () => {
    const started = at('2026-06-01T12:00:00.700Z');
    const runTo = started - 2_000;
    expect(platformReadBound(at('2026-06-01T12:00:00Z'), 2_000)).toBeGreaterThanOrEqual(runTo);
  });
  it.each([
    [{ from: 10, to: 20 }, 15, { from: 10, to: 15 }],
    [{ from: 10, to: 20 }, 25, { from: 10, to: 20 }],
    [{ from: 10, to: 20 }, 10, { from: 10, to: 10 }],
    [{ from: 10, to: 20 }, 9, undefined],
  ])('%o up to %d: %o', (part, bound, expected) => {
    expect(windowUpTo(part, bound)).toEqual(expected);
  });
});
