import type { TimeWindow } from '../domain/orders-window.js';
import type { PlatformClient } from './client.js';

/** An order summary as the listing returns it: the orders webhook's fields (platform-spec.md); others kept as sent. */
export interface OrderSummary {
  id: number | string;
  lastUpdated: string;
  [field: string]: unknown;
}

/** The listing's largest page (platform-spec.md: `limit` at most 25); a page this long may have more behind it. */
export const orderListingPageSize = 25;

export interface OrderListingRequest {
  window: TimeWindow;
  offset: number;
  limit: number;
  statuses: readonly string[];
  signal?: AbortSignal;
}

/**
 * Where the orders are in a listing answer. The platform document does not show the body, so the plausible shapes
 * are recognised: a bare array, or an envelope holding it under `data`, `items`, `orders` or `content`. Anything
 * else is read as an empty page rather than a failure: a 2xx is never turned into an error because of its shape.
 */
export function ordersInListing(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    for (const key of ['data', 'items', 'orders', 'content']) {
      const value = (body as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value;
    }
  }
  return [];
}

/** An order the poller can track: it has an id and a lastUpdated it can read. */
export function isTrackableOrder(value: unknown): value is OrderSummary {
  if (!value || typeof value !== 'object') return false;
  const order = value as Record<string, unknown>;
  return (
    (typeof order.id === 'number' || typeof order.id === 'string') &&
    typeof order.lastUpdated === 'string' &&
    !Number.isNaN(Date.parse(order.lastUpdated))
  );
}

/**
 * One page of the order listing (`paths.orders`) for orders updated inside the window. Listing is a read: repeating
 * it after a reset or a 503 is safe. The raw entries are returned (the caller decides about untrackable ones).
 */
export async function listOrderPage(client: PlatformClient, request: OrderListingRequest): Promise<unknown[]> {
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
  return ordersInListing(body);
}

/** One order's detail (`paths.order`), unchanged; an envelope `{data: {...}}` is unwrapped. */
export async function getOrder(client: PlatformClient, id: string | number, signal?: AbortSignal): Promise<unknown> {
  const { body } = await client.send<unknown>({
    method: 'GET',
    path: client.route('paths.order', { id }),
    safeToRepeat: true,
    signal,
  });
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const data = (body as Record<string, unknown>).data;
    if (data && typeof data === 'object' && !Array.isArray(data) && 'id' in (body as object) === false) return data;
  }
  return body;
}
