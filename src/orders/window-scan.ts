import pLimit from 'p-limit';
import { B2bctlError, ExitCode, PlatformError } from '../base/errors.js';
import {
  endFullUpTo,
  inUpdateOrder,
  maximumPieces,
  offsetBreaks,
  offsetCoverage,
  type OffsetPage,
  type OrderVersion,
  piecesForFullWindow,
  readOnOffset,
  splitWindow,
  timeOrderedChunks,
  type TimeWindow,
  versionKey,
} from '../domain/orders-window.js';
import { printable } from '../lib/printable.js';
import { orderKeyOf } from '../domain/order-keys.js';

/**
 * One page of the listing for a time window (`updatedFrom`/`updatedTo`) at an offset: the orders kept, how many
 * entries the platform listed (which says whether the page was full), and the ids of every entry it listed that
 * b2bctl read, kept or not (the orders' ids when not given). A listing that filters by day lists orders outside the
 * window, which are not kept; its pages still share them, and sharing entries is what proves that none was skipped.
 */
export type FetchPage<T> = (
  window: TimeWindow,
  offset: number,
  signal: AbortSignal,
) => Promise<{ orders: T[]; listed: number; ids?: readonly string[]; statedTotal?: number; firstStamp?: string }>;

export interface ScanOptions<T> {
  fetchPage: FetchPage<T>;
  /**
   * The limit asked of the listing (its documented cap, 25): a first page this long starts `concurrency` pages in
   * flight. A shorter page is read on all the same (only an empty page ends a listing).
   */
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

/** `statedTotal`: the whole listing's count its answer states beside the page (`{"data":[…],"total":45}`), if any. */
type Page<T> = { orders: T[]; listed: number; ids?: readonly string[]; statedTotal?: number; firstStamp?: string };

/** The ids a page listed, in its order, each as one order is named (orderKeyOf): what pages are compared by. */
function listedIds<T extends OrderVersion>(page: Page<T>): readonly string[] {
  return page.ids ?? page.orders.map((order) => orderKeyOf(order.id));
}
/** A page with when it was asked and answered, counted in the order of the scan's requests. */
type StampedPage<T> = Page<T> & { asked: number; answered: number };
type OffsetRead<T> = OffsetPage & { orders: T[] };
/** What reading a window gave: its orders in time-ordered windows, or the smaller windows to read instead. */
type Outcome<T> = { scanned: ScannedWindow<T>[] } | { pieces: TimeWindow[] };
/**
 * Why an offset read gave its window up to a split by time: it holds more orders than the budget, or the listing
 * does not page as deep as the window holds (a store limiting how deep its listing pages: `[]` or a 400 there).
 */
type GivenUp = 'over-budget' | 'too-deep';

/**
 * Reads of a window's first page while it comes back empty beside a stated total above 0 (headPage): a spurious empty
 * answer is read right the next time, as the other doubtful pages are read again; one that stays so is no listing.
 */
const maximumHeadReads = 4;
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
export const defaultOffsetReadBudget = 5_000;
/**
 * The listing requests one time window may take (an empty window's one request is not counted): this many, plus one
 * for every `entriesPerRequest` entries its answers listed. A read, however churned, lists several entries a request
 * (pages of 25, or of 10 on a store capping them; a window it cannot prove is split into smaller ones, each with a
 * budget of its own); a window that gains orders as fast as it is read (a platform whose clock is behind stamps the
 * orders it creates and updates meanwhile inside it, on a busy store) is read on one or two at a time for ever, and
 * stops here.
 */
const requestsBeforeBudget = 200;
const entriesPerRequest = 4;

/**
 * Reads every order version in `window` so that none can be skipped (the arguments are in domain/orders-window.ts),
 * handing the orders over in time order, oldest first, a small window at a time, so the caller writes them and
 * moves its cursor as they come: memory holds the windows being read, never the whole catch-up. A window of at
 * most `offsetReadBudget` orders is read by offset pages, on past any short page to an empty one (the only end of a
 * listing), until they prove that no unchanged order fell between them (`offsetCoverage`); a larger one is split by
 * time first. Should the proof not come within a budget of extra pages (a store churning faster than it can be
 * read), the window is split into smaller time windows, each read and proved alike, down to single milliseconds
 * read by passes.
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
  /** Per window read, the ids of its first page and how many further offsets answered them again (heldToPaging). */
  private readonly heads = new Map<string, { ids: string; listed: number; repeats: Set<number> }>();
  /** The run's whole window, and the deepest offset any page of it answered orders at (pagesAsDeepAs). */
  private root: TimeWindow | undefined;
  private deepestAnswered = 0;
  private readonly deepProbes = new Map<number, Promise<boolean>>();
  /** The least offset the store refused (400) when asked only to bound a window (deepPage). */
  private refusedFrom = Number.POSITIVE_INFINITY;
  private ordersSeen = 0;
  private widthSeen = 0;
  /** Requests asked and answered so far, each a tick: whether an empty page was answered before a page was asked. */
  private ticks = 0;
  /** Per window read, the listing requests it took and the entries they listed: its budget (requestsBeforeBudget). */
  private readonly spent = new Map<string, { requests: number; entries: number }>();
  /** Orders per millisecond from the first large window's bounds, until windows read whole measure it. */
  private provisionalDensity: number | undefined;
  private readonly stopOnSignal = () => this.abort.abort(this.options.signal?.reason);

  private readonly options: ScanOptions<T>;
  constructor(options: ScanOptions<T>) {
    this.options = options;

    this.concurrency = Math.max(1, options.concurrency);
    this.budget = Math.max(options.pageSize, options.offsetReadBudget ?? defaultOffsetReadBudget);
    this.limit = pLimit(this.concurrency);
    this.observe = options.observe ?? (() => {});
    options.signal?.addEventListener('abort', this.stopOnSignal, { once: true });
    if (options.signal?.aborted) this.stopOnSignal();
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
    this.root ??= window;
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

  private fetch(part: TimeWindow, offset: number): Promise<StampedPage<T>> {
    return this.limit(async () => {
      // Stopped (Ctrl-C, SIGTERM) or past the budget: no further request, whatever path the scan is on.
      this.abort.signal.throwIfAborted();
      const spent = this.spentOn(part);
      if (spent.requests >= requestsBeforeBudget + spent.entries / entriesPerRequest) throw overBudget(part, spent);
      const asked = ++this.ticks;
      const page = await this.options.fetchPage(part, offset, this.abort.signal);
      // An empty window costs its one request: not counted.
      if (offset > 0 || page.listed > 0) spent.requests++;
      spent.entries += page.listed;
      if (page.listed > 0) this.deepestAnswered = Math.max(this.deepestAnswered, offset);
      this.heldToPaging(part, offset, page);
      return { ...page, asked, answered: ++this.ticks };
    });
  }

  /**
   * A window's first page. Empty, it is an empty window (orders only leave a window while it is read) and costs its
   * one request, unless the same answer states a total above 0 (`{"data":[],"total":45}`): that answer contradicts
   * itself, and taken as an empty window it had the run end "0 new order versions", exit 0, its cursor past every
   * order of a catch-up (a user test). It is read again; still so after `maximumHeadReads` reads, the run fails
   * without moving the cursor over the window, as for an answer that is no page. An empty page stating no total, or
   * a total of 0, is an empty window: nothing says otherwise.
   */
  private async headPage(part: TimeWindow): Promise<StampedPage<T>> {
    for (let reads = 1; ; reads++) {
      const page = await this.fetch(part, 0);
      const total = page.statedTotal ?? 0;
      if (page.listed > 0 || total === 0) return page;
      if (reads >= maximumHeadReads) throw emptyBesideTotal(part, total, reads);
    }
  }

  private spentOn(part: TimeWindow): { requests: number; entries: number } {
    const key = `${part.from} ${part.to}`;
    const spent = this.spent.get(key) ?? { requests: 0, entries: 0 };
    this.spent.set(key, spent);
    return spent;
  }

  /**
   * Stops a read whose listing answers the window's first page again further on, whatever the path (reading on,
   * the look at the budget's end, passes over a millisecond): a platform that ignores the offset would be read for
   * ever, every page ending nowhere. New orders enter at the head and push a page down, but not the same page to
   * two further offsets (five, for a page of one order, which each new order moves down one).
   */
  private heldToPaging(part: TimeWindow, offset: number, page: Page<T>): void {
    // Entries without an id or update instant b2bctl can read tell nothing of where a page starts.
    if (page.listed === 0 || listedIds(page).length === 0) return;
    const key = `${part.from} ${part.to}`;
    const ids = listedIds(page).join(' ');
    const head = this.heads.get(key);
    if (offset === 0) {
      if (head === undefined) this.heads.set(key, { ids, listed: page.listed, repeats: new Set() });
      return;
    }
    if (head === undefined || offset < head.listed || ids !== head.ids) return;
    head.repeats.add(offset);
    if (head.repeats.size >= (head.listed >= 2 ? 2 : 5)) throw notPagingByOffset(offset);
  }

  /** Counts a window read whole into the density that sizes later splits. */
  private measured(part: TimeWindow, orders: number): void {
    this.ordersSeen += orders;
    this.widthSeen += part.to - part.from + 1;
  }

  private density(): number | undefined {
    return this.widthSeen > 0 ? this.ordersSeen / this.widthSeen : this.provisionalDensity;
  }

  /**
   * A lower bound of the orders in a full window, 0 when it holds no more than the budget: pages at the budget's
   * end, then at 8, 64… times it while they hold orders, so a large window is split into pieces of about the budget
   * at once instead of halving it level by level.
   */
  private async ordersAtLeast(part: TimeWindow): Promise<number | undefined> {
    let offset = this.budget;
    const page = await this.deepPage(part, offset);
    if (page === undefined) return undefined;
    if (page.listed === 0) return 0;
    for (let listed = page.listed; ; offset *= 8) {
      const further = await this.deepPage(part, offset * 8);
      if (further === undefined || further.listed === 0) return offset + listed;
      listed = further.listed;
    }
  }

  /**
   * A page past a window's first, at an offset b2bctl chose (to bound its size, to read it on, to look whether the
   * listing answers that deep); undefined when the store refuses that offset with 400: a limit on how deep its listing
   * pages (a user test), whatever the words of its message, and no failure of the listing, whose first page was
   * answered.
   */
  private async deepPage(part: TimeWindow, offset: number): Promise<StampedPage<T> | undefined> {
    // Refused once, refused again: the store's limit is its own, whatever the window.
    if (offset >= this.refusedFrom) return undefined;
    try {
      return await this.fetch(part, offset);
    } catch (error) {
      if (!(error instanceof PlatformError && error.status === 400)) throw error;
      this.refusedFrom = Math.min(this.refusedFrom, offset);
      return undefined;
    }
  }

  /**
   * One window: read by offset when it holds no more than the offset budget (a first page shorter than asked is
   * taken as that); split by time when it holds more.
   */
  private async read(part: TimeWindow): Promise<Outcome<T>> {
    const first = await this.headPage(part);
    if (part.from >= part.to || first.listed === 0) return { scanned: await this.readPiece(part, first) };
    // A page at the budget's end says whether the window holds more orders than may be held at once.
    const full = first.listed >= this.options.pageSize;
    const atLeast = full ? await this.ordersAtLeast(part) : 0;
    // Its size unknown (the store refused the offset asked to bound it): split by time, as a full window that could
    // not be proven is, into pieces its offsets reach.
    if (atLeast === undefined) return this.splitTooDeep(part);
    if (atLeast > this.budget) return this.splitOverBudget(part, atLeast);
    // One offset read at a time (it has every slot to itself): memory holds two such windows at most, the one
    // being handed over and the next. A store whose pages are shorter than asked was not looked at the budget's
    // end: its read stops there, and the look comes then.
    const orders = await this.offsetReads(() => this.readByOffset(part, first, full ? Infinity : this.budget));
    if (orders === 'over-budget')
      return this.splitOverBudget(part, Math.max(this.budget + 1, (await this.ordersAtLeast(part)) ?? 0));
    // Its pieces are read as every window is, each handed over when read: a large window on such a store is never
    // held whole.
    if (orders === 'too-deep') return this.splitTooDeep(part);
    this.measured(part, orders.length);
    // Read whole, so it can be handed over in time order, a few orders at a time, each moving the cursor.
    return { scanned: timeOrderedChunks(part, orders, ordersPerChunk) };
  }

  /**
   * A window the listing does not page as deep as it holds, or whose size it refused to say (a 400 to the look at the
   * budget's end): split by time, as a full window that could not be proven is, into pieces its offsets reach.
   */
  private splitTooDeep(part: TimeWindow): Outcome<T> {
    this.observe('time-split');
    return { pieces: splitWindow(part, piecesForFullWindow(part, this.density(), this.concurrency)) };
  }

  /** A window holding at least `atLeast` orders, more than the budget: pieces of about 80% of it. */
  private splitOverBudget(part: TimeWindow, atLeast: number): Outcome<T> {
    const width = part.to - part.from + 1;
    const expected = Math.max(atLeast, width * (this.density() ?? 0));
    this.provisionalDensity ??= expected / width;
    const pieces = Math.min(maximumPieces, Math.max(2, Math.ceil(expected / (this.budget * 0.8))));
    this.observe('budget-split');
    return { pieces: splitWindow(part, pieces) };
  }

  /** A window read whole: by offset, or by passes when it is one millisecond. */
  private async readPiece(part: TimeWindow, firstPage?: StampedPage<T>): Promise<ScannedWindow<T>[]> {
    if (part.from >= part.to) return [{ window: part, orders: inUpdateOrder(await this.readInstant(part)) }];
    const first = firstPage ?? (await this.headPage(part));
    // An empty first page is an empty window: orders only leave it while it is read.
    const orders = first.listed === 0 ? [] : await this.readByOffset(part, first);
    // Not read whole by offset (its budget is unbounded here, so the listing pages less deep than it holds): by time.
    if (typeof orders === 'string') return [{ window: part, orders: inUpdateOrder(await this.splitByTime(part)) }];
    this.measured(part, orders.length);
    // The listing gives a page newest first by creation: handed over by update instant, as every window is.
    return [{ window: part, orders: inUpdateOrder(orders) }];
  }

  /** A window whose offset pages could not be proven, split by time into pieces each read whole. */
  private async splitByTime(part: TimeWindow): Promise<T[]> {
    if (part.from >= part.to) return this.readInstant(part);
    this.observe('time-split');
    const pieces = splitWindow(part, piecesForFullWindow(part, this.density(), this.concurrency));
    return (await Promise.all(pieces.map((piece) => this.readPiece(piece)))).flatMap((read) =>
      read.flatMap((piece) => piece.orders),
    );
  }

  /**
   * A single millisecond cannot be split: page through it by offset, and repeat whole passes until one finds no
   * new version. Orders only leave such a window (an update stamps a later time), so a pass during which none
   * left cannot have skipped one.
   */
  private async readInstant(part: TimeWindow): Promise<T[]> {
    const found = new Map<string, T>();
    let end: InstantEnd = { offset: 0, fullUpToIt: false };
    for (let pass = 0; pass < maximumInstantPasses; pass++) {
      this.observe('instant-pass');
      const before = found.size;
      end = await this.instantPass(part, found);
      if (found.size === before && pass > 0) break;
    }
    if (end.fullUpToIt && !(await this.pagesAsDeepAs(end.offset, part))) throw instantPastOffsets(part, end);
    return [...found.values()];
  }

  /**
   * One pass over a millisecond, page after page (read on past a short page: only an empty page ends the listing),
   * adding the versions it lists to `found`; where it ended, and whether the pages before were as long as its longest.
   */
  private async instantPass(part: TimeWindow, found: Map<string, T>): Promise<InstantEnd> {
    let longest = 0;
    let last = 0;
    let stamp: string | undefined;
    for (let offset = 0; ; offset += last) {
      let page: Page<T>;
      try {
        page = offset === 0 ? await this.headPage(part) : await this.fetch(part, offset);
      } catch (error) {
        // A 400 to an offset b2bctl chose, where the same window's first page was answered: the store's offset
        // limit (a user test), which leaves the rest of the instant unread as an empty page past it would.
        if (offset > 0 && error instanceof PlatformError && error.status === 400)
          throw instantPastOffsets(part, { offset, stamp }, error);
        throw error;
      }
      for (const order of page.orders) found.set(versionKey(order), found.get(versionKey(order)) ?? order);
      // Full: pages as long as asked, or several as long as the store's cap; one short page was the whole instant.
      const full = last >= longest && (longest >= this.options.pageSize || offset > last);
      if (page.listed === 0) return { offset, fullUpToIt: offset > 0 && full, stamp };
      stamp ??= page.firstStamp;
      longest = Math.max(longest, page.listed);
      last = page.listed;
    }
  }

  /**
   * Whether the listing answers orders at `offset` or deeper: a page of this run did, or the run's whole window, asked
   * there once, does (refused with 400 there, it does not). A store that answers `[]` past an offset limit cannot be
   * told from a window's end by that window's pages alone. `part`, the window whose empty page at `offset` asks: when
   * it is the run's whole window, that page was the look.
   */
  private async pagesAsDeepAs(offset: number, part: TimeWindow): Promise<boolean> {
    if (this.deepestAnswered >= offset || this.root === undefined) return true;
    if (part.from === this.root.from && part.to === this.root.to) return false;
    let probe = this.deepProbes.get(offset);
    if (probe === undefined) {
      probe = this.deepPage(this.root, offset).then((page) => page !== undefined && page.listed > 0);
      this.deepProbes.set(offset, probe);
    }
    return probe;
  }

  /**
   * A page of a window read by offset. Past its first, a 400 is the store's limit on how deep its listing pages
   * (deepPage): thrown as OffsetRefused, which gives the window up to the split by time (readByOffset).
   */
  private async pageAt(part: TimeWindow, offset: number): Promise<StampedPage<T>> {
    if (offset === 0) return this.fetch(part, 0);
    const page = await this.deepPage(part, offset);
    if (page === undefined) throw new OffsetRefused();
    return page;
  }

  /**
   * A window read by offset: `concurrency` pages in flight while they come back as long as asked, each overlapping
   * the one before by an order; then on, a page at a time, past any short page until an empty one; then repaired
   * until the pages prove that no unchanged order was skipped (`repairChain`). Given up when it holds more than
   * `budget` orders, or the listing refuses (400) an offset it needs or ends it where it may only stop paging.
   */
  private async readByOffset(part: TimeWindow, first: StampedPage<T>, budget = Infinity): Promise<T[] | GivenUp> {
    try {
      return await this.pagesOf(part, first, budget);
    } catch (error) {
      if (error instanceof OffsetRefused) return 'too-deep';
      throw error;
    }
  }

  /** readByOffset's pages, read and proven; a refused page past the first thrown as OffsetRefused (pageAt). */
  private async pagesOf(part: TimeWindow, first: StampedPage<T>, budget: number): Promise<T[] | GivenUp> {
    const pages: OffsetRead<T>[] = [];
    const keep = (offset: number, page: StampedPage<T>) =>
      pages.push({
        offset,
        listed: page.listed,
        ids: listedIds(page),
        orders: page.orders,
        asked: page.asked,
        answered: page.answered,
      });
    keep(0, first);
    if (first.listed >= this.options.pageSize) await this.readFullPages(part, keep);
    if (!(await this.readOn(part, pages, keep, budget))) return 'over-budget';
    const fallback = await this.repairChain(part, pages, keep, budget);
    if (typeof fallback === 'string') return fallback;
    const found = new Map<string, T>();
    for (const order of [...pages.flatMap((page) => page.orders), ...fallback]) {
      // The later read of a version wins, but an id spelled otherwise (`7`, then `"000007"`) keeps the first spelling:
      // the order is written as the platform first gave it, never once for each spelling.
      const earlier = found.get(versionKey(order));
      if (earlier === undefined || String(earlier.id) === String(order.id)) found.set(versionKey(order), order);
    }
    return [...found.values()];
  }

  /** Pages as long as asked, `concurrency` in flight, each overlapping the one before by an order, until one is not. */
  private async readFullPages(part: TimeWindow, keep: (offset: number, page: StampedPage<T>) => void): Promise<void> {
    this.observe('offset-pages');
    const step = Math.max(1, this.options.pageSize - 1);
    let next = step;
    let end = Number.POSITIVE_INFINITY;
    const worker = async () => {
      while (next < end) {
        const offset = next;
        next += step;
        // Refused: the pages further on would be too, so none is asked.
        const page = await this.pageAt(part, offset).catch((error: unknown) => {
          end = Math.min(end, offset);
          throw error;
        });
        keep(offset, page);
        if (page.listed < this.options.pageSize) end = Math.min(end, offset);
      }
    };
    await Promise.all(Array.from({ length: this.concurrency }, worker));
  }

  /**
   * Page after page past the furthest one until an empty page ends the listing (`readOnOffset`): a store that caps
   * its pages below the limit asked, or drops an entry it hides from a page, answers short pages before the end. A
   * listing that answers the same page at another offset does not page by offset: stopped, not read for ever.
   * False when the next page would start past `budget` orders: the window is too large to hold, and is split.
   */
  private async readOn(
    part: TimeWindow,
    pages: OffsetRead<T>[],
    keep: (offset: number, page: StampedPage<T>) => void,
    budget: number,
  ): Promise<boolean> {
    for (;;) {
      const offset = readOnOffset(pages, this.options.pageSize);
      if (offset === undefined) return true;
      if (offset > budget) return false;
      const page = await this.pageAt(part, offset);
      // The head page again at two offsets past where it ended: orders leave a window while it is read, moving the
      // rest up, so its orders cannot have moved down there twice: the platform ignores the offset.
      const head = pages[0] as OffsetRead<T>;
      const headIds = head.ids.join(' ');
      const again = (read: { offset: number; ids: readonly string[] }) =>
        read.offset >= head.listed && read.ids.join(' ') === headIds;
      if (head.ids.length >= 2 && again({ offset, ids: listedIds(page) }) && pages.some(again))
        throw notPagingByOffset(offset);
      keep(offset, page);
    }
  }

  /**
   * Until the pages prove that no unchanged order was skipped (offsetCoverage: a chain of pages sharing orders from
   * the head to a page read after the empty page at its end), a page just before each break of the chain, and one
   * at the end, in rounds. Churn costs a few pages; a store churning so fast that repairs would double the pages,
   * or never settle, is read by the split by time instead, whose orders are returned. An empty page a later page
   * contradicts (it listed orders past it) ends nothing: the listing is read on from there (readOn), undefined when
   * that would pass `budget`. Proven to an empty page the pages were full up to, at an offset no page of the listing has
   * been seen to answer orders at, the window is given up as too deep: that page may be where the store stops paging.
   */
  private async repairChain(
    part: TimeWindow,
    pages: OffsetRead<T>[],
    keep: (offset: number, page: StampedPage<T>) => void,
    budget: number,
  ): Promise<T[] | GivenUp> {
    const extraAllowed = Math.max(minimumRepairPages, pages.length);
    const halfPage = Math.ceil(Math.max(2, ...pages.map((page) => page.listed)) / 2);
    const attempts = new Map<number | 'tail', number>();
    const attempt = (key: number | 'tail') => {
      const count = attempts.get(key) ?? 0;
      attempts.set(key, count + 1);
      return count;
    };
    let extra = 0;
    for (let round = 0; !offsetCoverage(pages).proven; round++) {
      const { breaks, tail } = offsetBreaks(pages);
      if (round >= maximumRepairRounds) return this.splitByTime(part);
      if (tail !== undefined && !tail.ended) {
        // The empty page the read stopped at was contradicted: read on from there, and look at the new end afresh.
        if (!(await this.readOn(part, pages, keep, budget))) return 'over-budget';
        attempts.delete('tail');
        continue;
      }
      // Where the last order before the break is now: orders that left the window moved it up, so look half a
      // page before it, and further back each time the chain still breaks there.
      const repairs = breaks.map(({ after, last }) => Math.max(0, last - halfPage * (attempt(after) + 1)));
      // The end, an empty page answered where the listing was read to: its last order again (a page asked after the
      // empty one holds everything to the end), further back while it holds none of ours.
      const ends = tail === undefined ? [] : [Math.max(0, tail.reach - 1 - halfPage * attempt('tail'))];
      const reads = [...repairs, ...ends];
      if (reads.length === 0 || extra + reads.length > extraAllowed) return this.splitByTime(part);
      extra += reads.length;
      const readAt = async (offset: number) => keep(offset, await this.pageAt(part, offset));
      await Promise.all([
        ...repairs.map((offset) => {
          this.observe('look-back');
          return readAt(offset);
        }),
        ...ends.map(readAt),
      ]);
    }
    const end = endFullUpTo(pages, this.options.pageSize);
    return end === undefined || (await this.pagesAsDeepAs(end, part)) ? [] : 'too-deep';
  }
}

/** A page of a window read by offset refused with 400: the store's limit on how deep its listing pages (pageAt). */
class OffsetRefused extends Error {}

/** Where a pass over a millisecond ended: the offset of its empty page, and whether the pages before were full. */
type InstantEnd = { offset: number; fullUpToIt: boolean; stamp?: string };

/**
 * A millisecond (the split's floor: orders sharing one update stamp, such as a batch job's under stamps to the second)
 * whose pages were full up to an empty page, or a refused one, at an offset no page of the listing has been seen to
 * answer: the listing may stop there (a limit on how deep it pages), and no split reaches the orders past it. It
 * ended exit 0, its cursor past every order after the limit, which no later run read (a user test): stopped, exit 69,
 * as for a listing that contradicts itself, the cursor before the instant.
 */
function instantPastOffsets(
  part: TimeWindow,
  { offset, stamp }: { offset: number; stamp?: string },
  refused?: PlatformError,
): B2bctlError {
  // The instant as the listing writes it (a stamp to the second is listed by the millisecond pieces on either side
  // of its own, asked a millisecond wider), else the piece's.
  const instant = stamp === undefined ? new Date(part.from).toISOString() : printable(stamp);
  const how =
    refused === undefined
      ? 'answered no orders'
      : `was refused (HTTP 400${refused.platformMessage === undefined ? '' : `: ${refused.platformMessage}`})`;
  return new B2bctlError(
    `the order listing cannot be read whole at ${instant}: its pages of the orders updated at that instant were full up to offset ${offset}, where it ${how}, and no page of the listing has been seen to answer orders that deep, as when a store limits how deep its listing pages; b2bctl cannot split one instant by time, so it cannot prove it read every order updated then. Stopped before that instant (the cursor does not pass it). Ask the store to list deeper, or move the cursor past ${instant} knowing the orders updated then may not all have been emitted.`,
    ExitCode.unavailable,
  );
}

/** A window whose first page stays empty while its answer states a total above 0 (WindowScanner.headPage). */
function emptyBesideTotal(part: TimeWindow, total: number, reads: number): B2bctlError {
  const window = `${new Date(part.from).toISOString()} … ${new Date(part.to).toISOString()}`;
  return new B2bctlError(
    `the order listing contradicts itself: its first page of the orders updated ${window} lists none while its answer states a total of ${total}, ${reads} times in a row; stopped instead of taking the window as empty (the cursor does not pass this window). Run again later; if it persists, look at the answer with b2bctl api.`,
    ExitCode.unavailable,
  );
}

/** A listing that answers its first page again further on: it does not page by offset, and is not read for ever. */
function notPagingByOffset(offset: number): B2bctlError {
  return new B2bctlError(
    `the order listing answered the same page at offset ${offset} as at offset 0: it does not seem to page by offset; stopped instead of reading it for ever (the cursor does not pass this window).`,
    ExitCode.someRecordsFailed,
  );
}

/**
 * A window the listing changed faster than it could be read: a burst may pass, so `--watch` tries it again after the
 * back-off of a failed cycle.
 */
export class ListingOutrunError extends B2bctlError {}

/**
 * A window past its budget of requests: the listing gains orders inside it as fast as they are read. What was written
 * before it stays, the cursor over it; the next run reads it again.
 */
function overBudget(part: TimeWindow, spent: { requests: number; entries: number }): B2bctlError {
  const window = `${new Date(part.from).toISOString()} … ${new Date(part.to).toISOString()}`;
  return new ListingOutrunError(
    `the order listing changed faster than it could be read: ${spent.requests} listing requests of the orders updated ${window} listed ${spent.entries} entries, fewer than ${entriesPerRequest} a request past the first ${requestsBeforeBudget}, as when orders are created or updated inside the window while it is read (a platform clock behind this machine's stamps them there); stopped instead of reading it for ever (the cursor does not pass this window).`,
    ExitCode.someRecordsFailed,
  );
}
