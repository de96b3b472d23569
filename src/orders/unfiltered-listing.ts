import { B2bctlError, ExitCode } from '../base/errors.js';
import { stampMayLieIn } from '../domain/coarse-stamps.js';
import { outsideListedWindow, withinWindowDays, type TimeWindow } from '../domain/orders-window.js';
import type { ListedOrder } from '../platform/answers/orders.js';
import { defaultOffsetReadBudget } from './window-scan.js';

/**
 * Answers of the listing mostly outside the window asked before the run stops: one or two can be an index that lags
 * its records (an order read after the filter chose it, updated meanwhile); a listing that ignores the window answers
 * so on every request.
 */
const answersBeforeStop = 3;

/** An order a listing answered outside the window asked, within the days the window touches (coarse filtering). */
export interface CoarseListing {
  asked: TimeWindow;
  example: ListedOrder;
}

/**
 * Watches whether the listing filters by the update-date window asked (`updatedFrom`/`updatedTo`). One that ignores
 * it (a gateway dropping the query, a platform naming the parameters otherwise) answers every window with the whole
 * store: the scan, which keeps only the orders inside each window, would split windows and read them again for ever
 * (thousands of requests a minute, nothing emitted). Only instants with a zone are judged: one without is this
 * machine's guess at the platform's clock, which may be hours off.
 *
 * A listing that filters by update DATE (or hour) answers a superset of the window bounded by the day(s) it touches:
 * the scan keeps only the orders inside each window, so nothing is emitted twice or skipped and the cursor moves as
 * on any listing; such an answer is not counted, only remembered (`coarse`) for the run to say once. An answer
 * counts towards the stop when it lists mostly orders outside the window and at least one of them on another day
 * (in UTC and in each offset given: the platform's, when known): a listing that ignores the window lists the store.
 */
export class UnfilteredListingCheck {
  private answers = 0;
  /** The first answer that listed orders outside the window but within its days. */
  coarse: CoarseListing | undefined;

  private readonly dayOffsetsMinutes: readonly number[];
  private readonly deepOffset;
  constructor(dayOffsetsMinutes: readonly number[] = [0], deepOffset = defaultOffsetReadBudget) {
    this.dayOffsetsMinutes = dayOffsetsMinutes;
    this.deepOffset = deepOffset;
  }

  /**
   * Notes one answer for `part` (as the scan asked it, before the bounds were widened) at `offset`; throws at the
   * third such. Past `deepOffset` (the most orders the scan reads of a window by offset) an answer mostly outside
   * counts whatever its days: a day listing that long makes the scan split the window, and every piece lists the
   * same day again, for ever.
   */
  note(part: TimeWindow, orders: readonly ListedOrder[], offset = 0): void {
    const judged = orders.filter((order) => order.zonelessInstant === undefined);
    // An order under a coarse stamp (`23:35Z`) is outside only when no instant of its stamp's span is inside.
    const outside = judged.filter((order) => {
      const instant = Date.parse(order.lastUpdated);
      const span = order.stampSpanMs ?? 1;
      return (
        outsideListedWindow(instant, part) &&
        outsideListedWindow(instant + span - 1, part) &&
        !stampMayLieIn(instant, span, part)
      );
    });
    const otherDay = outside.find((order) => !this.withinDays(order, part));
    const sameDay = outside.find((order) => this.withinDays(order, part));
    if (sameDay !== undefined) this.coarse ??= { asked: part, example: sameDay };
    const counted = offset >= this.deepOffset ? (otherDay ?? sameDay) : otherDay;
    if (counted === undefined || outside.length * 2 <= judged.length) return;
    if (++this.answers < answersBeforeStop) return;
    if (counted === otherDay) throw listingIgnoresWindow(part, counted, this.answers);
    throw dayListingTooLong(part, counted, this.deepOffset);
  }

  private withinDays(order: ListedOrder, part: TimeWindow): boolean {
    const instant = Date.parse(order.lastUpdated);
    return this.dayOffsetsMinutes.some((offset) => withinWindowDays(instant, part, offset));
  }
}

/** The line said once a run when the listing filtered coarsely (by day or hour): what it means, and that it is safe. */
export function coarseListingNote({ asked, example }: CoarseListing): string {
  const window = `${new Date(asked.from).toISOString()} … ${new Date(asked.to).toISOString()}`;
  return `warning: orders poll: the order listing filters by update date coarsely (by day or hour): asked for ${window}, it also listed order ${String(example.id)} updated ${example.lastUpdated}. b2bctl keeps only the orders inside each window asked (none is emitted twice or skipped); such a listing costs more requests on a busy day.`;
}

/**
 * A listing that does not filter by the update-date window: a configuration to fix (what sits between b2bctl and the
 * platform, or `answers.orders.lastUpdated`), which no later run or `--watch` cycle can read past: the watch ends.
 */
export class ListingIgnoresWindowError extends B2bctlError {}

/** A listing filtered by day (or one ignoring the window, all of whose orders are of the window's day) too long. */
function dayListingTooLong(part: TimeWindow, example: ListedOrder, deepOffset: number): B2bctlError {
  const asked = `${new Date(part.from).toISOString()} … ${new Date(part.to).toISOString()}`;
  return new ListingIgnoresWindowError(
    `orders poll: the order listing filters by update date only by day (or hour), or not at all, and lists more than ${String(deepOffset)} orders for the window asked (order ${String(example.id)} updated ${example.lastUpdated} among those asked for ${asked}): a smaller window lists the same orders again, so b2bctl stopped instead of reading it for ever; the cursor does not pass this window. Check that nothing between b2bctl and the platform drops the query, and ask the platform for a listing filtered by update instant.`,
    ExitCode.unavailable,
  );
}

function listingIgnoresWindow(part: TimeWindow, example: ListedOrder, answers: number): B2bctlError {
  const asked = `${new Date(part.from).toISOString()} … ${new Date(part.to).toISOString()}`;
  return new ListingIgnoresWindowError(
    `orders poll: the order listing does not filter by update date: ${answers} answers listed mostly orders updated outside the updatedFrom/updatedTo asked (order ${String(example.id)} updated ${example.lastUpdated} among those asked for ${asked}), so b2bctl cannot tell which orders a window holds and stopped instead of reading it for ever; the cursor does not pass this window. Check that nothing between b2bctl and the platform drops the query (a gateway, a proxy), and that answers.orders.lastUpdated names the field the listing filters by (b2bctl doctor shows an answer).`,
    ExitCode.unavailable,
  );
}
