import { createHash } from 'node:crypto';

/**
 * Update stamps coarser than a millisecond (docs/orders-poll.md: its bullet on stamps to the second or the minute).
 * A version is `(id, lastUpdated)`: on a platform writing `lastUpdated` to the minute (`2026-11-30T23:04Z`) or to the second, an
 * order updated again within the same stamp after a run (AWAITING_PAYMENT, then CANCELED) keeps its key, and was taken
 * as already emitted by every later run: the cancellation never reached the ERP (a user test). Such versions are told apart
 * by a digest of the listed entry as well.
 */

/** The time of day in an instant's text: hours, minutes, and seconds with their fraction when written. */
const timeOfDay = /\d{2}:\d{2}(?::\d{2}(?:[.,](\d+))?)?/;

const secondMs = 1000;
const minuteMs = 60_000;
const dayMs = 86_400_000;

/**
 * How long an update stamp as the platform wrote it stands for, in milliseconds: 1 for a stamp with milliseconds (or
 * finer); a second for one without a fraction (`…T23:04:53Z`), with a fraction of zeros only (`…T23:04:53.000Z`, a
 * platform padding whole seconds), in epoch seconds or epoch milliseconds of a whole second; a minute for one without
 * seconds (`…T23:04Z`); a day for a date alone. The order was updated somewhere in that span after the stamp.
 */
export function stampSpanMs(written: string | number): number {
  if (typeof written === 'number') return written < 1e11 || written % secondMs === 0 ? secondMs : 1;
  const time = timeOfDay.exec(written);
  if (time === null) return dayMs;
  if (!time[0].includes(':', 3)) return minuteMs;
  const fraction = time[1];
  return fraction === undefined || /^0+$/.test(fraction) ? secondMs : 1;
}

/** Whether two updates within one stamp cannot be told apart by it (stampSpanMs above a millisecond). */
export function stampCoarserThanMillisecond(written: string | number): boolean {
  return stampSpanMs(written) > 1;
}

/**
 * Whether an order stamped at `instant`, updated somewhere in the `spanMs` after it, may lie in `window`: a listing
 * filtering by the true instant lists an order stamped `23:35Z` and updated at 23:35:15 for a window starting at
 * 23:35:14, and it belongs there as far as its stamp can tell (a user test).
 */
export function stampMayLieIn(instant: number, spanMs: number, window: { from: number; to: number }): boolean {
  return instant <= window.to && instant + spanMs - 1 >= window.from;
}

/**
 * How long past its instant a version under a coarse stamp is remembered (the `#` keys of rememberedKeys): a listing
 * filtering by the true instant lists it until that instant leaves the look-back, up to a minute after its stamp.
 */
export const coarseStampMemoryMs = minuteMs;

/**
 * A digest of a listed entry, whatever the order the platform writes its fields in: what tells two versions under
 * one coarse stamp apart. The whole entry, not its status alone: a changed address or total under the same stamp is a
 * change the ERP needs as much.
 */
export function entryDigest(entry: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(withSortedKeys(entry)))
    .digest('base64url')
    .slice(0, 16);
}

function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .toSorted()
      .map((key) => [key, withSortedKeys((value as Record<string, unknown>)[key])]),
  );
}
