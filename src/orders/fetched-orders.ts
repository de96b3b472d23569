import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.js';
import { PlatformError } from '../base/errors.js';
import { compareUpdateInstants, readUpdateInstant, updateStampOf } from '../domain/update-instants.js';
import { orderFileName } from '../domain/order-file-name.js';
import { idNamesAnOrder, orderOfEvent, rootIdAsWritten, wholeOrderOf } from '../domain/webhook-events.js';
import { orderIdAsRoutesTakeIt } from '../domain/order-keys.js';
import { writeFileDurably } from '../io/output/durable-file.js';
import { once } from '../lib/once.js';
import { printable } from '../lib/printable.js';
import { removeAbandonedTemporariesIn } from '../lib/private-file.js';
import type { PlatformClient } from '../platform/client.js';
import { orderAnswers, orderDetailBody } from '../platform/orders.js';
import {
  olderDetailInstant,
  type OrderAnswerSettings,
  readListedOrder,
  readOrderDetail,
  showsIdOrNumber,
  unplacedDetailWarning,
} from '../platform/answers/orders.js';
import { eventAsItCame, type EventConsumer, PermanentRefusal } from '../webhook/consumers.js';
import type { StoredEvent } from '../webhook/store/types.js';

/*
 * The writer of `webhook listen --fetch-orders`: each orders event's whole order in the inbox's orders/ folder, one
 * file per order holding its latest version, fetched through the API when the event is a summary.
 */

/** The order's detail through the API; an order the platform does not know (404) is refused for good. */
async function orderDetail(platform: PlatformClient, id: string | number, number?: string | number): Promise<unknown> {
  // As a path segment `.` or `..` would ask another route with the profile's token (pathSegment): no such order.
  if (id === '.' || id === '..')
    throw new PermanentRefusal(`the order id "${id}" names no order the platform can be asked`);
  try {
    // A 2xx that holds no order (no JSON, JSON null, another order's record) is no order to write: thrown, and the
    // event is tried again as after any failure.
    return await orderDetailBody(platform, id, undefined, undefined, number);
  } catch (error) {
    // Retried for --give-up-after, it would hold every later order of the hand-off back for days.
    if (error instanceof PlatformError && error.status === 404)
      throw new PermanentRefusal(`the platform has no order ${String(id)} (HTTP 404)`);
    throw error;
  }
}

/**
 * The order a fetched detail holds, as `orders poll --detail` and `orders get` read it (readOrderDetail): out of a
 * `data`, `order`, `result` or `content` envelope (written whole, the file's own lastUpdated could not be read for the
 * next comparison), or where answers.order.detail points. A detail that shows neither an id nor a number
 * where b2bctl looks (a store's own envelope, `{"pedido":{…}}`) is written as it came, with poll's warning, once a run.
 */
function fetchedOrder(
  body: unknown,
  id: string | number,
  answers: OrderAnswerSettings,
  say: (line: string) => void,
): unknown {
  const order = readOrderDetail(body, answers);
  if (order !== null && typeof order === 'object' && !Array.isArray(order))
    if (!showsIdOrNumber(order as Record<string, unknown>, answers)) say(unplacedDetailWarning(id));
  return order;
}

/**
 * A fetched detail older than the version its simplified event announces (a platform replica lagging behind its
 * webhooks) is refused as a failed fetch: written, the event's news (a cancellation) would never reach the order
 * file, and the event would count as handled (a user test). Thrown, the event is tried again for --give-up-after, so a
 * replica that catches up gives the version announced; then it is a dead letter, as any fetch that keeps failing.
 * The rule is `orders poll --detail`'s for a detail older than listed (olderDetailInstant). An event or a detail
 * whose update instant b2bctl cannot read cannot be compared: the detail goes on as before.
 */
function refuseDetailOlderThanEvent(
  id: string | number,
  event: unknown,
  body: unknown,
  answers: OrderAnswerSettings,
): void {
  // The event in the webhook's own shape (the document's `id` and `lastUpdated`); the detail as the API answers it.
  const announced = readListedOrder(event);
  if (announced === undefined) return;
  const detailUpdated = olderDetailInstant(announced, readOrderDetail(body, answers), answers);
  if (detailUpdated === undefined) return;
  throw new Error(
    `order ${String(id)}'s detail is an older version (updated ${detailUpdated}) than its event announces (updated ${announced.lastUpdated}): a platform replica lagging behind its webhooks; not written`,
  );
}

/**
 * The order number (`orderId`) an orders event names, which the fetched detail must show if it shows one: not a
 * number past 2^53, whose parsed value is another number than the one written (and would refuse the right detail).
 */
function eventOrderNumber(event: unknown): string | number | undefined {
  const number = (event as { orderId?: unknown } | null)?.orderId;
  if (typeof number === 'number') return Number.isSafeInteger(number) ? number : undefined;
  return typeof number === 'string' && number.trim() !== '' ? number : undefined;
}

/** The update stamp of an order as a file or an answer holds it: of the whole order, or at the event's root. */
function stampOfOrder(order: unknown): unknown {
  const record = order !== null && typeof order === 'object' ? (order as Record<string, unknown>) : undefined;
  return updateStampOf([wholeOrderOf(order), record, record?.order, record?.data]);
}

/** A stamp as a log line shows it: as JSON, so `30/11/2026` and the number 1796050000000 read as written. */
function shown(stamp: unknown): string {
  return stamp === undefined ? 'none' : JSON.stringify(stamp);
}

/**
 * What the order file holds against a version about to be written: keep the file, write, write unable to tell, or
 * write over a file whose stamp cannot be read (`unreadable`: the file's stamp as shown).
 */
type FileVersusIncoming =
  { keep: true; why: string } | { keep: false; incomparable?: string; unreadable?: { file: string; incoming: string } };

/**
 * Whether the file keeps the version it holds rather than one stamped `incoming`: when it holds a later one, or when
 * `incoming` cannot be read but the file's stamp can. A version with no stamp b2bctl reads counts as the older of
 * the two, both ways: platforms write `null` or `""` until an order is first changed, so such a file is most often
 * the order's first version, which a readable one replaces (with a line: it was silent); kept, the order would
 * stay at that version for good. Two unreadable stamps cannot be told apart: the later arrival is written, and the
 * caller says so.
 */
function fileVersusIncoming(file: string, incoming: unknown): FileVersusIncoming {
  let kept: unknown;
  try {
    kept = (JSON.parse(readFileSync(file, 'utf8')) as { order?: unknown } | null)?.order;
  } catch {
    return { keep: false };
  }
  const keptStamp = stampOfOrder(kept);
  const keptAt = readUpdateInstant(keptStamp);
  const incomingAt = readUpdateInstant(incoming);
  if (keptAt === undefined && incomingAt !== undefined)
    return { keep: false, unreadable: { file: shown(keptStamp), incoming: shown(incoming) } };
  if (keptAt === undefined)
    return keptStamp === undefined || JSON.stringify(keptStamp) === JSON.stringify(incoming)
      ? { keep: false }
      : { keep: false, incomparable: `${shown(incoming)} and ${shown(keptStamp)}` };
  if (incomingAt === undefined)
    return {
      keep: true,
      why: `its lastUpdated (${shown(incoming)}) is no instant b2bctl reads, and the file's is ${shown(keptStamp)}`,
    };
  return compareUpdateInstants(keptAt, incomingAt) > 0
    ? { keep: true, why: `it is older (lastUpdated ${shown(incoming)}) than the file's (${shown(keptStamp)})` }
    : { keep: false };
}

/**
 * The order's id as the event wrote it: past 2^53 a parsed number names another order (its detail fetched, its file
 * written under a neighbour's id). Read from the event's text at its root; an id that large anywhere else cannot be
 * read exactly, and the event is a dead letter rather than the wrong order's.
 */
function exactOrderId(id: number | string, atRoot: boolean, text: string | undefined): number | string {
  if (typeof id === 'string' || Number.isSafeInteger(id)) return id;
  const written = atRoot && text !== undefined ? rootIdAsWritten(text) : undefined;
  if (written === undefined)
    throw new PermanentRefusal(`the order id ${String(id)} is past 2^53 and its digits cannot be read exactly`);
  return written;
}

/**
 * The order an orders event names (at its root, or in an `order`/`data` envelope, lines or none) and its id
 * as the order routes take it (`"00042"` is order 42). An id that names no order (empty, blank, 0 or below,
 * as the event's key reads it) is never asked: as a path segment "" asked the order listing, whose array became
 * orders/.json, and 0 asked /orders/0. No id at all (absent, null, not a number nor a text) names none either: such
 * an event was counted done, silently, and the ERP reading orders/ never learnt of the order (a user test).
 */
function orderNamedBy(event: StoredEvent): { id: string | number; named: unknown } {
  const named: unknown =
    event.event !== null && typeof event.event === 'object' ? orderOfEvent(event.event) : undefined;
  const parsedId = (named as { id?: unknown } | undefined)?.id;
  if (parsedId === undefined)
    throw new PermanentRefusal('the orders event has no id and names no order the platform can be asked');
  if ((typeof parsedId !== 'number' && typeof parsedId !== 'string') || !idNamesAnOrder(parsedId))
    throw new PermanentRefusal(`the order id ${JSON.stringify(parsedId)} names no order the platform can be asked`);
  return { id: orderIdAsRoutesTakeIt(exactOrderId(parsedId, named === event.event, event.eventJson)), named };
}

/**
 * The file --fetch-orders wrote from this very event (its deliveryId in it), for the ERP's command of the event
 * (B2BCTL_ORDER_FILE); undefined when it wrote none: not an orders event, a fetch that failed, a file kept at a
 * newer version or since replaced by a later event's (whose own command then gets it).
 */
export function orderFileWrittenFor(folder: string, event: StoredEvent): string | undefined {
  if (event.kind !== 'orders') return undefined;
  try {
    const file = join(folder, orderFileName(String(orderNamedBy(event).id)));
    const written = JSON.parse(readFileSync(file, 'utf8')) as { deliveryId?: unknown } | null;
    return written?.deliveryId === event.deliveryId ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Where `--fetch-orders` writes, and the check that the folder is still safe to write orders into. */
export interface FetchedOrdersFolder {
  path: string;
  /** Throws when another user could swap the orders in the folder (a shared inbox folder opened meanwhile). */
  checkSafety: () => void;
}

/**
 * `--fetch-orders`: the full order of each orders event, stored as orders/<id>.json: taken from the event itself when
 * it carries the whole order (the full-payload webhook), else fetched through the API. The hand-off's consumer,
 * beside `orders poll --out-dir`'s writer (order-output.ts), whose file names it shares (domain/order-file-name.ts).
 */
export async function orderFetcher(context: Context, fetched: FetchedOrdersFolder): Promise<EventConsumer> {
  const platform = await context.platform();
  const folder = fetched.path;
  // What a receiver killed mid-write left: never renamed, so never read; removed once here, not at each order. The
  // inbox's lock keeps this receiver the folder's only writer.
  removeAbandonedTemporariesIn(folder);
  const answers = orderAnswers(platform);
  let incomparableSaid = false;
  const saidUnplaced = once(context.log.warn);
  return {
    target: `fetch orders into ${folder}`,
    // One order's fetch that keeps failing (the platform answering 500 for it alone) holds every later order's.
    subjectOf: (event) => {
      if (event.kind !== 'orders') return undefined;
      try {
        return `order ${printable(String(orderNamedBy(event).id))}`;
      } catch {
        return undefined;
      }
    },
    async deliver(event: StoredEvent) {
      if (event.kind !== 'orders') return;
      const whole = wholeOrderOf(event.event);
      const { id, named } = orderNamedBy(event);
      // As it came: the webhook's own shape; a fetched detail out of the platform's envelope, as orders poll writes it.
      const order =
        whole !== undefined
          ? event.event
          : fetchedOrder(await orderDetail(platform, id, eventOrderNumber(named)), id, answers, saidUnplaced);
      if (whole === undefined) refuseDetailOlderThanEvent(id, named, order, answers);
      const file = join(folder, orderFileName(String(id)));
      // An older version that comes after a newer one (the platform's webhooks need not come in order, a replica
      // behind the primary answers an older detail) keeps the file; the event is handled all the same.
      const versus = fileVersusIncoming(file, stampOfOrder(order));
      const source = whole !== undefined ? 'this event' : 'its fetched detail';
      if (versus.keep) {
        context.log.warn(`Order ${String(id)}: ${printable(file)} is kept, not replaced by ${source}: ${versus.why}.`);
        return;
      }
      if (versus.unreadable !== undefined)
        context.log.warn(
          `warning: order ${String(id)}: ${printable(file)} is replaced by ${source} (lastUpdated ${versus.unreadable.incoming}), though its own lastUpdated (${versus.unreadable.file}) is no instant b2bctl reads: a version without a readable stamp counts as the older.`,
        );
      if (versus.incomparable !== undefined && !incomparableSaid) {
        incomparableSaid = true;
        context.log.warn(
          `warning: order ${String(id)}: the lastUpdated stamps ${versus.incomparable} are no instants b2bctl reads (ISO-8601, epoch seconds or milliseconds), so the later arrival was written to ${file}; orders stamped so follow arrival order, not update order (said once).`,
        );
      }
      // Again at each order, not only at start: another user may swap the folder while the receiver runs (a shared
      // inbox folder). Refused, the event waits in the store and is tried again once the folder is safe.
      fetched.checkSafety();
      // A whole order in the event is written from the event's text, not from `order` as parsed: a double would write
      // an id past 2^53 as its neighbour's (the file orders/18014398509481985.json saying order …984) and a 19-digit
      // EAN with other digits (a user test). A fetched detail's numbers are kept by the platform client's reading.
      const orderText = whole !== undefined ? eventAsItCame(event) : JSON.stringify(order);
      writeFileDurably(file, `{"deliveryId":${JSON.stringify(event.deliveryId)},"order":${orderText}}\n`, {
        swept: true,
      });
    },
  };
}
