/**
 * `tax serve --auth token` over real HTTP: the receiver's token endpoint in its three request styles (and under a
 * maintained OAuth 2.0 client, oauth4webapi), a wrong secret refused with nothing computed, the guessing limit,
 * tokens that expire on the clock, and the client address taken from a trusted proxy only.
 */
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import * as oauth from 'oauth4webapi';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyHeader, TrustedProxies } from '../../../src/http-server/trust-proxy.js';
import type { TaxAuth } from '../../../src/tax/callback-auth.js';
import { startLoopbackTaxServer } from '../../support/tax-server.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { watchedFixtureTable } from '../../support/tax-table.js';

const clientId = 'plataforma';
const clientSecret = 'segredo-do-cliente-com-32-caracteres-ou-mais';
const tokenAuth: TaxAuth = { kind: 'token', clientId, clientSecret, ttlSeconds: 60, tokenPath: '/oauth/token' };
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  removeTemporaryFolders();
});

const cart = {
  origin: { state: 'SP' },
  destination: { state: 'RJ' },
  customer: { paysIcms: true },
  items: [{ sku: 'A', ncm: '39269090', quantity: 10, unitPrice: 45.9, freight: 12 }],
};

async function serve(options: { auth?: TaxAuth; trustProxy?: TrustedProxies; proxyHeader?: ProxyHeader } = {}) {
  const lines: string[] = [];
  const { table } = await watchedFixtureTable('b2bctl-tax-token-', (line) => lines.push(line));
  closers.push(() => table.close());
  let now = Date.parse('2026-11-28T10:00:00Z');
  const server = await startLoopbackTaxServer(
    {
      table,
      auth: options.auth ?? tokenAuth,
      trustProxy: options.trustProxy,
      proxyHeader: options.proxyHeader,
      tokenFailureLimit: { limit: 3, windowMs: 60_000 },
      now: () => now,
      log: { warn: (line) => lines.push(line) },
    },
    closers,
  );
  const callback = async (authorization: string | undefined, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers, ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(cart),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const token = (init: RequestInit, query = '') =>
    fetch(`${server.url}/oauth/token${query}`, { method: 'POST', ...init });
  const health = async () => (await (await fetch(`${server.url}/healthz`)).json()) as Record<string, number>;
  return { server, lines, callback, token, health, advance: (ms: number) => (now += ms) };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = 'application/x-www-form-urlencoded';

/** The three request styles of the platform, as the receiver's token endpoint takes them. */
const styles: [string, (secret: string) => [RequestInit, string]][] = [
  [
    'Basic client credentials with a form grant_type=client_credentials',
    (secret) => [
      {
        headers: { authorization: basic(clientId, secret), 'content-type': form },
        body: 'grant_type=client_credentials',
      },
      '',
    ],
  ],
  [
    'a JSON body with clientId and clientSecret',
    (secret) => [
      { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId, clientSecret: secret }) },
      '',
    ],
  ],
  [
    'username/password headers with ?grant_type=password',
    (secret) => [{ headers: { username: clientId, password: secret } }, '?grant_type=password'],
  ],
  [
    'the same headers on a POST marked JSON with no body',
    (secret) => [
      { headers: { username: clientId, password: secret, 'content-type': 'application/json' } },
      '?grant_type=password',
    ],
  ],
];

/** The headers of a request the trusted proxy forwards from `address`. */
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('tax serve --auth token', () => {
  it.each(styles)('%s: a token, and the callback answered with it', async (_style, request) => {
    const { token, callback, health } = await serve();
    const answer = await token(...request(clientSecret));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const issued = (await answer.json()) as { access_token: string; expires_in: number; token_type: string };
    expect(issued).toMatchObject({ token_type: 'Bearer', expires_in: 60 });
    const taxed = await callback(`Bearer ${issued.access_token}`);
    expect(taxed.status).toBe(200);
    expect(taxed.body.items).toHaveLength(1);
    expect(await health()).toMatchObject({ answered: 1, refused: 0 });
  });

  it.each(styles)('%s with a wrong secret: 401, no token, nothing computed', async (_style, request) => {
    const { token, callback, health, lines } = await serve();
    const answer = await token(...request('not-the-secret'));
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed' });
    expect(lines.join('\n')).toContain('tax serve: Token refused: wrong client credentials');
    expect(lines.join('\n')).toContain('from 127.0.0.1');
    const taxed = await callback(undefined);
    expect(taxed).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: 'Bearer token missing' },
    });
    expect(await health()).toMatchObject({ answered: 0, refused: 1 });
  });

  it('a token not issued here, or a fixed credential, does not open the callback', async () => {
    const { callback, health } = await serve();
    for (const authorization of [`Bearer ${'A'.repeat(54)}`, basic(clientId, clientSecret), `Bearer ${clientSecret}`]) {
      const taxed = await callback(authorization);
      expect(taxed.status).toBe(401);
    }
    expect(await health()).toMatchObject({ answered: 0, refused: 3 });
  });

  it('a token request over 64 KB is refused 413 unread, in b2bctl’s words as the receiver says it', async () => {
    const { token, health } = await serve();
    const answer = await token({
      headers: { authorization: basic(clientId, clientSecret), 'content-type': form },
      body: `grant_type=client_credentials&padding=${'x'.repeat(70 * 1024)}`,
    });
    expect([answer.status, await answer.json()]).toEqual([
      413,
      {
        error: 'payload_too_large',
        error_description: 'The request is larger than 65536 bytes, the most tax serve reads',
      },
    ]);
    expect(await health()).toMatchObject({ answered: 0, refused: 0 });
  });

  // As the webhook receiver's token endpoint decodes it: read as it came, it was "not valid JSON", the compressed
  // bytes quoted back in the callback's shape (a user test).
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['zstd', zstdCompressSync],
  ] as const)('a token request compressed with %s: decoded, a token issued', async (coding, compress) => {
    const { token } = await serve();
    const answer = await token({
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
      body: compress(Buffer.from(JSON.stringify({ clientId, clientSecret }))),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ token_type: 'Bearer', expires_in: 60 });
  });

  it('a token request in a coding not decoded, or not in its coding, or not JSON: refused in the token shape, no byte quoted', async () => {
    const { token, health } = await serve();
    const secretBytes = JSON.stringify({ clientId, clientSecret });
    const unknownCoding = await token({
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
      body: secretBytes,
    });
    expect([unknownCoding.status, await unknownCoding.json()]).toEqual([
      415,
      {
        error: 'unsupported_media_type',
        error_description:
          'Content-Encoding compress is not accepted; send the body uncompressed, or gzip, deflate, br or zstd',
      },
    ]);
    const notGzip = await token({
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: secretBytes,
    });
    expect(notGzip.status).toBe(400);
    const notGzipBody = (await notGzip.json()) as Record<string, string>;
    expect(Object.keys(notGzipBody)).toEqual(['error', 'error_description']);
    expect(notGzipBody.error_description).toMatch(/^The body is not valid gzip/);
    const notJson = await token({
      headers: { 'content-type': 'application/json' },
      body: `{"clientSecret":"${clientSecret}"`,
    });
    expect([notJson.status, await notJson.json()]).toEqual([
      400,
      { error: 'invalid_request', error_description: 'The token request is not valid JSON' },
    ]);
    expect(await health()).toMatchObject({ answered: 0 });
  });

  it('a token expires after its lifetime: the callback then answers 401 "Token expired"', async () => {
    const { token, callback, advance } = await serve();
    const issued = (await (await token(...styles[1]![1](clientSecret))).json()) as { access_token: string };
    advance(59_999);
    expect((await callback(`Bearer ${issued.access_token}`)).status).toBe(200);
    advance(1);
    expect(await callback(`Bearer ${issued.access_token}`)).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: 'Token expired' },
    });
    // Retried, as a platform does, until it asks a new token: still expired, never "Token unknown".
    advance(59_999);
    expect(await callback(`Bearer ${issued.access_token}`)).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: 'Token expired' },
    });
  });

  it.each([
    ['an expired token', 'Token expired', (issued: string) => `Bearer ${issued}`],
    ['an unknown token', 'Token unknown', () => `Bearer ${'A'.repeat(54)}`],
    ['no token', 'Bearer token missing', () => undefined],
  ])(
    'a callback with %s is logged once per address and window, naming why and the client, never the token',
    async (_case, reason, authorization) => {
      const { token, callback, health, lines, advance } = await serve({ trustProxy: ['127.0.0.1'] });
      const clients = ['203.0.113.7', '203.0.113.7', '198.51.100.9', '203.0.113.7'];
      // One token a callback, each expired: a client's own token, as a platform's would be.
      const issue = async () =>
        ((await (await token(...styles[1]![1](clientSecret))).json()) as { access_token: string }).access_token;
      const issued: string[] = [];
      while (issued.length < clients.length) issued.push(await issue());
      advance(60_000);
      for (const [index, client] of clients.entries())
        expect(await callback(authorization(issued[index]!), from(client))).toEqual({
          status: 401,
          body: { error: 'invalid_token', error_description: reason },
        });
      const expected = (client: string) =>
        `tax serve: Callback refused: wrong credential (token: ${reason}) from ${client}; further failures from ${client} in the next 60 s are counted, not logged.`;
      const logged = () => lines.filter((line) => line.includes('Callback'));
      expect(logged()).toEqual([expected('203.0.113.7'), expected('198.51.100.9')]);
      expect(await health()).toMatchObject({ answered: 0, refused: 4 });
      for (const sent of [...issued, 'A'.repeat(54)]) expect(lines.join('\n')).not.toContain(sent);
      // No lock: past the window a refusal is logged again, and a valid token is answered from the same address.
      advance(60_000);
      await callback(`Bearer ${'A'.repeat(54)}`, from('203.0.113.7'));
      expect(logged().slice(2)).toEqual([
        'tax serve: Callbacks: 2 more refusals for wrong credentials in the last 60 s, not logged one by one (at most 10 such lines in 60 s): 2 from 203.0.113.7.',
        'tax serve: Callback refused: wrong credential (token: Token unknown) from 203.0.113.7; further failures from 203.0.113.7 in the next 60 s are counted, not logged.',
      ]);
      expect((await callback(`Bearer ${await issue()}`, from('203.0.113.7'))).status).toBe(200);
    },
  );

  it('refused tokens past the guessing limit are still logged once and answered 401, never 429', async () => {
    const { callback, health, lines } = await serve();
    for (let attempt = 0; attempt < 5; attempt++) expect((await callback('Bearer wrong')).status).toBe(401);
    expect(lines.filter((line) => line.includes('Callback'))).toEqual([
      'tax serve: Callback refused: wrong credential (token: Token unknown) from 127.0.0.1; further failures from 127.0.0.1 in the next 60 s are counted, not logged.',
    ]);
    expect(await health()).toMatchObject({ refused: 5 });
  });

  it('past the guessing limit, even the right secret waits (429 with Retry-After)', async () => {
    const { token } = await serve();
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await token(...styles[1]![1](`wrong-${attempt}`))).status).toBe(401);
    const limited = await token(...styles[1]![1](clientSecret));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it.each([
    [
      'bearer',
      { kind: 'bearer', token: clientSecret } as TaxAuth,
      `Bearer ${clientSecret}`,
      (guess: number) => `Bearer wrong-${guess}`,
    ],
    [
      'basic',
      { kind: 'basic', user: clientId, password: clientSecret } as TaxAuth,
      basic(clientId, clientSecret),
      (guess: number) => basic(clientId, `wrong-${guess}`),
    ],
  ])(
    'a fixed %s credential: wrong ones counted per address and logged once, then 429 for that address alone, the right one included',
    async (kind, auth, right, wrong) => {
      const { callback, lines, advance } = await serve({ auth, trustProxy: ['127.0.0.1'] });
      // Three guesses, each another credential (one sent again is no new guess).
      for (let attempt = 0; attempt < 3; attempt++)
        expect((await callback(wrong(attempt), from('203.0.113.7'))).status).toBe(401);
      expect(await callback(right, from('203.0.113.7'))).toEqual({
        status: 429,
        body: { error: 'too_many_requests', message: 'Too many wrong credentials; try again in 60 s.' },
      });
      expect((await callback(right, from('198.51.100.9'))).status).toBe(200);
      expect(lines.filter((line) => line.includes('Callback'))).toEqual([
        `tax serve: Callback refused: wrong credential (${kind}) from 203.0.113.7; further failures from 203.0.113.7 in the next 60 s are counted, not logged.`,
        'tax serve: Callbacks from 203.0.113.7 are refused with 429 for up to 60 s: too many wrong credentials.',
      ]);
      advance(60_000);
      expect((await callback(right, from('203.0.113.7'))).status).toBe(200);
    },
  );

  // y/Y3: 50,000 guesses from one /64, each from another address, were never answered 429, and each was a log line.
  it('a fixed credential guessed from one IPv6 /64, an address a guess: counted as one client, 429 past the limit', async () => {
    const auth: TaxAuth = { kind: 'basic', user: clientId, password: clientSecret };
    const { callback, lines } = await serve({ auth, trustProxy: ['127.0.0.1'] });
    const statuses: number[] = [];
    for (let guess = 1; guess <= 5; guess++)
      statuses.push((await callback(basic(clientId, `wrong-${guess}`), from(`2001:db8:1:2:0:${guess}::1`))).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect((await callback(basic(clientId, clientSecret), from('2001:db8:1:3::1'))).status).toBe(200);
    expect(lines.filter((line) => line.includes('Callback'))).toEqual([
      'tax serve: Callback refused: wrong credential (basic) from 2001:db8:1:2::/64; further failures from 2001:db8:1:2::/64 in the next 60 s are counted, not logged.',
      'tax serve: Callbacks from 2001:db8:1:2::/64 are refused with 429 for up to 60 s: too many wrong credentials.',
    ]);
  });

  it('a guess from many addresses: ten lines a minute, then the rest in one line when the minute is over', async () => {
    const { callback, lines, advance } = await serve({
      auth: { kind: 'bearer', token: clientSecret },
      trustProxy: ['127.0.0.1'],
    });
    for (let address = 1; address <= 25; address++)
      expect((await callback('Bearer wrong', from(`203.0.113.${address}`))).status).toBe(401);
    expect(lines.filter((line) => line.includes('Callback'))).toEqual(
      Array.from(
        { length: 10 },
        (_, index) =>
          `tax serve: Callback refused: wrong credential (bearer) from 203.0.113.${index + 1}; further failures from 203.0.113.${index + 1} in the next 60 s are counted, not logged.`,
      ),
    );
    advance(60_000);
    expect((await callback('Bearer wrong', from('198.51.100.1'))).status).toBe(401);
    expect(lines.filter((line) => line.includes('Callback')).slice(10)).toEqual([
      'tax serve: Callbacks: 15 more refusals for wrong credentials in the last 60 s, not logged one by one (at most 10 such lines in 60 s): 1 from 203.0.113.11, 1 from 203.0.113.12, 1 from 203.0.113.13, 12 from 12 more addresses.',
      'tax serve: Callback refused: wrong credential (bearer) from 198.51.100.1; further failures from 198.51.100.1 in the next 60 s are counted, not logged.',
    ]);
  });

  it('a maintained OAuth 2.0 client (oauth4webapi) gets a token and calls the callback with it', async () => {
    const { server, callback } = await serve();
    const authorizationServer: oauth.AuthorizationServer = {
      issuer: server.url,
      token_endpoint: `${server.url}/oauth/token`,
    };
    const client = { client_id: clientId };
    const response = await oauth.clientCredentialsGrantRequest(
      authorizationServer,
      client,
      oauth.ClientSecretBasic(clientSecret),
      new URLSearchParams(),
      { [oauth.allowInsecureRequests]: true },
    );
    const granted = await oauth.processClientCredentialsResponse(authorizationServer, client, response);
    expect(granted.token_type).toBe('bearer');
    const taxed = await callback(`Bearer ${granted.access_token}`);
    expect(taxed.status).toBe(200);
  });

  it('the fixed bearer and Basic credentials still open the callback, and only they', async () => {
    const bearer = await serve({ auth: { kind: 'bearer', token: clientSecret } });
    expect((await bearer.callback(`Bearer ${clientSecret}`)).status).toBe(200);
    expect((await bearer.callback('Bearer wrong')).status).toBe(401);
    // No token endpoint beside a fixed credential.
    expect((await bearer.token(...styles[1]![1](clientSecret))).status).toBe(404);
    const basicAuth = await serve({ auth: { kind: 'basic', user: clientId, password: clientSecret } });
    expect((await basicAuth.callback(basic(clientId, clientSecret))).status).toBe(200);
    expect((await basicAuth.callback(basic(clientId, 'wrong'))).status).toBe(401);
  });
});

/** A token request with a wrong secret, through a proxy naming `address` as the client. */
const wrongSecret = (address: string, secret = 'wrong'): [RequestInit, string] => [
  {
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ clientId: `${clientId}-${address}`, clientSecret: secret }),
  },
  '',
];

/** A Basic token request with a wrong or right secret, through a proxy naming `address` as the client. */
const basicFrom = (id: string, secret: string, address: string): [RequestInit, string] => [
  {
    headers: { authorization: basic(id, secret), 'content-type': form, 'x-forwarded-for': address },
    body: 'grant_type=client_credentials',
  },
  '',
];

describe('tax serve --trust-proxy', () => {
  it('behind a trusted proxy, the forwarded client is the one counted and logged', async () => {
    const { token, lines } = await serve({ trustProxy: ['127.0.0.1'] });
    expect((await token(...wrongSecret('203.0.113.7'))).status).toBe(401);
    expect(lines.join('\n')).toContain('from 203.0.113.7');
    // Three failures from one forwarded client close it; another client behind the same proxy still gets its turn.
    for (let attempt = 0; attempt < 2; attempt++) await token(...wrongSecret('203.0.113.7', `wrong-${attempt}`));
    expect((await token(...wrongSecret('203.0.113.7', 'wrong-2'))).status).toBe(429);
    expect((await token(...wrongSecret('198.51.100.9'))).status).toBe(401);
  });

  it('wrong secrets for the client id from as many addresses as the limit do not lock the platform out', async () => {
    const { token, lines } = await serve({ trustProxy: ['127.0.0.1'] });
    // The client id is no secret: anyone can fail with it, from everywhere.
    for (const attempt of [1, 2, 3])
      expect((await token(...basicFrom(clientId, 'wrong', `203.0.113.${attempt}`))).status).toBe(401);
    expect((await token(...basicFrom(clientId, clientSecret, '198.51.100.1'))).status).toBe(200);
    expect(lines.filter((line) => line.includes('429'))).toEqual([]);
  });

  it('wrong secrets from one address lock that address alone, the right secret included', async () => {
    const { token, lines } = await serve({ trustProxy: ['127.0.0.1'] });
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await token(...basicFrom(clientId, `wrong-${attempt}`, '203.0.113.7'))).status).toBe(401);
    expect((await token(...basicFrom(clientId, clientSecret, '203.0.113.7'))).status).toBe(429);
    expect((await token(...basicFrom(clientId, clientSecret, '198.51.100.1'))).status).toBe(200);
    expect(lines.filter((line) => line.includes('429'))).toEqual([
      'tax serve: Token requests from 203.0.113.7 are refused with 429 for up to 60 s: too many wrong credentials.',
    ]);
  });

  it('with --proxy-header forwarded, the client is read from RFC 7239 Forwarded, X-Forwarded-For ignored', async () => {
    const { token, lines } = await serve({ trustProxy: 1, proxyHeader: 'forwarded' });
    const answer = await token({
      headers: {
        'content-type': 'application/json',
        forwarded: 'for="[2001:db8::7]";proto=https',
        'x-forwarded-for': '203.0.113.7',
      },
      body: JSON.stringify({ clientId, clientSecret: 'wrong' }),
    });
    expect(answer.status).toBe(401);
    // Counted, and so logged, by its /64 (decision 0034).
    expect(lines.join('\n')).toContain('from 2001:db8::/64;');
    expect(lines.join('\n')).not.toContain('203.0.113.7');
  });

  it('without --trust-proxy, X-Forwarded-For is the client’s own claim: the peer is counted', async () => {
    const { token, lines } = await serve();
    expect((await token(...wrongSecret('203.0.113.7'))).status).toBe(401);
    expect(lines.join('\n')).toContain('from 127.0.0.1');
    expect(lines.join('\n')).not.toContain('203.0.113.7');
    for (let attempt = 0; attempt < 2; attempt++) await token(...wrongSecret(`203.0.113.${attempt + 10}`));
    // Every forged address came from the same peer: the peer is past its limit.
    expect((await token(...wrongSecret('198.51.100.9'))).status).toBe(429);
  });
});
