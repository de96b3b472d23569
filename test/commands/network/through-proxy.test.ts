import { copyFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { forwardTo } from '../../../src/webhook/consumers.js';
import type { StoredEvent } from '../../../src/webhook/store/types.js';
import { refusedPort } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { sandboxPassword, sandboxUser, seedDirectory, startTestSandbox } from '../../support/sandbox.js';
import { startLoopbackTaxServer } from '../../support/tax-server.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { clientId, clientSecret, startTestReceiver, type TestReceiver } from '../../support/webhook-receiver.js';

const proxyUser = 'alice';
const proxyPassword = 'pr0xy-s3cret-9417';

/** A stored orders event as a hand-off hands it to its consumer. */
function stored(id: number): StoredEvent {
  return {
    id,
    receivedAt: '2026-11-25T12:00:00.000Z',
    kind: 'orders',
    deliveryId: `d-${id}`,
    key: `orders:${id}`,
    flags: [],
    clientAddress: '127.0.0.1',
    event: { id },
  };
}

/** A real forwarding proxy (the `proxy` package undici's own tests use) that logs what it was asked. */
async function startProxy(
  options: { password?: string } = {},
): Promise<{ url: string; seen: string[]; server: ProxyServer }> {
  const seen: string[] = [];
  const server = createProxy(createServer());
  server.prependListener('request', (request: IncomingMessage) => seen.push(`${request.method} ${request.url}`));
  server.prependListener('connect', (request: IncomingMessage) => seen.push(`CONNECT ${request.url}`));
  if (options.password !== undefined) {
    const expected = `Basic ${Buffer.from(`${proxyUser}:${options.password}`).toString('base64')}`;
    server.authenticate = (request) => request.headers['proxy-authorization'] === expected;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('every request through HTTP_PROXY (a real proxy on loopback)', () => {
  let sandbox: RunningSandbox;
  let receiver: TestReceiver;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  const configDir = temporaryFolder();
  const workDir = temporaryFolder();
  const outputs: string[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await startTestReceiver();
    proxy = await startProxy({ password: proxyPassword });
    copyFileSync(join(seedDirectory, 'stock.csv'), join(workDir, 'stock.csv'));
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
    await new Promise((resolve) => proxy.server.close(resolve));
    removeTemporaryFolders();
  });

  const proxied = () => `http://${proxyUser}:${proxyPassword}@${new URL(proxy.url).host}`;
  const run = async (args: string[], env: Record<string, string> = {}, stdin?: string) => {
    const result = await runCommandLine(['--verbose', ...args], {
      configDir,
      cwd: workDir,
      stdin,
      env: { http_proxy: proxied(), B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret, ...env },
    });
    outputs.push(result.stdout, result.stderr);
    return result;
  };

  it('login, sellers list, stock push, doctor and webhook trigger all go through it', async () => {
    const origin = sandbox.url;
    const login = await run(
      ['login', '--base-url', origin, '--username', sandboxUser, '--password-stdin'],
      {},
      `${sandboxPassword}\n`,
    );
    expect(login.stderr).toContain(`through the proxy http://${proxyUser}:[redacted]@`);
    expect(login.code).toBe(0);
    expect((await run(['sellers', 'list', '-o', 'json'])).code).toBe(0);
    expect((await run(['stock', 'push', 'stock.csv'])).code).toBe(0);
    const doctor = await run(['doctor', '-o', 'json']);
    const proxyLine = (JSON.parse(doctor.stdout) as { check: string; detail: string }[]).find(
      (finding) => finding.check === 'proxy',
    );
    expect(proxyLine?.detail).toBe(
      `through the proxy http://${proxyUser}:[redacted]@${new URL(proxy.url).host} (http_proxy): the proxy answers; plain http is asked of it by URL, without CONNECT`,
    );
    const trigger = await run([
      'webhook',
      'trigger',
      'orders',
      '--url',
      receiver.url,
      '--client-id',
      clientId,
      '--style',
      'basic',
    ]);
    expect(trigger.code).toBe(0);
    const paths = proxy.seen.map((line) => line.replace(origin, 'SANDBOX').replace(receiver.url, 'RECEIVER'));
    expect(paths).toContain('POST SANDBOX/v1/auth/token');
    expect(paths.some((line) => line.startsWith('GET SANDBOX/sellerModule/listSellers'))).toBe(true);
    expect(paths.some((line) => /^(PUT|POST) SANDBOX\/.*stock/i.test(line))).toBe(true);
    expect(paths).toContain('GET SANDBOX/');
    expect(paths).toContain('POST RECEIVER/oauth/token');
    expect(paths).toContain('POST RECEIVER/webhooks/orders');
    expect(receiver.stored).toHaveLength(1);
  });

  it('doctor fails the proxy line when nothing answers at the proxy, naming the variable it came from', async () => {
    const down = `http://127.0.0.1:${await refusedPort()}`;
    const doctor = await run(['doctor', '-o', 'json', '--base-url', sandbox.url], { http_proxy: down });
    expect(doctor.code).toBe(69);
    const proxyLine = (JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[]).find(
      (finding) => finding.check === 'proxy',
    );
    expect(proxyLine?.result).toBe('fail');
    expect(proxyLine?.detail).toMatch(
      /^Reaching http:\/\/127\.0\.0\.1:\d+ failed: .*check http_proxy \(or add the host to NO_PROXY\)/,
    );
  });

  it('NO_PROXY naming the host bypasses it, and doctor says which entry', async () => {
    const before = proxy.seen.length;
    const result = await run(['sellers', 'list', '-o', 'json'], { no_proxy: 'localhost,127.0.0.1' });
    expect(result.code).toBe(0);
    const doctor = await run(['doctor', '-o', 'json'], { no_proxy: 'localhost,127.0.0.1' });
    const findings = JSON.parse(doctor.stdout) as { check: string; detail: string }[];
    expect(findings.find((finding) => finding.check === 'proxy')?.detail).toBe(
      `direct: NO_PROXY entry "127.0.0.1" bypasses the proxy http://${proxyUser}:[redacted]@${new URL(proxy.url).host}`,
    );
    expect(proxy.seen.length).toBe(before);
  });

  // A user test: a corporate NO_PROXY copied from curl's set-up (`10.0.0.0/8`) sent the traffic, and the token, through the
  // proxy.
  it.each([['127.0.0.0/8'], ['localhost,127.0.0.0/8']])(
    'NO_PROXY=%s (a network, as curl reads it) bypasses it for 127.0.0.1, and doctor names the entry',
    async (noProxy) => {
      const before = proxy.seen.length;
      const down = `http://127.0.0.1:${await refusedPort()}`;
      const result = await run(['sellers', 'list', '-o', 'json', '--limit', '1'], {
        http_proxy: down,
        NO_PROXY: noProxy,
      });
      expect(result.stderr).toContain(`direct: NO_PROXY entry "127.0.0.0/8" bypasses the proxy ${down}`);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveLength(1);
      const doctor = await run(['doctor', '-o', 'json'], { no_proxy: noProxy });
      const findings = JSON.parse(doctor.stdout) as { check: string; detail: string }[];
      expect(findings.find((finding) => finding.check === 'proxy')?.detail).toBe(
        `direct: NO_PROXY entry "127.0.0.0/8" bypasses the proxy http://${proxyUser}:[redacted]@${new URL(proxy.url).host}`,
      );
      expect(proxy.seen.length).toBe(before);
    },
  );

  it("the receiver's --forward-to goes through it too", async () => {
    const taken: string[] = [];
    const erp = createServer((request, response) => {
      taken.push(`${request.method} ${request.url}`);
      request.resume();
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
    const erpUrl = `http://127.0.0.1:${(erp.address() as AddressInfo).port}/hook`;
    const consumer = forwardTo(erpUrl, { http_proxy: proxied() });
    await consumer.deliver(stored(1), new AbortController().signal);
    // A hand-off's run of events read ahead goes one at a time through the proxy too, not from the thread.
    const before = proxy.seen.filter((line) => line === `POST ${erpUrl}`).length;
    const handedOn = await consumer.deliverInOrder?.([stored(2), stored(3)], new AbortController().signal);
    await consumer.close?.();
    await new Promise((resolve) => erp.close(resolve));
    expect(handedOn).toEqual({ taken: 2 });
    expect(taken).toEqual(['POST /hook', 'POST /hook', 'POST /hook']);
    expect(proxy.seen.filter((line) => line === `POST ${erpUrl}`).length).toBe(before + 2);
  });

  it("tax serve's --forward-to goes through it too", async () => {
    const erp = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"impostos":[{"icms":1}]}');
    });
    await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
    const erpUrl = `http://127.0.0.1:${(erp.address() as AddressInfo).port}/impostos`;
    const closers: (() => Promise<void> | void)[] = [];
    const server = await startLoopbackTaxServer(
      {
        forward: { url: erpUrl, budgetMs: 10_000, env: { http_proxy: proxied() } },
        auth: { kind: 'none' },
        log: { warn: () => undefined },
      },
      closers,
    );
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ origin: { state: 'SP' }, destination: { state: 'RJ' }, items: [] }),
    });
    for (const close of closers) await close();
    await new Promise((resolve) => erp.close(resolve));
    expect(await answer.json()).toEqual({ impostos: [{ icms: 1 }] });
    expect(proxy.seen).toContain(`POST ${erpUrl}`);
  });

  it.each([
    ['no credentials', (url: string) => url, 'wants credentials'],
    [
      'a wrong password',
      (url: string) => url.replace('//', `//${proxyUser}:wrong-pr0xy-pass@`),
      'refused the credentials given',
    ],
  ])('a 407 with %s: the message says how to give them, exit 69', async (_case, proxyUrl, what) => {
    const result = await run(['sellers', 'list'], { http_proxy: proxyUrl(proxy.url) });
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(`${what} (HTTP 407 Proxy Authentication Required)`);
    expect(result.stderr).toContain('http_proxy=http://user:password@host:port');
    expect(result.stderr).not.toContain('wrong-pr0xy-pass');
  });

  it('the proxy password appears in no output', () => {
    expect(outputs.join('\n')).not.toContain(proxyPassword);
    expect(outputs.join('\n')).not.toContain(Buffer.from(`${proxyUser}:${proxyPassword}`).toString('base64'));
  });
});
