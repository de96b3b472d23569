import { problemLinesPrinted } from '../bulk/problem-lines.js';
import { versionKey } from '../domain/orders-window.js';
import { countOf } from '../lib/plural.js';
import { printable } from '../lib/printable.js';
import { type OrderAnswerSettings, readOrderStatus } from '../platform/answers/orders.js';
import type { PlatformClient } from '../platform/client.js';
import type { ListedOrder } from '../platform/orders.js';
import type { PendingOrder } from './cursor-file.js';
import { fetchDetails, versionShown } from './order-details.js';
import { FailedDetail } from './failed-detail.js';
import type { OrderSink } from './order-output.js';
import type { PollProgress } from './poll-progress.js';
import type { StatusFilter } from './status-filter.js';

/**
 * The orders pending in the cursor (decision 0046): listed versions whose detail answered an error, which the cursor
 * moved past so that one bad order holds back no other. Every run asks for each again before it reads its window,
 * and writes it once its detail answers; until then it stays pending, named at the end of each run.
 */

/** What asking for the pending orders again needs of the run. */
export interface PendingRun {
  client: PlatformClient;
  sink: OrderSink;
  filter: StatusFilter;
  answers: OrderAnswerSettings;
  concurrency: number;
  saidStampUnread: (line: string) => void;
  warn: (line: string) => void;
  nowMs: number;
}

/** Asks for every pending order's detail again and writes those that answer; resolves to how many were settled. */
export async function writePendingOrders(run: PendingRun, progress: PollProgress): Promise<number> {
  const pending = progress.pendingOrders().map(asListed);
  if (pending.length === 0) return 0;
  const { client, sink, filter, answers } = run;
  const records = await fetchDetails(
    client,
    pending,
    { concurrency: run.concurrency, answers, saidStampUnread: run.saidStampUnread },
    run.warn,
  );
  let settled = 0;
  for (const [index, listed] of pending.entries()) {
    if (sink.closed()) break;
    const record = records[index];
    if (record instanceof FailedDetail) {
      progress.holdPending(listed, record, run.nowMs);
      continue;
    }
    settled++;
    // The version listed is answered by this detail, whichever it is: a window of this run listing it again passes
    // it over, as it does the newer version the detail may be (versionShown).
    progress.emitted.add(versionKey(listed));
    progress.settlePending(listed.id);
    if (!filter.keepShown(listed, readOrderStatus(record))) continue;
    await sink.write(versionShown(listed, record, answers, progress), record);
    progress.written++;
  }
  return settled;
}

/** A pending order as its listing gave it, for its detail to be asked for and written as any listed order's. */
function asListed(order: PendingOrder): ListedOrder {
  const status = readOrderStatus(order.record);
  return {
    id: order.id,
    lastUpdated: order.lastUpdated,
    record: order.record,
    ...(order.orderNumber === undefined ? {} : { orderNumber: order.orderNumber }),
    ...(status === undefined ? {} : { status }),
  };
}

/**
 * One line for each order whose detail failed in this run, the first `problemLinesPrinted` of them: the order, the
 * answer, that nothing of it is lost, and what to do; the rest counted in one line (decision 0036's cap: a store
 * answering 500 to every detail named every order of a catch-up). Returns how many failed.
 */
export function namePendingOrders(progress: PollProgress, runStartMs: number, warn: (line: string) => void): number {
  const failed = [...progress.failedNow.values()];
  for (const { order, failure } of failed.slice(0, problemLinesPrinted)) {
    const id = printable(String(order.id));
    const number = order.orderNumber === undefined ? '' : `number ${printable(String(order.orderNumber))}, `;
    const words = failure.platformMessage === undefined ? '' : ` (${failure.platformMessage})`;
    const since = Date.parse(order.since) < runStartMs ? `, as it has since ${order.since}` : '';
    warn(
      `orders poll: order ${id} (${number}updated ${order.lastUpdated}) was not written: its detail answered HTTP ${failure.status}${words}${since}. It is kept pending in the cursor file: every run asks for it again and writes it once it answers, and the orders around it were written. b2bctl orders get ${id} shows the answer; a detail that keeps failing is the store's to mend.`,
    );
  }
  const unnamed = failed.length - problemLinesPrinted;
  if (unnamed > 0)
    warn(
      `orders poll: and ${countOf(unnamed, 'more orders')} not written, ${unnamed === 1 ? 'its detail' : 'their details'} failing as well; each is kept pending in the cursor file (its "pending" list names them all), and every run asks for them again.`,
    );
  return failed.length;
}

/** The run's closing words when orders are pending, for its exit 1. */
export function pendingSummary(count: number): string {
  const named =
    count === 1
      ? 'its detail failing: named above'
      : `their details failing: ${count > problemLinesPrinted ? `the first ${problemLinesPrinted} named above` : 'each named above'}`;
  return `orders poll: ${countOf(count, 'orders')} pending (${named}); the cursor keeps ${count === 1 ? 'it' : 'them'}, and the next run asks again.`;
}
