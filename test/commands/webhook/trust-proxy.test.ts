/**
 * `webhook listen --trust-proxy`: the client address of a request is the one X-Forwarded-For (or, with
 * `--proxy-header forwarded`, RFC 7239 Forwarded) names only when the direct peer is a trusted reverse proxy;
 * a forged header from anyone else, and the header the proxy does not set, are ignored.
 */
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/webhook/listen.js';
import { forwardedForAddresses, xForwardedForAddresses } from '../../../src/http-server/forwarded.js';
import {
  proxyHeader,
  trustedProxies,
  type ProxyHeader,
  type TrustedProxies,
} from '../../../src/http-server/trust-proxy.js';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { testContext } from '../../support/test-context.js';
import {
  listenOptions,
  receiverEnv,
  receiverToken,
  removeReceiverFolders,
  startTestReceiver,
  temporaryFolder,
  type TestReceiver,
} from '../../support/webhook-receiver.js';

let receiver: TestReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  removeReceiverFolders();
});

/** A refused token request carrying a forged X-Forwarded-For; resolves to the receiver's log line. */
async function refusedTokenLine(trustProxy: TrustedProxies | undefined): Promise<string | undefined> {
  const logged: string[] = [];
  receiver = await startTestReceiver({ trustProxy, log: (line) => logged.push(line) });
  const answer = await fetch(`${receiver.url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('erp-client:wrong').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': '198.51.100.23, 203.0.113.7',
    },
    body: 'grant_type=client_credentials',
  });
  expect(answer.status).toBe(401);
  return logged.find((line) => line.startsWith('Token refused'));
}

describe('webhook listen --trust-proxy', () => {
  it.each([
    ['no --trust-proxy: the direct peer, whatever the header says', undefined, '127.0.0.1'],
    ['a peer outside the trusted range: the header is ignored', ['10.0.0.0/8'], '127.0.0.1'],
    ['the peer trusted by address: the client the proxy names', ['127.0.0.1'], '203.0.113.7'],
    ['the peer trusted by range', ['127.0.0.0/8', '::1'], '203.0.113.7'],
    ['one hop trusted', 1, '203.0.113.7'],
    ['two hops trusted', 2, '198.51.100.23'],
  ])('%s', async (_case, trustProxy, address) => {
    expect(await refusedTokenLine(trustProxy as TrustedProxies | undefined)).toBe(refusedFrom(address));
  });
});

/**
 * A refused token request with the given headers (a header given as a list is sent as that many header
 * lines); resolves to the receiver's log line.
 */
async function refusedWith(
  trustProxy: TrustedProxies | undefined,
  headers: Record<string, string | string[]>,
  header?: ProxyHeader,
): Promise<string | undefined> {
  const logged: string[] = [];
  receiver = await startTestReceiver({ trustProxy, proxyHeader: header, log: (line) => logged.push(line) });
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const sent = httpRequest(`${receiver?.url}/oauth/token`, { method: 'POST' }, (answer) => {
      answer.resume().on('end', () => resolve(answer.statusCode));
    });
    sent.on('error', reject);
    sent.setHeader('authorization', `Basic ${Buffer.from('erp-client:wrong').toString('base64')}`);
    sent.setHeader('content-type', 'application/x-www-form-urlencoded');
    for (const [name, value] of Object.entries(headers)) sent.setHeader(name, value);
    sent.end('grant_type=client_credentials');
  });
  expect(status).toBe(401);
  return logged.find((line) => line.startsWith('Token refused'));
}

function refusedFrom(address: string): string {
  return `Token refused: wrong client credentials (basic style) from ${address}; further failures from ${address} in the next 60 s are counted, not logged.`;
}

describe('webhook listen --trust-proxy --proxy-header forwarded (RFC 7239)', () => {
  it.each([
    ['no --trust-proxy: a forged Forwarded is ignored', undefined, { forwarded: 'for=203.0.113.7' }, '127.0.0.1'],
    ['an untrusted peer: its Forwarded is ignored', ['10.0.0.0/8'], { forwarded: 'for=203.0.113.7' }, '127.0.0.1'],
    ['the trusted peer: the client it names', ['127.0.0.1'], { forwarded: 'for=203.0.113.7' }, '203.0.113.7'],
    ['parameters in any case, with others', 1, { forwarded: 'proto=https;For=203.0.113.7;by=_nginx' }, '203.0.113.7'],
    ['a quoted IPv4 address with its port', 1, { forwarded: 'for="203.0.113.7:47011"' }, '203.0.113.7'],
    // Counted, and so logged, by its /64 (decision 0034).
    ['a quoted, bracketed IPv6 address', 1, { forwarded: 'for="[2001:db8::1]"' }, '2001:db8::/64'],
    ['an IPv6 address with its port', 1, { forwarded: 'for="[2001:db8::1]:4711"' }, '2001:db8::/64'],
    ['comma-separated hops, one trusted', 1, { forwarded: 'for=198.51.100.23, for=203.0.113.7' }, '203.0.113.7'],
    ['comma-separated hops, two trusted', 2, { forwarded: 'for=198.51.100.23,for=203.0.113.7' }, '198.51.100.23'],
    ['two header lines, two trusted', 2, { forwarded: ['for=198.51.100.23', 'for=203.0.113.7'] }, '198.51.100.23'],
    [
      'the hops walked past the trusted range',
      ['127.0.0.1', '203.0.113.0/24'],
      { forwarded: 'for=198.51.100.23, for=203.0.113.7' },
      '198.51.100.23',
    ],
    ['for=unknown: the peer', 1, { forwarded: 'for=unknown' }, '127.0.0.1'],
    [
      'for=unknown two hops in: the last address known',
      2,
      { forwarded: 'for=198.51.100.23, for=unknown' },
      '127.0.0.1',
    ],
    [
      'an obfuscated hop ends the walk',
      3,
      { forwarded: 'for=198.51.100.23, for=_hidden, for=203.0.113.7' },
      '203.0.113.7',
    ],
    ['an element without for=: the peer', 1, { forwarded: 'proto=https' }, '127.0.0.1'],
    ['an unbracketed IPv6 address is no address', 1, { forwarded: 'for="2001:db8::1"' }, '127.0.0.1'],
    ['a header that does not parse: the peer', 1, { forwarded: 'for=203.0.113.7:80' }, '127.0.0.1'],
    ['a forged X-Forwarded-For is not read', 1, { 'x-forwarded-for': '198.51.100.66' }, '127.0.0.1'],
    ['both headers: Forwarded', 1, { 'x-forwarded-for': '198.51.100.66', forwarded: 'for=203.0.113.7' }, '203.0.113.7'],
  ])('%s', async (_case, trustProxy, headers, address) => {
    expect(await refusedWith(trustProxy as TrustedProxies | undefined, headers, 'forwarded')).toBe(
      refusedFrom(address),
    );
  });

  it('without --proxy-header, a forged Forwarded is not read: X-Forwarded-For is', async () => {
    const headers = { forwarded: 'for=198.51.100.66', 'x-forwarded-for': '203.0.113.7' };
    expect(await refusedWith(['127.0.0.1'], headers)).toBe(refusedFrom('203.0.113.7'));
    await receiver?.close();
    expect(await refusedWith(['127.0.0.1'], { forwarded: 'for=198.51.100.66' })).toBe(refusedFrom('127.0.0.1'));
  });

  it.each([
    ['the trusted peer', ['127.0.0.1'], '2001:db8::1'],
    ['an untrusted peer', ['10.0.0.0/8'], '127.0.0.1'],
  ])('%s: each stored event records that address', async (_case, trustProxy, address) => {
    receiver = await startTestReceiver({ trustProxy, proxyHeader: 'forwarded' });
    const answer = await fetch(`${receiver.url}/webhooks/orders`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await receiverToken(receiver.url)}`,
        'content-type': 'application/json',
        forwarded: 'for="[2001:db8::1]:4711";proto=https',
      },
      body: JSON.stringify(sampleEvent('orders', new Date('2026-11-23T06:00:00Z'))),
    });
    expect(answer.status).toBe(200);
    expect(receiver.stored.map((event) => event.clientAddress)).toEqual([address]);
    expect(receiver.onDisk().map((event) => event.clientAddress)).toEqual([address]);
  });

  it('--proxy-header without --trust-proxy is a usage error, before anything listens or is stored', async () => {
    const inbox = join(temporaryFolder(), 'inbox');
    const memory = testContext({
      env: receiverEnv(),
    });
    const failure = (await run(listenOptions(inbox, { proxyHeader: 'forwarded' }), memory.context).catch(
      (error: unknown) => error,
    )) as Error & { exitCode: number };
    expect([failure.exitCode, failure.message]).toEqual([
      2,
      '--proxy-header is read only from trusted proxies: give them with --trust-proxy too.',
    ]);
    expect(existsSync(inbox)).toBe(false);
  });
});

describe('the for= addresses of a Forwarded header', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['for=192.0.2.60;proto=http;by=203.0.113.43', ['192.0.2.60']],
    ['for=192.0.2.43, for="[2001:db8:cafe::17]:4711"', ['192.0.2.43', '2001:db8:cafe::17']],
    ['for="_gazonk"', []],
    ['for=192.0.2.43, for=unknown, for=198.51.100.17', ['198.51.100.17']],
    ['for="192.0.2.43:_port"', ['192.0.2.43']],
    ['for="[::ffff:127.0.0.1]"', ['::ffff:127.0.0.1']],
    ['for="[2001:db8::1"', []],
    ['for="192.0.2.43:123456"', []],
    ['for=999.0.0.1', []],
    ['for="a\\"b", for=192.0.2.43', ['192.0.2.43']],
    ['for=192.0.2.43,', []],
  ])('%j', (header, addresses) => {
    expect(forwardedForAddresses(header)).toEqual(addresses);
  });
});

describe('X-Forwarded-For entries that are not addresses', () => {
  it.each([
    ['<script>alert(1)</script>', '127.0.0.1'],
    ['203.0.113.7, not-an-address', '127.0.0.1'],
    ['not-an-address, 203.0.113.7', '203.0.113.7'],
    ['unknown', '127.0.0.1'],
    ['999.1.1.1', '127.0.0.1'],
    ['203.0.113.7:4711', '203.0.113.7'],
    // Counted, and so logged, by its /64 (decision 0034).
    ['[2001:db8::1]:4711', '2001:db8::/64'],
  ])('%j from a trusted proxy: the address recorded is %s', async (header, address) => {
    expect(await refusedWith(['127.0.0.1'], { 'x-forwarded-for': header })).toBe(refusedFrom(address));
  });
});

describe('the addresses of an X-Forwarded-For header', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['198.51.100.23, 203.0.113.7', ['198.51.100.23', '203.0.113.7']],
    [
      ['198.51.100.23', '203.0.113.7'],
      ['198.51.100.23', '203.0.113.7'],
    ],
    ['2001:db8::1', ['2001:db8::1']],
    ['198.51.100.23, evil, 203.0.113.7', ['203.0.113.7']],
    ['198.51.100.23,', []],
  ])('%j', (header, addresses) => {
    expect(xForwardedForAddresses(header)).toEqual(addresses);
  });
});

describe('--proxy-header parsing', () => {
  it.each([
    ['forwarded', 'forwarded'],
    ['X-Forwarded-For', 'x-forwarded-for'],
  ])('%j', (text, expected) => {
    expect(proxyHeader(text)).toBe(expected);
  });

  it('refuses another header', () => {
    expect(() => proxyHeader('x-real-ip')).toThrow(
      '"x-real-ip" is not a header b2bctl reads: use x-forwarded-for or forwarded.',
    );
  });
});

describe('--trust-proxy HOPS|CIDR,... parsing', () => {
  it.each([
    ['1', 1],
    ['127.0.0.1', ['127.0.0.1']],
    ['127.0.0.1, 10.0.0.0/8,::1,fd00::/8', ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']],
  ])('%j', (text, expected) => {
    expect(trustedProxies(text)).toEqual(expected);
  });

  it.each([
    ['0', /a hop count starts at 1/],
    ['nginx', /"nginx" is neither a hop count nor an IP address or CIDR range/],
    ['10.0.0.0/33', /"10.0.0.0\/33" is neither/],
    ['127.0.0.1,', /"" is neither/],
    // Every address: the library that reads ranges refused it with its own words at start (exit 1).
    [
      '0.0.0.0/0',
      /^"0\.0\.0\.0\/0" is every address: any client could name itself in X-Forwarded-For; give the proxy's own address or range\.$/,
    ],
    ['127.0.0.1,::/0', /^"::\/0" is every address/],
  ])('refuses %j', (text, message) => {
    expect(() => trustedProxies(text)).toThrow(message);
  });
});
