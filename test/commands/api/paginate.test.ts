/**
 * `b2bctl api --paginate` against every sandbox dialect: each named listing pages to its end by its own rule
 * (`[]`, `{}`, the cashback balance 400 `no record found`; a short page is read on), every item once and in the listing's
 * order; a token revoked, a 429 and a 503 mid-listing cost a retry of that page and no item twice; a route that
 * ignores offset stops with an error; a branch outside the head office gets one line and exit 77.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import type { ListingName } from '../../../src/sandbox/listings/rules.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { clearListing, generateListing, idsOfLines, ignoreOffset, scheduleFault } from '../../support/api-sandbox.js';
import { freshConfigDir } from '../../support/cli.js';
import { loginToDialect, runCommandLine } from '../../support/command-line.js';
import { requestCounts, resetCounts, sandboxPassword, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

/** The one line for branch 0099's 403 at `url`, with the platform's own words, whatever the dialect writes. */
function unlinkedBranchLine(url: string) {
  return expect.stringMatching(
    new RegExp(
      `^error: Branch "0099" is not linked to this token's head office \\(HTTP 403 on GET ${url.replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}: [^)]+\\); use a branch of this head office, or log in as that branch's head office\\.$`,
    ),
  );
}

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'api --paginate, %s dialect',
  (_, dialect) => {
    let sandbox: RunningSandbox;
    let configDir: string;
    const api = (...args: string[]) =>
      runCommandLine(['api', ...args], { configDir, env: { B2BCTL_PASSWORD: sandboxPassword } });
    /** The ids the sandbox holds for a listing, in the order it lists them. */
    const storeIds = (name: ListingName, newestFirst = false) => {
      const ids = (sandbox.state.listings.items.get(name) ?? []).map((item) => String(item.id));
      return newestFirst ? ids.toReversed() : ids;
    };

    beforeAll(async () => {
      sandbox = await startTestSandbox({ dialect });
      configDir = freshConfigDir();
      await loginToDialect(sandbox, dialect, configDir);
      // Sizes that reach each end rule: 112 quotes (50, 50, a short 12 read on to []), 100 contracts and balances
      // (two full pages, then [] or the 400), 33 credit limits (no stated cap: the platform's pages of 20, then {}).
      await generateListing(sandbox, 'pendingQuotes', 100);
      await generateListing(sandbox, 'contracts', 55);
      await generateListing(sandbox, 'cashbackBalances', 43);
    });
    afterAll(async () => sandbox.close());
    beforeEach(async () => {
      await ignoreOffset(sandbox, false);
      await resetCounts(sandbox);
    });

    it.each([
      [
        'pendingQuotes',
        '/v1/quotes/pending',
        false,
        4,
        ['offset=0&limit=50', 'offset=100&limit=50', 'offset=112&limit=50'],
      ],
      ['contracts', '/v1/contracts', true, 3, ['offset=100']],
      ['marketplaceOrders', '/v1/marketplace/orders', true, 4, ['offset=50&limit=25', 'offset=60&limit=25']],
      ['cashbackBalances', '/v1/cashback/balances', false, 3, ['offset=100']],
      ['cashbackHistory', '/v1/cashback/history', false, 4, ['offset=100', 'offset=130']],
      ['creditLimits', '/v1/credit-limits', false, 3, ['offset=33']],
      ['customerGroups', '/v1/customer-groups', false, 2, ['offset=8']],
      ['leadTimes', '/v1/lead-times', false, 2, ['offset=14']],
    ] as const)(
      '%s pages to its end by its rule, every item once in order',
      async (name, path, newestFirst, pages, seen) => {
        const result = await api(path, '--paginate', '--verbose');
        expect(result.stderr).not.toMatch(/^(error|warning)/m);
        expect(result.code).toBe(0);
        expect(idsOfLines(result.stdout)).toEqual(storeIds(name, newestFirst));
        expect((await requestCounts(sandbox))[`GET ${path}`]).toBe(pages);
        const requested = result.stderr.split('\n').filter((line) => line.includes(`> GET ${sandbox.url}${path}`));
        for (const query of seen) expect(requested.some((line) => line.includes(query))).toBe(true);
      },
    );

    it('--slurp writes one JSON array of every item', async () => {
      const result = await api('/v1/cashback/history', '--paginate', '--slurp');
      expect(result.code).toBe(0);
      const items = JSON.parse(result.stdout) as { id: unknown }[];
      expect(items.map((item) => String(item.id))).toEqual(storeIds('cashbackHistory'));
    });

    it('--slurp of a route that refuses its first page prints no empty array: nothing on stdout, exit 1', async () => {
      // `[]` would tell the next program (`| jq length`) "no items"; the answer's body and the error are on stderr.
      for (const output of [[], ['-o', 'json']]) {
        const result = await api('/v1/no-such-listing', '--paginate', '--slurp', ...output);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(/answered HTTP 404\.\n$/);
      }
    });

    it('an empty credit limit listing ({}) and an empty cashback balance listing (400) end at once, exit 0', async () => {
      const fresh = await startTestSandbox({ dialect });
      const freshConfig = freshConfigDir();
      try {
        await loginToDialect(fresh, dialect, freshConfig);
        await clearListing(fresh, 'creditLimits');
        await clearListing(fresh, 'cashbackBalances');
        for (const path of ['/v1/credit-limits', '/v1/cashback/balances']) {
          const result = await runCommandLine(['api', path, '--paginate'], { configDir: freshConfig });
          expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
        }
      } finally {
        await fresh.close();
      }
    });

    it.each([
      ['revoke-tokens', 'the token is renewed'],
      [429, 'the 429 is waited out'],
      [503, 'the 503 is retried'],
    ] as const)('mid-listing, %s: %s, the page asked again, no item twice', async (answer, _why) => {
      await scheduleFault(sandbox, '/v1/cashback/history', 2, answer);
      const result = await api('/v1/cashback/history', '--paginate');
      expect(result.code).toBe(0);
      expect(idsOfLines(result.stdout)).toEqual(storeIds('cashbackHistory'));
      const counts = await requestCounts(sandbox);
      // 50, 50, the short 30, the empty page that ends it, and the page asked again.
      expect(counts['GET /v1/cashback/history']).toBe(5);
      expect(counts[`POST ${dialect.tokenPath}`]).toBe(answer === 'revoke-tokens' ? 1 : undefined);
    });

    it('a route answering the same page for every offset stops with an error after writing it once', async () => {
      await ignoreOffset(sandbox, true);
      const result = await api('/v1/contracts', '--paginate');
      expect(result.code).toBe(1);
      expect(idsOfLines(result.stdout)).toEqual(storeIds('contracts', true).slice(0, 50));
      expect(result.stderr).toMatch(/answered the same page as offset 0: the route does not seem to page by offset/);
      expect((await requestCounts(sandbox))['GET /v1/contracts']).toBe(2);
    });

    it('--branch of a linked branch pages its contracts; an unlinked one gets one line and exit 77', async () => {
      const linked = await api('/v1/branches/{branch}/contracts', '--branch', '0001', '--paginate');
      expect(linked.code).toBe(0);
      const contracts = sandbox.state.listings.branchContracts.get('0001') ?? [];
      expect(idsOfLines(linked.stdout)).toEqual(contracts.map((item) => String(item.id)).toReversed());
      const unlinked = await api('/v1/branches/{branch}/contracts', '--branch', '0099', '--paginate');
      expect(unlinked.code).toBe(77);
      expect(unlinked.stdout).toBe('');
      expect(unlinked.stderr.trim().split('\n')).toEqual([
        unlinkedBranchLine(`${sandbox.url}/v1/branches/0099/contracts?offset=0&limit=50`),
      ]);
    });

    it('a path that writes an unlinked branch out in full gets the same line and exit 77, paged or not', async () => {
      for (const paged of [false, true]) {
        const result = await api('/v1/branches/0099/contracts', ...(paged ? ['--paginate'] : []));
        expect(result.code).toBe(77);
        expect(result.stdout).toBe('');
        expect(result.stderr.trim().split('\n')).toEqual([
          unlinkedBranchLine(`${sandbox.url}/v1/branches/0099/contracts${paged ? '?offset=0&limit=50' : ''}`),
        ]);
      }
    });

    it('the branch setting fills {branch} when --branch is not given', async () => {
      const result = await runCommandLine(['api', '/v1/branches/{branch}/contracts', '--paginate'], {
        configDir,
        env: { B2BCTL_BRANCH: '0002' },
      });
      expect(result.code).toBe(0);
      expect(idsOfLines(result.stdout)).toHaveLength(sandbox.state.listings.branchContracts.get('0002')?.length ?? -1);
    });
  },
);

describe('api --paginate over 100,000 items', () => {
  it('writes each of them once, in pages of the stated cap', async () => {
    const sandbox = await startTestSandbox();
    const configDir = freshConfigDir();
    try {
      await loginToDialect(sandbox, dialects[0] as (typeof dialects)[number], configDir);
      await generateListing(sandbox, 'cashbackHistory', 100_000 - 130);
      const result = await runCommandLine(['api', '/v1/cashback/history', '--paginate'], { configDir });
      expect(result.code).toBe(0);
      const ids = idsOfLines(result.stdout);
      expect(ids).toHaveLength(100_000);
      expect(new Set(ids).size).toBe(100_000);
      expect((await requestCounts(sandbox))['GET /v1/cashback/history']).toBe(2001);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
