/**
 * The listings the platform names, each with its `paths.*` setting (defaults: the sandbox's paths), the page
 * caps the platform states and the way it says "no more". `b2bctl api --paginate` recognises a path by these
 * templates and completion offers them.
 */
export interface ListingRoute {
  /** The `paths.*` setting holding the route's template. */
  settingKey: string;
  /** What it lists, in the user's words. */
  title: string;
  defaultPath: string;
  /** The stated ceiling of `limit`: the page size; `none` for no ceiling; undefined when the platform does not say. */
  cap?: number | 'none';
  /** The 400 with `no record found` that ends the cashback balance listing. */
  endsWithNoRecordFound?: boolean;
}

export const listingRoutes = [
  { settingKey: 'paths.sellers', title: 'sales reps', defaultPath: '/sellerModule/listSellers', cap: 'none' },
  { settingKey: 'paths.orders', title: 'store orders', defaultPath: '/v1/orders', cap: 25 },
  {
    settingKey: 'paths.marketplaceOrders',
    title: 'marketplace orders',
    defaultPath: '/v1/marketplace/orders',
    cap: 25,
  },
  { settingKey: 'paths.pendingQuotes', title: 'pending quotes', defaultPath: '/v1/quotes/pending', cap: 50 },
  { settingKey: 'paths.contracts', title: 'store contracts', defaultPath: '/v1/contracts', cap: 50 },
  {
    settingKey: 'paths.branchContracts',
    title: 'branch contracts',
    defaultPath: '/v1/branches/{branch}/contracts',
    cap: 50,
  },
  {
    settingKey: 'paths.cashbackBalances',
    title: 'cashback balance by customer',
    defaultPath: '/v1/cashback/balances',
    cap: 50,
    endsWithNoRecordFound: true,
  },
  { settingKey: 'paths.cashbackHistory', title: 'cashback history', defaultPath: '/v1/cashback/history', cap: 50 },
  { settingKey: 'paths.creditLimits', title: 'credit limits', defaultPath: '/v1/credit-limits' },
  { settingKey: 'paths.customerGroups', title: 'customer groups', defaultPath: '/v1/customer-groups' },
  { settingKey: 'paths.leadTimes', title: 'lead times', defaultPath: '/v1/lead-times' },
] as const satisfies readonly ListingRoute[];

/**
 * The listing a path belongs to, given each route's template as the profile sets it: `:name` and `{branch}`
 * match one path segment; a query string is ignored.
 */
export function recogniseListing(path: string, templateOf: (route: ListingRoute) => string): ListingRoute | undefined {
  const bare = (path.split('?')[0] ?? '').replace(/\/+$/, '') || '/';
  return listingRoutes.find((route) => templatePattern(templateOf(route)).test(bare));
}

function templatePattern(template: string): RegExp {
  const segments = template
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (/^(:\w+|\{\w+\})$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}
