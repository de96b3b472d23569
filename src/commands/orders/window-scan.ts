import {
  ordersPerWindowTarget,
  type OrderVersion,
  piecesForFullWindow,
  splitWindow,
  type TimeWindow,
  versionKey,
} from '../../domain/orders-window.js';

/**
 * One page of the listing for a time window (`updatedFrom`/`updatedTo`) at an offset: the orders kept, and how many
 * entries the platform listed (which says whether the page was full).
 */
export type FetchPage<T> = (
  window: TimeWindow,
  offset: number,
  signal: AbortSignal,
) => Promise<{ orders: T[]; listed: number }>;

export interface ScanOptions<T> {
  fetchPage: FetchPage<T>;
  /** The listing's page size (its cap, 25): a page this long is "full". */
  pageSize: number;
  /** Listing requests in flight at once. */
  concurrency: number;
  signal?: AbortSignal;
}

/** A small window read whole, with the orders the platform listed in it. */
export interface ScannedWindow<T> {
  window: TimeWindow;
  orders: T[];
}

/** Passes over a one-millisecond window that holds more than a page, until one brings nothing new. */
const maximumInstantPasses = 10;

/**
 * Reads every order version in `window` so that none can be skipped (the argument is in domain/orders-window.ts):
 * a window whose first page is not full was read whole; a full one is split into smaller time windows, as many as
 * the density seen so far suggests. Small windows are fetched `concurrency` at a time and yielded in time order,
 * oldest first, so the caller can write them and move its cursor window by window.
 */
export async function* scanWindow<T extends OrderVersion>(
  window: TimeWindow,
  options: ScanOptions<T>,
): AsyncGenerator<ScannedWindow<T>> {
  const abort = new AbortController();
  const stop = () => abort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', stop, { once: true });
  const limit = concurrencyLimit(Math.max(1, options.concurrency));
  const fetch = (part: TimeWindow, offset: number) => limit(() => options.fetchPage(part, offset, abort.signal));
  let ordersSeen = 0;
  let widthSeen = 0;
  const density = () => (widthSeen > 0 ? ordersSeen / widthSeen : undefined);

  const readWhole = async (
    part: TimeWindow,
    firstPage?: { orders: T[]; listed: number },
  ): Promise<ScannedWindow<T>[]> => {
    const page = firstPage ?? (await fetch(part, 0));
    if (page.listed < options.pageSize) {
      ordersSeen += page.orders.length;
      widthSeen += part.to - part.from + 1;
      return [{ window: part, orders: page.orders }];
    }
    if (part.from >= part.to) return [{ window: part, orders: await readInstant(part) }];
    const pieces = splitWindow(part, piecesForFullWindow(part, density(), options.concurrency));
    return (await Promise.all(pieces.map((piece) => readWhole(piece)))).flat();
  };

  // A single millisecond cannot be split: page through it by offset, and repeat whole passes until one finds no
  // new version. Orders only leave such a window (an update stamps a later time), so a pass during which none
  // left cannot have skipped one.
  const readInstant = async (part: TimeWindow): Promise<T[]> => {
    const found = new Map<string, T>();
    for (let pass = 0; pass < maximumInstantPasses; pass++) {
      let added = 0;
      for (let offset = 0; ; offset += options.pageSize) {
        const page = await fetch(part, offset);
        for (const order of page.orders) {
          const key = versionKey(order);
          if (!found.has(key)) {
            found.set(key, order);
            added++;
          }
        }
        if (page.listed < options.pageSize) break;
      }
      if (added === 0 && pass > 0) break;
    }
    return [...found.values()];
  };

  // How many orders a full window holds, roughly: probes at growing offsets `concurrency` at a time (a probe that
  // comes back short gives the exact count), then probes spread inside the bracket until it is within an eighth.
  // Only the sizes of the pieces depend on it; which orders are read never does.
  const estimateCount = async (part: TimeWindow): Promise<number> => {
    const batch = Math.max(2, options.concurrency);
    // `low`: a full page proves at least this many; `high`: an empty page proves at most this many.
    const bracket: { low: number; high?: number } = { low: options.pageSize };
    const probe = async (offsets: number[]) => {
      const pages = await Promise.all(offsets.map((offset) => fetch(part, offset)));
      for (const [index, page] of pages.entries()) {
        const offset = offsets[index] as number;
        if (page.listed === 0) bracket.high = Math.min(bracket.high ?? offset, offset);
        else if (page.listed < options.pageSize) return offset + page.listed;
        else bracket.low = Math.max(bracket.low, offset + options.pageSize);
      }
      return undefined;
    };
    let next = options.pageSize;
    while (bracket.high === undefined && next < 1e9) {
      const offsets = Array.from({ length: batch }, (_, index) => next * 2 ** index);
      const exact = await probe(offsets);
      if (exact !== undefined) return exact;
      next = (offsets.at(-1) as number) * 2;
    }
    // Bounded: under churn the answers may contradict each other, and an estimate is all that is needed.
    for (let round = 0; round < 6; round++) {
      const { low, high } = bracket;
      if (high === undefined || high - low <= low / 8) break;
      const step = (high - low) / (batch + 1);
      const exact = await probe(Array.from({ length: batch }, (_, index) => Math.round(low + step * (index + 1))));
      if (exact !== undefined) return exact;
    }
    return Math.round((bracket.low + (bracket.high ?? bracket.low)) / 2);
  };

  try {
    const first = await fetch(window, 0);
    if (first.listed < options.pageSize || window.from >= window.to) {
      yield* await readWhole(window, first);
      return;
    }
    // A catch-up over thousands of orders: estimate how many there are, so the window is cut once into pieces of about
    // `ordersPerWindowTarget` instead of being halved level by level (each level a round trip and a re-read).
    const estimate = await estimateCount(window);
    ordersSeen = estimate;
    widthSeen = window.to - window.from + 1;
    // Top-level pieces are started together (the limit keeps `concurrency` requests in flight) and yielded in order.
    const pieces = splitWindow(window, Math.max(2, Math.ceil(estimate / ordersPerWindowTarget)));
    const reads = pieces.map((piece) => readWhole(piece));
    for (const read of reads) read.catch(() => {});
    for (const read of reads) yield* await read;
  } finally {
    // A caller that stops early (a closed pipe, Ctrl-C, a failure) cancels what is still in flight.
    abort.abort();
    options.signal?.removeEventListener('abort', stop);
  }
}

/** Runs at most `slots` of the given tasks at once, first come first served. */
function concurrencyLimit(slots: number): <R>(task: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A finishing task hands its slot straight to the next waiter, so a newcomer cannot slip in between.
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
