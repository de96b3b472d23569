/**
 * Listings for the orders scan's tests: orders at given instants, served a page at an offset as the platform does,
 * each request recorded (window and offset) with the scan's steps, so a test can pin what a path costs.
 */
import { scanWindow, type ScanOptions, type ScanStep } from '../../../src/orders/window-scan.js';
import type { TimeWindow } from '../../../src/domain/orders-window.js';
import { PlatformError } from '../../../src/base/errors.js';

export interface Order {
  id: number;
  lastUpdated: string;
}

export const pageSize = 25;

export const range = (count: number, step = 1, start = 0) =>
  Array.from({ length: count }, (_, index) => start + index * step);

/** `count` instants spread evenly over the `width` milliseconds from `from`. */
export const spread = (count: number, from: number, width: number) =>
  Array.from({ length: count }, (_, index) => from + Math.floor((index * width) / count));

/** Orders at the given instants (ms since the epoch), ids from 1. */
export const ordersAt = (instants: number[]): Order[] =>
  instants.map((instant, index) => ({ id: index + 1, lastUpdated: new Date(instant).toISOString() }));

/** A listing that does not change: the orders of a window in time order, then by id, a page at an offset. */
export function stillListing(orders: Order[], options: Partial<ScanOptions<Order>> = {}) {
  const requests: { window: TimeWindow; offset: number }[] = [];
  const steps: ScanStep[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const scan: ScanOptions<Order> = {
    pageSize,
    concurrency: 1,
    observe: (step) => steps.push(step),
    fetchPage: async (window, offset) => {
      requests.push({ window, offset });
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      const page = orders
        .filter((order) => {
          const instant = Date.parse(order.lastUpdated);
          return instant >= window.from && instant <= window.to;
        })
        .toSorted((left, right) => left.lastUpdated.localeCompare(right.lastUpdated) || left.id - right.id)
        .slice(offset, offset + pageSize)
        .map((order) => ({ ...order }));
      return { orders: page, listed: page.length };
    },
    ...options,
  };
  return { scan, requests, steps, mostInFlight: () => mostInFlight };
}

export async function idsRead(window: TimeWindow, scan: ScanOptions<Order>): Promise<number[]> {
  const ids: number[] = [];
  for await (const scanned of scanWindow(window, scan)) ids.push(...scanned.orders.map((order) => order.id));
  return ids;
}

/** The requests made, each as `from-to@offset`. */
export const asked = (requests: { window: TimeWindow; offset: number }[]) =>
  requests.map(({ window, offset }) => `${window.from}-${window.to}@${offset}`);

/**
 * `listing` served as a store that limits how deep its listing pages: pages of at most `cap` entries, and at an offset
 * of `limit` or more `[]` (or, with `refuse`, a 400 naming an offset limit, in a store's words; `refused`, the offsets).
 */
export function depthLimited(
  listing: ReturnType<typeof stillListing>,
  { cap = pageSize, limit, refuse = false }: { cap?: number; limit: number; refuse?: boolean },
) {
  const fetchPage = listing.scan.fetchPage;
  const refused: number[] = [];
  listing.scan.fetchPage = async (window, offset, signal) => {
    if (offset >= limit && refuse) refused.push(offset);
    if (offset >= limit && refuse)
      throw new PlatformError(
        400,
        { method: 'GET', url: `https://store.example/v1/orders?offset=${offset}` },
        {
          mensagem: `offset máximo é ${limit}`,
        },
      );
    if (offset >= limit) return { orders: [], listed: 0 };
    const page = await fetchPage(window, offset, signal);
    return { orders: page.orders.slice(0, cap), listed: Math.min(page.listed, cap) };
  };
  return { ...listing, refused };
}
