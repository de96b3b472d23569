/**
 * The store's TLS rule read against the bundled pg itself: for every spelling of PGSSLMODE and of the URL, either
 * b2bctl refuses it past this machine (exit 2, naming the value) or the connection pg is handed asks for TLS. pg
 * knows only exact lower-case PGSSLMODE words and connects in plain for any other, so a misspelled value must never
 * pass as "the user chose" (a maintainer's review found `VERIFY-FULL` going out in clear).
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/base/errors.js';
import { pgConnectionOf, storeReachOf } from '../../../src/webhook/store/postgres-tls.js';

/** pg's own reading of a connection's settings, the process's environment included. */
const { default: ConnectionParameters } = {
  default: createRequire(import.meta.url)('pg/lib/connection-parameters.js'),
} as {
  default: new (config: Record<string, unknown>) => { ssl: unknown; host: string; password: unknown };
};

const remote = 'postgres://erp@db.example.com/inbox';

/** What pg would do with the store as b2bctl hands it over, or b2bctl's refusal. */
function pgReading(url: string, environment: NodeJS.ProcessEnv, allowPlain = false) {
  try {
    const reach = storeReachOf(url, '--store', { environment, allowPlain });
    return { ssl: new ConnectionParameters(pgConnectionOf(url, reach)).ssl };
  } catch (error) {
    if (error instanceof UsageError) return { refused: error.message };
    throw error;
  }
}

afterEach(() => vi.unstubAllEnvs());

describe('a PGSSLMODE pg does not read as written', () => {
  it.each(['VERIFY-FULL', 'verify_full', 'require ', 'Require', 'allow', 'on'])(
    'PGSSLMODE=%j to another machine is refused, naming the value',
    (mode) => {
      const reading = pgReading(remote, { PGSSLMODE: mode });
      expect(reading.refused).toContain(
        `on db.example.com with PGSSLMODE=${JSON.stringify(mode)}: pg reads PGSSLMODE only as`,
      );
      expect(reading.refused).toContain('Use PGSSLMODE=verify-full');
    },
  );

  it('is plain, as pg reads it, only when webhook.storeAllowPlain says the network is trusted', () => {
    expect(pgReading(remote, { PGSSLMODE: 'VERIFY-FULL' }, true)).toEqual({ ssl: false });
  });

  it('is no matter on this machine', () => {
    expect(pgReading('postgres://erp@localhost/inbox', { PGSSLMODE: 'VERIFY-FULL' })).toEqual({ ssl: false });
  });
});

describe('what pg is handed past this machine', () => {
  it.each([
    ['nothing said', remote, {}],
    ['PGSSLMODE=verify-full', remote, { PGSSLMODE: 'verify-full' }],
    ['PGSSLMODE=require', remote, { PGSSLMODE: 'require' }],
    ['PGSSLMODE=verify-ca', remote, { PGSSLMODE: 'verify-ca' }],
    ['sslmode=verify-full', `${remote}?sslmode=verify-full`, {}],
    ['sslmode=require (an upgrade of pg that reads it as libpq does fails here)', `${remote}?sslmode=require`, {}],
    ['sslmode=VERIFY-FULL (pg reads any other sslmode in a URL as TLS checked)', `${remote}?sslmode=VERIFY-FULL`, {}],
    ['ssl=true', `${remote}?ssl=true`, {}],
  ])('%s asks for TLS with the certificate checked', (_name, url, environment) => {
    const { ssl } = pgReading(url, environment);
    expect(ssl).toBeTruthy();
    expect((ssl as { rejectUnauthorized?: boolean }).rejectUnauthorized).not.toBe(false);
  });

  it.each([
    ['ssl=', '?ssl='],
    ['ssl=no-verify', '?ssl=no-verify'],
    ['ssl=0', '?ssl=0'],
    ['sslmode=disable', '?sslmode=disable'],
    ['sslmode=no-verify', '?sslmode=no-verify'],
    ['sslmode=require with uselibpqcompat', '?sslmode=require&uselibpqcompat=true'],
  ])('%s, plain or unchecked in pg, is refused', (said, query) => {
    expect(pgReading(`${remote}${query}`, {}).refused).toContain(
      `with ${said}: its password and the events would cross the network unencrypted or to a server whose certificate is not checked`,
    );
  });

  it.each([
    ['sslmode=prefer', `${remote}?sslmode=prefer`, {}, 'TLS if the server offers it, else plain', 'sslmode'],
    ['sslmode=allow', `${remote}?sslmode=allow`, {}, 'plain unless the server asks for TLS', 'sslmode'],
    ['PGSSLMODE=prefer', remote, { PGSSLMODE: 'prefer' }, 'TLS if the server offers it, else plain', 'PGSSLMODE'],
  ])(
    '%s, verify-full in this pg but not in libpq, is refused saying both readings',
    (said, url, environment, libpq, name) => {
      expect(pgReading(url, environment).refused).toBe(
        `Refusing to open the PostgreSQL store of --store on db.example.com with ${said}: libpq (psql) reads it as "${libpq}", and pg says its next major will follow libpq; the pg b2bctl bundles reads it as verify-full (TLS, the certificate checked), so it does not say how the password and the events cross the network to db.example.com. Use ${name}=verify-full (with sslrootcert=FILE for a private CA) to say what you mean.`,
      );
    },
  );
});

describe("the command's environment, not the process's, is the one pg obeys", () => {
  it('PGSSLMODE, PGHOST and PGPASSWORD of the environment given reach pg over those of the process', () => {
    vi.stubEnv('PGSSLMODE', 'disable');
    vi.stubEnv('PGHOST', 'localhost');
    vi.stubEnv('PGPASSWORD', 'ProcessPw_1');
    const url = 'postgres://erp@/inbox';
    const reach = storeReachOf(url, '--store', {
      environment: { PGSSLMODE: 'verify-full', PGHOST: 'db.example.com', PGPASSWORD: 'GivenPw_2' },
      allowPlain: false,
    });
    const pg = new ConnectionParameters(pgConnectionOf(url, reach));
    expect([pg.ssl, pg.host, pg.password]).toEqual([true, 'db.example.com', 'GivenPw_2']);
  });
});
