/**
 * `b2bctl api --paginate` against a store whose pages are shorter than the limit asked (a cap of its own): only an
 * empty page ends a listing, as the platform document says, so every item past a short page is read. A route that
 * ignores the offset still stops the run, whatever its page's length, one item included, in a few requests.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const { routes } = platform;

/** The `offset` and `limit` of each request received, in order. */
const asked: string[] = [];

function api(args: string[]) {
  asked.length = 0;
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env });
}

/** A listing answered from `items()` (read at each request) by offset, at most `cap` a page whatever the limit. */
function listing(items: () => unknown[], cap: number): RouteHandler {
  return (request, _body, response) => {
    const query = new URL(request.url ?? '', 'http://localhost').searchParams;
    asked.push(`offset=${query.get('offset')} limit=${query.get('limit')}`);
    const offset = Number(query.get('offset') ?? '0');
    const limit = Math.min(Number(query.get('limit') ?? cap), cap);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(items().slice(offset, offset + limit)));
  };
}

/** A route that answers the same page whatever the offset. */
function ignoringOffset(page: unknown[]): RouteHandler {
  return (request, _body, response) => {
    const query = new URL(request.url ?? '', 'http://localhost').searchParams;
    asked.push(`offset=${query.get('offset')} limit=${query.get('limit')}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
  };
}

const ids = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: number }).id);
const numbered = (count: number) => Array.from({ length: count }, (_, index) => ({ id: index + 1 }));

describe('api --paginate on a store that caps its pages below the limit asked', () => {
  it.each([
    ['a recognised listing (limit 50)', '/v1/quotes/pending', [], '50'],
    ['an unknown route with --page-size 100', '/v1/anything', ['--page-size', '100'], '100'],
  ])('%s: 35 items in pages of 10 are all written once, exit 0', async (_, path, flags, limit) => {
    const items = numbered(35);
    routes[`GET ${path}`] = listing(() => items, 10);
    const result = await api([path, '--paginate', ...flags]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(items.map((item) => item.id));
    expect(asked).toEqual([0, 10, 20, 30, 35].map((offset) => `offset=${offset} limit=${limit}`));
  });

  it('--slurp of the capped listing is one array of the 35', async () => {
    const items = numbered(35);
    routes['GET /v1/quotes/pending'] = listing(() => items, 10);
    const result = await api(['/v1/quotes/pending', '--paginate', '--slurp']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(items);
  });

  it('an item added at the head as the one-item last page is read is written once, with a warning, exit 0', async () => {
    // Newest first: 11 items in pages of 10; a new one arrives after the last page, pushing item 1 to offset 11.
    const items = numbered(11).toReversed();
    routes['GET /v1/contracts'] = listing(() => {
      if (asked.length === 3) items.unshift({ id: 12 });
      return items;
    }, 10);
    const result = await api(['/v1/contracts', '--paginate']);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(
      numbered(11)
        .map((item) => item.id)
        .toReversed(),
    );
    expect(asked).toEqual([0, 10, 11, 12].map((offset) => `offset=${offset} limit=50`));
    expect(result.stderr.split('\n')).toEqual([
      'warning: the listing changed while it was read (1 item already written answered again further down, the first in the page of offset 11, each written once): an item added or removed meanwhile may be missing; run it again for a settled list.',
      '',
    ]);
  });
});

describe('api --paginate on a route that ignores the offset', () => {
  it.each([
    ['a short page of 3', numbered(3), 2],
    ['a page of one item, answered again five times in a row', numbered(1), 6],
  ])('%s: written once, then one line and exit 1', async (_, page, requests) => {
    routes['GET /v1/quotes/pending'] = ignoringOffset(page);
    const result = await api(['/v1/quotes/pending', '--paginate']);
    expect(result.code).toBe(1);
    expect(ids(result.stdout)).toEqual(page.map((item) => item.id));
    const last = page.length * (requests - 1);
    expect(asked).toHaveLength(requests);
    expect(asked.at(-1)).toBe(`offset=${last} limit=50`);
    expect(result.stderr.split('\n')).toEqual([
      `error: GET ${platform.url}/v1/quotes/pending?offset=${last}&limit=50 answered the same page as offset 0: the route does not seem to page by offset; stopped instead of looping (the items of offset 0 were written once).`,
      '',
    ]);
  });
});
