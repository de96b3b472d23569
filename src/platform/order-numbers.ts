import { orderAnswers, orderListingPageSize } from './orders.js';
import { readListedOrder, readOrderListingPage, type OrderAnswerSettings } from './answers/orders.js';
import type { PlatformClient } from './client.js';

/** What a search by number found: the order's id, or (when no order has the number) what the search saw. */
export type NumberSearch = { id: string; searched?: undefined } | { id?: undefined; searched: string };

/** How many pages of a full read go by between two progress lines: 1,000 orders. */
const progressEveryPages = 40;

/** One listing page as the search reads it: where it starts, how many entries it holds, their numbers. */
interface SearchedPage {
  offset: number;
  length: number;
  /** The readable numbers, in listing order (newest first). */
  numbers: bigint[];
}

/** Reading the pages showed numbers that do not fall with the listing's order: bisection cannot be trusted. */
const unordered = Symbol('unordered');

/**
 * The ids of orders by their number (`orderId`, the number buyers see). The listing takes no number filter, but it
 * is newest first by creation and numbers grow with creation, so the number's page is found by galloping over
 * offsets (0, 25, 75, 175, …) and bisecting between the last two: a few requests for any order of the store, one
 * for an order of the newest page. When a page shows numbers that do not fall down it (or a number that is not
 * digits), the listing is read to its end instead (a progress line every 1,000 orders). Everything read is kept for the rest of the run
 * (docs/decisions/0012-order-conflicts-and-numbers.md).
 */
export class OrderNumberIndex {
  private readonly idOfNumber = new Map<string, string>();
  /** Pages read by bisection: bounds for later searches of the run (orders created since only push them later). */
  private readonly pagesRead: SearchedPage[] = [];
  private inNumberOrder = true;
  /** Where a full read of an unordered listing goes on; `ended` once it reached the end. */
  private fullRead = { offset: 0, ended: false };
  private reading: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: PlatformClient,
    private readonly progress: (line: string) => void = () => undefined,
    private readonly settings: OrderAnswerSettings = orderAnswers(client),
  ) {}

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
    for (;;) {
      const page = await this.readPage(offset, signal);
      if (page === unordered) return unordered;
      const newest = page.numbers[0];
      const oldest = page.numbers.at(-1);
      if (newest === undefined || oldest === undefined) {
        // Past the end of the listing (or a page with no readable number: nothing to compare, move past it).
        if (page.length === 0 && offset <= low)
          return { searched: above === undefined ? 'the listing is empty' : `the oldest order is number ${above}` };
        if (page.length === 0) high = offset;
        else low = offset + page.length;
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
          offset += stride;
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
  private async readPage(offset: number, signal?: AbortSignal): Promise<SearchedPage | typeof unordered> {
    const entries = await this.listingPage(offset, signal);
    const numbers: bigint[] = [];
    for (const entry of entries) {
      const order = readListedOrder(entry, this.settings);
      // An order that shows no number cannot be the one searched for, nor bound the search.
      if (order?.orderNumber === undefined) continue;
      const number = numberOf(order.orderNumber);
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
    while (!this.fullRead.ended && !this.idOfNumber.has(String(target))) {
      const entries = await this.listingPage(this.fullRead.offset, signal);
      for (const entry of entries) {
        const order = readListedOrder(entry, this.settings);
        if (order?.orderNumber !== undefined) this.idOfNumber.set(String(order.orderNumber), String(order.id));
      }
      this.fullRead.offset += entries.length;
      // Only an empty page ends the listing: a store may cap its pages below the 25 asked.
      if (entries.length === 0) this.fullRead.ended = true;
      if (++pages % progressEveryPages === 0)
        this.progress(
          `order numbers are not in listing order: reading the whole listing for number ${target}, ${counted(this.fullRead.offset)} orders read`,
        );
    }
    const id = this.idOfNumber.get(String(target));
    if (id !== undefined) return { id };
    return { searched: `the listing was read to its end: ${counted(this.fullRead.offset)} orders` };
  }

  private async listingPage(offset: number, signal?: AbortSignal): Promise<unknown[]> {
    const { body } = await this.client.send<unknown>({
      method: 'GET',
      path: this.client.route('paths.orders'),
      query: { limit: orderListingPageSize, offset },
      safeToRepeat: true,
      signal,
    });
    return readOrderListingPage(body, this.settings) ?? [];
  }
}

/** An order number as a whole number, or undefined when it is not digits (such a listing cannot be bisected). */
function numberOf(value: number | string): bigint | undefined {
  const text = String(value);
  return /^\d{1,30}$/.test(text) ? BigInt(text) : undefined;
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
