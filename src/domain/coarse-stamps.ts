import { createHash } from 'node:crypto';

/**
 * Update stamps coarser than a millisecond (docs/orders-poll.md, "Stamps to the second or the minute"). A version is
 * `(id, lastUpdated)`: on a platform writing `lastUpdated` to the minute (`2026-11-30T23:04Z`) or to the second, an
 * order updated again within the same stamp after a run (AWAITING_PAYMENT, then CANCELED) keeps its key, and was taken
 * as already emitted by every later run: the cancellation never reached the ERP (t13-1). Such versions are told apart
 * by a digest of the listed entry as well.
 */

/** The time of day in an instant's text: hours, minutes, and seconds with their fraction when written. */
const timeOfDay = /\d{2}:\d{2}(?::\d{2}(?:[.,](\d+))?)?/;

/**
 * Whether an update stamp as the platform wrote it says less than a millisecond: no fraction of a second (`…T23:04Z`,
 * `…T23:04:53Z`, a date alone), a fraction of zeros only (`…T23:04:53.000Z`, a platform padding whole seconds), epoch
 * seconds, or epoch milliseconds of a whole second. Two updates within one such stamp cannot be told apart by it.
 */
export function stampCoarserThanMillisecond(written: string | number): boolean {
  if (typeof written === 'number') return written < 1e11 || written % 1000 === 0;
  const fraction = timeOfDay.exec(written)?.[1];
  return fraction === undefined || /^0+$/.test(fraction);
}

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
