/**
 * `webhook listen --trust-proxy`: the client address of a request is the X-Forwarded-For one only when the
 * direct peer is a trusted reverse proxy; a forged header from anyone else is ignored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { trustedProxies, type TrustedProxies } from '../../../src/http-server/trust-proxy.js';
import { removeReceiverFolders, startTestReceiver, type TestReceiver } from '../../support/webhook-receiver.js';

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
    expect(await refusedTokenLine(trustProxy as TrustedProxies | undefined)).toBe(
      `Token refused: wrong client credentials (basic style) from ${address}.`,
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
  ])('refuses %j', (text, message) => {
    expect(() => trustedProxies(text)).toThrow(message);
  });
});
