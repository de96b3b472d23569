/**
 * The sandbox's side of the tax callback with a token endpoint: a real HTTP server plays an ERP that issues tokens
 * (and can forget them, as a restarted `tax serve` does) and answers carts; the caller must ask for a token first,
 * keep it, ask again once on a 401, and never post a cart without one.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TaxCallbackCaller, type TaxCart } from '../../../src/sandbox/orders/tax-callback.js';

const cart: TaxCart = {
  origin: { state: 'SP' },
  destination: { state: 'MG' },
  customer: { document: '529.982.247-25', paysIcms: false },
  items: [{ sku: 'FORNO-1', ncm: '85166000', quantity: 1, unitPrice: 2000, discount: 0, freight: 100 }],
};
const client = {
  style: 'body' as const,
  clientId: 'plataforma',
  clientSecret: 's'.repeat(32),
  tokenPath: '/oauth/token',
};

interface FakeErp {
  url: string;
  tokenRequests: IncomingMessage['headers'][];
  carts: (string | undefined)[];
  /** What the ERP answers a token request: 200 with a token, or this status. */
  tokenStatus: number;
  /** Tokens this ERP accepts; cleared to play a restart. */
  issued: Set<string>;
  /** Milliseconds the callback waits before answering. */
  delayMs: number;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function fakeErp(): Promise<FakeErp> {
  const erp: FakeErp = { url: '', tokenRequests: [], carts: [], tokenStatus: 200, issued: new Set(), delayMs: 0 };
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/oauth/token') {
        erp.tokenRequests.push(request.headers);
        const sent = JSON.parse(body) as { clientId?: string; clientSecret?: string };
        if (erp.tokenStatus !== 200 || sent.clientSecret !== client.clientSecret) {
          response.writeHead(erp.tokenStatus === 200 ? 401 : erp.tokenStatus).end('{"error":"invalid_client"}');
          return;
        }
        const token = `token-${erp.tokenRequests.length}`;
        erp.issued.add(token);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      const token = request.headers.authorization?.replace(/^Bearer /, '');
      erp.carts.push(token);
      if (token === undefined || !erp.issued.has(token)) {
        response.writeHead(401).end('{"error":"Token unknown"}');
        return;
      }
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"items":[],"totals":{}}');
      }, erp.delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  erp.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return erp;
}

describe('the sandbox asking a tax callback that takes tokens', () => {
  it('asks for one token, in the chosen style, and sends it with every cart while it lasts', async () => {
    const erp = await fakeErp();
    const caller = new TaxCallbackCaller({ url: `${erp.url}/tax`, client, timeoutMs: 10_000 });
    expect(await caller.ask(cart)).toEqual({ ok: true, taxes: { items: [], totals: {} } });
    expect(await caller.ask(cart)).toEqual({ ok: true, taxes: { items: [], totals: {} } });
    expect(erp.tokenRequests).toHaveLength(1);
    expect(erp.tokenRequests[0]).toMatchObject({ 'content-type': 'application/json' });
    expect(erp.carts).toEqual(['token-1', 'token-1']);
  });

  it('asks again once when the callback no longer knows its token (a restarted tax serve)', async () => {
    const erp = await fakeErp();
    const caller = new TaxCallbackCaller({ url: `${erp.url}/tax`, client, timeoutMs: 10_000 });
    await caller.ask(cart);
    erp.issued.clear();
    expect(await caller.ask(cart)).toEqual({ ok: true, taxes: { items: [], totals: {} } });
    expect(erp.carts).toEqual(['token-1', 'token-1', 'token-2']);
  });

  it('sends no cart when the token endpoint refuses, and says what it answered', async () => {
    const erp = await fakeErp();
    erp.tokenStatus = 429;
    const caller = new TaxCallbackCaller({ url: `${erp.url}/tax`, client, timeoutMs: 10_000 });
    expect(await caller.ask(cart)).toEqual({
      ok: false,
      status: 502,
      message: `the tax callback's token endpoint ${erp.url}/oauth/token gave no token: HTTP 429: {"error":"invalid_client"}`,
    });
    expect(erp.carts).toEqual([]);
  });

  it('says which flag to check when nothing listens at the callback', async () => {
    const erp = await fakeErp();
    const url = erp.url;
    server?.close();
    await once(server!, 'close');
    const caller = new TaxCallbackCaller({ url: `${url}/tax`, client, timeoutMs: 10_000 });
    const answer = await caller.ask(cart);
    expect(answer).toMatchObject({ ok: false, status: 502 });
    expect((answer as { message: string }).message).toMatch(
      /^the tax callback's token endpoint .*\/oauth\/token gave no token: nothing listens at .* \(ECONNREFUSED\); check --tax-callback and that the server runs$/,
    );
  });

  // A user test: these were JavaScript's and undici's own words (`Unexpected token 'o', "not json" is not valid
  // JSON`, `other side closed`).
  it('says in words that a 2xx callback answer is not JSON, quoting it', async () => {
    server = createServer((_request, response) => response.writeHead(200).end('not json'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tax`;
    expect(await new TaxCallbackCaller({ url, timeoutMs: 10_000 }).ask(cart)).toEqual({
      ok: false,
      status: 502,
      message: 'the tax callback answered HTTP 200 with a body that is not JSON: not json',
    });
  });

  it('says in words that the callback closed the connection without answering', async () => {
    server = createServer((request) => request.socket.destroy());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answer = await new TaxCallbackCaller({ url: `http://${host}/tax`, timeoutMs: 10_000 }).ask(cart);
    expect(answer).toEqual({
      ok: false,
      status: 502,
      message: `the tax callback failed: the connection to ${host} was cut (UND_ERR_SOCKET); a firewall or proxy may be closing it; check the network`,
    });
    expect((answer as { message: string }).message).not.toContain('other side closed');
  });

  it('counts the token request in the cart’s time: past it the cart is refused with 504', async () => {
    const erp = await fakeErp();
    erp.delayMs = 60_000;
    const caller = new TaxCallbackCaller({ url: `${erp.url}/tax`, client, timeoutMs: 200 });
    expect(await caller.ask(cart)).toEqual({
      ok: false,
      status: 504,
      message: 'the tax callback did not answer in 200 ms',
    });
    expect(erp.tokenRequests).toHaveLength(1);
  });
});
