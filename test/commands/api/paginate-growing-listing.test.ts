/**
 * `b2bctl api --paginate` on a newest-first listing that grows at its head while it is read (a busy store's orders):
 * an order created between two pages moves every later one down a place, so the next page starts with the last one
 * written. Each item is written once (by its id), the run warns that the listing changed, and a listing that grows as
 * fast as it is read is stopped without blaming a route that pages by offset.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const { routes } = platform;

/** The offset of each request received, in order. */
const asked: number[] = [];

function api(args: string[]) {
  asked.length = 0;
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env });
}

/**
 * The order listing, newest first, 25 a page: `created(request)` orders are created before the page asked by the
 * request numbered so (0 the first), each newer than all before.
 */
function growingListing(count: number, created: (request: number) => number): RouteHandler {
  const orders = Array.from({ length: count }, (_, index) => ({ id: count - index, status: 'NEW' }));
  return (request, _body, response) => {
    const offset = Number(new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0');
    for (let made = created(asked.length); made > 0; made--) orders.unshift({ id: orders.length + 1, status: 'NEW' });
    asked.push(offset);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(orders.slice(offset, offset + 25)));
  };
}

const idsOf = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: number }).id);
/** The ids from `from` down to `to`, as a newest-first listing answers them. */
const down = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, index) => from - index);
const sixtyDown = down(60, 1);

describe('api --paginate over a listing growing at its head', () => {
  it('an order created before the second page is written once, not at the end of page 1 and the start of page 2', async () => {
    routes['GET /v1/orders'] = growingListing(60, (request) => (request === 1 ? 1 : 0));
    const result = await api(['/v1/orders', '--paginate']);
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual(sixtyDown);
    expect(asked).toEqual([0, 25, 50, 61]);
    expect(result.stderr.split('\n')).toEqual([
      'warning: the listing changed while it was read (1 item already written answered again further down, the first in the page of offset 25, each written once): an item added or removed meanwhile may be missing; run it again for a settled list.',
      '',
    ]);
  });

  it('orders created before pages 2 and 3 (two, then one): each written once, one warning, exit 0', async () => {
    routes['GET /v1/orders'] = growingListing(60, (request) => [0, 2, 1][request] ?? 0);
    const result = await api(['/v1/orders', '--paginate', '--slurp']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { id: number }[]).map((order) => order.id)).toEqual(sixtyDown);
    expect(asked).toEqual([0, 25, 50, 63]);
    expect(result.stderr).toContain(
      '(3 items already written answered again further down, the first in the page of offset 25',
    );
  });

  it.each([['one order', 1, [0, 25, 50, 62, 63, 64, 65, 66, 67]]])(
    '%s created before every page: each written once, then stopped as a listing outrun, not a route ignoring the offset',
    async (_, perPage, offsets) => {
      routes['GET /v1/orders'] = growingListing(60, (request) => (request === 0 ? 0 : perPage));
      const result = await api(['/v1/orders', '--paginate']);
      expect(result.code).toBe(1);
      expect(idsOf(result.stdout)).toEqual(sixtyDown);
      expect(asked).toEqual(offsets);
      const [first, last] = [offsets.at(-6), offsets.at(-1)];
      expect(result.stderr.split('\n')).toEqual([
        `error: GET ${platform.url}/v1/orders?offset=${last}&limit=25 answered the page of offset ${first} again, 5 times in a row: items are added at the head of the listing as fast as it is read (each answer found that page moved down as far as the read moved on); stopped instead of chasing it (every one of the items read was written once; items added meanwhile are not in this read). Run it again when the store is quieter.`,
        '',
      ]);
      expect(result.stderr).not.toContain('does not seem to page by offset');
    },
  );

  // Three orders created before every page make the last page of three come back whole at the next offset, which a
  // route answering its last page past the end does too: every order listed when the read began was read, so the
  // read ends there, exit 0, with the warning (a user test), instead of five more requests and an error.
  it('three orders created before every page: the last page answered whole at the next offset ends the read, each written once', async () => {
    routes['GET /v1/orders'] = growingListing(60, (request) => (request === 0 ? 0 : 3));
    const result = await api(['/v1/orders', '--paginate']);
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual(sixtyDown);
    expect(asked).toEqual([0, 25, 50, 66, 69]);
    expect(result.stderr.split('\n')).toEqual([
      'warning: the listing changed while it was read (9 items already written answered again further down, the first in the page of offset 25, each written once): an item added or removed meanwhile may be missing; run it again for a settled list.',
      `warning: GET ${platform.url}/v1/orders?offset=69&limit=25 answered the page of offset 66 again (the same 3 items, in the same order), as a route that answers its last page past the end of the listing does instead of an empty page: read as the end (every one of the items answered was written once).`,
      '',
    ]);
  });

  // Pages of one item and three orders created before the third: the third page starts with the first page's order.
  // A memory of the last 3 pages (3 ids) wrote the first two orders again, exit 0, no word (a user test).
  it('pages of one, three orders created once before the third: each written once, whatever the shift', async () => {
    const orders = Array.from({ length: 8 }, (_, index) => ({ id: 8 - index, status: 'NEW' }));
    routes['GET /v1/orders'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0');
      if (asked.length === 2)
        orders.unshift({ id: 11, status: 'NEW' }, { id: 10, status: 'NEW' }, { id: 9, status: 'NEW' });
      asked.push(offset);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(orders.slice(offset, offset + 1)));
    };
    const result = await api(['/v1/orders', '--paginate', '--page-size', '1']);
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual([8, 7, 9, 6, 5, 4, 3, 2, 1]);
    expect(result.stderr.split('\n')).toEqual([
      'warning: the listing changed while it was read (2 items already written answered again further down, the first in the page of offset 3, each written once): an item added or removed meanwhile may be missing; run it again for a settled list.',
      '',
    ]);
  });

  it('pages of 5, fifteen orders created once before the third: each written once, with the warning', async () => {
    routes['GET /v1/orders'] = (() => {
      const orders = Array.from({ length: 35 }, (_, index) => ({ id: 35 - index, status: 'NEW' }));
      return ((request, _body, response) => {
        const offset = Number(new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0');
        if (asked.length === 2)
          orders.unshift(...Array.from({ length: 15 }, (_, index) => ({ id: 50 - index, status: 'NEW' })));
        asked.push(offset);
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(orders.slice(offset, offset + 5)));
      }) satisfies RouteHandler;
    })();
    const result = await api(['/v1/orders', '--paginate', '--page-size', '5']);
    expect(result.code).toBe(0);
    // The third page (offset 10) is the newcomers 40 to 36; 50 to 41 stand above where the read had got to, which no
    // page at a later offset shows (the warning says items added meanwhile may be missing). Every order a page
    // answered is written, once, in the order answered: a newcomer dropped, or one written twice, fails this.
    expect(idsOf(result.stdout)).toEqual([...down(35, 26), ...down(40, 36), ...down(25, 1)]);
    expect(result.stderr).toContain(
      '(10 items already written answered again further down, the first in the page of offset 15',
    );
  });

  it('items without an id are written as answered: two equal ones are not one', async () => {
    const rows = [
      { sku: 'A', quantity: 1 },
      { sku: 'A', quantity: 1 },
      { sku: 'B', quantity: 2 },
    ];
    routes['GET /v1/anything'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0');
      asked.push(offset);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(rows.slice(offset, offset + 2)));
    };
    const result = await api(['/v1/anything', '--paginate', '--page-size', '2', '--slurp']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toEqual(rows);
    expect(asked).toEqual([0, 2, 3]);
  });

  it('an id written as text and the same digits as a number are two items', async () => {
    const rows = [{ id: 7 }, { id: '7' }];
    routes['GET /v1/anything'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0');
      asked.push(offset);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(rows.slice(offset, offset + 1)));
    };
    const result = await api(['/v1/anything', '--paginate', '--page-size', '1', '--slurp']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toEqual(rows);
  });
});
