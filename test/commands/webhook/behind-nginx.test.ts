/**
 * The receiver behind a real nginx, as users deploy it: the client address it stores is the one nginx saw when
 * nginx is trusted (`--trust-proxy`), from X-Forwarded-For or, with `--proxy-header forwarded`, RFC 7239
 * Forwarded; a header the client forged before nginx never decides it. nginx listens on 127.0.0.2 and the client
 * connects from 127.0.0.3, so the three addresses (client, nginx, forged) differ.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyHeader, TrustedProxies } from '../../../src/http-server/trust-proxy.js';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { requireTools } from '../../support/external-tools.js';
import { type RunningNginx, startNginx } from '../../support/nginx.js';
import {
  clientId,
  clientSecret,
  removeReceiverFolders,
  startTestReceiver,
  temporaryFolder,
  type TestReceiver,
} from '../../support/webhook-receiver.js';

const nginxTool = requireTools('nginx');
const clientAddress = '127.0.0.3';
const forged = '203.0.113.7';

let receiver: TestReceiver | undefined;
let nginx: RunningNginx | undefined;
afterEach(async () => {
  await nginx?.stop();
  await receiver?.close();
  nginx = receiver = undefined;
  removeReceiverFolders();
});

/** A POST from 127.0.0.3 carrying forged proxy headers; resolves to the status and body. */
function postFromClient(url: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
    const sent = httpRequest(url, { method: 'POST', localAddress: clientAddress }, (answer) => {
      let text = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode, body: text }));
    });
    sent.on('error', reject);
    for (const [name, value] of Object.entries({ 'x-forwarded-for': forged, forwarded: `for=${forged}`, ...headers }))
      sent.setHeader(name, value);
    sent.end(body);
  });
}

/** The client address the receiver stored for one orders event sent through nginx. */
async function storedAddress(trustProxy: TrustedProxies | undefined, proxyHeader?: ProxyHeader): Promise<string> {
  receiver = await startTestReceiver({ trustProxy, proxyHeader });
  nginx = await startNginx(temporaryFolder(), receiver.url, {
    host: '127.0.0.2',
    serverLines: [
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      'proxy_set_header Forwarded "for=$remote_addr";',
    ],
  });
  const token = await postFromClient(
    `${nginx.url}/oauth/token`,
    {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    'grant_type=client_credentials',
  );
  expect(token.status).toBe(200);
  const accessToken = (JSON.parse(token.body) as { access_token: string }).access_token;
  const event = await postFromClient(
    `${nginx.url}/webhooks/orders`,
    { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    JSON.stringify(sampleEvent('orders', new Date('2026-11-23T06:00:00Z'))),
  );
  expect(event.status).toBeGreaterThanOrEqual(200);
  expect(event.status).toBeLessThan(300);
  const stored = receiver.onDisk();
  expect(stored).toHaveLength(1);
  return stored[0]!.clientAddress;
}

describe.skipIf(nginxTool.missing)(`webhook listen behind nginx${nginxTool.note}`, () => {
  it("without --trust-proxy: nginx's own address, whatever the headers say", async () => {
    expect(await storedAddress(undefined)).toBe('127.0.0.1');
  });

  it('trusting nginx: the client nginx saw, from X-Forwarded-For, not the address the client forged', async () => {
    expect(await storedAddress(['127.0.0.1'])).toBe(clientAddress);
  });

  it('trusting one hop: the same', async () => {
    expect(await storedAddress(1)).toBe(clientAddress);
  });

  it('trusting nginx with --proxy-header forwarded: the client nginx named in Forwarded', async () => {
    expect(await storedAddress(['127.0.0.1'], 'forwarded')).toBe(clientAddress);
  });
});
