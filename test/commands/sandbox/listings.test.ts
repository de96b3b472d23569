/**
 * The sandbox's named listings over HTTP: each one's default page and cap of `limit`, newest first where the
 * platform says so, each end, and the branch route's 403; in every dialect's envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readListingPage } from '../../../src/platform/answers/listing.js';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import { listingSpecs } from '../../../src/sandbox/listings/rules.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { generateListing } from '../../support/api-sandbox.js';
import { fetchToken, startTestSandbox } from '../../support/sandbox.js';

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'sandbox listings, %s dialect',
  (_, dialect) => {
    let sandbox: RunningSandbox;
    let token: string;
    const get = async (path: string) => {
      const response = await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      return { status: response.status, text, items: response.ok ? readListingPage(JSON.parse(text)) : undefined };
    };

    beforeAll(async () => {
      sandbox = await startTestSandbox({ dialect });
      const issued = await fetch(`${sandbox.url}${dialect.tokenPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          username: 'integration@sandbox.test',
          password: 'sandbox-secret',
        }),
      });
      const body = (await issued.json()) as Record<string, unknown> & { data?: { token?: string } };
      token = String(
        body.access_token ?? body.accessToken ?? body.token ?? body.data?.token ?? (await fetchToken(sandbox)),
      );
      await generateListing(sandbox, 'pendingQuotes', 100);
      await generateListing(sandbox, 'customerGroups', 100);
      await generateListing(sandbox, 'contracts', 10);
    });
    afterAll(async () => sandbox.close());

    it.each([
      ['/v1/quotes/pending', 5, 50],
      ['/v1/marketplace/orders', 5, 25],
      ['/v1/contracts', 20, 50],
      ['/v1/cashback/balances', 20, 50],
      ['/v1/cashback/history', 20, 50],
      ['/v1/credit-limits', 20, 33],
      ['/v1/customer-groups', 20, 108],
    ])('%s: %i by default, %i for limit=500', async (path, byDefault, atMost) => {
      expect((await get(path)).items).toHaveLength(byDefault);
      expect((await get(`${path}?limit=500`)).items).toHaveLength(atMost);
    });

    it('lists contracts newest first, quotes in creation order', async () => {
      const contracts = (await get('/v1/contracts?limit=50')).items as { id: unknown }[];
      const ids = contracts.map((item) => Number(item.id));
      expect(ids).toEqual(ids.toSorted((left, right) => right - left));
      const quotes = ((await get('/v1/quotes/pending?limit=50')).items as { id: unknown }[]).map((item) =>
        Number(item.id),
      );
      expect(quotes).toEqual(quotes.toSorted((left, right) => left - right));
    });

    it('ends each listing its own way: [], {}, and the 400 no record found', async () => {
      expect((await get('/v1/contracts?offset=1000')).items).toEqual([]);
      expect((await get('/v1/credit-limits?offset=1000')).text).toBe('{}');
      const past = await get('/v1/cashback/balances?offset=1000');
      expect(past.status).toBe(400);
      expect(past.text).toContain('no record found');
    });

    it('answers a linked branch and refuses any other with 403', async () => {
      expect((await get('/v1/branches/0001/contracts')).items).toHaveLength(20);
      expect((await get('/v1/branches/0099/contracts')).status).toBe(403);
      expect(listingSpecs.branchContracts.cap).toBe(50);
    });
  },
);
