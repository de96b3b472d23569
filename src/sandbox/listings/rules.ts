/**
 * The listings the platform names by name only, as the sandbox serves them (marketplace orders as a listing of
 * their own, apart from the store's order routes): each with the default and cap of
 * `limit` the platform states (the sandbox's own where it states none), newest first where it says so, and the
 * way it ends. Pure.
 */
export interface ListingSpec {
  path: string;
  defaultLimit: number;
  /** Undefined: no ceiling. */
  cap?: number;
  newestFirst: boolean;
  /** `[]` past the end; `no-record-found`: the documented 400; `empty-object`: `{}` when there is none. */
  end: 'empty-array' | 'no-record-found' | 'empty-object';
}

export const listingSpecs = {
  marketplaceOrders: {
    path: '/v1/marketplace/orders',
    defaultLimit: 5,
    cap: 25,
    newestFirst: true,
    end: 'empty-array',
  },
  pendingQuotes: { path: '/v1/quotes/pending', defaultLimit: 5, cap: 50, newestFirst: false, end: 'empty-array' },
  contracts: { path: '/v1/contracts', defaultLimit: 20, cap: 50, newestFirst: true, end: 'empty-array' },
  branchContracts: {
    path: '/v1/branches/:branch/contracts',
    defaultLimit: 20,
    cap: 50,
    newestFirst: true,
    end: 'empty-array',
  },
  cashbackBalances: {
    path: '/v1/cashback/balances',
    defaultLimit: 20,
    cap: 50,
    newestFirst: false,
    end: 'no-record-found',
  },
  cashbackHistory: { path: '/v1/cashback/history', defaultLimit: 20, cap: 50, newestFirst: false, end: 'empty-array' },
  creditLimits: { path: '/v1/credit-limits', defaultLimit: 20, newestFirst: false, end: 'empty-object' },
  customerGroups: { path: '/v1/customer-groups', defaultLimit: 20, newestFirst: false, end: 'empty-array' },
  leadTimes: { path: '/v1/lead-times', defaultLimit: 20, newestFirst: false, end: 'empty-array' },
} as const satisfies Record<string, ListingSpec>;

export type ListingName = keyof typeof listingSpecs;

export const listingNames = Object.keys(listingSpecs) as ListingName[];

/** The documented message of the cashback balance listing past its last entry. */
export const noRecordFound = 'no record found';

/** limit and offset as the listing reads them: the cap applies with no error above it. */
export function pageWindow(
  spec: ListingSpec,
  limit: number | undefined,
  offset: number,
): { limit: number; offset: number } {
  const asked = limit ?? spec.defaultLimit;
  return { limit: spec.cap === undefined ? asked : Math.min(asked, spec.cap), offset };
}

/** A page of `items` (held oldest first): newest first when the listing says so, without copying the whole list. */
export function pageOf<T>(items: readonly T[], spec: ListingSpec, window: { limit: number; offset: number }): T[] {
  const page: T[] = [];
  for (let index = window.offset; index < window.offset + window.limit && index < items.length; index++)
    page.push(items[spec.newestFirst ? items.length - 1 - index : index] as T);
  return page;
}
