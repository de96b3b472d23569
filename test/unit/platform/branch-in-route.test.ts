/**
 * The branch a path written out in full names (`b2bctl api /v1/branches/0099/contracts`): read where a route template
 * holds `{branch}` as a segment, and nowhere else, so a 403 on another route keeps its own line.
 */
import { expect, it } from 'vitest';
import { branchInRoute } from '../../../src/platform/branch.js';

const contracts = '/v1/branches/{branch}/contracts';

it.each([
  [contracts, '/v1/branches/0099/contracts', '0099'],
  [contracts, '/v1/branches/0099/contracts/', '0099'],
  [contracts, '/v1/branches/0099/contracts?offset=0', '0099'],
  [contracts, '/v1/branches/S%C3%A3o%20Paulo/contracts', 'São Paulo'],
  ['/v1/branches/{branch}/orders/:id', '/v1/branches/0002/orders/17', '0002'],
  [contracts, '/v1/branches//contracts', undefined],
  [contracts, '/v1/contracts', undefined],
  [contracts, '/v1/branches/0099/contracts/7', undefined],
  [contracts, '/v1/stores/0099/contracts', undefined],
  ['/v1/branches/:id/contracts', '/v1/branches/0099/contracts', undefined],
  ['/v1/branches/{branch}/orders/:id', '/v1/branches/0002/orders/', undefined],
])('%s against %s: %s', (template, path, branch) => {
  expect(branchInRoute(template, path)).toBe(branch);
});
