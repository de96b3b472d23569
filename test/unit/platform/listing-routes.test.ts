/** Which listing a path belongs to, by the route templates of the profile (`:name` and `{branch}` match a segment). */
import { describe, expect, it } from 'vitest';
import { type ListingRoute, listingRoutes, recogniseListing } from '../../../src/platform/listing-routes.js';

const defaults = (route: ListingRoute) => route.defaultPath;

describe('recogniseListing', () => {
  it.each([
    ['/v1/quotes/pending', 'pending quotes'],
    ['/v1/quotes/pending/', 'pending quotes'],
    ['/v1/contracts?customer=1', 'store contracts'],
    ['/v1/branches/0002/contracts', 'branch contracts'],
    ['/v1/cashback/balances', 'cashback balance by customer'],
    ['/sellerModule/listSellers', 'sales reps'],
    ['/v1/orders', 'store orders'],
    ['/v1/marketplace/orders', 'marketplace orders'],
    ['/v1/lead-times', 'lead times'],
  ])('%s is the %s listing', (path, title) => {
    expect(recogniseListing(path, defaults)?.title).toBe(title);
  });

  it.each(['/v1/contracts/12', '/v1/branches/0002/contracts/9', '/v1/orders/12', '/v1/quotes', '/v1/contractsX'])(
    '%s is no listing',
    (path) => {
      expect(recogniseListing(path, defaults)).toBeUndefined();
    },
  );

  it('follows the profile: a store whose quotes live elsewhere is recognised there, and no longer at the default', () => {
    const templateOf = movedQuotesTemplate;
    expect(recogniseListing('/api/v2/loja1/quotes/open', templateOf)?.cap).toBe(50);
    expect(recogniseListing('/v1/quotes/pending', templateOf)).toBeUndefined();
  });

  it('states the caps of the listings that have one', () => {
    const caps = Object.fromEntries(
      listingRoutes.map((route) => [route.title, 'cap' in route ? route.cap : undefined]),
    );
    expect(caps).toMatchObject({
      'store orders': 25,
      'marketplace orders': 25,
      'pending quotes': 50,
      'store contracts': 50,
      'branch contracts': 50,
      'cashback balance by customer': 50,
      'cashback history': 50,
      'sales reps': 'none',
      'credit limits': undefined,
    });
  });
});

function movedQuotesTemplate(route: ListingRoute): string {
  return route.settingKey === 'paths.pendingQuotes' ? '/api/v2/:store/quotes/open' : route.defaultPath;
}
