/**
 * The callback's own route, taken before fastify's router, against fastify's route for the same callback: a request
 * sent both ways (as a platform sends it, and chunked or with a query string, which only fastify takes) gets the
 * same status, headers that matter and body, byte for byte: answers, refusals of the credential, bodies that are not
 * JSON or carry a prototype's key, a cart too large.
 */
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrustedProxies } from '../../../src/http-server/trust-proxy.js';
import type { TaxAuth } from '../../../src/tax/callback-auth.js';
import { callbackFirst, type CallbackRoute } from '../../../src/tax/callback-route.js';
import { startLoopbackTaxServer } from '../../support/tax-server.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { watchedFixtureTable } from '../../support/tax-table.js';

const token = '0123456789abcdef0123456789abcdef';
const tokenAuth: TaxAuth = {
  kind: 'token',
  clientId: 'plataforma',
  clientSecret: 'segredo-do-cliente-com-32-caracteres-ou-mais',
  ttlSeconds: 60,
  tokenPath: '/oauth/token',
};
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  removeTemporaryFolders();
});

async function serve(auth: TaxAuth = { kind: 'bearer', token }, trustProxy?: TrustedProxies) {
  const { table } = await watchedFixtureTable('b2bctl-tax-route-');
  closers.push(() => table.close());
  const warnings: string[] = [];
  const log = { warn: (line: string) => warnings.push(line) };
  let now = Date.parse('2026-11-30T06:00:00Z');
  const server = await startLoopbackTaxServer({ table, auth, trustProxy, log, now: () => now }, closers);
  /** Moves the server's clock on: refused carts are logged once per address a minute. */
  const advance = (ms: number) => (now += ms);
  return { server, warnings, advance };
}

interface Answer {
  status: number;
  body: string;
  type: string | undefined;
  challenge: string | undefined;
  connection: string | undefined;
}

/** A POST with a Content-Length (the callback's own route), or chunked with the query `?via=fastify` (fastify's). */
function post(url: string, body: string, options: { via: 'own' | 'fastify'; headers?: Record<string, string> }) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...options.headers };
  return new Promise<Answer>((resolve, reject) => {
    const path = options.via === 'own' ? '/tax' : '/tax?via=fastify';
    const sending = httpRequest(`${url}${path}`, {
      method: 'POST',
      headers: options.via === 'own' ? { ...headers, 'content-length': String(Buffer.byteLength(body)) } : headers,
    });
    sending.on('error', reject);
    sending.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          type: response.headers['content-type'],
          challenge: response.headers['www-authenticate'],
          connection: response.headers.connection,
        }),
      );
    });
    // Two writes without a length: chunked, which only fastify's route takes.
    if (options.via === 'fastify') sending.write(body.slice(0, 5));
    sending.end(options.via === 'fastify' ? body.slice(5) : body);
  });
}

const cart = (items: number, ncm = '39269090') =>
  JSON.stringify({
    origin: { state: 'SP' },
    destination: { state: 'RJ' },
    customer: { paysIcms: true },
    items: Array.from({ length: items }, (_, index) => ({
      sku: `SKU-${index}`,
      ncm,
      quantity: 1 + index,
      unitPrice: 45.9,
      freight: 12,
    })),
  });

describe('the callback’s own route', () => {
  it.each([
    ['a cart', cart(1)],
    ['a cart read in many pieces', cart(3_000)],
    ['a cart answered by the general path', cart(1).replace('"ncm":"39269090"', '"ncm":"3926.90.90"')],
    ['an item without a row', cart(2, '85176255')],
    ['a cart the shape cannot read', '{"origin":{}}'],
    ['a body that is not JSON', '{"items": ['],
    ['a prototype’s key', '{"items":[],"__proto__":{"x":1}}'],
    ['a constructor’s prototype', '{"items":[],"constructor":{"prototype":{"x":1}}}'],
  ])('answers %s as fastify’s route does', async (_case, body) => {
    const { server } = await serve();
    const own = await post(server.url, body, { via: 'own' });
    const fastify = await post(server.url, body, { via: 'fastify' });
    expect(own).toEqual(fastify);
    expect(own.type).toBe('application/json; charset=utf-8');
  });

  it('answers a body that is not JSON with 400 in the callback’s error shape and closes the connection; logged and counted', async () => {
    const { server, warnings } = await serve();
    const own = await post(server.url, '{"items": [', { via: 'own' });
    expect(own).toMatchObject({ status: 400, connection: 'close' });
    expect(JSON.parse(own.body)).toEqual({ error: 'not-json', message: 'the body is not JSON: send the cart as JSON' });
    expect(warnings).toEqual([
      'tax callback refused a cart from 127.0.0.1: its body is not JSON (11 characters, content-type application/json).',
    ]);
    expect(server.counts).toMatchObject({ unreadable: 1, refused: 0, answered: 0 });
  });

  // Fastify answered these with its own shape and code (`"code":"FST_ERR_CTP_INVALID_JSON_BODY","error":"Bad
  // Request"`), saying "not valid JSON" of valid JSON with a prototype's key too (a user test).
  it.each([
    [
      'a body cut short',
      '{"items":[',
      'not-json',
      'the body is not JSON: send the cart as JSON',
      'its body is not JSON',
    ],
    ['an empty body', '', 'not-json', 'the body is empty: send the cart as JSON', 'its body is empty'],
    [
      'a "__proto__" key',
      '{"__proto__":{"items":[1]}}',
      'bad-request',
      'the cart holds the key "__proto__", refused for safety (a prototype\'s key could change what the cart\'s other values read as): leave it out',
      'the cart holds the key "__proto__", refused',
    ],
    [
      'a constructor’s prototype in an item',
      cart(1).replace('"sku":"SKU-0"', '"sku":"SKU-0","constructor":{"prototype":{"x":1}}'),
      'bad-request',
      'the cart holds the key "prototype" in "constructor" at "items.0", refused for safety (a prototype\'s key could change what the cart\'s other values read as): leave it out',
      'the cart holds the key "prototype" in "constructor" at "items.0", refused',
    ],
    // Spelt with JSON escapes, which the quick look for the plain spellings does not see: the full look does.
    [
      'a "__proto__" key spelt with an escape',
      '{"\\u005f_proto__":{"items":[1]}}',
      'bad-request',
      'the cart holds the key "__proto__", refused for safety (a prototype\'s key could change what the cart\'s other values read as): leave it out',
      'the cart holds the key "__proto__", refused',
    ],
    [
      'a constructor’s prototype spelt with escapes in an item',
      cart(1).replace('"sku":"SKU-0"', '"sku":"SKU-0","constr\\u0075ctor":{"prototyp\\u0065":{"x":1}}'),
      'bad-request',
      'the cart holds the key "prototype" in "constructor" at "items.0", refused for safety (a prototype\'s key could change what the cart\'s other values read as): leave it out',
      'the cart holds the key "prototype" in "constructor" at "items.0", refused',
    ],
  ])(
    'refuses %s with 400 in the callback’s error shape on both routes, nothing computed; logged and counted',
    async (_case, body, error, message, logged) => {
      for (const via of ['own', 'fastify'] as const) {
        const { server, warnings } = await serve();
        const answer = await post(server.url, body, { via });
        expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
          status: 400,
          body: { error, message },
        });
        expect(answer).toMatchObject({ type: 'application/json; charset=utf-8', connection: 'close' });
        expect(warnings).toEqual([expect.stringContaining(`tax callback refused a cart from 127.0.0.1: ${logged}`)]);
        expect(server.counts).toMatchObject({ unreadable: 1, answered: 0, failed: 0, refused: 0 });
      }
    },
  );

  /** `body` POSTed with `Content-Encoding: coding`, with its length (the own route's form) or chunked. */
  function postEncoded(url: string, body: Buffer, coding: string, via: 'own' | 'fastify') {
    return new Promise<{ status: number; body: string; accept?: string }>((resolve, reject) => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'content-encoding': coding,
        authorization: `Bearer ${token}`,
        ...(via === 'own' ? { 'content-length': String(body.length) } : {}),
      };
      const sending = httpRequest(`${url}/tax`, { method: 'POST', headers });
      sending.on('error', reject);
      sending.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            accept: response.headers['accept-encoding'],
          }),
        );
      });
      sending.end(body);
    });
  }

  // A user test: a gzip cart was answered "Body is not valid JSON": it is now read, as the webhook receiver reads an event.
  it('answers a gzip-encoded cart as the same cart unencoded, on both routes', async () => {
    const { server } = await serve();
    const plain = await post(server.url, cart(2), { via: 'own' });
    for (const via of ['own', 'fastify'] as const) {
      const encoded = await postEncoded(server.url, gzipSync(cart(2)), 'gzip', via);
      expect(encoded).toEqual({ status: 200, body: plain.body, accept: undefined });
    }
    expect(server.counts).toMatchObject({ answered: 3, unreadable: 0 });
  });

  it('refuses a coding it does not decode 415 naming it, and a body not in its coding 400; logged and counted', async () => {
    const { server, warnings, advance } = await serve();
    const unknown = await postEncoded(server.url, Buffer.from(cart(1)), 'compress', 'own');
    const message =
      'the body could not be decoded (Content-Encoding compress): Content-Encoding compress is not accepted; send the body uncompressed, or gzip, deflate, br or zstd';
    expect(unknown).toEqual({
      status: 415,
      body: JSON.stringify({ error: 'unsupported-encoding', message }),
      accept: 'gzip, deflate, br, zstd',
    });
    advance(60_000);
    const notGzip = await postEncoded(server.url, Buffer.from(cart(1)), 'gzip', 'fastify');
    expect(notGzip.status).toBe(400);
    expect(JSON.parse(notGzip.body)).toMatchObject({
      error: 'bad-request',
      message: expect.stringMatching(
        /^the body could not be decoded \(Content-Encoding gzip\): The body is not valid gzip/,
      ),
    });
    expect(warnings).toEqual([
      `tax callback refused a cart from 127.0.0.1: ${message}.`,
      expect.stringMatching(/^tax callback refused a cart from 127.0.0.1: the body could not be decoded/),
    ]);
    expect(server.counts).toMatchObject({ unreadable: 2, answered: 0 });
  });

  it('refuses a gzip cart that inflates past 1 MB 413, reading no more than that', async () => {
    const { server } = await serve();
    const bomb = gzipSync(Buffer.alloc(20 * 1_048_576, ' '));
    const answer = await postEncoded(server.url, bomb, 'gzip', 'own');
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'too-large' });
  });

  it('reads a cart sent with Content-Encoding identity as it is', async () => {
    const { server } = await serve();
    const answer = await post(server.url, cart(1), { via: 'fastify', headers: { 'content-encoding': 'identity' } });
    expect(answer.status).toBe(200);
    expect(server.counts).toMatchObject({ answered: 1, unreadable: 0 });
  });

  it.each([
    ['PUT', '/tax', 405, 'POST', { error: 'method-not-allowed', message: '/tax takes POST, not PUT' }],
    ['GET', '/tax?x=1', 405, 'POST', { error: 'method-not-allowed', message: '/tax takes POST, not GET' }],
    [
      'DELETE',
      '/healthz',
      405,
      'GET, HEAD',
      { error: 'method-not-allowed', message: '/healthz takes GET or HEAD, not DELETE' },
    ],
    [
      'GET',
      '/nope',
      404,
      undefined,
      { error: 'not-found', message: 'no route GET "/nope": tax serve answers POST /tax, GET /healthz' },
    ],
    [
      'POST',
      '/nope',
      404,
      undefined,
      { error: 'not-found', message: 'no route POST "/nope": tax serve answers POST /tax, GET /healthz' },
    ],
  ])('answers %s %s with %i in the callback’s error shape', async (method, path, status, allow, body) => {
    const { server } = await serve();
    // A body that does not parse: a request to no route is refused for its route, whatever it sends.
    const answer = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      ...(method === 'GET' ? {} : { body: '{"items": [' }),
    });
    expect({
      status: answer.status,
      allow: answer.headers.get('allow') ?? undefined,
      body: await answer.json(),
    }).toEqual({
      status,
      allow,
      body,
    });
    expect(server.counts).toMatchObject({ answered: 0, unreadable: 0 });
  });

  it.each([
    ['a quantity', (deep: string) => cart(1).replace('"quantity":1', `"quantity":${deep}`)],
    ['whether the buyer pays ICMS', (deep: string) => cart(1).replace('"paysIcms":true', `"paysIcms":${deep}`)],
    ['the origin state', (deep: string) => cart(1).replace('"state":"SP"', `"state":${deep}`)],
  ])('refuses %s nested 100,000 levels deep with 400 on both routes, logged and counted', async (_where, nest) => {
    const body = nest(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(body).not.toBe(cart(1));
    // A server for each route: a second refused cart from one address within a minute is counted, not logged.
    for (const via of ['own', 'fastify'] as const) {
      const { server, warnings } = await serve();
      const answer = await post(server.url, body, { via });
      expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
        status: 400,
        body: { error: 'bad-request', message: 'the cart is nested deeper than 64 levels' },
      });
      expect(warnings).toEqual([
        'tax callback refused a cart from 127.0.0.1: the cart is nested deeper than 64 levels',
      ]);
      expect(server.counts).toMatchObject({ unreadable: 1, failed: 0, answered: 0 });
    }
  });

  it('logs and counts a cart the shape cannot read apart from wrong credentials', async () => {
    const { server, warnings } = await serve();
    const answer = await post(server.url, '{"origin":{}}', { via: 'own' });
    expect(answer.status).toBe(400);
    expect(warnings).toEqual([
      `tax callback refused a cart from 127.0.0.1: ${JSON.parse(answer.body).message as string}`,
    ]);
    expect(server.counts).toMatchObject({ unreadable: 1, refused: 0 });
  });

  it.each([
    ['a wrong bearer token', { kind: 'bearer', token } as TaxAuth, 'Bearer wrong'],
    ['no credential', { kind: 'bearer', token } as TaxAuth, ''],
    [
      'a wrong Basic password',
      { kind: 'basic', user: 'plataforma', password: 'segredo-de-16-caracteres' } as TaxAuth,
      `Basic ${Buffer.from('plataforma:outro').toString('base64')}`,
    ],
    ['an unknown token', tokenAuth, `Bearer ${'A'.repeat(54)}`],
    ['no token', tokenAuth, ''],
  ])('refuses %s with fastify’s 401, counted, nothing computed', async (_case, auth, authorization) => {
    const { server } = await serve(auth);
    const own = await post(server.url, cart(1), { via: 'own', headers: { authorization } });
    const fastify = await post(server.url, cart(1), { via: 'fastify', headers: { authorization } });
    expect(own).toEqual(fastify);
    expect(own.status).toBe(401);
    expect(own.challenge).toMatch(/^(Bearer|Basic)/);
    expect(server.counts).toMatchObject({ refused: 2, answered: 0 });
  });

  it('logs a refused token alike on both routes, naming the client as fastify’s request.ip', async () => {
    const { server, warnings } = await serve(tokenAuth, ['127.0.0.1']);
    const authorization = `Bearer ${'A'.repeat(54)}`;
    // Each route logs the first refusal of a client; the other's refusal of that client is counted, not logged.
    const sent = [
      ['own', '203.0.113.7'],
      ['fastify', '198.51.100.9'],
      ['fastify', '203.0.113.7'],
      ['own', '198.51.100.9'],
    ] as const;
    for (const [via, client] of sent)
      await post(server.url, cart(1), { via, headers: { authorization, 'x-forwarded-for': `${client}, 127.0.0.1` } });
    expect(warnings).toEqual(
      ['203.0.113.7', '198.51.100.9'].map(
        (client) =>
          `tax serve: Callback refused: wrong credential (token: Token unknown) from ${client}; further failures from ${client} in the next 60 s are counted, not logged.`,
      ),
    );
    expect(server.counts).toMatchObject({ refused: 4, answered: 0 });
  });

  it('counts the answers of both routes on /healthz', async () => {
    const { server, warnings } = await serve();
    await post(server.url, cart(1), { via: 'own' });
    await post(server.url, cart(1), { via: 'fastify' });
    // Two items without a row, in one cart: noRow counts the items.
    await post(server.url, cart(2, '85176255'), { via: 'own' });
    expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({
      answered: 2,
      noRow: 2,
      refused: 0,
      unreadable: 0,
    });
    expect(warnings).toEqual([
      expect.stringMatching(/^tax callback refused a cart from 127.0.0.1: The tax table has no row for NCM 85176255/),
    ]);
  });

  it.each([
    ['with its length', { 'content-length': '2000000' }, 'Content-Length 2000000'],
    ['chunked', {}, 'sent without a Content-Length, read up to the limit'],
  ])(
    'answers a cart over the body limit (%s) 413 unread, in its own words; logged and counted',
    async (_case, headers, sent) => {
      const { server, warnings } = await serve();
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const sending = httpRequest(`${server.url}/tax`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        });
        sending.on('error', reject);
        sending.on('response', (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
            sending.destroy();
          });
        });
        sending.write(`{"items":[${'{"sku":"A","ncm":"39269090","quantity":1,"unitPrice":1},'.repeat(20_000)}`);
      });
      const message = 'the cart is larger than 1 MB (1048576 bytes), the most tax serve reads';
      expect(answer).toEqual({ status: 413, body: JSON.stringify({ error: 'too-large', message }) });
      expect(warnings).toEqual([`tax callback refused a cart from 127.0.0.1: ${message} (${sent}).`]);
      expect(server.counts).toMatchObject({ unreadable: 1, refused: 0, answered: 0 });
    },
  );

  it.each([
    ['text/plain', 'text/plain', 'Content-Type text/plain'],
    ['a form', 'application/x-www-form-urlencoded', 'Content-Type application/x-www-form-urlencoded'],
    ['no content type', undefined, 'no Content-Type'],
  ])(
    'refuses a cart sent as %s 415, saying to send JSON, not for the items it would lack; logged and counted',
    async (_case, type, given) => {
      const { server, warnings } = await serve();
      const answer = await fetch(`${server.url}/tax`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...(type === undefined ? {} : { 'content-type': type }) },
        // A Blob has no type: fetch then sends no Content-Type at all.
        body: new Blob([cart(1)]),
      });
      const message = `the body was not read as JSON (${given}): send application/json`;
      expect({ status: answer.status, body: await answer.json() }).toEqual({
        status: 415,
        body: { error: 'not-json', message },
      });
      expect(warnings).toEqual([`tax callback refused a cart from 127.0.0.1: ${message}.`]);
      expect(server.counts).toMatchObject({ unreadable: 1, refused: 0, answered: 0 });
    },
  );

  it('logs and counts a body that is not JSON on fastify’s route too (a chunked one)', async () => {
    const { server, warnings } = await serve();
    const fastify = await post(server.url, '{"items": [', { via: 'fastify' });
    expect(fastify.status).toBe(400);
    expect(warnings).toEqual([
      'tax callback refused a cart from 127.0.0.1: its body is not JSON (no content-length, content-type application/json).',
    ]);
    expect(server.counts).toMatchObject({ unreadable: 1, refused: 0 });
  });

  it.each([
    ['the peer, without --trust-proxy', undefined, '127.0.0.1'],
    ['the nearest untrusted address, behind a trusted proxy', ['127.0.0.1'], '203.0.113.9'],
    ['the address past the trusted hops', 2, '198.51.100.7'],
    ['the address past a trusted range', ['127.0.0.1', '203.0.113.0/24'], '198.51.100.7'],
  ] as [string, TrustedProxies | undefined, string][])(
    'names the client of a refused cart as fastify’s request.ip on both routes: %s',
    async (_case, trustProxy, client) => {
      const { server, warnings, advance } = await serve({ kind: 'bearer', token }, trustProxy);
      const headers = { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' };
      for (const via of ['own', 'fastify'] as const) {
        // A minute apart: a client's refused carts are logged once a minute.
        for (const body of ['{"items": [', '{"origin":{}}', cart(1, '85176255')]) {
          await post(server.url, body, { via, headers });
          advance(60_000);
        }
      }
      const clients = warnings.map((line) => /^tax callback refused a cart from (\S+):/.exec(line)?.[1]);
      expect(clients).toEqual(Array(6).fill(client));
    },
  );
});

/** A request from `client`, as a trusted proxy on loopback names it. */
const from = (client: string) => ({ headers: { 'x-forwarded-for': client } });

/** The line of a cart from `client` whose body did not parse, as one test sends it. */
const notJson = (client: string) =>
  `tax callback refused a cart from ${client}: its body is not JSON (11 characters, content-type application/json).`;

describe('refused carts in a flood', () => {
  it('are logged once per client address a minute, those left out said in one line when it is over; /healthz counts each', async () => {
    const { server, warnings, advance } = await serve({ kind: 'bearer', token }, ['127.0.0.1']);
    const noItems = 'the request has no list of items at "items"';
    for (let sent = 0; sent < 5; sent++) await post(server.url, '{"items": [', { via: 'own', ...from('203.0.113.7') });
    // Another address has a line of its own; on fastify's route (chunked) and as a refusal of what the cart holds.
    await post(server.url, '{"origin":{}}', { via: 'fastify', ...from('198.51.100.9') });
    await post(server.url, '{"origin":{}}', { via: 'fastify', ...from('203.0.113.7') });
    // A cart whose NCM has no row (422) is said every time: each names what the table lacks.
    await post(server.url, cart(1, '85176255'), { via: 'own', ...from('203.0.113.7') });
    expect(warnings).toEqual([
      notJson('203.0.113.7'),
      `tax callback refused a cart from 198.51.100.9: ${noItems}`,
      'tax callback refused a cart from 203.0.113.7: The tax table has no row for NCM 85176255 (SKU-0), SP → RJ, taxpayer: add a row for the NCM or a prefix of it; no tax is guessed.',
    ]);
    advance(59_999);
    await post(server.url, '{"items": [', { via: 'own', ...from('203.0.113.7') });
    expect(warnings).toHaveLength(3);
    advance(1);
    await post(server.url, '{"items": [', { via: 'own', ...from('203.0.113.7') });
    expect(warnings.slice(3)).toEqual([
      'tax callback refused 6 more carts in the last 60 s, not logged one by one: 6 from 203.0.113.7.',
      notJson('203.0.113.7'),
    ]);
    expect(server.counts).toMatchObject({ unreadable: 9, noRow: 1, refused: 0, answered: 0 });
  });
});

describe('which requests the callback’s own route takes', () => {
  it('takes a JSON POST to the path with its length, and leaves every other request to fastify', async () => {
    const taken: string[] = [];
    const route: CallbackRoute = {
      path: '/tax',
      bodyLimit: 1_000,
      check: () => undefined,
      answer: async (arrived) => {
        taken.push(JSON.stringify(arrived.body));
        return { status: 200, json: '{}' };
      },
      refused: () => {},
      unreadable: () => {},
      clientAddress: () => '127.0.0.1',
      cartRead: () => {},
      closing: () => false,
      countsByAddress: false,
      refusingSome: () => false,
    };
    const left: string[] = [];
    const server = createServer(
      callbackFirst(route, (request, response) => {
        left.push(`${request.method} ${request.url} ${request.headers['content-type'] ?? ''}`);
        request.resume();
        request.on('end', () => response.end());
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const send = async (path: string, init: RequestInit) => (await fetch(`${url}${path}`, init)).text();
    await send('/tax', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    await send('/tax', { method: 'POST', headers: { 'content-type': 'Application/JSON; charset=UTF-8' }, body: '[2]' });
    await send('/tax?x=1', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await send('/other', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await send('/tax', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    await send('/tax', { method: 'POST', headers: { 'content-type': 'application/jsonp' }, body: '{}' });
    await send('/tax', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
    await send('/tax', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1_001) });
    await send('/tax', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{}',
    });
    await send('/tax', { method: 'GET' });
    expect(taken).toEqual(['{"a":1}', '[2]']);
    expect(left).toEqual([
      'POST /tax?x=1 application/json',
      'POST /other application/json',
      'POST /tax text/plain',
      'POST /tax application/jsonp',
      'POST /tax application/json',
      'POST /tax application/json',
      'POST /tax application/json',
      'GET /tax ',
    ]);
  });
});

/** An ERP on loopback that holds each request until the test lets it answer; `asked` resolves on the first. */
async function heldErp() {
  let asked!: () => void;
  const first = new Promise<void>((resolve) => (asked = resolve));
  const waiting: ServerResponse[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      waiting.push(response);
      asked();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const release = () => {
    for (const response of waiting.splice(0)) response.writeHead(200).end('{"impostos":[{"icms":1}]}');
  };
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/impostos`;
  return { url, asked: first, release };
}

/** A request as it goes on the wire: with its length (the own route's form), or chunked to `?via=fastify`. */
function wireRequest(body: string, via: 'own' | 'fastify'): string {
  const common = 'Host: 127.0.0.1\r\nContent-Type: application/json\r\n';
  if (via === 'own') return `POST /tax HTTP/1.1\r\n${common}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const chunk = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  return `POST /tax?via=fastify HTTP/1.1\r\n${common}Transfer-Encoding: chunked\r\n\r\n${chunk}`;
}

describe('a request that arrives while tax serve stops', () => {
  // Fastify answered it in its own shape, `{"error":"Service Unavailable","message":"Service Unavailable",
  // "statusCode":503}`, where every other refusal of the callback is `{error, message}`.
  it.each(['own', 'fastify'] as const)(
    'is answered 503 in the callback’s error shape and its connection closed, after the cart in flight (%s route)',
    async (via) => {
      const erp = await heldErp();
      const { table } = await watchedFixtureTable('b2bctl-tax-stop-');
      closers.push(() => table.close());
      const server = await startLoopbackTaxServer(
        {
          table,
          forward: { url: erp.url, budgetMs: 30_000, env: {} },
          auth: { kind: 'none' },
          log: { warn: () => {} },
        },
        [],
      );
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      closers.push(() => void socket.destroy());
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(wireRequest(cart(1), 'own'));
      // The first cart is in flight, held by the ERP, when the stop begins; the next one comes on its connection.
      await erp.asked;
      const stopped = server.close();
      socket.write(wireRequest(cart(1), via));
      erp.release();
      await ended;
      await stopped;
      const answers = received.split(/(?=HTTP\/1\.1 )/);
      expect(answers).toHaveLength(2);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
      const [head = '', body] = (answers[1] as string).split('\r\n\r\n');
      const headers = head.toLowerCase().split('\r\n');
      expect(headers[0]).toBe('http/1.1 503 service unavailable');
      expect(headers).toEqual(
        expect.arrayContaining(['content-type: application/json; charset=utf-8', 'connection: close']),
      );
      expect(JSON.parse(body as string)).toEqual({
        error: 'shutting-down',
        message:
          'tax serve is stopping and takes no more requests: send it again to another instance, or once it is back',
      });
      // Nothing of the second cart was computed nor asked of the ERP.
      expect(server.counts).toMatchObject({ answered: 1, unreadable: 0, failed: 0 });
    },
  );
});
