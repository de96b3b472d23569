/**
 * The `paths.*` settings of the listings `b2bctl api --paginate` knows (src/platform/listing-routes.ts holds their
 * templates and page caps); declared beside the settings table, which needs nothing of src/platform/.
 */
import type { SettingDefinition } from './setting-definition.js';
import { routePath } from './setting-parsers.js';

/** The `paths.*` settings of the listings that had none before `b2bctl api`. */
export const listingRouteSettings = [
  routeSetting('paths.marketplaceOrders', 'Marketplace order listing route', '/v1/marketplace/orders'),
  routeSetting('paths.pendingQuotes', 'Pending quote listing route', '/v1/quotes/pending'),
  routeSetting('paths.contracts', 'Store contract listing route', '/v1/contracts'),
  routeSetting(
    'paths.branchContracts',
    'Branch contract listing route ({branch}: --branch or the branch setting)',
    '/v1/branches/{branch}/contracts',
  ),
  routeSetting('paths.cashbackBalances', 'Cashback balance by customer listing route', '/v1/cashback/balances'),
  routeSetting('paths.cashbackHistory', 'Cashback history listing route', '/v1/cashback/history'),
  routeSetting('paths.creditLimits', 'Credit limit listing route', '/v1/credit-limits'),
  routeSetting('paths.customerGroups', 'Customer group listing route', '/v1/customer-groups'),
  routeSetting('paths.leadTimes', 'Lead time listing route', '/v1/lead-times'),
] as const satisfies readonly SettingDefinition[];

function routeSetting<const Key extends string, const Default extends string>(
  key: Key,
  description: string,
  defaultValue: Default,
) {
  return { key, description, defaultValue, parser: routePath };
}
