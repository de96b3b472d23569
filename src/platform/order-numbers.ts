import { B2bctlError, ExitCode, PlatformError } from '../base/errors.js';
import { orderKeyOf, orderNumberValueOf } from '../domain/order-keys.js';
import { orderAnswers, orderListingPageSize } from './orders.js';
import {
  orderListingNotAPage,
  readListedOrder,
  readOrderListingPage,
  type OrderAnswerSettings,
} from './answers/orders.js';
import { NotAListingPage } from './answers/listing.js';
import { lastPageAgainLine, watchForRepeatedPages } from './answers/repeated-pages.js';
import { type PlatformClient, quotedBodyOf } from './client.js';

/** What a search by number found: the order's id, or (when no order has the number) what the search saw. */
export type NumberSearch = { id: string; searched?: undefined } | { id?: undefined; searched: string };

/** How many pages of a full read go by between two progress lines: 1,000 orders. */
const progressEveryPages = 40;

/**
 * The furthest offset a search asks: 2^31 - 1, the largest a 32-bit whole number (a listing's usual offset type)
 * holds. A listing holding orders past it does not page by offset (nor does it end): the search stops there, which
 * the gallop reaches in about 27 requests.
 */
export const furthestSearchedOffset = 2 ** 31 - 1;

/**
 * One pass of a search (its bisection, or its full read): the number sought, and the pages read, compared as the
 * other listing readers compare them (repeated-pages.ts). A listing that ignores the offset answers the same page
 * wherever it is asked, and stops the search: a page of one order at its fifth answer again in a row (each order
 * created meanwhile moves it down one); a larger page answered again by the next read of a full read, or by the next
 * two reads of a bisection, whose jumps of 25 orders or more a busy store can match once by the orders it takes.
 */
interface SearchPass {
  target: bigint;
  repeatOf: ReturnType<typeof watchForRepeatedPages>;
}

function searchPass(target: bigint, kind: 'bisection' | 'full read'): SearchPass {
  // A full read goes page after page, as `sellers list --all` and `api --paginate` do, and ends as they do at a last
  // page answered again whole at the next offset (a route that clamps the offset): read as the listing's end, with
  // their warning, where it was read as orders created as fast as it is read, five requests more and exit 1. Not a
  // bisection: its step back to the offset after a page is met, in a busy store, by the page moved down that far.
  if (kind === 'full read') return { target, repeatOf: watchForRepeatedPages(1, true) };
  return { target, repeatOf: watchForRepeatedPages(2) };
}

/** One listing page as the search reads it: where it starts, how many entries it holds, their numbers. */
interface SearchedPage {
  offset: number;
  length: number;
  /** The readable numbers, in listing order (newest first). */
  numbers: bigint[];
}

/**
 * Reading the pages showed numbers that do not fall with the listing's order, or a page of orders that show no
 * number: bisection cannot be trusted.
 */
const unordered = Symbol('unordered');

/**
 * The ids of orders by their number (`orderId`, the number buyers see). The listing takes no number filter, but it
 * is newest first by creation and numbers grow with creation, so the number's page is found by galloping over
 * offsets (0, 25, 75, 175, …) and bisecting between the last two: a few requests for any order of the store, one
 * for an order of the newest page. When a page shows numbers that do not fall down it (or a number that is not
 * digits, or no number at all), the listing is read to its end instead (a progress line every 1,000 orders). Everything read is kept for the rest of the run
 * (docs/decisions/0012-order-conflicts-and-numbers.md). A listing that answers the same page at other offsets, or
 * orders past `furthestSearchedOffset`, does not page by offset: the search stops instead of reading it for ever.
 */
export class OrderNumberIndex {
  private readonly idOfNumber = new Map<string, string>();
  /** Pages read by bisection: bounds for later searches of the run (orders created since only push them later). */
  private readonly pagesRead: SearchedPage[] = [];
  private inNumberOrder = true;
  /** Where a full read of an unordered listing goes on; `ended` once it reached the end. */
  private fullRead = { offset: 0, ended: false };
  /** Why the listing is read in turn, as its progress lines say. */
  private fullReadBecause = 'order numbers are not in listing order';
  private reading: Promise<unknown> = Promise.resolve();

  private readonly client: PlatformClient;
  private readonly progress: (line: string) => void;
  private readonly settings: OrderAnswerSettings;
  constructor(
    client: PlatformClient,
    progress: (line: string) => void = () => undefined,
    settings: OrderAnswerSettings = orderAnswers(client),
  ) {
    this.client = client;
    this.progress = progress;
    this.settings = settings;
  }

  /** The id of the order numbered `number` (digits), or what was searched when no order has it. */
  async find(number: string, signal?: AbortSignal): Promise<NumberSearch> {
    // One search at a time: parallel moves of an update share the pages read.
    const result = this.reading.then(() => this.search(BigInt(number), signal));
    this.reading = result.catch(() => undefined);
    return result;
  }

  private async search(target: bigint, signal?: AbortSignal): Promise<NumberSearch> {
    const known = this.idOfNumber.get(String(target));
    if (known !== undefined) return { id: known };
    if (this.inNumberOrder) {
      const found = await this.bisect(target, signal);
      if (found !== unordered) return found;
      this.inNumberOrder = false;
    }
    return this.readToEnd(target, signal);
  }

  /** Gallops then bisects over offsets; positions before `low` hold numbers above the target, from `high` below. */
  private async bisect(target: bigint, signal?: AbortSignal): Promise<NumberSearch | typeof unordered> {
    let { low, high, above, below } = this.boundsFor(target);
    let stride = orderListingPageSize;
    let offset = low;
    const pass = searchPass(target, 'bisection');
    for (;;) {
      const page = await this.readPage(offset, pass, signal);
      if (page === unordered) return unordered;
      const newest = page.numbers[0];
      const oldest = page.numbers.at(-1);
      if (page.length > 0 && newest === undefined) {
        // Orders that show no number say nothing of which side the target is on (numberless orders at the oldest
        // end taken as newer ones had the search jump past the target): the listing is read in turn instead.
        this.fullReadBecause = 'some listed orders show no number';
        return unordered;
      }
      if (newest === undefined || oldest === undefined) {
        // Past the end of the listing.
        if (offset <= low)
          return { searched: above === undefined ? 'the listing is empty' : `the oldest order is number ${above}` };
        high = offset;
      } else if (newest < target) {
        if (offset === 0) return { searched: `the newest order is number ${newest}` };
        below = newest;
        if (offset === low) return { searched: missingBetween(above, below) };
        high = offset;
      } else if (oldest > target) {
        above = oldest;
        low = offset + page.length;
        // Past the bound below: the listing ends here, or orders created since pushed the target on; gallop afresh.
        if (high !== undefined && low >= high) {
          high = undefined;
          stride = orderListingPageSize;
          offset = low;
          continue;
        }
        if (high === undefined) {
          // No further than the furthest offset asked, so a listing of that many orders is still searched to it.
          offset = Math.min(offset + stride, Math.max(low, furthestSearchedOffset));
          stride *= 2;
          continue;
        }
      } else {
        const id = this.idOfNumber.get(String(target));
        if (id !== undefined) return { id };
        return { searched: missingBetween(...neighboursIn(page.numbers, target)) };
      }
      if (high === undefined) offset = low;
      else
        offset = high - low <= orderListingPageSize ? low : low + Math.floor((high - low - orderListingPageSize) / 2);
    }
  }

  /** Where a search starts from the pages read before: below the pages seen above the target, above those below. */
  private boundsFor(target: bigint) {
    let low = 0;
    let high: number | undefined;
    let above: bigint | undefined;
    let below: bigint | undefined;
    for (const page of this.pagesRead) {
      const newest = page.numbers[0];
      const oldest = page.numbers.at(-1);
      if (newest === undefined || oldest === undefined) continue;
      if (oldest > target && page.offset + page.length > low) {
        low = page.offset + page.length;
        above = oldest;
      }
      if (newest < target && (high === undefined || page.offset < high)) {
        high = page.offset;
        below = newest;
      }
    }
    // Bounds that crossed: orders created between two searches pushed the target on; gallop from `low`.
    if (high !== undefined && high <= low) high = undefined;
    return { low, high, above, below };
  }

  /** One page at `offset`: its orders kept, its numbers checked to fall down the page. */
  private async readPage(
    offset: number,
    pass: SearchPass,
    signal?: AbortSignal,
  ): Promise<SearchedPage | typeof unordered> {
    const entries = await this.pageOrCut(offset, pass, signal);
    const numbers: bigint[] = [];
    for (const entry of entries) {
      const order = readListedOrder(entry, this.settings);
      // An order that shows no number cannot be the one searched for, nor bound the search.
      if (order?.orderNumber === undefined) continue;
      const number = orderNumberValueOf(order.orderNumber);
      const previous = numbers.at(-1);
      if (number === undefined || (previous !== undefined && number >= previous)) return unordered;
      numbers.push(number);
      this.idOfNumber.set(String(number), String(order.id));
    }
    const page = { offset, length: entries.length, numbers };
    this.pagesRead.push(page);
    return page;
  }

  /** Every page from the start to the end, or until the target shows: no other way finds an unordered number. */
  private async readToEnd(target: bigint, signal?: AbortSignal): Promise<NumberSearch> {
    let pages = 0;
    const pass = searchPass(target, 'full read');
    while (!this.fullRead.ended && !this.idOfNumber.has(String(target))) {
      const entries = await this.pageOrCut(this.fullRead.offset, pass, signal);
      for (const entry of entries) {
        const order = readListedOrder(entry, this.settings);
        // By the number it names (`"000100"` is number 100), as the bisection keys what it reads.
        if (order?.orderNumber !== undefined) this.idOfNumber.set(orderKeyOf(order.orderNumber), String(order.id));
      }
      this.fullRead.offset += entries.length;
      // Only an empty page ends the listing: a store may cap its pages below the 25 asked.
      if (entries.length === 0) this.fullRead.ended = true;
      if (++pages % progressEveryPages === 0)
        this.progress(
          `${this.fullReadBecause}: reading the whole listing for number ${target}, ${counted(this.fullRead.offset)} orders read`,
        );
    }
    const id = this.idOfNumber.get(String(target));
    if (id !== undefined) return { id };
    return { searched: `the listing was read to its end: ${counted(this.fullRead.offset)} orders` };
  }

  /**
   * listingPage, a 400 to an offset past 0 (whose first page the listing answered) said as the store's offset limit
   * cutting the search short (NumberSearchCutShort).
   */
  private async pageOrCut(offset: number, pass: SearchPass, signal?: AbortSignal): Promise<unknown[]> {
    try {
      return await this.listingPage(offset, pass, signal);
    } catch (error) {
      if (offset > 0 && error instanceof PlatformError && error.status === 400)
        throw new NumberSearchCutShort(error, offset, pass.target);
      throw error;
    }
  }

  /** The page at `offset`, unless the listing shows it does not page by offset (then the search stops). */
  private async listingPage(offset: number, pass: SearchPass, signal?: AbortSignal): Promise<unknown[]> {
    if (offset > furthestSearchedOffset)
      throw notPagingByOffset(`the order listing holds orders past offset ${counted(furthestSearchedOffset)}`, pass);
    const path = this.client.route('paths.orders');
    const query = { limit: orderListingPageSize, offset };
    const answer = await this.client.send<unknown>({ method: 'GET', path, query, safeToRepeat: true, signal });
    const { status, body } = answer;
    // An error answered with 200 is no end of the listing: read as one, the order would be "no such number".
    const notAPage = orderListingNotAPage(body, this.settings);
    if (notAPage !== undefined)
      throw new NotAListingPage(
        status,
        this.client.http.urlFor(path, query).toString(),
        quotedBodyOf(answer),
        notAPage,
        'orders',
      );
    const entries = readOrderListingPage(body, this.settings) ?? [];
    const repeat = entries.length === 0 ? undefined : pass.repeatOf(entries, offset);
    if (repeat?.kind === 'lastPageAgain') {
      const pageAsked = { url: this.client.http.urlFor(path, query) };
      this.progress(
        lastPageAgainLine(pageAsked, repeat.firstOffset, entries.length, 'orders', 'every order listed was read'),
      );
      // Past the end of the listing, as an empty page says.
      return [];
    }
    if (repeat?.kind === 'notPagingByOffset')
      throw notPagingByOffset(
        `the order listing answered the same page at offset ${offset} as at offset ${repeat.firstOffset}`,
        pass,
      );
    // Paged by offset until then: orders are created as fast as the listing is read, which no search outruns.
    if (repeat?.kind === 'outrun')
      throw new B2bctlError(
        `the order listing answered the page of offset ${repeat.firstOffset} again at offset ${offset}, ${repeat.repeats} times in a row: orders are created as fast as it is read; stopped the search for order number ${pass.target} (run it again when the store is quieter).`,
        ExitCode.someRecordsFailed,
      );
    return entries;
  }
}

/**
 * A search the listing refused to page on (400 to an offset past 0, whose first page it answered: a store's limit on
 * how deep it pages, a user test). What the search had not read may hold the number, so the order is unknown: a
 * move is not sent to the number as an id (the detail route had just denied it), and the line says why.
 */
export class NumberSearchCutShort extends PlatformError {
  override readonly exitCode: ExitCode = ExitCode.unavailable;
  constructor(refused: PlatformError, offset: number, target: bigint) {
    super(
      refused.status,
      refused.request,
      refused.body,
      `the search for order number ${target} was cut short by the store's offset limit: the listing refused offset ${offset}${refused.platformMessage === undefined ? '' : ` (${refused.platformMessage})`}, so b2bctl cannot tell which order has that number; give the order's id instead`,
    );
  }
}

/** The line that stops a search whose listing `seen` something no listing paging by offset does. */
function notPagingByOffset(seen: string, pass: SearchPass): B2bctlError {
  return new B2bctlError(
    `${seen}: it does not seem to page by offset; stopped the search for order number ${pass.target} instead of reading it for ever.`,
    ExitCode.someRecordsFailed,
  );
}

/** The numbers either side of where `target` would sit in a page falling from newest to oldest. */
function neighboursIn(numbers: readonly bigint[], target: bigint): [bigint | undefined, bigint | undefined] {
  const index = numbers.findIndex((number) => number < target);
  return [numbers[index - 1], numbers[index]];
}

function missingBetween(above: bigint | undefined, below: bigint | undefined): string {
  if (above === undefined) return `number ${below} is listed where that number would be`;
  return `the listing goes from number ${above} straight to number ${below}`;
}

function counted(orders: number): string {
  return orders.toLocaleString('en-US');
}
