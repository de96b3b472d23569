/**
 * `webhook trigger --token-path` and `--event-path` are routes on the host of `--url`, read by the one rule of the
 * `webhook.paths.*` settings: a whole URL (or `//host/…`, `/\host/…`, `\\host/…`, `/<tab>/host/…`) took the client
 * secret, as Basic, and the receiver's token in clear to another machine, exit 0 (a user test).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { clientId, clientSecret, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { runCommandLine } from '../../support/command-line.js';

afterAll(removeReceiverFolders);

/** A server that counts the connections it is opened (none should be) and answers 500. */
async function recordingServer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((_request, response) => response.writeHead(500).end());
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('webhook trigger --token-path and --event-path: routes on the host of --url only', () => {
  it.each([
    ['--token-path', 'a whole URL', (host: string) => `http://${host}/oauth/token`, 'must start with /'],
    ['--token-path', '//host', (host: string) => `//${host}/oauth/token`, 'must start with a single /'],
    ['--token-path', '/\\host', (host: string) => `/\\${host}/oauth/token`, 'must start with a single /'],
    ['--token-path', '\\\\host', (host: string) => `\\\\${host}/oauth/token`, 'must start with /'],
    ['--token-path', '/<tab>/host', (host: string) => `/\t/${host}/oauth/token`, 'must not hold a tab or line break'],
    ['--event-path', 'a whole URL', (host: string) => `http://${host}/webhooks/orders`, 'must start with /'],
    ['--event-path', '//host', (host: string) => `//${host}/webhooks/orders`, 'must start with a single /'],
    ['--event-path', '/\\host', (host: string) => `/\\${host}/webhooks/orders`, 'must start with a single /'],
  ])('%s as %s: refused, exit 2, nothing sent to either host', async (flag, _form, pathTo, problem) => {
    const receiver = await recordingServer();
    const otherHost = await recordingServer();
    const path = pathTo(`127.0.0.1:${otherHost.port}`);
    const result = await runCommandLine(
      [
        'webhook',
        'trigger',
        'orders',
        '--url',
        `http://127.0.0.1:${receiver.port}`,
        '--client-id',
        clientId,
        flag,
        path,
      ],
      { configDir: temporaryFolder(), env: { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret } },
    );
    await receiver.close();
    await otherHost.close();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`option '${flag} <path>' argument`);
    expect(result.stderr).toContain(problem);
    expect(result.stderr).not.toContain(clientSecret);
    expect(result.stdout).toBe('');
    expect(receiver.connections()).toBe(0);
    expect(otherHost.connections()).toBe(0);
  });
});
