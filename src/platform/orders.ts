import type { TimeWindow } from '../domain/orders-window.js';
import {
  orderAnswerSettingsFrom,
  readListedOrder,
  readOrderDetail,
  readOrderListingPage,
  type ListedOrder,
  type OrderAnswerSettings,
} from './answers/orders.js';
import type { PlatformClient } from './client.js';

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
  /** Entries without a readable id or update instant. */
  untrackable: number;
  /** True when the answer held no array b2bctl recognises (read as an empty page). */
  unrecognised: boolean;
}

/** The `answers.orders.*` settings of the client's profile. */
export function orderAnswers(client: PlatformClient): OrderAnswerSettings {
  return orderAnswerSettingsFrom((key) => client.session.get(key));
}

/**
 * One page of the order listing (`paths.orders`) for orders updated inside the window. Listing is a read: repeating
 * it after a reset or a 503 is safe. The shape of the answer is read by answers/orders.ts; an answer whose shape is
 * not recognised is an empty page, never a failure of a 2xx.
 */
export async function listOrderPage(
  client: PlatformClient,
  request: OrderListingRequest,
  settings: OrderAnswerSettings = orderAnswers(client),
): Promise<OrderListingPage> {
  const { body } = await client.send<unknown>({
    method: 'GET',
    path: client.route('paths.orders'),
    query: {
      updatedFrom: new Date(request.window.from).toISOString(),
      updatedTo: new Date(request.window.to).toISOString(),
      limit: request.limit,
      offset: request.offset,
      ...(request.statuses.length > 0 ? { status: [...request.statuses] } : {}),
    },
    safeToRepeat: true,
    signal: request.signal,
  });
  const entries = readOrderListingPage(body, settings);
  if (entries === undefined) return { listed: 0, orders: [], untrackable: 0, unrecognised: true };
  const orders: ListedOrder[] = [];
  for (const entry of entries) {
    const order = readListedOrder(entry, settings);
    if (order) orders.push(order);
  }
  return { listed: entries.length, orders, untrackable: entries.length - orders.length, unrecognised: false };
}

/** One order's detail (`paths.order`) as the platform sends it, out of its envelope when it has one. */
export async function getOrder(
  client: PlatformClient,
  id: string | number,
  signal?: AbortSignal,
  settings: OrderAnswerSettings = orderAnswers(client),
): Promise<unknown> {
  const { body } = await client.send<unknown>({
    method: 'GET',
    path: client.route('paths.order', { id }),
    safeToRepeat: true,
    signal,
  });
  return readOrderDetail(body, settings);
}

/** How many listing pages a lookup by order number reads at most: the 1,000 newest orders. */
export const maximumNumberLookupPages = 40;

/**
 * The ids of orders by their number (`orderId` of the listing, the number buyers see), read from the listing
 * newest first, 25 at a time, and kept: an order of the last few hundred costs one or two requests, and later
 * lookups of a run start where the last one stopped. The listing takes no number filter, so nothing else can ask.
 */
export class OrderNumberIndex {
  private readonly idOfNumber = new Map<string, string>();
  private nextOffset = 0;
  private ended = false;
  private reading: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: PlatformClient,
    private readonly settings: OrderAnswerSettings = orderAnswers(client),
  ) {}

  /** How many orders the index has read: what a failed lookup searched. */
  get searched(): number {
    return this.nextOffset;
  }

  /** The id of the order numbered `number`, or undefined when none of the newest orders has it. */
  async idOf(number: string, signal?: AbortSignal): Promise<string | undefined> {
    // One scan at a time: parallel moves of an update share the pages read.
    const result = this.reading.then(() => this.scanFor(number, signal));
    this.reading = result.catch(() => undefined);
    return result;
  }

  private async scanFor(number: string, signal?: AbortSignal): Promise<string | undefined> {
    const pageLimit = maximumNumberLookupPages * orderListingPageSize;
    while (!this.idOfNumber.has(number) && !this.ended && this.nextOffset < pageLimit) {
      const { body } = await this.client.send<unknown>({
        method: 'GET',
        path: this.client.route('paths.orders'),
        query: { limit: orderListingPageSize, offset: this.nextOffset },
        safeToRepeat: true,
        signal,
      });
      const entries = readOrderListingPage(body, this.settings) ?? [];
      for (const entry of entries) {
        const order = readListedOrder(entry, this.settings);
        if (order && !this.idOfNumber.has(String(order.orderNumber)))
          this.idOfNumber.set(String(order.orderNumber), String(order.id));
      }
      this.nextOffset += entries.length;
      if (entries.length < orderListingPageSize) this.ended = true;
    }
    return this.idOfNumber.get(number);
  }
}
