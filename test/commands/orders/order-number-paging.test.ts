/**
 * `orders get NUMBER` against listings that do not page as the platform document says. A listing that answers the
 * same page whatever the offset stops the number search in a few requests, with one line and exit 1, where it was
 * read for ever; a store that caps its pages below the 25 asked still has its numbers found.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const { routes } = platform;

/** The offset of each listing request received, in order. */
const offsets: number[] = [];

interface Listed {
  id: number;
  orderId?: number;
  lastUpdated: string;
}

/** `count` orders, ids 1 up and numbers 100,001 up, newest (the highest) first, as the listing gives them. */
function newestFirst(count: number): Listed[] {
  return Array.from({ length: count }, (_, index) => ({
    id: count - index,
    orderId: 100_000 + count - index,
    lastUpdated: '2026-11-28T10:00:00.000Z',
  }));
}

/** The orders, those at the places `numberless` picks without their number (`orderId`). */
function withoutNumbers(orders: Listed[], numberless: (index: number) => boolean): Listed[] {
  return orders.map((order, index) => (numberless(index) ? { id: order.id, lastUpdated: order.lastUpdated } : order));
}

/** A listing of `orders` by offset, at most `cap` a page whatever the limit asked. */
function listing(orders: Listed[], cap: number): RouteHandler {
  return (request, _body, response) => {
    const query = new URL(request.url ?? '', 'http://localhost').searchParams;
    const offset = Number(query.get('offset') ?? '0');
    offsets.push(offset);
    const limit = Math.min(Number(query.get('limit') ?? cap), cap);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(orders.slice(offset, offset + limit)));
  };
}

/** A listing route that answers the same page whatever the offset. */
function ignoringOffset(page: Listed[]): RouteHandler {
  return (request, _body, response) => {
    offsets.push(Number(new URL(request.url ?? '', 'http://localhost').searchParams.get('offset')));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
  };
}

/** A listing of `orders` by offset that answers its last page for any offset past the end (it clamps the offset). */
function clampingOffset(orders: Listed[]): RouteHandler {
  return (request, _body, response) => {
    const query = new URL(request.url ?? '', 'http://localhost').searchParams;
    const asked = Number(query.get('offset') ?? '0');
    offsets.push(asked);
    const limit = Number(query.get('limit') ?? 25);
    const offset = asked < orders.length ? asked : Math.max(0, Math.floor((orders.length - 1) / limit) * limit);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(orders.slice(offset, offset + limit)));
  };
}

/** The detail route: the orders by id, a 404 for any other value (a number among them). */
function details(orders: Listed[]): RouteHandler {
  return (request, _body, response) => {
    const order = orders.find((listed) => `/v1/orders/${listed.id}` === request.url);
    if (order) response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(order));
    else response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Order not found"}');
  };
}

function ordersGet(value: string) {
  offsets.length = 0;
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['orders', 'get', value, '-o', 'json'], { configDir: freshConfigDir(), env });
}

describe('orders get NUMBER on a listing that ignores the offset', () => {
  it.each([
    // A page of one order: an order created meanwhile moves it down one, so it stops at its fifth answer again.
    ['a page of one order', newestFirst(1), [0, 25, 75, 175, 375, 775]],
    // A larger page: the bisection's jumps could meet orders created meanwhile once, not twice in a row.
    ['a page of three orders', newestFirst(3), [0, 25, 75]],
    // Numbers rising down the page: read in turn from the start, the first page answered again at the next offset.
    ['a page of three orders out of number order', newestFirst(3).toReversed(), [0, 0, 3]],
    // Orders without a number: read in turn too, the first page answered again at the next offset.
    ['a page of three orders without a number', withoutNumbers(newestFirst(3), () => true), [0, 0, 3]],
  ])('%s: one line, exit 1, after a few requests', async (_, page, asked) => {
    routes['GET /v1/orders'] = ignoringOffset(page);
    routes['GET /v1/orders/*'] = details(page);
    const result = await ordersGet('100000');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      `error: the order listing answered the same page at offset ${asked.at(-1)} as at offset 0: it does not seem to page by offset; stopped the search for order number 100000 instead of reading it for ever.`,
      '',
    ]);
    expect(offsets).toEqual(asked);
  });
});

describe('orders get NUMBER on a store that caps its pages below the 25 asked', () => {
  it.each([
    ['in number order', newestFirst(300)],
    ['out of number order (read in turn)', newestFirst(300).toReversed()],
  ])('pages of 10, %s: the number is found and its detail written', async (_, orders) => {
    routes['GET /v1/orders'] = listing(orders, 10);
    routes['GET /v1/orders/*'] = details(orders);
    const result = await ordersGet('100123');
    expect(result.stderr).toBe('order 100123 is id 123\n');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 123, orderId: 100123 });
  });
});

describe('orders get NUMBER on a listing whose oldest orders show no number', () => {
  it('the order is found past the numbered pages, its detail written', async () => {
    // 300 orders, the oldest 60 (offsets 240 to 299) without a number: the order is at offset 200.
    const orders = withoutNumbers(newestFirst(300), (index) => index >= 240);
    routes['GET /v1/orders'] = listing(orders, 25);
    routes['GET /v1/orders/*'] = details(orders);
    const result = await ordersGet('100100');
    expect(result.stderr).toBe('order 100100 is id 100\n');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 100, orderId: 100100 });
    // The gallop and the bisection up to the first page of numberless orders (at 275), which bounds nothing: then
    // the listing read in turn from its start (where the search had jumped past offsets 200 to 274).
    const inTurn = Array.from({ length: 9 }, (_, page) => page * 25);
    expect(offsets).toEqual([0, 25, 75, 175, 375, 275, ...inTurn]);
  });
});

/** The warning of a full read ending at the clamping listing's last page (offset 50) answered again at 60. */
function lastPageAgain(): string {
  return `warning: GET ${platform.url}/v1/orders?limit=25&offset=60 answered the page of offset 50 again (the same 10 orders, in the same order), as a route that answers its last page past the end of the listing does instead of an empty page: read as the end (every order listed was read).`;
}

describe('orders get NUMBER read in turn on a listing that answers its last page again past the end', () => {
  // 60 orders, numbers rising down the listing (so it is read in turn); at offset 60 and on, the page of offset 50.
  const orders = newestFirst(60).toReversed();
  it('a number no order has: the read ends there, as sellers list --all and api --paginate end, exit 1 saying so', async () => {
    routes['GET /v1/orders'] = clampingOffset(orders);
    routes['GET /v1/orders/*'] = details(orders);
    const result = await ordersGet('99999');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    // It read on five requests more and stopped with "orders are created as fast as it is read".
    expect(result.stderr.split('\n')).toEqual([
      lastPageAgain(),
      "error: order 99999: the platform has no order with that id, and no order has that number (the listing was read to its end: 60 orders); give the order's id (the id of orders poll and of the orders webhook) or its number (orderId)",
      '',
    ]);
    // The first page (out of order), then in turn from the start: 0, 25, 50, and the page of 50 answered again at 60.
    expect(offsets).toEqual([0, 0, 25, 50, 60]);
  });

  it('a number of the last page: found before the read reaches the end, no warning', async () => {
    routes['GET /v1/orders'] = clampingOffset(orders);
    routes['GET /v1/orders/*'] = details(orders);
    const result = await ordersGet('100055');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('order 100055 is id 55\n');
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 55, orderId: 100055 });
  });
});
