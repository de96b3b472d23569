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

describe('UnfilteredListingCheck', () => {
  it('two answers mostly outside the window pass (an index lagging its records); the third stops the run, exit 69', () => {
    const check = new UnfilteredListingCheck();
    check.note(window, [after, inside, before]);
    check.note(window, [after]);
    expect(() => check.note(window, [before])).toThrow(
      expect.objectContaining({
        exitCode: 69,
        message: expect.stringMatching(
          /does not filter by update date: 3 answers .*order 3 updated 2026-11-30T10:59:58\.000Z/,
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
});
