import { seededRandom } from '../orders/seed.js';
import { type ListingName, listingNames } from './rules.js';

export type ListingItem = Record<string, unknown> & { id: number; dateCreated: string };

/** Branches linked to the sandbox's head office; any other code is another head office's (403). */
export const linkedBranches = ['0001', '0002'] as const;

/** The items of the sandbox's named listings, oldest first, and the branches' contracts. */
export class ListingStore {
  readonly items = new Map<ListingName, ListingItem[]>();
  readonly branchContracts = new Map<string, ListingItem[]>();
  /** A broken platform that answers the first page whatever the offset (the repeated-page fault). */
  ignoreOffset = false;
  private nextId = 1;
  private readonly random = seededRandom(24);

  private readonly documents: readonly string[];
  private readonly now: () => number;
  constructor(documents: readonly string[], now: () => number) {
    this.documents = documents;
    this.now = now;

    const counts: Record<ListingName, number> = {
      marketplaceOrders: 60,
      pendingQuotes: 12,
      contracts: 45,
      branchContracts: 0,
      cashbackBalances: 57,
      cashbackHistory: 130,
      creditLimits: 33,
      customerGroups: 8,
      leadTimes: 14,
    };
    for (const name of listingNames) this.items.set(name, []);
    for (const name of listingNames) if (name !== 'branchContracts') this.generate(name, counts[name]);
    this.generateBranch('0001', 23);
    this.generateBranch('0002', 7);
  }

  isLinked(branch: string): boolean {
    return (linkedBranches as readonly string[]).includes(branch);
  }

  /** Appends `count` new items to a listing, each newer than the last. */
  generate(name: ListingName, count: number): void {
    const list = this.items.get(name) as ListingItem[];
    for (let index = 0; index < count; index++) list.push(this.item(name, list.length));
  }

  generateBranch(branch: string, count: number): void {
    const list = this.branchContracts.get(branch) ?? [];
    this.branchContracts.set(branch, list);
    for (let index = 0; index < count; index++)
      list.push({ ...this.item('contracts', list.length), branchCode: branch });
  }

  clear(name: ListingName): void {
    if (name === 'branchContracts') for (const list of this.branchContracts.values()) list.length = 0;
    else this.items.set(name, []);
  }

  private item(name: ListingName, position: number): ListingItem {
    const id = this.nextId++;
    // Spread over the last 400 days, older first, so newest first is the reverse of the list.
    const dateCreated = new Date(this.now() - 400 * 86_400_000 + id * 60_000).toISOString();
    const document = this.documents[position % Math.max(1, this.documents.length)] ?? '00000000000191';
    const cents = (max: number) => Math.round(this.random() * max * 100) / 100;
    const fields: Record<ListingName, () => Record<string, unknown>> = {
      marketplaceOrders: () => ({
        orderId: 500_000 + id,
        marketplace: ['Mercado Livre', 'Amazon', 'Magalu'][id % 3],
        status: 'AWAITING_PAYMENT',
        partnerDocument: document,
        total: cents(5_000),
      }),
      pendingQuotes: () => ({
        quoteNumber: `Q-${String(id).padStart(6, '0')}`,
        customerDocument: document,
        status: 'PENDING',
        total: cents(20_000),
      }),
      contracts: () => ({
        code: `CT-${id}`,
        customerDocument: document,
        description: `Supply contract ${id}`,
        startDate: dateCreated.slice(0, 10),
      }),
      branchContracts: () => ({ code: `CT-${id}` }),
      cashbackBalances: () => ({ customerDocument: document, balance: cents(500), currency: 'BRL' }),
      cashbackHistory: () => ({
        customerDocument: document,
        kind: this.random() < 0.7 ? 'CREDIT' : 'DEBIT',
        amount: cents(150),
      }),
      creditLimits: () => ({ customerDocument: document, limit: cents(50_000), used: cents(10_000) }),
      customerGroups: () => ({ name: `Group ${id}`, externalId: `GRP-${id}` }),
      leadTimes: () => ({
        zipcodeStart: `${String(position * 5000).padStart(5, '0')}-000`,
        zipcodeEnd: `${String(position * 5000 + 4999).padStart(5, '0')}-999`,
        days: 1 + (id % 12),
      }),
    };
    return { id, ...fields[name](), dateCreated, lastUpdated: dateCreated };
  }
}
