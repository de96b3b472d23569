import {
  offsetBreaks,
  offsetCoverage,
  type OffsetPage,
  type OrderVersion,
  piecesForFullWindow,
  splitWindow,
  timeOrderedChunks,
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
  /** Told each time the scan takes one of its paths; tests count them to show that each path is exercised. */
  observe?: (step: ScanStep) => void;
}

/**
 * The paths of a scan: a full window read by overlapping offset pages, a page read again further back to repair a
 * break in their chain, a window split into smaller time windows, a pass over a single crowded millisecond.
 */
export type ScanStep = 'offset-pages' | 'look-back' | 'time-split' | 'instant-pass';

/** A small window read whole, with the orders the platform listed in it. */
export interface ScannedWindow<T> {
  window: TimeWindow;
  orders: T[];
}

/** Passes over a one-millisecond window that holds more than a page, until one brings nothing new. */
const maximumInstantPasses = 10;
/** Extra pages allowed to repair the chain of an offset read (or as many as it read, if more), and rounds. */
const minimumRepairPages = 32;
const maximumRepairRounds = 8;
/**
 * Orders per window handed to the caller after an offset read, each one a step of the cursor: small, so that a
 * SIGKILL during a long `--detail` or `--out-dir` catch-up costs few re-emits (a step is one fsync and one cursor
 * write when the output is a file).
 */
const ordersPerChunk = 16;

/**
 * Reads every order version in `window` so that none can be skipped (the arguments are in domain/orders-window.ts):
 * a window whose first page is not full was read whole; a full one is read by overlapping offset pages,
 * `concurrency` at a time, until they prove that no unchanged order fell between them (`offsetCoverage`), and
 * handed over in time order, oldest first, so the caller can write them and move its cursor window by window.
 * Should the proof not come within a budget of extra pages (a store churning faster than it can be read), the
 * window is split into smaller time windows until each fits in one page, which cannot skip either.
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
    options.observe?.('time-split');
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
      options.observe?.('instant-pass');
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

  // A window holding more than a page: read by offset, `concurrency` pages in flight, each page overlapping the one
  // before by an order, until one comes back short; then, until the pages prove that no unchanged order was
  // skipped (offsetCoverage: a chain of pages sharing orders from the head to a short page), a page just before
  // each break of the chain, in rounds. Churn costs a few pages; a store churning faster than pages can be read
  // falls back to splitting the window by time.
  const readByOffset = async (part: TimeWindow, first: { orders: T[]; listed: number }): Promise<T[]> => {
    options.observe?.('offset-pages');
    const step = Math.max(1, options.pageSize - 1);
    const pages: (OffsetPage & { orders: T[] })[] = [];
    const keep = (offset: number, page: { orders: T[]; listed: number }) =>
      pages.push({
        offset,
        full: page.listed >= options.pageSize,
        ids: page.orders.map((order) => String(order.id)),
        orders: page.orders,
      });
    keep(0, first);
    let next = step;
    let end = Number.POSITIVE_INFINITY;
    const worker = async () => {
      while (next < end) {
        const offset = next;
        next += step;
        const page = await fetch(part, offset);
        keep(offset, page);
        if (page.listed < options.pageSize) end = Math.min(end, offset);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    // Repairs go in rounds, every break of a round at once; a store churning so fast that they would double the
    // pages, or never settle, is read by the split by time instead, which cannot skip whatever the churn.
    const extraAllowed = Math.max(minimumRepairPages, pages.length);
    const halfPage = Math.ceil(options.pageSize / 2);
    const attempts = new Map<number, number>();
    let extra = 0;
    let fallback: T[] = [];
    for (let round = 0; !offsetCoverage(pages).proven; round++) {
      const breaks = offsetBreaks(pages);
      if (breaks.length === 0 || extra + breaks.length > extraAllowed || round >= maximumRepairRounds) {
        fallback = (await readWhole(part)).flatMap((piece) => piece.orders);
        break;
      }
      extra += breaks.length;
      // Where the last order before the break is now: orders that left the window moved it up, so look half a
      // page before where the next page started, and further back each time the chain still breaks there.
      await Promise.all(
        breaks.map(async (after) => {
          const attempt = attempts.get(after) ?? 0;
          attempts.set(after, attempt + 1);
          const offset = Math.max(0, after + step - halfPage * (attempt + 1));
          options.observe?.('look-back');
          keep(offset, await fetch(part, offset));
        }),
      );
    }
    const found = new Map<string, T>();
    for (const order of [...pages.flatMap((page) => page.orders), ...fallback]) found.set(versionKey(order), order);
    return [...found.values()];
  };

  try {
    const first = await fetch(window, 0);
    if (first.listed < options.pageSize) {
      yield* await readWhole(window, first);
      return;
    }
    const orders = await readByOffset(window, first);
    // Read whole, so it can be handed over in time order, a few orders at a time, each moving the cursor.
    yield* timeOrderedChunks(window, orders, ordersPerChunk);
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
