/**
 * The store's password and every event go to a PostgreSQL store on another machine: plain only to this machine, as
 * for HTTP (decision 0028). A URL that says nothing of TLS is reached over TLS with the certificate checked
 * (verify-full); an sslmode that may send in clear or to an unchecked server is refused (exit 2) before anything
 * connects, unless webhook.storeAllowPlain says that network is trusted; a store on this machine stays plain. The
 * stand-in listens on this machine's own non-loopback address, standing in for another machine, and keeps what came.
 */
import { networkInterfaces } from 'node:os';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { type EchoingPostgres, echoingPostgres } from '../../support/echoing-postgres.js';
import { requireThat } from '../../support/external-tools.js';

const address = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && !entry.internal && entry.family === 'IPv4')?.address;
const network = requireThat(address !== undefined, 'this machine has no non-loopback IPv4 address');

let database: EchoingPostgres;
beforeEach(async () => {
  database = await echoingPostgres(address ?? '127.0.0.1');
});
afterEach(() => database.close());

const refusal = (flag: string, weakness: string) =>
  `error: Refusing to open the PostgreSQL store of ${flag} on ${address} with ${weakness}: its password and the events would cross the network unencrypted or to a server whose certificate is not checked, where anyone between here and ${address} can read them. Use sslmode=verify-full (with sslrootcert=FILE for a private CA), or set webhook.storeAllowPlain (B2BCTL_STORE_ALLOW_PLAIN=true) if that network is trusted.\n`;

const remoteStore = (query = '') => `postgres://erp:UrlPgPw_12344321@${address}:${database.port}/db${query}`;

describe.skipIf(network.missing)(`a PostgreSQL store on another machine${network.note}`, () => {
  it.each([
    ['webhook status', ['webhook', 'status']],
    ['webhook listen', ['webhook', 'listen', '--port', '0', '--client-id', 'erp']],
  ])('%s asks for TLS when the URL says nothing: no password crosses in clear (exit 69)', async (_name, command) => {
    const result = await runCommandLine([...command, '--store-env', 'STORE_URL'], {
      configDir: freshConfigDir(),
      env: { STORE_URL: remoteStore(), B2BCTL_WEBHOOK_CLIENT_SECRET: 'a'.repeat(64) },
    });
    // The stand-in refuses TLS: b2bctl hangs up rather than go on in clear.
    expect(database.seen).toEqual(['SSLRequest']);
    expect(result.stderr).toBe(
      `error: Cannot open the PostgreSQL store "db" at ${address}:${database.port} (The server does not support SSL connections); b2bctl reaches a store on another machine over TLS with its certificate checked (sslmode=verify-full): turn TLS on in the server, add sslrootcert=FILE to --store-env STORE_URL for a private CA, or set sslmode=disable and webhook.storeAllowPlain if that network is trusted.\n`,
    );
    expect(result.code).toBe(69);
  });

  it.each([
    ['sslmode=disable', '?sslmode=disable', {}],
    ['sslmode=no-verify', '?sslmode=no-verify', {}],
    ['ssl=0', '?ssl=0', {}],
    ['PGSSLMODE=disable', '', { PGSSLMODE: 'disable' }],
    ['ssl=', '?ssl=', {}],
    ['ssl=no-verify', '?ssl=no-verify', {}],
  ])('refuses %s (exit 2), connecting nowhere', async (weakness, query, env) => {
    const result = await runCommandLine(
      ['webhook', 'status', '--store', remoteStore(query).replace(/:UrlPgPw_\d+/, '')],
      {
        configDir: freshConfigDir(),
        env,
      },
    );
    expect(result.stderr).toBe(refusal('--store', weakness));
    expect(result.code).toBe(2);
    expect(database.connections).toBe(0);
  });

  it.each(['VERIFY-FULL', 'verify_full', 'require '])(
    'refuses PGSSLMODE=%j, which pg reads as nothing said and connects in plain (exit 2), connecting nowhere',
    async (mode) => {
      const result = await runCommandLine(['webhook', 'status', '--store', remoteStore().replace(/:UrlPgPw_\d+/, '')], {
        configDir: freshConfigDir(),
        env: { PGSSLMODE: mode, PGPASSWORD: 'EnvPgPw_55667788' },
      });
      expect(result.stderr).toBe(
        `error: Refusing to open the PostgreSQL store of --store on ${address} with PGSSLMODE=${JSON.stringify(mode)}: pg reads PGSSLMODE only as disable, prefer, require, verify-ca, verify-full or no-verify, written so, and takes any other value for none, so its password and the events would cross the network unencrypted, where anyone between here and ${address} can read them. Use PGSSLMODE=verify-full (with sslrootcert=FILE in the URL for a private CA), or set webhook.storeAllowPlain (B2BCTL_STORE_ALLOW_PLAIN=true) if that network is trusted.\n`,
      );
      expect(result.code).toBe(2);
      expect(database.connections).toBe(0);
    },
  );

  it.each([
    ['sslmode=prefer', 'TLS if the server offers it, else plain'],
    ['sslmode=allow', 'plain unless the server asks for TLS'],
  ])(
    'refuses %s, verify-full in the bundled pg but not in libpq, saying both (exit 2), connecting nowhere',
    async (said, libpq) => {
      const result = await runCommandLine(['webhook', 'status', '--store-env', 'STORE_URL'], {
        configDir: freshConfigDir(),
        env: { STORE_URL: remoteStore(`?${said}`) },
      });
      expect(result.stderr).toBe(
        `error: Refusing to open the PostgreSQL store of --store-env STORE_URL on ${address} with ${said}: libpq (psql) reads it as "${libpq}", and pg says its next major will follow libpq; the pg b2bctl bundles reads it as verify-full (TLS, the certificate checked), so it does not say how the password and the events cross the network to ${address}. Use sslmode=verify-full (with sslrootcert=FILE for a private CA) to say what you mean.\n`,
      );
      expect(result.code).toBe(2);
      expect(database.connections).toBe(0);
    },
  );

  it("obeys the PGSSLMODE of the command's environment, not the process's: TLS asked, no password in clear", async () => {
    vi.stubEnv('PGSSLMODE', 'disable');
    try {
      const result = await runCommandLine(['webhook', 'status', '--store-env', 'STORE_URL'], {
        configDir: freshConfigDir(),
        env: { STORE_URL: remoteStore(), PGSSLMODE: 'verify-full' },
      });
      expect(database.seen).toEqual(['SSLRequest']);
      expect(result.code).toBe(69);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('webhook.storeAllowPlain lets sslmode=disable through: plain as asked, the echoed password masked', async () => {
    const result = await runCommandLine(['webhook', 'dead', 'list', '--store-env', 'STORE_URL'], {
      configDir: freshConfigDir(),
      env: { STORE_URL: remoteStore('?sslmode=disable'), B2BCTL_STORE_ALLOW_PLAIN: 'true' },
    });
    expect(database.seen).toEqual(['startup', 'password UrlPgPw_12344321']);
    expect(result.stderr).toContain('(got "[redacted]")');
    expect(result.stderr).not.toContain('UrlPgPw_12344321');
    expect(result.code).toBe(69);
  });
});

describe('a PostgreSQL store on this machine', () => {
  let local: EchoingPostgres;
  beforeEach(async () => {
    local = await echoingPostgres('127.0.0.1');
  });
  afterEach(() => local.close());

  it('stays plain when the URL says nothing of TLS, and sslmode=disable is not refused', async () => {
    for (const query of ['', '?sslmode=disable']) {
      const result = await runCommandLine(['webhook', 'status', '--store-env', 'STORE_URL'], {
        configDir: freshConfigDir(),
        env: { STORE_URL: `postgres://erp:LocalPw_998877@127.0.0.1:${local.port}/db${query}` },
      });
      expect(result.code).toBe(69);
    }
    expect(local.seen).toEqual(['startup', 'password LocalPw_998877', 'startup', 'password LocalPw_998877']);
  });
});
