import { B2bctlError, ExitCode } from '../base/errors.js';
import { outsideListedWindow, type TimeWindow } from '../domain/orders-window.js';
import type { ListedOrder } from '../platform/answers/orders.js';

/**
 * Answers of the listing mostly outside the window asked before the run stops: one or two can be an index that lags
 * its records (an order read after the filter chose it, updated meanwhile); a listing that ignores the window answers
 * so on every request.
 */
const answersBeforeStop = 3;

/**
 * Watches whether the listing filters by the update-date window asked (`updatedFrom`/`updatedTo`). One that ignores
 * it (a gateway dropping the query, a platform naming the parameters otherwise) answers every window with the whole
 * store: the scan, which keeps only the orders inside each window, would split windows and read them again for ever
 * (thousands of requests a minute, nothing emitted). Only instants with a zone are judged: one without is this
 * machine's guess at the platform's clock, which may be hours off.
 */
export class UnfilteredListingCheck {
  private answers = 0;

  /** Notes one answer for `part` (as the scan asked it, before the bounds were widened); throws at the third such. */
  note(part: TimeWindow, orders: readonly ListedOrder[]): void {
    const judged = orders.filter((order) => order.zonelessInstant === undefined);
    const outside = judged.filter((order) => outsideListedWindow(Date.parse(order.lastUpdated), part));
    if (outside.length === 0 || outside.length * 2 <= judged.length) return;
    if (++this.answers < answersBeforeStop) return;
    throw listingIgnoresWindow(part, outside[0] as ListedOrder, this.answers);
  }
}

/**
 * A listing that does not filter by the update-date window: a configuration to fix (what sits between b2bctl and the
 * platform, or `answers.orders.lastUpdated`), which no later run or `--watch` cycle can read past: the watch ends.
 */
export class ListingIgnoresWindowError extends B2bctlError {}

function listingIgnoresWindow(part: TimeWindow, example: ListedOrder, answers: number): B2bctlError {
  const asked = `${new Date(part.from).toISOString()} … ${new Date(part.to).toISOString()}`;
  return new ListingIgnoresWindowError(
    `orders poll: the order listing does not filter by update date: ${answers} answers listed mostly orders updated outside the updatedFrom/updatedTo asked (order ${String(example.id)} updated ${example.lastUpdated} among those asked for ${asked}), so b2bctl cannot tell which orders a window holds and stopped instead of reading it for ever; the cursor does not pass this window. Check that nothing between b2bctl and the platform drops the query (a gateway, a proxy), and that answers.orders.lastUpdated names the field the listing filters by (b2bctl doctor shows an answer).`,
    ExitCode.unavailable,
  );
}
