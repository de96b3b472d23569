/**
 * A PostgreSQL store (a pooler, a proxy, a patched server) that quotes the password it refused had it printed in
 * clear: PGPASSWORD's or the URL's, in the text and JSON error lines, `--verbose`'s stack and the receiver's log (a
 * user test). Every store error is masked with the passwords the store's connections send, as the HTTP paths mask an
 * echoed credential.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { type EchoingPostgres, echoingPostgres } from '../../support/echoing-postgres.js';

let database: EchoingPostgres;
beforeEach(async () => {
  database = await echoingPostgres('127.0.0.1');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await database.close();
});

const listen = ['webhook', 'listen', '--port', '0', '--client-id', 'erp'];
const secretEnv = { B2BCTL_WEBHOOK_CLIENT_SECRET: 'a'.repeat(64) };
const refusedLine = (flag: string) =>
  `Cannot open the PostgreSQL store "db" at 127.0.0.1:${database.port}: the server answered "password authentication failed for user "erp" (got "[redacted]")" (28P01); check the database, user and password that ${flag} gives.`;

describe('a PostgreSQL store that quotes the password it refused', () => {
  it.each([
    ['webhook status', ['webhook', 'status']],
    ['webhook listen', listen],
    ['webhook dead list', ['webhook', 'dead', 'list']],
  ])('%s masks PGPASSWORD in its error line, --verbose too (exit 69)', async (_name, command) => {
    // pg reads PGPASSWORD from the process's environment, not the command's.
    vi.stubEnv('PGPASSWORD', 'PgSecret_77665544');
    const result = await runCommandLine(
      ['--verbose', ...command, '--store', `postgres://erp@127.0.0.1:${database.port}/db`],
      { configDir: freshConfigDir(), env: secretEnv },
    );
    // It was sent, and echoed: the server's refusal is what is masked.
    expect(database.seen).toContain('password PgSecret_77665544');
    expect(result.stderr).toContain(`error: ${refusedLine('--store')}`);
    expect(result.stderr + result.stdout).not.toContain('PgSecret_77665544');
    expect(result.code).toBe(69);
  });

  it("masks a --store-env URL's password in a JSON log line", async () => {
    const result = await runCommandLine(['--log-format', 'json', 'webhook', 'status', '--store-env', 'STORE_URL'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_LOG_FORMAT: 'json', STORE_URL: `postgres://erp:UrlPgPw_12344321@127.0.0.1:${database.port}/db` },
    });
    expect(database.seen).toContain('password UrlPgPw_12344321');
    const logged = JSON.parse(result.stderr.trim().split('\n').at(-1) ?? '{}') as { message?: string };
    expect(logged.message).toBe(refusedLine('--store-env STORE_URL'));
    expect(result.stderr).not.toContain('UrlPgPw_12344321');
    expect(result.code).toBe(69);
  });
});
