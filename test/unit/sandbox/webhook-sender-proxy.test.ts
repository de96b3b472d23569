/**
 * The sandbox's webhook sender plays the platform from this machine, so it goes out as b2bctl does: through
 * HTTP_PROXY when the process has one (read from its environment, as the sandbox command runs).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProxy } from 'proxy';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchToken, repoRoot, startTestSandbox } from '../../support/sandbox.js';
import { clientId, clientSecret, removeReceiverFolders, startTestReceiver } from '../../support/webhook-receiver.js';

const closers: (() => Promise<unknown>)[] = [];
const savedProxy = process.env.http_proxy;
afterEach(async () => {
  if (savedProxy === undefined) delete process.env.http_proxy;
  else process.env.http_proxy = savedProxy;
  for (const close of closers.splice(0)) await close();
  removeReceiverFolders();
});

describe("the sandbox's webhook sender", () => {
  it('goes through http_proxy', async () => {
    const seen: string[] = [];
    const proxy = createProxy(createServer());
    proxy.prependListener('request', (request: IncomingMessage) => seen.push(`${request.method} ${request.url}`));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => proxy.close(resolve)));
    const receiver = await startTestReceiver();
    closers.push(() => receiver.close());
    const sandbox = await startTestSandbox({
      webhook: {
        url: receiver.url,
        style: 'basic',
        clientId,
        clientSecret,
        tokenPath: '/oauth/token',
        customersPath: '/webhooks/customers',
        ordersPath: '/webhooks/orders',
      },
    });
    closers.push(() => sandbox.close());
    process.env.http_proxy = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const [customer] = JSON.parse(readFileSync(join(repoRoot, 'samples', 'customers.json'), 'utf8')) as unknown[];
    const created = await fetch(`${sandbox.url}/v1/customer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await fetchToken(sandbox)}`, 'content-type': 'application/json' },
      body: JSON.stringify(customer),
    });
    expect(created.status).toBe(200);
    await sandbox.state.webhooks.idle();

    expect(receiver.stored).toHaveLength(1);
    expect(seen).toEqual([`POST ${receiver.url}/oauth/token`, `POST ${receiver.url}/webhooks/customers`]);
  });
});
