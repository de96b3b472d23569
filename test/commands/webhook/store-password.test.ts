/**
 * A PostgreSQL password on the command line is in `ps` for every local user and in the shell's history: --store with
 * one warns as --token does, and --store-env VAR takes the URL from the environment instead.
 */
import { describe, expect, it } from 'vitest';
import { refusedPort, freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';

const warning =
  'warning: --store puts the database password in the process list and shell history; leave it out of the URL and set PGPASSWORD or a ~/.pgpass line, or pass the whole URL in an environment variable with --store-env VAR.';

describe('the PostgreSQL store URL and its password', () => {
  it('--store with a password warns before anything else, and the password is in no other line', async () => {
    const url = `postgres://hooks:S3CRET-pw@127.0.0.1:${await refusedPort()}/webhooks`;
    const result = await runCommandLine(['webhook', 'status', '--store', url], { configDir: freshConfigDir() });
    expect(result.stderr.split('\n')[0]).toContain(warning);
    expect(result.stderr.replace(warning, '')).not.toContain('S3CRET-pw');
    expect(result.code).not.toBe(0);
  });

  it('--store without a password does not warn', async () => {
    const url = `postgres://hooks@127.0.0.1:${await refusedPort()}/webhooks`;
    const result = await runCommandLine(['webhook', 'status', '--store', url], { configDir: freshConfigDir() });
    expect(result.stderr).not.toContain('warning: --store');
    expect(result.code).not.toBe(0);
  });

  it('--store-env reads the URL from the variable it names: no warning, the password in no line', async () => {
    const url = `postgres://hooks:S3CRET-pw@127.0.0.1:${await refusedPort()}/webhooks`;
    const result = await runCommandLine(['webhook', 'status', '--store-env', 'WEBHOOK_STORE_URL'], {
      configDir: freshConfigDir(),
      env: { WEBHOOK_STORE_URL: url },
    });
    expect(result.stderr).not.toContain('warning: --store');
    expect(result.stderr).not.toContain('S3CRET-pw');
    // It went to the address in the variable.
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.code).not.toBe(0);
  });

  it('webhook listen --store-env names the variable when the store cannot be opened (exit 69)', async () => {
    const url = `postgres://hooks:S3CRET-pw@127.0.0.1:${await refusedPort()}/webhooks`;
    const result = await runCommandLine(
      ['webhook', 'listen', '--port', '0', '--client-id', 'erp', '--store-env', 'WEBHOOK_STORE_URL'],
      { configDir: freshConfigDir(), env: { WEBHOOK_STORE_URL: url, B2BCTL_WEBHOOK_CLIENT_SECRET: 'a'.repeat(64) } },
    );
    expect(result.stderr).toContain(
      `Cannot open the PostgreSQL store "webhooks" at 127.0.0.1:${new URL(url).port} (ECONNREFUSED); check --store-env WEBHOOK_STORE_URL and that the database is up.`,
    );
    expect(result.stderr).not.toContain('S3CRET-pw');
    expect(result.code).toBe(69);
  });

  it.each([['status'], ['inbox'], ['dead', 'list'], ['replay', '--id', '1', '--to', 'http://127.0.0.1:9/hook']])(
    'webhook %s with a store that cannot be opened says so as listen does: exit 69 (unavailable), not 1',
    async (...command) => {
      const url = `postgres://hooks@127.0.0.1:${await refusedPort()}/webhooks`;
      const result = await runCommandLine(['webhook', ...command, '--store', url], { configDir: freshConfigDir() });
      expect(result.stderr).toContain(
        `Cannot open the PostgreSQL store "webhooks" at 127.0.0.1:${new URL(url).port} (ECONNREFUSED); check --store and that the database is up.`,
      );
      expect(result.code).toBe(69);
    },
  );

  it.each([
    [
      'a variable that is not set',
      ['--store-env', 'WEBHOOK_STORE_URL'],
      {},
      "--store-env WEBHOOK_STORE_URL: the environment variable WEBHOOK_STORE_URL is not set; export it with the store's postgres://user:password@host/db URL.",
    ],
    [
      'a variable that holds no PostgreSQL URL',
      ['--store-env', 'WEBHOOK_STORE_URL'],
      { WEBHOOK_STORE_URL: 'mysql://db' },
      '--store-env WEBHOOK_STORE_URL: the variable does not hold a PostgreSQL URL such as postgres://user@db.internal/webhooks.',
    ],
    [
      'both flags',
      ['--store', 'postgres://db/x', '--store-env', 'WEBHOOK_STORE_URL'],
      { WEBHOOK_STORE_URL: 'postgres://db/x' },
      'Give the PostgreSQL store once: --store URL or --store-env VAR, not both.',
    ],
  ])('refuses %s (exit 2), opening nothing', async (_case, flags, env, message) => {
    const result = await runCommandLine(['webhook', 'inbox', ...flags], { configDir: freshConfigDir(), env });
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.code).toBe(2);
  });

  it.each([['listen'], ['status'], ['dead', 'list']])(
    'webhook %s with a --store URL the driver cannot read: one line naming --store, exit 2, nothing opened (a user test)',
    async (...command) => {
      const extra = command[0] === 'listen' ? ['--port', '0', '--client-id', 'erp'] : [];
      const inbox = freshConfigDir();
      const result = await runCommandLine(
        ['webhook', ...command, ...extra, '--store', 'postgres://hooks:S3CRET-pw@db.internal:99999999/webhooks'],
        { configDir: inbox, env: { B2BCTL_WEBHOOK_CLIENT_SECRET: 'a'.repeat(64) } },
      );
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
      expect(lines).toEqual([
        'error: --store is not a URL the PostgreSQL driver reads (Invalid URL): give postgres://user@host:port/database, or postgresql://user@/database?host=/run/postgresql for a local socket; a character such as @, : or / in the user or password is written %40, %3A, %2F.',
      ]);
      expect(result.stderr).not.toContain('inbox');
      expect(result.stderr).not.toContain('S3CRET-pw');
      expect(result.code).toBe(2);
    },
  );
});
