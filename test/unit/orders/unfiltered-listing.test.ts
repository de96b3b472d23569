/**
 * The check that the order listing filters by the update-date window asked: answers listing mostly orders updated
 * outside it stop the run at the third (one or two are an index lagging its records); instants without a zone, this
 * machine's guess at the platform's clock, are not judged.
 */
import { describe, expect, it } from 'vitest';
import { UnfilteredListingCheck } from '../../../src/orders/unfiltered-listing.js';
import type { ListedOrder } from '../../../src/platform/answers/orders.js';

const window = { from: Date.parse('2026-11-30T11:00:00.000Z'), to: Date.parse('2026-11-30T11:05:00.000Z') };
const order = (id: number, lastUpdated: string, zonelessInstant?: string) =>
  ({ id, lastUpdated, record: {}, zonelessInstant }) as ListedOrder;
const inside = order(1, '2026-11-30T11:02:00.000Z');
const after = order(2, '2026-11-30T11:05:02.000Z');
const before = order(3, '2026-11-30T10:59:58.000Z');
/** Updated on other days than the window's: what a listing that ignores the window lists besides. */
const nextDay = order(6, '2026-12-01T00:00:00.000Z');
const lastWeek = order(7, '2026-11-23T11:02:00.000Z');

describe('UnfilteredListingCheck', () => {
  it('two answers mostly outside the window pass (an index lagging its records); the third stops the run, exit 69', () => {
    const check = new UnfilteredListingCheck();
    check.note(window, [after, nextDay, before]);
    check.note(window, [lastWeek]);
    expect(() => check.note(window, [before, lastWeek])).toThrow(
      expect.objectContaining({
        exitCode: 69,
        message: expect.stringMatching(
          /does not filter by update date: 3 answers .*order 7 updated 2026-11-23T11:02:00\.000Z/,
        ),
      }),
    );
  });

  it('answers with fewer orders outside than inside, orders within the second the bounds may be widened, or without a zone are not counted', () => {
    const check = new UnfilteredListingCheck();
    const zoneless = order(4, '2026-11-30T14:05:00.000Z', '2026-11-30T14:05:00');
    const widened = order(5, '2026-11-30T11:05:01.000Z');
    expect(() => {
      for (let answer = 0; answer < 10; answer++) {
        check.note(window, [after, inside]);
        check.note(window, [zoneless, zoneless, inside]);
        check.note(window, [widened]);
        check.note(window, []);
      }
    }).not.toThrow();
  });

  it('answers outside the window but within its day (a listing filtered by day) never stop the run; the first is remembered (a user test)', () => {
    const check = new UnfilteredListingCheck();
    const morning = order(8, '2026-11-30T00:00:00.000Z');
    const evening = order(9, '2026-11-30T23:59:59.999Z');
    expect(() => {
      for (let answer = 0; answer < 10; answer++) check.note(window, [morning, evening, after, before]);
    }).not.toThrow();
    expect(check.coarse).toEqual({ asked: window, example: morning });
  });

  it("the day counts in the platform's offset too: 22:00 the day before in UTC is the same day at UTC-3", () => {
    const lateUtc = order(10, '2026-11-30T02:30:00.000Z');
    const dayBeforeUtc = order(11, '2026-11-29T22:00:00.000Z');
    const brasilia = new UnfilteredListingCheck([0, -180]);
    const early = { from: Date.parse('2026-11-30T01:00:00.000Z'), to: Date.parse('2026-11-30T01:05:00.000Z') };
    expect(() => {
      for (let answer = 0; answer < 5; answer++) brasilia.note(early, [lateUtc, dayBeforeUtc]);
    }).not.toThrow();
    const utcOnly = new UnfilteredListingCheck();
    expect(() => {
      for (let answer = 0; answer < 5; answer++) utcOnly.note(early, [lateUtc, dayBeforeUtc]);
    }).toThrow(expect.objectContaining({ exitCode: 69 }));
  });

  it('past the offset a window is read to, answers of its day count: the third stops the run, a line of its own', () => {
    const check = new UnfilteredListingCheck([0], 5000);
    check.note(window, [after, before], 5000);
    check.note(window, [before], 5000);
    expect(() => check.note(window, [after], 5000)).toThrow(
      expect.objectContaining({
        exitCode: 69,
        message: expect.stringMatching(
          /filters by update date only by day \(or hour\), or not at all, and lists more than 5000 orders/,
        ),
      }),
    );
  });
});
