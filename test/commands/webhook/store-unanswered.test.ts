/**
 * A PostgreSQL store that takes the connection and never answers (a database behind a stuck proxy, a half-dead VM,
 * a firewall that drops after the handshake) held `webhook status` and `webhook listen` for ever with no line, and
 * the first SIGTERM was not heard: `timeout 60` left one running after 675 s. Opening now has a time limit (libpq's
 * connect_timeout, 10 s by default) that ends with the store's line and exit 69, and Ctrl-C or SIGTERM stops the wait
 * at once. The silent database here reads and never writes; what it saw says what was sent and that b2bctl hung up.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import type { TestContext } from '../../support/test-context.js';

interface SilentDatabase {
  port: number;
  /** Every connection it took, with what came on it and whether the other side has hung up. */
  connections: { bytes: number; closed: boolean }[];
  /** Resolves at the next connection taken. */
  connected(): Promise<void>;
}

const silentServers: { server: Server; sockets: Socket[] }[] = [];
afterEach(async () => {
  for (const { server, sockets } of silentServers.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function silentDatabase(): Promise<SilentDatabase> {
  const connections: SilentDatabase['connections'] = [];
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    const seen = { bytes: 0, closed: false };
    connections.push(seen);
    sockets.push(socket);
    socket.on('data', (chunk: Buffer) => (seen.bytes += chunk.length));
    socket.on('close', () => (seen.closed = true));
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  silentServers.push({ server, sockets });
  return {
    port: (server.address() as AddressInfo).port,
    connections,
    connected: () => once(server, 'connection').then(() => undefined),
  };
}

/** webhook listen's flags besides the store (the secret comes from the environment). */
const listenFlags = ['webhook', 'listen', '--port', '0', '--client-id', 'erp'];
const secretEnv = { B2BCTL_WEBHOOK_CLIENT_SECRET: 'a'.repeat(64) };

describe('a PostgreSQL store that takes the connection and never answers', () => {
  it.each([
    ['webhook status', ['webhook', 'status']],
    ['webhook listen', listenFlags],
  ])('%s ends at connect_timeout with one line naming the store, exit 69', async (_name, command) => {
    const database = await silentDatabase();
    const store = `postgres://hooks@127.0.0.1:${database.port}/webhooks?connect_timeout=1`;
    const result = await runCommandLine([...command, '--store', store], {
      configDir: freshConfigDir(),
      env: secretEnv,
    });
    expect(result.stderr).toBe(
      `error: Cannot open the PostgreSQL store "webhooks" at 127.0.0.1:${database.port} (took the connection but did not answer within 1 s); check --store and that the database is up (connect_timeout=SECONDS in the URL waits longer).\n`,
    );
    expect(result.code).toBe(69);
    // No receiver URL, no rows: nothing was served or shown.
    expect(result.stdout).toBe('');
    // It asked once (the startup message) and hung up: no socket is left to keep the process alive.
    expect(database.connections).toHaveLength(1);
    expect(database.connections[0]?.bytes).toBeGreaterThan(0);
    await expect.poll(() => database.connections[0]?.closed).toBe(true);
  });

  it.each([
    ['webhook status', 75, ['webhook', 'status'], 'error: '],
    // A server stopped by SIGTERM exits 0, the clean stop a service manager expects (docs/output.md).
    ['webhook listen', 0, listenFlags, ''],
  ])('%s stops at once on SIGTERM while it waits (exit %i)', async (_name, code, command, level) => {
    const database = await silentDatabase();
    let test: TestContext | undefined;
    // No connect_timeout: the default limit is far off, so only the signal can end the wait here.
    void database.connected().then(() => test?.interrupt('SIGTERM'));
    const result = await runCommandLine(
      [...command, '--store', `postgres://hooks@127.0.0.1:${database.port}/webhooks`],
      {
        configDir: freshConfigDir(),
        env: secretEnv,
        started: (started) => (test = started),
      },
    );
    expect(result.stderr).toBe(
      `${level}Stopped by SIGTERM while waiting for the PostgreSQL store at 127.0.0.1:${database.port}.\n`,
    );
    expect(result.code).toBe(code);
    expect(result.stdout).toBe('');
    await expect.poll(() => database.connections[0]?.closed).toBe(true);
  });

  it('a connect_timeout that is not a whole number of seconds is refused before connecting (exit 2)', async () => {
    const database = await silentDatabase();
    const store = `postgres://hooks@127.0.0.1:${database.port}/webhooks?connect_timeout=soon`;
    const result = await runCommandLine(['webhook', 'status', '--store', store], { configDir: freshConfigDir() });
    expect(result.stderr).toBe(
      'error: connect_timeout in the store URL is "soon": give a whole number of seconds to wait for the store (0 waits as long as it takes).\n',
    );
    expect(result.code).toBe(2);
    expect(database.connections).toEqual([]);
  });
});

/** A server that answers every login as PostgreSQL does while it shuts down or restarts: FATAL 57P03, then hangs up. */
async function shuttingDownDatabase(): Promise<number> {
  const fields = Buffer.from('SFATAL\0C57P03\0Mthe database system is shutting down\0\0');
  const length = Buffer.alloc(4);
  length.writeInt32BE(fields.length + 4);
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(Buffer.concat([Buffer.from('E'), length, fields])));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  silentServers.push({ server, sockets: [] });
  return (server.address() as AddressInfo).port;
}

describe('a PostgreSQL store that is shutting down or restarting', () => {
  it('is named with its address and said to be not up (not "the server answered"), exit 69', async () => {
    const port = await shuttingDownDatabase();
    const result = await runCommandLine(['webhook', 'status', '--store', `postgres://hooks@127.0.0.1:${port}/hooks`], {
      configDir: freshConfigDir(),
    });
    expect(result.stderr).toBe(
      `error: Cannot open the PostgreSQL store "hooks" at 127.0.0.1:${port} (the database system is shutting down, 57P03); check --store and that the database is up.\n`,
    );
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
  });
});
