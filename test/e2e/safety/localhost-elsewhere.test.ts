/**
 * A base URL `http://localhost:…` carries the token and `login`'s password in clear, which b2bctl allows because the
 * name is this machine. The system's own resolver decides that, from the hosts file: here a real hosts file, in a
 * mount namespace of the run's own, maps `localhost` to this machine's network address, where a listener counts
 * what arrives. Nothing may: the run fails before connecting (exit 69), and a receiver's hand-off to its ERP refuses
 * each attempt, from its forwarding thread as from the receiver's own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, cliPath, collect, freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { requireThat } from '../../support/external-tools.js';
import { inboxEvent } from '../../support/inbox-events.js';
import { clientId, clientSecret, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';

/** An IPv4 address of this machine that is not loopback: where a hosts file may send `localhost`. */
const networkAddress = Object.values(networkInterfaces())
  .flat()
  .find((each) => each !== undefined && each.family === 'IPv4' && !each.internal)?.address;

const ownHostsFile = requireThat(
  networkAddress !== undefined &&
    spawnSync('unshare', ['-m', 'sh', '-c', 'mount --bind /etc/hosts /etc/hosts'], { stdio: 'ignore' }).status === 0,
  "a hosts file of the run's own needs root, unshare (util-linux) and a network address that is not loopback",
);

afterAll(removeReceiverFolders);

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A listener on the network address that counts the connections it is offered. */
async function countingListener(address: string): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  server.listen(0, address);
  await once(server, 'listening');
  closers.push(() => server.close());
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

/** Starts the built CLI with /etc/hosts replaced, for this run alone, by one that maps `localhost` to `address`. */
function startWithLocalhostAt(address: string, args: string[], env: Record<string, string>, stdin = '') {
  const hosts = join(freshWorkDir(), 'hosts');
  writeFileSync(hosts, `${address} localhost\n`);
  const quoted = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  // unshare and sh exec what follows: the child is the CLI's own process, which a signal stops.
  const child = spawn('unshare', ['-m', 'sh', '-c', `mount --bind '${hosts}' /etc/hosts && exec ${quoted}`], {
    env: cleanEnv(freshConfigDir(), env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(stdin);
  return child;
}

/** Runs the built CLI as startWithLocalhostAt starts it, to its end. */
function runWithLocalhostAt(address: string, args: string[], env: Record<string, string>, stdin = '') {
  return collect(startWithLocalhostAt(address, args, env, stdin));
}

describe('http://localhost mapped to another address by the hosts file', () => {
  it.skipIf(ownHostsFile.missing)(
    `api sends nothing there, not even a connection: exit 69${ownHostsFile.note}`,
    async () => {
      const address = networkAddress ?? '';
      const listener = await countingListener(address);
      const result = await runWithLocalhostAt(address, ['api', '/api/v2/sellers'], {
        B2BCTL_BASE_URL: `http://localhost:${listener.port}`,
        B2BCTL_TOKEN: 'a-token-that-must-stay-here',
      });
      expect(result.code).toBe(69);
      expect(result.stderr).toContain(
        'localhost resolves to another machine than this one (ENOTLOCAL), so nothing was sent over plain HTTP',
      );
      expect(result.stderr).not.toContain('a-token-that-must-stay-here');
      expect(listener.connections()).toBe(0);
    },
  );

  it.skipIf(ownHostsFile.missing)(`login sends no password there: exit 69${ownHostsFile.note}`, async () => {
    const address = networkAddress ?? '';
    const listener = await countingListener(address);
    const result = await runWithLocalhostAt(
      address,
      ['login', '--username', 'integration@store.example', '--password-stdin'],
      { B2BCTL_BASE_URL: `http://localhost:${listener.port}` },
      'the-password\n',
    );
    expect(result.code).toBe(69);
    expect(result.stderr).toContain('(ENOTLOCAL), so nothing was sent over plain HTTP');
    expect(listener.connections()).toBe(0);
  });

  it.skipIf(ownHostsFile.missing)(
    `webhook listen --forward-to sends neither its ERP token nor a stored event there, read ahead or retried${ownHostsFile.note}`,
    { timeout: 60_000 },
    async () => {
      const address = networkAddress ?? '';
      const listener = await countingListener(address);
      // Stored before the receiver starts: the hand-off reads them ahead and gives them to its forwarding thread.
      const inbox = temporaryFolder();
      const store = await SqliteStore.open(inbox);
      for (let id = 1; id <= 3; id++)
        await store.append(inboxEvent(id, { receivedAt: Date.UTC(2026, 10, 23, 6, 0, id) }));
      await store.close();
      const receiver = startWithLocalhostAt(
        address,
        [
          'webhook',
          'listen',
          '--port',
          '0',
          '--client-id',
          clientId,
          '--inbox',
          inbox,
          '--from-start',
          '--forward-to',
          `http://localhost:${listener.port}/erp`,
        ],
        { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret, B2BCTL_WEBHOOK_FORWARD_TOKEN: 'erp-token-that-must-stay-here' },
      );
      let stderr = '';
      const result = collect(receiver);
      // The first attempt goes from the thread, the second from the receiver's own (undici): both refuse.
      await new Promise<void>((resolve) => {
        receiver.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          if (/event 1 failed \(attempt 2\b/.test(stderr)) resolve();
        });
        receiver.on('close', () => resolve());
      });
      receiver.kill('SIGTERM');
      const { code } = await result;
      const failures = stderr.split('\n').filter((line) => line.includes('event 1 failed (attempt'));
      expect(failures).toHaveLength(2);
      for (const line of failures)
        expect(line).toContain(
          `localhost resolves to another machine than this one (ENOTLOCAL), so nothing was sent over plain HTTP; use http://127.0.0.1:${listener.port}`,
        );
      expect(stderr).not.toContain('erp-token-that-must-stay-here');
      expect(listener.connections()).toBe(0);
      expect(code).toBe(0);
    },
  );
});
