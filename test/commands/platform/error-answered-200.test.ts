/**
 * A gateway's or a Java platform's error answered with 200, from a real HTTP server scripted per route (user
 * tests): a listing answer that says it failed, counts records it does not list, or holds no list is
 * no empty page, and an order detail that says it failed or is an empty envelope is no order. Neither may end a
 * listing, move a cursor or be written as an order.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { ordersInOutDir } from '../../support/run-files.js';
import { type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

function run(args: string[], options: { configDir?: string; cwd?: string } = {}) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(args, { configDir: options.configDir ?? freshConfigDir(), env, cwd: options.cwd });
}

const answer =
  (body: string): RouteHandler =>
  (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);

const offsetOf = (request: { url?: string }) =>
  Number(new URL(request.url ?? '/', platform.url).searchParams.get('offset') ?? 0);

/** A listing of these records by offset and limit, its pages past the end `[]`; `failAt` answers there instead. */
function paged(records: readonly unknown[], failAt?: { from: number; body: string }): RouteHandler {
  return (request, _body, response) => {
    const offset = offsetOf(request);
    const limit = Number(new URL(request.url ?? '/', platform.url).searchParams.get('limit') ?? 25);
    const body =
      failAt !== undefined && offset >= failAt.from
        ? failAt.body
        : JSON.stringify(records.slice(offset, offset + limit));
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  };
}

/**
 * The tester's error answers and a total with no list, with why each is no page (a regular expression: `sucesso` is
 * a refusal sign once refusal-signs.ts reads Portuguese status fields, and no list either way).
 */
const notPages: [string, string][] = [
  ['{"success":false,"message":"Internal error"}', 'it says it failed'],
  ['{"error":"Internal error"}', 'it says it failed'],
  ['{"status":500,"message":"Internal error"}', 'it says it failed'],
  ['{"sucesso":false,"mensagem":"Erro interno ao consultar pedidos"}', 'it (?:says it failed|holds no list)'],
  ['{"mensagem":"Nenhum pedido encontrado"}', 'it holds no list'],
  ['{"totalElements":"40"}', 'it counts 40 and lists none'],
  ['{"content":"erro"}', 'it holds no list'],
  ['{"data":null,"errors":[{"message":"Internal error"}]}', 'it says it failed'],
];

const orders = Array.from({ length: 30 }, (_, index) => ({
  id: 201 + index,
  orderId: 100_201 + index,
  status: 'NEW',
  lastUpdated: new Date(Date.now() - 3_000_000 + index * 60_000).toISOString(),
}));

describe('orders poll: a listing answered 200 with an error or a total and no list', () => {
  it.each(notPages)('%s: one line naming it, exit 69, nothing emitted, no cursor saved', async (body, why) => {
    routes['GET /v1/orders'] = answer(body);
    const configDir = freshConfigDir();
    const result = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    const line = `${escaped('failed with HTTP 200: the answer is no page of orders (')}${why}${escaped(`): ${body}`)}`;
    expect(result.stderr).toMatch(new RegExp(`^error: GET ${platform.url}/v1/orders\\?\\S+ ${line}\\n$`));
    expect(existsSync(join(configDir, 'cursors'))).toBe(false);
  });

  it('a later page answered so stops the run before the cursor passes the window; the next run emits every order', async () => {
    const configDir = freshConfigDir();
    routes['GET /v1/orders'] = paged(orders, { from: 25, body: '{"success":false,"message":"Internal error"}' });
    const failed = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
    expect(failed.code).toBe(69);
    expect(failed.stderr).toContain(
      'failed with HTTP 200: the answer is no page of orders (it says it failed): {"success":false,"message":"Internal error"}',
    );
    expect(existsSync(join(configDir, 'cursors'))).toBe(false);
    routes['GET /v1/orders'] = paged(orders);
    const healthy = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
    expect(healthy.code).toBe(0);
    expect(new Set(ndjsonOf<{ id: number }>(healthy.stdout).map((order) => order.id))).toEqual(
      new Set(orders.map((order) => order.id)),
    );
  });

  // A user test: a gateway's text page answered 200 was read as an empty listing, exit 0 every minute of the outage,
  // with advice to set answers.orders.items, which no setting could help.
  it.each([
    [
      'text/plain',
      'Sistema em manutencao',
      'failed with HTTP 200: the answer is no page of orders (it is text, not JSON): "Sistema em manutencao"',
    ],
    [
      'text/html',
      '<p>Sistema em manutencao</p>',
      "answered HTTP 200 with an HTML page instead of the platform's JSON: a proxy, firewall or captive portal",
    ],
  ])('a %s page answered 200 is no page: exit 69, nothing emitted, the cursor kept', async (type, text, said) => {
    const configDir = freshConfigDir();
    routes['GET /v1/orders'] = paged(orders);
    const cursor = join(configDir, 'cursors', 'default.orders-poll.json');
    expect((await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir })).code).toBe(0);
    const saved = readFileSync(cursor, 'utf8');
    received.length = 0;
    routes['GET /v1/orders'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': type }).end(text);
    const result = await run(['orders', 'poll', '-o', 'ndjson'], { configDir });
    expect(received[0]).toBe('GET /v1/orders');
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^error: GET ${escaped(platform.url)}/v1/orders\\?\\S+ ${escaped(said)}`));
    expect(result.stderr.split('\n').filter((line) => line !== '')).toHaveLength(1);
    expect(result.code).toBe(69);
    expect(readFileSync(cursor, 'utf8')).toBe(saved);
  });

  // An empty first page beside a total above 0 contradicts itself: read again, and refused if it stays so
  // (poll-short-pages.test.ts), not an empty window.
  it.each(['{}', '{"total":0,"items":null}', '{"content":[],"totalElements":0}'])(
    'an empty page (%s) still ends the listing: exit 0, the cursor saved',
    async (body) => {
      routes['GET /v1/orders'] = answer(body);
      const configDir = freshConfigDir();
      const result = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('warning');
      expect(existsSync(join(configDir, 'cursors', 'default.orders-poll.json'))).toBe(true);
    },
  );

  it('orders get NUMBER: the search of such a listing is no "no such order": exit 69 naming it, nothing sent after', async () => {
    routes['GET /v1/orders'] = answer('{"success":false,"message":"Internal error"}');
    const result = await run(['orders', 'get', '100230', '-o', 'json']);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/orders?limit=25&offset=0 failed with HTTP 200: the answer is no page of orders (it says it failed): {"success":false,"message":"Internal error"}\n`,
    );
    expect(received).toEqual(['GET /v1/orders/100230', 'GET /v1/orders']);
  });

  it('orders ready NUMBER: the move is not sent to the number as an id, failed, exit 1', async () => {
    routes['GET /v1/orders'] = answer('{"success":false,"message":"Internal error"}');
    routes['PUT /v1/orders/*'] = (_request, _body, response) => response.writeHead(404).end();
    const result = await run(['orders', 'ready', '100230', '--erp-number', 'X']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'failed with HTTP 200: the answer is no page of orders (it says it failed): {"success":false,"message":"Internal error"}',
    );
    expect(received.filter((request) => request.startsWith('PUT'))).toEqual([]);
  });
});

describe('an order detail answered 200 that holds no order: an error, or an envelope with nothing in it', () => {
  const details: [string, string][] = [
    ['{"success":false,"message":"Internal error"}', 'an answer that says it failed'],
    ['{"data":null}', 'an envelope holding no order'],
    ['{"order":null}', 'an envelope holding no order'],
    ['{"data":[]}', 'an envelope holding no order'],
    ['{"content":{}}', 'an empty object'],
    ['{"result":"OK"}', 'an envelope holding no order'],
  ];
  const listing = details.map(([,], index) => ({
    id: 7 + index,
    orderId: 1007 + index,
    status: 'INVOICED',
    lastUpdated: new Date(Date.now() - 600_000 + index * 60_000).toISOString(),
  }));
  beforeEach(() => {
    routes['GET /v1/orders'] = paged(listing);
    details.forEach(([body], index) => (routes[`GET /v1/orders/${7 + index}`] = answer(body)));
  });

  it('orders poll --detail: each listing entry written in its place with a warning naming the answer; exit 0', async () => {
    const result = await run(['orders', 'poll', '--since', '1h', '--detail', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(ndjsonOf(result.stdout)).toEqual(listing);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings.toSorted()).toEqual(
      listing
        .map(
          (order, index) =>
            `warning: order ${order.id} (updated ${order.lastUpdated}) is listed but its detail answered 200 with ${details[index]?.[1]} (${details[index]?.[0]}): its listing entry was written in its place; b2bctl orders get ${order.id} reads it later.`,
        )
        .toSorted(),
    );
  });

  it('orders poll --detail --out-dir: the files hold the listing entries, none holds the answer', async () => {
    const dir = freshWorkDir();
    const result = await run(['orders', 'poll', '--since', '1h', '--detail', '--out-dir', 'od'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(ordersInOutDir(join(dir, 'od'))).toEqual(listing);
  });

  it.each(details.map(([body, instead], index) => [String(7 + index), body, instead]))(
    'orders get %s (%s): one line naming what came, nothing on stdout, exit 69',
    async (id, body, instead) => {
      const result = await run(['orders', 'get', id, '-o', 'json']);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: GET ${platform.url}/v1/orders/${id} failed with HTTP 200: the order's detail came as ${instead} (${body}), not the order's JSON\n`,
      );
      expect(result.code).toBe(69);
    },
  );

  it('a detail that shows its id in an envelope beside other fields is still the order', async () => {
    routes['GET /v1/orders/7'] = answer('{"data":{"id":7,"orderId":1007,"status":"INVOICED"},"success":true}');
    const result = await run(['orders', 'get', '7', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: 7, orderId: 1007, status: 'INVOICED' });
  });
});

const reps = Array.from({ length: 45 }, (_, index) => ({
  id: `rep-${index + 1}`,
  username: `rep${index + 1}@loja.com.br`,
  document: '529.982.247-25',
}));

describe('sellers list and customer addresses: a page answered 200 with an error or a total and no list', () => {
  it.each([
    ['{"success":false,"message":"Internal error"}', 'it says it failed'],
    ['{"totalElements":"2"}', 'it counts 2 and lists none'],
  ])('sellers list (%s): exit 69 naming it, not []', async (body, why) => {
    routes['GET /sellerModule/listSellers'] = answer(body);
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: GET ${platform.url}/sellerModule/listSellers\\S* ${escaped(`failed with HTTP 200: the answer is no page of sales reps (${why}): ${body}`)}\\n$`,
      ),
    );
  });

  it('sellers list --all: a later page so answered is no end of the listing: exit 69 after the reps read', async () => {
    // A store capping its pages at 20: the first page is whole, the next says it failed.
    routes['GET /sellerModule/listSellers'] = (request, _body, response) => {
      const offset = offsetOf(request);
      const body = offset === 0 ? JSON.stringify(reps.slice(0, 20)) : '{"success":false,"message":"Internal error"}';
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    };
    const result = await run(['sellers', 'list', '--all', '-o', 'json']);
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=500&offset=20 failed with HTTP 200: the answer is no page of sales reps (it says it failed)`,
    );
    expect(received).toEqual(['GET /sellerModule/listSellers', 'GET /sellerModule/listSellers']);
  });

  it.each([
    ['{"success":false,"message":"Internal error"}', 'it says it failed'],
    ['{"totalElements":"2"}', 'it counts 2 and lists none'],
  ])('customer addresses (%s): exit 69 naming it, not []', async (body, why) => {
    routes['GET /v1/customer/addresses/*'] = answer(body);
    const result = await run(['customer', 'addresses', '529.982.247-25', '-o', 'json']);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: GET ${platform.url}/v1/customer/addresses/\\S+ ${escaped(`failed with HTTP 200: the answer is no page of addresses (${why}): ${body}`)}\\n$`,
      ),
    );
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// A 200 that is no page is quoted, not read: its quote masks the token it echoes, as a 4xx's does (a user test).
describe('a listing answered 200 that is no page and quotes the token', () => {
  const body = '{"success":false,"message":"session a-pre-issued-token-0123456789 expired"}';
  const quoted = '{"success":false,"message":"session [redacted] expired"}';

  it.each([
    ['orders poll', ['orders', 'poll', '--since', '1h', '-o', 'ndjson']],
    ['orders get NUMBER', ['orders', 'get', '100230', '-o', 'json']],
  ])('%s: the error line quotes it masked; exit 69, nothing on stdout', async (_name, args) => {
    routes['GET /v1/orders'] = answer(body);
    const result = await run(args);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`the answer is no page of orders (it says it failed): ${quoted}`);
    expect(result.stderr).not.toContain('a-pre-issued-token-0123456789');
  });
});
