import { PlatformError } from '../base/errors.js';
import type { PlatformClient } from '../platform/client.js';
import { OrderNumberIndex } from '../platform/order-numbers.js';
import { getOrder } from '../platform/orders.js';

/** An order found by what the user gave: its id, and its detail as the platform sends it. */
export interface FoundOrder {
  id: string;
  order: unknown;
}

/**
 * Takes an order's id or its number, as people have either at hand: the value is tried as an id first (the detail
 * route); when the platform knows no such id, the listing is searched for an order with that number, and the line
 * `order 100217 is id 217` says what was found.
 */
export class OrderLookup {
  private readonly index: OrderNumberIndex;
  private readonly idOfGiven = new Map<string, string>();
  /** What the search of a number that no order has saw: for the message of a value found nowhere. */
  private readonly searchOfMissing = new Map<string, string>();

  private readonly client: PlatformClient;
  private readonly note: (line: string) => void;
  constructor(client: PlatformClient, note: (line: string) => void) {
    this.client = client;
    this.note = note;

    this.index = new OrderNumberIndex(client, note);
  }

  /** What the search for `value` as a number saw, when no order has it (undefined when it was not searched). */
  searched(value: string): string | undefined {
    return this.searchOfMissing.get(value);
  }

  /** The id a number was found to be, in this run. */
  knownIdOf(value: string): string | undefined {
    return this.idOfGiven.get(value);
  }

  /** The order `value` names (as an id, else as a number), or undefined when the platform has neither. */
  async find(value: string, signal?: AbortSignal): Promise<FoundOrder | undefined> {
    const known = this.idOfGiven.get(value);
    try {
      // A value known to be a number: a detail showing another number is another order's.
      const number = known === undefined ? undefined : value;
      return { id: known ?? value, order: await getOrder(this.client, known ?? value, signal, undefined, number) };
    } catch (error) {
      if (!(error instanceof PlatformError) || error.status !== 404 || known !== undefined) throw error;
    }
    const id = await this.idOfNumber(value, signal);
    return id === undefined ? undefined : { id, order: await getOrder(this.client, id, signal, undefined, value) };
  }

  /** The id of the order numbered `value`, said once; undefined when no order has that number. */
  async idOfNumber(value: string, signal?: AbortSignal): Promise<string | undefined> {
    const known = this.idOfGiven.get(value);
    if (known !== undefined) return known;
    // An order number is a whole number: anything else is not worth a search of the listing.
    if (!/^\d{1,18}$/.test(value)) return undefined;
    const search = await this.index.find(value, signal);
    if (search.id === undefined) this.searchOfMissing.set(value, search.searched);
    const id = search.id;
    if (id === undefined || id === value) return undefined;
    this.idOfGiven.set(value, id);
    this.note(`order ${value} is id ${id}`);
    return id;
  }
}

/** The one line for an order that is neither an id nor a number the platform knows. */
export function noSuchOrder(value: string, searched: string | undefined): string {
  return `order ${value}: ${noSuchOrderReason(value, searched)}`;
}

/** noSuchOrder without the order's name, for a line that names it already (a move's outcome, a report row). */
export function noSuchOrderReason(value: string, searched: string | undefined): string {
  const number = /^\d{1,18}$/.test(value)
    ? `, and no order has that number${searched === undefined ? '' : ` (${searched})`}`
    : ' (and an order number is digits only)';
  return `the platform has no order with that id${number}; give the order's id (the id of orders poll and of the orders webhook) or its number (orderId)`;
}
