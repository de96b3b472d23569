/**
 * The order listing's rules (docs/platform.md, "What the document shows"; docs/orders-poll.md), pure so that the sandbox's route and the
 * randomized proof of the poller's scan (test/unit/domain/orders-scan.test.ts) use the very same semantics:
 * newest first by creation, filtered by creation and update dates (bounds inclusive) and by status, paged by
 * `limit` (default 5, at most 25) and `offset`, an empty array past the end.
 */

/** An order as the listing returns it: the orders webhook's fields. */
export interface OrderSummary {
  id: number;
  orderId: number;
  status: string;
  approvalWorkflow: boolean;
  workflowIsApproved: boolean;
  dateCreated: string;
  lastUpdated: string;
  partnerCompanyName: string;
  partnerDocument: string;
}

export interface OrderListingQuery {
  limit: number;
  offset: number;
  createdFrom?: number;
  createdTo?: number;
  updatedFrom?: number;
  updatedTo?: number;
  statuses: readonly string[];
}

export const defaultListingLimit = 5;
export const maximumListingLimit = 25;

/** Statuses an order moves through; the platform names only AWAITING_PAYMENT, the rest are the sandbox's guess. */
export const orderStatuses = [
  'AWAITING_PAYMENT',
  'PAYMENT_APPROVED',
  'READY_TO_SHIP',
  'SHIPPED',
  'DELIVERED',
  'CANCELED',
] as const;

/** The next status of an order that moves on; a finished order stays where it is. */
export function nextStatus(status: string, cancel: boolean): string {
  if (status === 'DELIVERED' || status === 'CANCELED') return status;
  if (cancel && status !== 'SHIPPED') return 'CANCELED';
  // An invoiced order (a stage the integration sets) ships next.
  if (status === 'INVOICED') return 'SHIPPED';
  const index = orderStatuses.indexOf(status as (typeof orderStatuses)[number]);
  return orderStatuses[Math.min(index + 1, 4)] as string;
}

/**
 * The two instants of an order, parsed once per text: a listing over 10,000 orders parses each of them on every
 * request otherwise (an update keeps the order's object and replaces its lastUpdated text).
 */
const parsedOrders = new WeakMap<
  OrderSummary,
  { createdText: string; created: number; updatedText: string; updated: number }
>();
function instantsOf(order: OrderSummary): { created: number; updated: number } {
  let parsed = parsedOrders.get(order);
  if (parsed === undefined || parsed.createdText !== order.dateCreated || parsed.updatedText !== order.lastUpdated) {
    parsed = {
      createdText: order.dateCreated,
      created: Date.parse(order.dateCreated),
      updatedText: order.lastUpdated,
      updated: Date.parse(order.lastUpdated),
    };
    parsedOrders.set(order, parsed);
  }
  return parsed;
}

/** Listing order: newest creation first; the id breaks ties so pages are stable. */
export function compareByCreationNewestFirst(left: OrderSummary, right: OrderSummary): number {
  const byCreation = instantsOf(right).created - instantsOf(left).created;
  return byCreation !== 0 ? byCreation : right.id - left.id;
}

/** One page of the listing over `orders`, in any order. */
export function listOrders<T extends OrderSummary>(orders: Iterable<T>, query: OrderListingQuery): T[] {
  return pageOfNewestFirst([...orders].toSorted(compareByCreationNewestFirst), query);
}

/**
 * One page of the listing over orders already sorted newest first (the store keeps them so): it stops once the page
 * is full, so a request no longer costs a pass and a sort over every order of the store, which made the sandbox,
 * not the client, the bottleneck of a 10,000-order catch-up.
 */
export function pageOfNewestFirst<T extends OrderSummary>(newestFirst: readonly T[], query: OrderListingQuery): T[] {
  const page: T[] = [];
  let skipped = 0;
  for (const order of newestFirst) {
    if (!matchesQuery(order, query)) continue;
    if (skipped < query.offset) {
      skipped++;
      continue;
    }
    page.push(order);
    if (page.length >= query.limit) break;
  }
  return page;
}

function matchesQuery(order: OrderSummary, query: OrderListingQuery): boolean {
  const { created, updated } = instantsOf(order);
  if (query.createdFrom !== undefined && created < query.createdFrom) return false;
  if (query.createdTo !== undefined && created > query.createdTo) return false;
  if (query.updatedFrom !== undefined && updated < query.updatedFrom) return false;
  if (query.updatedTo !== undefined && updated > query.updatedTo) return false;
  return query.statuses.length === 0 || query.statuses.includes(order.status);
}

const isoInstant = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The listing's query string as a query, or the message a 400 answer carries. */
export function parseListingQuery(raw: Readonly<Record<string, unknown>>): OrderListingQuery | string {
  const query: OrderListingQuery = { limit: defaultListingLimit, offset: 0, statuses: [] };
  for (const [name, minimum] of [
    ['limit', 1],
    ['offset', 0],
  ] as const) {
    const value = first(raw[name]);
    if (value === undefined || value === '') continue;
    if (!/^\d+$/.test(value) || Number(value) < minimum) {
      return `Query parameter [${name}] with value [${value}] must be a whole number of at least ${minimum}`;
    }
    query[name] = Number(value);
  }
  query.limit = Math.min(query.limit, maximumListingLimit);
  for (const name of ['createdFrom', 'createdTo', 'updatedFrom', 'updatedTo'] as const) {
    const value = first(raw[name]);
    if (value === undefined || value === '') continue;
    const instant = Date.parse(value);
    if (!isoInstant.test(value) || Number.isNaN(instant)) {
      return `Query parameter [${name}] with value [${value}] must be an ISO-8601 date-time`;
    }
    query[name] = instant;
  }
  const statuses = raw.status;
  if (statuses !== undefined) {
    query.statuses = (Array.isArray(statuses) ? statuses : [statuses])
      .flatMap((value) => String(value).split(','))
      .filter((value) => value !== '');
  }
  return query;
}

function first(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return String(Array.isArray(value) ? value[0] : value);
}
