import pLimit from 'p-limit';
import {
  inUpdateOrder,
  maximumPieces,
  offsetBreaks,
  offsetCoverage,
  type OffsetPage,
  type OrderVersion,
  piecesForFullWindow,
  splitWindow,
  timeOrderedChunks,
  type TimeWindow,
  versionKey,
} from '../domain/orders-window.js';

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
  /** Orders a window may hold and still be read by offset, held whole (default 5,000); above, it is split by time. */
  offsetReadBudget?: number;
}

/**
 * The paths of a scan: a full window read by overlapping offset pages, a page read again further back to repair a
 * break in their chain, a full window split into smaller time windows, a window split because it holds more than
 * the offset budget, a pass over a single crowded millisecond.
 */
export type ScanStep = 'offset-pages' | 'look-back' | 'time-split' | 'budget-split' | 'instant-pass';

/** A small window read whole, with the orders the platform listed in it. */
export interface ScannedWindow<T> {
  window: TimeWindow;
  orders: T[];
}

type Page<T> = { orders: T[]; listed: number };
/** What reading a window gave: its orders in time-ordered windows, or the smaller windows to read instead. */
type Outcome<T> = { scanned: ScannedWindow<T>[] } | { pieces: TimeWindow[] };

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
const defaultOffsetReadBudget = 5_000;

/**
 * Reads every order version in `window` so that none can be skipped (the arguments are in domain/orders-window.ts),
 * handing the orders over in time order, oldest first, a small window at a time, so the caller writes them and
 * moves its cursor as they come: memory holds the windows being read, never the whole catch-up. A window whose
 * first page is not full was read whole; a full one of at most `offsetReadBudget` orders is read by overlapping
 * offset pages until they prove that no unchanged order fell between them (`offsetCoverage`); a larger one is
 * split by time first. Should the proof not come within a budget of extra pages (a store churning faster than it
 * can be read), the window is split into smaller time windows until each fits in one page, which cannot skip either.
 */
export async function* scanWindow<T extends OrderVersion>(
  window: TimeWindow,
  options: ScanOptions<T>,
): AsyncGenerator<ScannedWindow<T>> {
  const scanner = new WindowScanner<T>(options);
  try {
    yield* scanner.inTimeOrder(window);
  } finally {
    // A caller that stops early (a closed pipe, Ctrl-C, a failure) cancels what is still in flight.
    scanner.stop();
  }
}

class WindowScanner<T extends OrderVersion> {
  private readonly abort = new AbortController();
  private readonly limit: <R>(task: () => Promise<R>) => Promise<R>;
  private readonly offsetReads = pLimit(1);
  private readonly concurrency: number;
  private readonly budget: number;
  /** options.observe, or nothing: each path is told in one way, whoever listens. */
  private readonly observe: (step: ScanStep) => void;
  private ordersSeen = 0;
  private widthSeen = 0;
  /** Orders per millisecond from the first large window's bounds, until windows read whole measure it. */
  private provisionalDensity: number | undefined;
  private readonly stopOnSignal = () => this.abort.abort(this.options.signal?.reason);

  constructor(private readonly options: ScanOptions<T>) {
    this.concurrency = Math.max(1, options.concurrency);
    this.budget = Math.max(options.pageSize, options.offsetReadBudget ?? defaultOffsetReadBudget);
    this.limit = pLimit(this.concurrency);
    this.observe = options.observe ?? (() => {});
    options.signal?.addEventListener('abort', this.stopOnSignal, { once: true });
  }

  stop(): void {
    this.abort.abort();
    this.options.signal?.removeEventListener('abort', this.stopOnSignal);
  }

  /**
   * The windows in time order. Up to `concurrency` windows are read ahead of the one being handed over (their
   * requests share the same `concurrency` slots), so memory holds at most that many windows' orders.
   */
  async *inTimeOrder(window: TimeWindow): AsyncGenerator<ScannedWindow<T>> {
    const queue: { window: TimeWindow; outcome?: Promise<Outcome<T>> }[] = [{ window }];
    while (queue.length > 0) {
      for (const entry of queue.slice(0, this.concurrency)) {
        if (entry.outcome) continue;
        entry.outcome = this.read(entry.window);
        // Read ahead: its failure is reported when its turn comes, or never if the scan stops first.
        entry.outcome.catch(() => {});
      }
      const head = queue.shift() as { outcome: Promise<Outcome<T>> };
      const outcome = await head.outcome;
      if ('pieces' in outcome) queue.unshift(...outcome.pieces.map((piece) => ({ window: piece })));
      else yield* outcome.scanned;
    }
  }

  private fetch(part: TimeWindow, offset: number): Promise<Page<T>> {
    return this.limit(() => this.options.fetchPage(part, offset, this.abort.signal));
  }

  private density(): number | undefined {
    return this.widthSeen > 0 ? this.ordersSeen / this.widthSeen : this.provisionalDensity;
  }

  /**
   * A lower bound of the orders in a full window, 0 when it holds no more than the budget: pages at the budget's
   * end, then at 8, 64… times it while they hold orders, so a large window is split into pieces of about the budget
   * at once instead of halving it level by level.
   */
  private async ordersAtLeast(part: TimeWindow): Promise<number> {
    let offset = this.budget;
    let page = await this.fetch(part, offset);
    if (page.listed === 0) return 0;
    for (;;) {
      const further = await this.fetch(part, offset * 8);
      if (further.listed === 0) return offset + page.listed;
      offset *= 8;
      page = further;
    }
  }

  /** One window: read whole when it fits a page or the offset budget; split by time when it holds more. */
  private async read(part: TimeWindow): Promise<Outcome<T>> {
    const first = await this.fetch(part, 0);
    if (first.listed < this.options.pageSize || part.from >= part.to)
      return { scanned: await this.readWhole(part, first) };
    // A page at the budget's end says whether the window holds more orders than may be held at once.
    const atLeast = await this.ordersAtLeast(part);
    if (atLeast > this.budget) {
      const width = part.to - part.from + 1;
      const expected = Math.max(atLeast, width * (this.density() ?? 0));
      this.provisionalDensity ??= expected / width;
      const pieces = Math.min(maximumPieces, Math.max(2, Math.ceil(expected / (this.budget * 0.8))));
      this.observe('budget-split');
      return { pieces: splitWindow(part, pieces) };
    }
    // One offset read at a time (it has every slot to itself): memory holds two such windows at most, the one
    // being handed over and the next.
    const orders = await this.offsetReads(() => this.readByOffset(part, first));
    this.ordersSeen += orders.length;
    this.widthSeen += part.to - part.from + 1;
    // Read whole, so it can be handed over in time order, a few orders at a time, each moving the cursor.
    return { scanned: timeOrderedChunks(part, orders, ordersPerChunk) };
  }

  /** A window split by time until each piece fits in a page (or is one millisecond, read by passes). */
  private async readWhole(part: TimeWindow, firstPage?: Page<T>): Promise<ScannedWindow<T>[]> {
    const page = firstPage ?? (await this.fetch(part, 0));
    if (page.listed < this.options.pageSize) {
      this.ordersSeen += page.orders.length;
      this.widthSeen += part.to - part.from + 1;
      // The listing gives a page newest first by creation: handed over by update instant, as every window is.
      return [{ window: part, orders: inUpdateOrder(page.orders) }];
    }
    if (part.from >= part.to) return [{ window: part, orders: inUpdateOrder(await this.readInstant(part)) }];
    this.observe('time-split');
    const pieces = splitWindow(part, piecesForFullWindow(part, this.density(), this.concurrency));
    return (await Promise.all(pieces.map((piece) => this.readWhole(piece)))).flat();
  }

  /**
   * A single millisecond cannot be split: page through it by offset, and repeat whole passes until one finds no
   * new version. Orders only leave such a window (an update stamps a later time), so a pass during which none
   * left cannot have skipped one.
   */
  private async readInstant(part: TimeWindow): Promise<T[]> {
    const found = new Map<string, T>();
    for (let pass = 0; pass < maximumInstantPasses; pass++) {
      let added = 0;
      this.observe('instant-pass');
      for (let offset = 0; ; offset += this.options.pageSize) {
        const page = await this.fetch(part, offset);
        for (const order of page.orders) {
          const key = versionKey(order);
          if (!found.has(key)) {
            found.set(key, order);
            added++;
          }
        }
        if (page.listed < this.options.pageSize) break;
      }
      if (added === 0 && pass > 0) break;
    }
    return [...found.values()];
  }

  /**
   * A window holding more than a page: read by offset, `concurrency` pages in flight, each page overlapping the one
   * before by an order, until one comes back short; then repaired until the pages prove that no unchanged order
   * was skipped (`repairChain`).
   */
  private async readByOffset(part: TimeWindow, first: Page<T>): Promise<T[]> {
    this.observe('offset-pages');
    const step = Math.max(1, this.options.pageSize - 1);
    const pages: (OffsetPage & { orders: T[] })[] = [];
    const keep = (offset: number, page: Page<T>) =>
      pages.push({
        offset,
        full: page.listed >= this.options.pageSize,
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
        const page = await this.fetch(part, offset);
        keep(offset, page);
        if (page.listed < this.options.pageSize) end = Math.min(end, offset);
      }
    };
    await Promise.all(Array.from({ length: this.concurrency }, worker));
    const fallback = await this.repairChain(part, pages, keep);
    const found = new Map<string, T>();
    for (const order of [...pages.flatMap((page) => page.orders), ...fallback]) found.set(versionKey(order), order);
    return [...found.values()];
  }

  /**
   * Until the pages prove that no unchanged order was skipped (offsetCoverage: a chain of pages sharing orders from
   * the head to a short page), a page just before each break of the chain, in rounds. Churn costs a few pages; a
   * store churning so fast that repairs would double the pages, or never settle, is read by the split by time
   * instead, whose orders are returned.
   */
  private async repairChain(
    part: TimeWindow,
    pages: (OffsetPage & { orders: T[] })[],
    keep: (offset: number, page: Page<T>) => void,
  ): Promise<T[]> {
    const step = Math.max(1, this.options.pageSize - 1);
    const extraAllowed = Math.max(minimumRepairPages, pages.length);
    const halfPage = Math.ceil(this.options.pageSize / 2);
    const attempts = new Map<number, number>();
    let extra = 0;
    for (let round = 0; !offsetCoverage(pages).proven; round++) {
      const breaks = offsetBreaks(pages);
      if (breaks.length === 0 || extra + breaks.length > extraAllowed || round >= maximumRepairRounds)
        return (await this.readWhole(part)).flatMap((piece) => piece.orders);
      extra += breaks.length;
      // Where the last order before the break is now: orders that left the window moved it up, so look half a
      // page before where the next page started, and further back each time the chain still breaks there.
      await Promise.all(
        breaks.map(async (after) => {
          const attempt = attempts.get(after) ?? 0;
          attempts.set(after, attempt + 1);
          const offset = Math.max(0, after + step - halfPage * (attempt + 1));
          this.observe('look-back');
          keep(offset, await this.fetch(part, offset));
        }),
      );
    }
    return [];
  }
}
