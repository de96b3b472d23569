import { createHash } from 'node:crypto';
import { listingBounds, type TimeWindow } from '../domain/orders-window.js';
import {
  detailHoldsNoOrder,
  detailNotTheOrder,
  orderAnswerSettingsFrom,
  orderListingNotAPage,
  readListedOrder,
  readOrderDetail,
  readOrderListingPage,
  unreadableUpdateStamp,
  updateStampPaths,
  type ListedOrder,
  type OrderAnswerSettings,
} from './answers/orders.js';
import { ExitCode, PlatformError } from '../base/errors.js';
import { NotAListingPage, statedListingTotal } from './answers/listing.js';
import { type PlatformClient, quotedBodyOf } from './client.js';
import { heldSlashAdvice } from './encoded-slash.js';

export type { ListedOrder } from './answers/orders.js';

/** The listing's largest page (docs/platform.md: `limit` at most 25); a page this long may have more behind it. */
export const orderListingPageSize = 25;

export interface OrderListingRequest {
  window: TimeWindow;
  offset: number;
  limit: number;
  statuses: readonly string[];
  signal?: AbortSignal;
}

/** One listing page as read: the orders b2bctl can track, and what it could not read. */
export interface OrderListingPage {
  /** Entries the platform listed (a full page says more may follow, whatever we could read of them). */
  listed: number;
  orders: ListedOrder[];
  /**
   * Entries without a readable id or update instant, each as a fingerprint of its JSON: the scan reads a page more
   * than once (its first page, overlapping pages), and the same entry read again must be counted once.
   */
  untrackable: string[];
  /**
   * Of those, the entries whose update stamp is there but no instant b2bctl reads (`30/11/2026 14:22:18`), by
   * fingerprint, with the field, its value as written and the entry's id: no setting reads them, and the warning
   * quotes one.
   */
  unreadableStamps: UnreadableStamp[];
  /**
   * The whole listing's count the answer states beside its page (`{"data":[],"total":45}`), when it states one: an
   * empty first page beside a total above 0 contradicts itself (orders/window-scan.ts).
   */
  statedTotal?: number;
  /** True when the answer held no array b2bctl recognises (read as an empty page). */
  unrecognised: boolean;
  /** The platform's clock when it answered (its `Date` header), when it said it. */
  platformNow?: number;
  /** A `Date` header that is no HTTP date, as it came: no platform clock is read from it. */
  unreadableDate?: string;
}

/** The `answers.orders.*` settings of the client's profile. */
export function orderAnswers(client: PlatformClient): OrderAnswerSettings {
  const statusWords = client.session.get('answers.order.statusWords');
  const settings = orderAnswerSettingsFrom((key) => client.session.get(key));
  return statusWords === undefined ? settings : { ...settings, statusWords };
}

/**
 * One page of the order listing (`paths.orders`) for orders updated inside the window, its bounds written as
 * `orders.timePrecision` says (whole seconds widen it). Listing is a read: repeating it after a reset or a 503 is
 * safe. The shape of the answer is read by answers/orders.ts; an answer whose shape is not recognised is an empty
 * page, never a failure of a 2xx; one that is no page at all (an error answered with 200) is NotAListingPage.
 */
export async function listOrderPage(
  client: PlatformClient,
  request: OrderListingRequest,
  settings: OrderAnswerSettings = orderAnswers(client),
): Promise<OrderListingPage> {
  const precision = client.session.get('orders.timePrecision');
  const path = client.route('paths.orders');
  const query = {
    ...listingBounds(request.window, precision),
    limit: request.limit,
    offset: request.offset,
    ...(request.statuses.length > 0 ? { status: [...request.statuses] } : {}),
  };
  const answer = await client
    .send<unknown>({
      method: 'GET',
      path,
      query,
      safeToRepeat: true,
      signal: request.signal,
    })
    .catch((error: unknown) => {
      // Only at offset 0: a 400 to a deeper offset (one b2bctl chose) comes after the same bounds were taken, and is
      // about the offset (a store's limit on how deep it pages), which the setting does not change (a user test).
      throw precision === 'ms' && request.offset === 0 && error instanceof PlatformError && error.status === 400
        ? new OrderListingRefused(error)
        : error;
    });
  const { status, body, date, unreadableDate } = answer;
  // An error answered with 200 (`{"success":false,…}`, `{"totalElements":"40"}`) stops the run: read as an empty
  // page, it would end the listing and move the cursor past every order not read. So does text where JSON belongs (a
  // gateway's "maintenance" page), which no answers.orders.items can find a list in, as for sellers list: it was read
  // as an empty page, the run green every minute of the outage, its advice pointing at a setting (a user test).
  const notAPage = typeof body === 'string' ? 'it is text, not JSON' : orderListingNotAPage(body, settings);
  if (notAPage !== undefined)
    throw new NotAListingPage(
      status,
      client.http.urlFor(path, query).toString(),
      quotedBodyOf(answer),
      notAPage,
      'orders',
    );
  const clock = {
    ...(date === undefined ? {} : { platformNow: date }),
    ...(unreadableDate === undefined ? {} : { unreadableDate }),
  };
  const entries = readOrderListingPage(body, settings);
  if (entries === undefined)
    return { listed: 0, orders: [], untrackable: [], unreadableStamps: [], unrecognised: true, ...clock };
  const orders: ListedOrder[] = [];
  const untrackable: string[] = [];
  const unreadableStamps: UnreadableStamp[] = [];
  for (const entry of entries) {
    const order = readListedOrder(entry, settings);
    if (order) {
      orders.push(order);
      continue;
    }
    const fingerprint = entryFingerprint(entry);
    untrackable.push(fingerprint);
    const stamp = unreadableUpdateStamp(entry, updateStampPaths(settings));
    if (stamp !== undefined)
      unreadableStamps.push({ fingerprint, field: stamp.path, value: stamp.value, id: idOf(entry) });
  }
  const statedTotal = statedListingTotal(body);
  return {
    listed: entries.length,
    orders,
    untrackable,
    unreadableStamps,
    unrecognised: false,
    ...clock,
    ...(statedTotal === undefined ? {} : { statedTotal }),
  };
}

/** A listed entry whose update stamp is there but no instant b2bctl reads. */
export interface UnreadableStamp {
  fingerprint: string;
  field: string;
  value: unknown;
  /** The entry's `id` as written, when it has one. */
  id?: unknown;
}

function idOf(entry: unknown): unknown {
  return entry !== null && typeof entry === 'object' && !Array.isArray(entry)
    ? (entry as Record<string, unknown>).id
    : undefined;
}

/** A short digest of an entry's JSON: a run may meet many unreadable entries, and remembers only these. */
function entryFingerprint(entry: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(entry) ?? 'undefined')
    .digest('base64url')
    .slice(0, 22);
}

/**
 * A 400 to the listing while its bounds carry milliseconds. The platform document says only "ISO-8601", and a platform
 * parsing them to the second refuses milliseconds: the error names the setting that sends whole seconds, as a
 * possibility, whatever the platform's words (which b2bctl does not read, so a 400 for another reason says it too).
 */
export class OrderListingRefused extends PlatformError {
  constructor(refused: PlatformError) {
    super(refused.status, refused.request, refused.body);
    this.message = `${refused.message} (if the platform takes updatedFrom and updatedTo to the second only: b2bctl config set orders.timePrecision s)`;
  }
}

/**
 * One order's detail (`paths.order`) as the platform sends it, out of its envelope when it has one. `listedNumber`:
 * the order's number where the caller knows it (a listing entry, a number looked up), which a detail showing another
 * number is refused for.
 */
export async function getOrder(
  client: PlatformClient,
  id: string | number,
  signal?: AbortSignal,
  settings: OrderAnswerSettings = orderAnswers(client),
  listedNumber?: string | number,
): Promise<unknown> {
  return readOrderDetail(await orderDetailBody(client, id, signal, settings, listedNumber), settings);
}

/**
 * One order's detail answer as it came (envelope and all). A 2xx that holds no order is UnreadableOrderDetail, never
 * handed on to be written as the order: one without JSON (an empty body, plain text), JSON that is no object (`null`,
 * `[]`, `42`: a gateway's answer for a record it could not load), another order's record (a caching gateway's
 * mix-up: written in this order's place, this order would never be written), or, showing no id nor number, an empty
 * envelope (`{"data":null}`) or an answer that says it failed (detailHoldsNoOrder).
 */
export async function orderDetailBody(
  client: PlatformClient,
  id: string | number,
  signal?: AbortSignal,
  settings: OrderAnswerSettings = orderAnswers(client),
  listedNumber?: string | number,
) {
  const path = client.route('paths.order', { id });
  const slashAdvice = heldSlashAdvice(`the order id "${String(id)}"`);
  const { status, body } = await client.send<unknown>({ method: 'GET', path, safeToRepeat: true, signal, slashAdvice });
  const instead =
    body === undefined || typeof body === 'string'
      ? unreadableBody(body)
      : (detailNotTheOrder(readOrderDetail(body, settings), { id, number: listedNumber }, settings) ??
        detailHoldsNoOrder(body, settings));
  if (instead !== undefined) throw new UnreadableOrderDetail(status, client.http.urlFor(path).toString(), instead);
  return body;
}

/** What came in place of JSON: `an empty body`, `a body that is not JSON`. */
function unreadableBody(body: string | undefined): string {
  return body === undefined || body.trim() === '' ? 'an empty body' : 'a body that is not JSON';
}

/**
 * A 2xx to an order's detail that holds no order to write. A PlatformError of the answer's status (as any 2xx whose
 * shape b2bctl cannot read): a check of an order's status reads it as an order it could not see. Its exit code is
 * 69, as for a proxy's page in the platform's place: the platform did not give the order, whatever the status said.
 */
export class UnreadableOrderDetail extends PlatformError {
  override readonly exitCode: ExitCode = ExitCode.unavailable;
  /** What came instead of the order, for a warning: `an empty body`, `JSON null`, `the record of another order (id 8)`. */
  readonly instead: string;
  constructor(status: number, url: string, instead: string) {
    super(status, { method: 'GET', url }, `the order's detail came as ${instead}, not the order's JSON`);
    this.instead = instead;
  }
}
