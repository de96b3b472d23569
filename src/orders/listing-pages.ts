import type { Context } from '../context.js';
import { stampMayLieIn } from '../domain/coarse-stamps.js';
import { orderKeyOf } from '../domain/order-keys.js';
import { outsideListedWindow, platformReadBound, type TimeWindow, windowUpTo } from '../domain/orders-window.js';
import type { OrderAnswerSettings } from '../platform/answers/orders.js';
import type { PlatformClient } from '../platform/client.js';
import { type ListedOrder, listOrderPage, orderListingPageSize } from '../platform/orders.js';
import type { PollProgress, ZonelessInstantsSeen } from './poll-progress.js';
import { UnfilteredListingCheck } from './unfiltered-listing.js';
import type { FetchPage } from './window-scan.js';

/**
 * How `orders poll` reads the listing for the scan: page by page, no further than the platform's clock allows, each
 * page checked for a listing that ignores the window, each order kept in the one piece it belongs to.
 */

/** The reach of a run's reading, from its settings: the look-back and the lag (PollSettings). */
export interface ListingReach {
  lookbackMs: number;
  lagMs: number;
}

/**
 * The scan's pages of the listing: each piece asked no further than the platform's clock less the lag, once an
 * answer has told it (boundReadAt); an answer asked before that, past it, is asked again up to it (once a run), and a
 * piece wholly past it is empty, the next run's. Every answer is checked for a listing that ignores the window.
 */
export function listingPages(
  { options, context, client, answers }: ListingReader,
  progress: PollProgress,
  settings: ListingReach,
): FetchPage<PolledOrder> {
  // Days as the platform counts them: in UTC, and in this machine's zone, which TZ sets to the platform's (as for --since).
  const windowCheck = new UnfilteredListingCheck([0, -new Date(context.clock.now()).getTimezoneOffset()]);
  return async (part, offset, signal) => {
    for (;;) {
      const piece = windowUpTo(part, progress.readTo());
      if (piece === undefined) return { orders: [], listed: 0 };
      // Asked a millisecond wider at each end: a platform that stamps microseconds (57.5 ms) or compares its bounds
      // exclusively would leave an order between two pieces that meet at whole milliseconds. Each order is kept in
      // the one piece its millisecond falls in, so the pieces still tile.
      const page = await listOrderPage(
        client,
        {
          window: { from: piece.from - 1, to: piece.to + 1 },
          offset,
          limit: orderListingPageSize,
          statuses: options.listingStatuses ?? options.statuses,
          signal,
        },
        answers,
      );
      if (page.platformNow !== undefined) {
        progress.boundReadAt(platformReadBound(page.platformNow, settings.lagMs));
        holdForPlatformClock(progress, page.platformNow, context.clock.now(), settings);
      }
      progress.unreadableDate ??= page.unreadableDate;
      if (progress.readTo() < piece.to) continue;
      progress.noteUnreadable(piece, page.untrackable, page.unrecognised, page.unreadableStamps);
      progress.readableListed += page.orders.length;
      windowCheck.note(piece, page.orders, offset);
      progress.coarseListing ??= windowCheck.coarse;
      // A full page is judged on what the platform sent; only orders inside the piece are kept, so pieces tile.
      // The ids of every order listed, kept or not: pages of a listing filtered by day share them (FetchPage); each
      // as one order is named, so an order a page spells `7` and the next `"000007"` links the two.
      const ids = page.orders.map((order) => orderKeyOf(order.id));
      const kept = keptInPiece(page.orders, piece, progress.zoneless);
      // The first entry's update stamp as written: what a page of one crowded instant names it by (window-scan.ts).
      const firstStamp = page.orders[0]?.lastUpdated;
      return { orders: kept, listed: page.listed, ids, statedTotal: page.statedTotal, firstStamp };
    }
  };
}

/** What reading the listing needs of the run. */
export interface ListingReader {
  options: { statuses: readonly string[]; listingStatuses?: readonly string[] };
  context: Context;
  client: PlatformClient;
  answers: OrderAnswerSettings;
}

/** A listed order, with the window the platform listed it in when its instant has no zone (PollProgress.noteListed). */
export type PolledOrder = ListedOrder & { listedUpTo?: number };

/**
 * The orders of a page of `part` that belong to it: those whose instant falls in it, so that windows tile. An
 * instant without a zone is this machine's guess at the platform's, which may be hours off: the platform's own
 * window is trusted for it (a piece that lists it again is no second version), never a guess that drops it, and
 * kept with it, for the run to remember the version while the platform may list it again.
 */
function keptInPiece(orders: readonly ListedOrder[], part: TimeWindow, zoneless: ZonelessInstantsSeen): PolledOrder[] {
  const kept: PolledOrder[] = [];
  for (const order of orders) {
    const instant = Date.parse(order.lastUpdated);
    if (order.zonelessInstant === undefined) {
      // Under a coarse stamp, kept where any instant of its span lies in the piece: a listing filtering by the true
      // instant lists it only in the piece that holds it, which may start after its stamp (a user test).
      if (stampMayLieIn(instant, order.stampSpanMs ?? 1, part)) kept.push(order);
      continue;
    }
    zoneless.example ??= order.zonelessInstant;
    if (zoneless.elsewhere === undefined && outsideListedWindow(instant, part))
      zoneless.elsewhere = { written: order.zonelessInstant, window: part };
    kept.push({ ...order, listedUpTo: part.to });
  }
  return kept;
}

/**
 * The platform stamps updates by its own clock: one behind ours by more than half the look-back holds the cursor at
 * the platform's now less the lag (PollProgress.holdAt). Within that, the look-back covers the difference.
 */
function holdForPlatformClock(progress: PollProgress, platformNow: number, now: number, settings: ListingReach): void {
  const behindMs = now - platformNow;
  if (behindMs > settings.lookbackMs / 2) progress.holdAt(platformNow - settings.lagMs, behindMs);
  // Ahead, nothing is missed, but an update shows up only once this machine's clock has caught up with its stamp.
  if (-behindMs > Math.max(settings.lagMs, 10_000))
    progress.platformAheadMs = Math.max(progress.platformAheadMs ?? 0, -behindMs);
}
