import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { asJson, cachedToken, configFile, freshConfigDir, readConfig, tokenFlagWarning } from '../../support/cli.js';
import { login, runCommandLine } from '../../support/command-line.js';
import {
  listingRoute,
  requestCounts,
  resetCounts,
  sandboxUser,
  seedReps,
  useFileSandbox,
} from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;

useFileSandbox((started) => (sandbox = started));
beforeEach(async () => {
  await resetCounts(sandbox);
});

interface SettingRow {
  key: string;
  value: string | null;
  source: string | null;
  description: string;
}

type Triple = [key: string, value: string | null, source: string | null];

/** Every setting of docs/settings.md with its value and source when nothing is set anywhere. */
const defaults: readonly Triple[] = [
  ['baseUrl', null, null],
  ['username', null, null],
  ['token', null, null],
  ['tokenExpiresAt', null, null],
  ['tokenObtainedAt', null, null],
  ['auth.style', 'json', 'default'],
  ['paths.token', '/v1/auth/token', 'default'],
  ['paths.sellers', '/sellerModule/listSellers', 'default'],
  ['paths.customerStatus', '/v1/customer/updateStatus/:document/:active', 'default'],
  ['paths.customerAddresses', '/v1/customer/addresses/:document', 'default'],
  ['paths.orders', '/v1/orders', 'default'],
  ['paths.order', '/v1/orders/:id', 'default'],
  ['http.timeout', '30000', 'default'],
  ['http.retries', '3', 'default'],
];

function withChanges(changes: Record<string, [string | null, string | null]>): Triple[] {
  return defaults.map(([key, value, source]) =>
    key in changes ? [key, ...(changes[key] ?? [value, source])] : [key, value, source],
  );
}

/** stderr without the line config list starts with, naming the profile and its config.json (its own tests below). */
const withoutListedFrom = (stderr: string) =>
  stderr.replace(/^Profile "[^"]*"( \(from B2BCTL_PROFILE\))?, read from .*\n/m, '');

async function listRows(
  configDir: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<SettingRow[]> {
  const result = await runCommandLine(['config', 'list', '-o', 'json', ...args], { configDir, env });
  expect(withoutListedFrom(result.stderr)).toBe(args.includes('--token') ? tokenFlagWarning : '');
  expect(result.code).toBe(0);
  const rows = JSON.parse(result.stdout) as SettingRow[];
  // The bytes are those of JSON.stringify(rows, null, 2).
  expect(result.stdout).toBe(asJson(rows));
  for (const row of rows) expect(typeof row.description === 'string' && row.description.length > 0).toBe(true);
  return rows;
}

const foundationKeys = new Set(defaults.map(([key]) => key));

/** Key, value and source of the foundation's settings, in listing order; settings of later issues are left out. */
const triples = (rows: readonly SettingRow[]): Triple[] =>
  rows.filter((row) => foundationKeys.has(row.key)).map((row) => [row.key, row.value, row.source]);

describe('config get, set and list', () => {
  it('lists every setting with its default and source, creating no file', async () => {
    const configDir = freshConfigDir();
    expect(triples(await listRows(configDir))).toEqual(defaults);
  });

  it('lists as a table with aligned KEY VALUE SOURCE columns', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['config', 'list', '-o', 'table'], { configDir });
    expect(result.code).toBe(0);
    expect(withoutListedFrom(result.stderr)).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines.at(-1)).toBe('');
    const [header = '', ...rows] = lines.slice(0, -1);
    expect(header.split(/ {2,}/)).toEqual(['KEY', 'VALUE', 'SOURCE']);
    const valueColumn = header.indexOf('VALUE');
    const sourceColumn = header.indexOf('SOURCE');
    const cells = rows.map((row) => [
      row.slice(0, valueColumn).trimEnd(),
      row.slice(valueColumn, sourceColumn).trimEnd(),
      row.slice(sourceColumn),
    ]);
    expect(cells.filter(([key]) => foundationKeys.has(key ?? ''))).toEqual(
      defaults.map(([key, value, source]) => [key, value ?? '-', source ?? '-']),
    );
    // No colour codes when stdout is not a terminal.
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('sets, gets and removes a paths.* route setting', async () => {
    const configDir = freshConfigDir();
    const set = await runCommandLine(['config', 'set', 'paths.token', '/oauth/token'], { configDir });
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('');
    expect(set.stderr).toBe('Set paths.token for profile "default".\n');
    expect(readConfig(configDir).profiles.default).toEqual({ 'paths.token': '/oauth/token' });
    expect(statSync(configFile(configDir)).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);

    const get = await runCommandLine(['config', 'get', 'paths.token'], { configDir });
    expect(get.code).toBe(0);
    expect(get.stdout).toBe('/oauth/token\n');
    expect(get.stderr).toBe('');
    expect(triples(await listRows(configDir))).toEqual(withChanges({ 'paths.token': ['/oauth/token', 'profile'] }));

    const remove = await runCommandLine(['config', 'set', 'paths.token', ''], { configDir });
    expect(remove.code).toBe(0);
    expect(remove.stderr).toBe('Removed paths.token from profile "default".\n');
    expect(readConfig(configDir).profiles.default).toEqual({});
    expect((await runCommandLine(['config', 'get', 'paths.token'], { configDir })).stdout).toBe('/v1/auth/token\n');
  });

  it('unset removes a setting as set KEY "" does; an unknown key is exit 2 naming the close one', async () => {
    const configDir = freshConfigDir();
    await runCommandLine(['config', 'set', 'http.timeout', '5s'], { configDir });
    const unset = await runCommandLine(['config', 'unset', 'http.timeout'], { configDir });
    expect(unset.code).toBe(0);
    expect(unset.stderr).toBe('Removed http.timeout from profile "default".\n');
    expect(readConfig(configDir).profiles.default).toEqual({});
    // Nothing to remove: said so, not "Removed".
    const again = await runCommandLine(['config', 'unset', 'http.timeout'], { configDir });
    expect([again.code, again.stderr]).toEqual([
      0,
      'http.timeout was not set for profile "default"; nothing changed.\n',
    ]);
    const typo = await runCommandLine(['config', 'unset', 'htp.timeout'], { configDir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown setting "htp.timeout" (did you mean "http.timeout"?)');
  });

  it('gets a default value with its bare text', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['config', 'get', 'paths.customerStatus'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('/v1/customer/updateStatus/:document/:active\n');
  });

  it('sets a setting in a new named profile', async () => {
    const configDir = freshConfigDir();
    const set = await runCommandLine(['config', 'set', 'paths.orders', '/api/orders', '--profile', 'prod'], {
      configDir,
    });
    expect(set.code).toBe(0);
    expect(set.stderr).toBe('Set paths.orders for profile "prod".\n');
    expect(readConfig(configDir).profiles).toEqual({ prod: { 'paths.orders': '/api/orders' } });
    expect((await runCommandLine(['config', 'get', 'paths.orders', '--profile', 'prod'], { configDir })).stdout).toBe(
      '/api/orders\n',
    );
    expect((await runCommandLine(['config', 'get', 'paths.orders'], { configDir })).stdout).toBe('/v1/orders\n');
  });

  it('resolves flag > environment > profile > default, and config list names the source', async () => {
    const configDir = freshConfigDir();
    expect((await runCommandLine(['config', 'set', 'baseUrl', 'http://profile.example'], { configDir })).code).toBe(0);
    expect((await runCommandLine(['config', 'set', 'http.retries', '5'], { configDir })).code).toBe(0);

    // profile over default
    expect(triples(await listRows(configDir))).toEqual(
      withChanges({ baseUrl: ['http://profile.example', 'profile'], 'http.retries': ['5', 'profile'] }),
    );
    expect((await runCommandLine(['config', 'get', 'baseUrl'], { configDir })).stdout).toBe('http://profile.example\n');

    // environment over profile
    const env = { B2BCTL_BASE_URL: 'http://env.example', B2BCTL_RETRIES: '7', B2BCTL_TIMEOUT: '1234' };
    expect(triples(await listRows(configDir, [], env))).toEqual(
      withChanges({
        baseUrl: ['http://env.example', 'env'],
        'http.retries': ['7', 'env'],
        'http.timeout': ['1234', 'env'],
      }),
    );
    expect((await runCommandLine(['config', 'get', 'baseUrl'], { configDir, env })).stdout).toBe(
      'http://env.example\n',
    );

    // flag over environment
    expect(triples(await listRows(configDir, ['--base-url', 'http://flag.example'], env))).toEqual(
      withChanges({
        baseUrl: ['http://flag.example', 'flag'],
        'http.retries': ['7', 'env'],
        'http.timeout': ['1234', 'env'],
      }),
    );
    expect(
      (await runCommandLine(['config', 'get', 'baseUrl', '--base-url', 'http://flag.example'], { configDir, env }))
        .stdout,
    ).toBe('http://flag.example\n');

    // The stored profile is unchanged by flags and environment.
    expect(readConfig(configDir).profiles.default).toEqual({ baseUrl: 'http://profile.example', 'http.retries': '5' });
  });

  it('shows a stored token only as "(set)", from the profile, from the environment or from the flag', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const token = cachedToken(configDir);
    const profile = readConfig(configDir).profiles.default ?? {};
    const stored = await runCommandLine(['config', 'list', '-o', 'json'], { configDir });
    expect(stored.stdout).not.toContain(token);
    expect(triples(JSON.parse(stored.stdout) as SettingRow[])).toEqual(
      withChanges({
        baseUrl: [sandbox.url, 'profile'],
        username: [sandboxUser, 'profile'],
        token: ['(set)', 'profile'],
        tokenExpiresAt: [profile.tokenExpiresAt ?? '', 'profile'],
        tokenObtainedAt: [profile.tokenObtainedAt ?? '', 'profile'],
      }),
    );
    const fromEnv = await listRows(configDir, [], { B2BCTL_TOKEN: 'env-token-value' });
    expect(fromEnv.find((row) => row.key === 'token')).toMatchObject({ value: '(set)', source: 'env' });
    expect(JSON.stringify(fromEnv)).not.toContain('env-token-value');
    const fromFlag = await listRows(configDir, ['--token', 'flag-token-value'], { B2BCTL_TOKEN: 'env-token-value' });
    expect(fromFlag.find((row) => row.key === 'token')).toMatchObject({ value: '(set)', source: 'flag' });
    expect(JSON.stringify(fromFlag)).not.toContain('flag-token-value');
    expect(await requestCounts(sandbox)).toEqual({ 'POST /v1/auth/token': 1 });
  });

  it('uses paths.sellers for the listing route', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    expect((await runCommandLine(['config', 'set', 'paths.sellers', '/custom/sellers'], { configDir })).code).toBe(0);
    await resetCounts(sandbox);
    const moved = await runCommandLine(['sellers', 'list'], { configDir });
    expect(moved.code).toBe(1);
    expect(moved.stdout).toBe('');
    expect(moved.stderr).toBe(
      `error: GET ${sandbox.url}/custom/sellers?limit=20 failed with HTTP 404: No route GET /custom/sellers\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({ 'GET /custom/sellers': 1 });

    expect((await runCommandLine(['config', 'set', 'paths.sellers', ''], { configDir })).code).toBe(0);
    await resetCounts(sandbox);
    const back = await runCommandLine(['sellers', 'list', '--limit', '1'], { configDir });
    expect(back.code).toBe(0);
    expect(back.stdout).toBe(asJson(seedReps.slice(0, 1)));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('uses paths.token for login', async () => {
    const configDir = freshConfigDir();
    expect((await runCommandLine(['config', 'set', 'paths.token', '/oauth/token'], { configDir })).code).toBe(0);
    const result = await runCommandLine(
      ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
      {
        configDir,
        stdin: 'x',
      },
    );
    // A route the sandbox lacks is a 404, so the message points at the setting, not at the password.
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: The token route POST ${sandbox.url}/oauth/token does not exist (HTTP 404: No route POST /oauth/token). Check the paths.token setting (b2bctl config get paths.token).\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({ 'POST /oauth/token': 1 });
  });

  it('exits 1 for config get of a setting that is not set', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['config', 'get', 'baseUrl'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: "baseUrl" is not set for profile "default".\n');
  });

  it('config get prints the bare value without -o, piped or on a terminal, and the format -o asks for with it', async () => {
    const configDir = freshConfigDir();
    await runCommandLine(['config', 'set', 'baseUrl', 'https://api.loja.example/v2'], { configDir });
    await runCommandLine(['config', 'set', 'http.timeout', '45s'], { configDir });
    const get = async (args: readonly string[], tty = false) => {
      const result = await runCommandLine(['config', 'get', ...args], { configDir, tty: { stdout: tty } });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      return result.stdout;
    };
    expect(await get(['baseUrl'])).toBe('https://api.loja.example/v2\n');
    expect(await get(['baseUrl'], true)).toBe('https://api.loja.example/v2\n');
    expect(await get(['baseUrl', '-o', 'table'])).toBe('https://api.loja.example/v2\n');
    // The value config list -o json gives for the key, as written: a JSON string, its unit kept.
    expect(await get(['baseUrl', '-o', 'json'])).toBe('"https://api.loja.example/v2"\n');
    expect(await get(['baseUrl', '-o', 'ndjson'], true)).toBe('"https://api.loja.example/v2"\n');
    expect(await get(['http.timeout', '-o', 'json'])).toBe('"45s"\n');
    expect(await get(['http.retries', '-o', 'json'])).toBe('"3"\n');
    const listed = (await listRows(configDir)).find((row) => row.key === 'http.timeout');
    expect(JSON.stringify(listed?.value)).toBe('"45s"');
    // The key and value columns of config list -o csv.
    expect(await get(['baseUrl', '-o', 'csv'])).toBe('key,value\r\nbaseUrl,https://api.loja.example/v2\r\n');
    expect(await get(['http.timeout', '--excel'])).toBe('\uFEFFkey;value\r\nhttp.timeout;45s\r\n');
  });
});

describe('config mistakes (exit 2)', () => {
  const cases: readonly [string, readonly string[], string][] = [
    [
      'an unknown key on get',
      ['config', 'get', 'pths.token'],
      'error: unknown setting "pths.token" (did you mean "paths.token"?); run b2bctl config list to see them all\n',
    ],
    [
      'an unknown key on set',
      ['config', 'set', 'basUrl', 'http://x.example'],
      'error: unknown setting "basUrl" (did you mean "baseUrl"?); run b2bctl config list to see them all\n',
    ],
    [
      'a key too far from any',
      ['config', 'get', 'xyzzy'],
      'error: unknown setting "xyzzy"; run b2bctl config list to see them all\n',
    ],
    [
      'a route without its leading slash',
      ['config', 'set', 'paths.token', 'oauth/token'],
      'error: "paths.token" must start with /, not "oauth/token"\n',
    ],
    [
      'a base URL that is not http',
      ['config', 'set', 'baseUrl', 'ftp://x.example'],
      'error: "baseUrl" must be an http:// or https:// URL, not "ftp://x.example"\n',
    ],
    [
      // Kept in config.json in clear and shown by whoami and config list; b2bctl logs in with its own credentials.
      'a base URL with a user and password in it, the password not shown',
      ['config', 'set', 'baseUrl', 'http://bob:hunter2@127.0.0.1:8787'],
      'error: "baseUrl" must not hold a user or password (user:password@): b2bctl logs in as the integration user with b2bctl login --username, not "http://***@127.0.0.1:8787/"\n',
    ],
    [
      // Shown in every summary line, whoami and the run record, and sent with no request: b2bctl builds each query.
      'a base URL with a query, its value not shown',
      ['config', 'set', 'baseUrl', 'http://127.0.0.1:8787/?api_key=SECRETQ'],
      `error: "baseUrl" must not hold a query (?name=value): b2bctl would send it with no request; give the address alone (b2bctl api -H 'Name: value' sends a header of your own), not "http://127.0.0.1:8787/?api_key=***"\n`,
    ],
    [
      // 0 timed every request out before it could be answered, with advice to raise the timeout.
      'a timeout of 0',
      ['config', 'set', 'http.timeout', '0'],
      'error: "http.timeout" must be a number of milliseconds of at least 100 (or a time such as 30s, 5m or 1h), not "0"\n',
    ],
    [
      'an auth.style not offered',
      ['config', 'set', 'auth.style', 'xml'],
      'error: "auth.style" must be one of json, form, basic, not "xml"\n',
    ],
    [
      'a retries count that is not a number',
      ['config', 'set', 'http.retries', 'many'],
      'error: "http.retries" must be a whole number (0 or more), not "many"\n',
    ],
    [
      // login refuses it; stored, it would be refused at every automatic login.
      'a username with a space',
      ['config', 'set', 'username', 'erp @loja.com.br'],
      'error: "username" must be the integration user, an e-mail such as erp@mystore.com.br, without spaces, not "erp @loja.com.br"\n',
    ],
    [
      'setting the token by hand',
      ['config', 'set', 'token', 'abc'],
      'error: "token" is written by b2bctl login, not by config set\n',
    ],
    [
      'removing the token by hand (a user test)',
      ['config', 'unset', 'token'],
      'error: "token" is written by b2bctl login and removed by b2bctl logout, not by config unset\n',
    ],
    [
      'removing its expiry by hand',
      ['config', 'unset', 'tokenExpiresAt'],
      'error: "tokenExpiresAt" is written by b2bctl login and removed by b2bctl logout, not by config unset\n',
    ],
    [
      'getting the token',
      ['config', 'get', 'token'],
      'error: "token" is a secret and is never printed; b2bctl whoami shows its status.\n',
    ],
    [
      'listing an unknown profile',
      ['config', 'list', '--profile', 'nope'],
      'error: Unknown profile "nope" (no profiles yet). Run B2BCTL_CONFIG_DIR=CONFIG_DIR b2bctl login --profile nope to create it.\n',
    ],
  ];
  for (const [what, args, stderr] of cases) {
    it(`refuses ${what}`, async () => {
      const configDir = freshConfigDir();
      const result = await runCommandLine(args, { configDir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      // A login line names the config folder it was printed for, which only the test knows.
      expect(result.stderr).toBe(stderr.replace('CONFIG_DIR=CONFIG_DIR', `CONFIG_DIR=${configDir}`));
    });
  }
});

describe('a setting from the environment that every command refuses', () => {
  const refusal =
    'error: Setting "http.timeout" must be a number of milliseconds of at least 100 (or a time such as 30s, 5m or 1h), not "abc" (from B2BCTL_TIMEOUT).\n';

  it('config get refuses it as they do (exit 2), printing no value a script would take', async () => {
    const result = await runCommandLine(['config', 'get', 'http.timeout'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_TIMEOUT: 'abc' },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(refusal);
  });

  it('config list shows it, to find it, then refuses it (exit 2)', async () => {
    const result = await runCommandLine(['config', 'list', '-o', 'json'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_TIMEOUT: 'abc' },
    });
    expect(result.code).toBe(2);
    const rows = JSON.parse(result.stdout) as { key: string; value: unknown; source: unknown }[];
    expect(rows.find((row) => row.key === 'http.timeout')).toMatchObject({ value: 'abc', source: 'env' });
    expect(withoutListedFrom(result.stderr)).toBe(refusal);
  });
});

describe('a profile holding a base URL without its scheme (saved by an older login)', () => {
  it('config list shows it marked invalid in the table, the others unmarked, then refuses it (exit 2)', async () => {
    const configDir = join(temporaryFolder('b2bctl-config-list-'), 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const profile = { baseUrl: '127.0.0.1:7550', username: sandboxUser };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
    const result = await runCommandLine(['config', 'list', '-o', 'table'], { configDir });
    expect(result.code).toBe(2);
    const rows = result.stdout.split('\n').map((line) => line.split(/ {2,}/));
    expect(rows.find(([key]) => key === 'baseUrl')).toEqual(['baseUrl', '127.0.0.1:7550', 'profile (invalid)']);
    expect(rows.find(([key]) => key === 'username')).toEqual(['username', sandboxUser, 'profile']);
    expect(rows.filter((row) => row.at(-1)?.endsWith('(invalid)'))).toHaveLength(1);
    expect(withoutListedFrom(result.stderr)).toBe(
      'error: Setting "baseUrl" must be an absolute URL such as https://store.example.com, not "127.0.0.1:7550" (from profile "default"; change it with b2bctl config set baseUrl VALUE). It has no scheme: did you mean http://127.0.0.1:7550?\n',
    );
  });
});

// A gateway's user and password put in the base URL, as curl takes them (a user test): refused by every command,
// and config list shows the refused value to find it, its password masked as the refusal line masks it.
describe('config list masks the password of a base URL it lists', () => {
  const password = 'GatewayPassw0rd';

  it.each(['json', 'ndjson', 'csv', 'table'])('from the environment, in -o %s, exit 2', async (format) => {
    const result = await runCommandLine(['config', 'list', '-o', format], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: `http://gw:${password}@127.0.0.1:9251` },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain(password);
    expect(result.stdout).toContain('http://***@127.0.0.1:9251/');
    expect(result.stderr).not.toContain(password);
  });

  it('from the flag and from the profile, in the table', async () => {
    const fromFlag = await runCommandLine(
      ['config', 'list', '-o', 'table', '--base-url', `http://gw:${password}@127.0.0.1:9251`],
      { configDir: freshConfigDir() },
    );
    const configDir = join(temporaryFolder('b2bctl-config-list-'), 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const profile = { baseUrl: `http://gw:${password}@127.0.0.1:9251` };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
    const fromProfile = await runCommandLine(['config', 'list', '-o', 'table'], { configDir });
    for (const [result, source] of [
      [fromFlag, 'flag'],
      [fromProfile, 'profile'],
    ] as const) {
      expect(result.code).toBe(2);
      expect(result.stdout).not.toContain(password);
      const rows = result.stdout.split('\n').map((line) => line.split(/ {2,}/));
      expect(rows.find(([key]) => key === 'baseUrl')).toEqual([
        'baseUrl',
        'http://***@127.0.0.1:9251/',
        `${source} (invalid)`,
      ]);
    }
  });
});

// Keys typed by hand into config.json that are no setting (a user test): every command ignored them without a word.
describe('a profile key that is no setting', () => {
  const profile = {
    baseUrl: 'http://127.0.0.1:9252',
    'http.timout': '60s',
    'paths.sellers ': '/x',
    'stock.autothreshold': '10',
  };
  const warnings = [
    'warning: profile "a" holds "http.timout", which is no setting (did you mean "http.timeout"?): it is ignored. Remove it with b2bctl config unset http.timout --profile a.',
    `warning: profile "a" holds "paths.sellers ", which is no setting (did you mean "paths.sellers"?): it is ignored. Remove it with b2bctl config unset 'paths.sellers ' --profile a.`,
    'warning: profile "a" holds "stock.autothreshold", which is no setting (did you mean "stock.autoThreshold"?): it is ignored. Remove it with b2bctl config unset stock.autothreshold --profile a.',
  ];

  function folderWithTypos(): string {
    const configDir = join(temporaryFolder('b2bctl-config-typo-'), 'config');
    mkdirSync(configDir, { mode: 0o700 });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { a: profile } }), { mode: 0o600 });
    return configDir;
  }

  it('is warned of once by a command reading the profile, naming the setting it is nearest to', async () => {
    const result = await runCommandLine(['--profile', 'a', 'config', 'get', 'http.timeout'], {
      configDir: folderWithTypos(),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('30000\n');
    expect(result.stderr).toBe(`${warnings.join('\n')}\n`);
  });

  it('is listed by config list as unknown, after the settings, exit 0', async () => {
    const result = await runCommandLine(['--profile', 'a', 'config', 'list', '-o', 'json'], {
      configDir: folderWithTypos(),
    });
    expect(result.code).toBe(0);
    expect(withoutListedFrom(result.stderr)).toBe(`${warnings.join('\n')}\n`);
    const rows = JSON.parse(result.stdout) as SettingRow[];
    expect(rows.slice(-3)).toEqual([
      {
        key: 'http.timout',
        value: '60s',
        source: 'profile (unknown)',
        description: 'No setting: ignored (did you mean "http.timeout"?). Remove it with b2bctl config unset.',
      },
      {
        key: 'paths.sellers ',
        value: '/x',
        source: 'profile (unknown)',
        description: 'No setting: ignored (did you mean "paths.sellers"?). Remove it with b2bctl config unset.',
      },
      {
        key: 'stock.autothreshold',
        value: '10',
        source: 'profile (unknown)',
        description: 'No setting: ignored (did you mean "stock.autoThreshold"?). Remove it with b2bctl config unset.',
      },
    ]);
  });

  it('is removed by config unset, the others kept; a key the profile does not hold is still refused', async () => {
    const configDir = folderWithTypos();
    const removed = await runCommandLine(['--profile', 'a', 'config', 'unset', 'http.timout'], { configDir });
    expect(removed.code).toBe(0);
    expect(removed.stderr).toBe(
      `${warnings.slice(1).join('\n')}\nRemoved "http.timout" (no setting) from profile "a".\n`,
    );
    expect((readConfig(configDir) as { profiles: Record<string, unknown> }).profiles.a).toEqual({
      baseUrl: 'http://127.0.0.1:9252',
      'paths.sellers ': '/x',
      'stock.autothreshold': '10',
    });
    const again = await runCommandLine(['--profile', 'a', 'config', 'unset', 'http.timout'], { configDir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(
      'error: unknown setting "http.timout" (did you mean "http.timeout"?); run b2bctl config list to see them all\n',
    );
  });
});

// A 230-character profile was saved by login, then each push and poll failed on ENAMETOOLONG, advised to make room
// on the disk (a user test): its jobs name files after it. Bounded where the name is first given.
describe('a profile name too long for the files of its jobs', () => {
  const long = 'M'.repeat(65);
  const refusal = `error: Profile name "${'M'.repeat(24)}…" is too long (65 characters): at most 64, as the files of its jobs are named after it.\n`;

  it('is refused by login before anything is sent, and by config set, exit 2, nothing written', async () => {
    const configDir = freshConfigDir();
    const loggedIn = await runCommandLine(
      ['login', '--profile', long, '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
      { configDir, stdin: 'Senha#2001\n' },
    );
    const set = await runCommandLine(['config', 'set', 'baseUrl', sandbox.url, '--profile', long], { configDir });
    for (const result of [loggedIn, set]) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(refusal);
    }
    expect(await requestCounts(sandbox)).toEqual({});
    expect(existsSync(configFile(configDir))).toBe(false);
  });

  it('of 64 characters is taken', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['config', 'set', 'baseUrl', sandbox.url, '--profile', 'M'.repeat(64)], {
      configDir,
    });
    expect(result.code).toBe(0);
    expect(Object.keys(readConfig(configDir).profiles)).toEqual(['M'.repeat(64)]);
  });
});

// Root with HOME=/nonexistent, the "no home" of system users: config set made /nonexistent/.config (a user test).
describe('a config folder in a home that is not there', () => {
  it('is not made by config set, nor the home: exit 2 naming what to set', async () => {
    const home = join(temporaryFolder('b2bctl-config-home-'), 'nonexistent');
    const configDir = join(home, '.config', 'b2bctl');
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const result = await runCommandLine(['config', 'set', 'http.timeout', '20s'], { configDir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: Cannot use the config folder ${configDir} (ENOENT). Set B2BCTL_CONFIG_DIR (or XDG_CONFIG_HOME) to a folder this user can write.\n`,
      );
      expect(existsSync(home)).toBe(false);
    } finally {
      process.env.HOME = saved;
    }
  });
});

// `config set outputDir rep` kept `rep`, another folder for each folder a job started from, and none in cron's
// (a user test): a relative path is resolved against the folder it was typed in, and the confirmation says so.
describe('config set of a relative path', () => {
  it.each([
    ['outputDir', 'rep', 'rep'],
    ['webhook.clientSecretFile', './wsec.txt', 'wsec.txt'],
    ['tax.shape', 'shapes/tax.json', 'shapes/tax.json'],
    ['stock.schema', 'schema.json', 'schema.json'],
    ['orders.routes', '../routes.json', '../routes.json'],
  ])('%s %s is stored absolute, from the current folder', async (key, typed, relative) => {
    const configDir = freshConfigDir();
    const cwd = join(temporaryFolder('b2bctl-config-cwd-'), 'work');
    mkdirSync(cwd);
    const result = await runCommandLine(['config', 'set', key, typed], { configDir, cwd });
    const absolute = join(cwd, relative);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `Set ${key} for profile "default" to ${absolute} (${typed}, from the current folder).\n`,
    );
    expect(readConfig(configDir).profiles.default?.[key]).toBe(absolute);
  });

  it.each([
    ['outputDir', '/srv/reports'],
    ['stock.schema', '{"sku":"codigo"}'],
    ['orders.routes', ' {"ready":{"method":"POST","path":"/v1/orders/:id/ready"}}'],
    ['username', 'erp@loja.example.com.br'],
  ])('%s %s, no relative path, is stored as typed', async (key, typed) => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['config', 'set', key, typed], { configDir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Set ${key} for profile "default".\n`);
    expect(readConfig(configDir).profiles.default?.[key]).toBe(typed);
  });
});

// Piped or redirected, config list said nothing of which profile and config.json its values are from (a user test):
// that line is on stderr whatever stdout is, so stdout stays the rows a -o json consumer reads.
describe('config list names its profile and config.json off a terminal too', () => {
  it.each(['json', 'csv', 'table'])('-o %s piped: the line on stderr, stdout the rows alone', async (format) => {
    const configDir = freshConfigDir();
    await runCommandLine(['--profile', 'lojaA', 'config', 'set', 'http.timeout', '25s'], { configDir });
    const result = await runCommandLine(['--profile', 'lojaA', 'config', 'list', '-o', format], { configDir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Profile "lojaA", read from ${join(configDir, 'config.json')}.\n`);
    expect(result.stdout).not.toContain('read from');
    expect(result.stdout).toContain('http.timeout');
  });

  it('says when B2BCTL_PROFILE chose the profile', async () => {
    const configDir = freshConfigDir();
    await runCommandLine(['--profile', 'lojaA', 'config', 'set', 'http.timeout', '25s'], { configDir });
    const result = await runCommandLine(['config', 'list', '-o', 'json'], {
      configDir,
      env: { B2BCTL_PROFILE: 'lojaA' },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Profile "lojaA" (from B2BCTL_PROFILE), read from ${join(configDir, 'config.json')}.\n`);
  });
});

// `config set http.timeout 25s` under B2BCTL_TIMEOUT=15s said only "Set …", as if 25s now applied (a user test).
describe('config set of a value the environment outranks', () => {
  it('is saved, and one warning names the variable that commands run here use instead', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['--profile', 'lojaA', 'config', 'set', 'http.timeout', '25s'], {
      configDir,
      env: { B2BCTL_TIMEOUT: '15s' },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'Set http.timeout for profile "lojaA".\n' +
        'warning: B2BCTL_TIMEOUT=15s is set in this environment and outranks the profile: commands run with it use that value, not the http.timeout just saved, until B2BCTL_TIMEOUT is unset.\n',
    );
    expect(readConfig(configDir).profiles.lojaA?.['http.timeout']).toBe('25s');
  });

  it('without the variable, or when removing the setting, no warning', async () => {
    const configDir = freshConfigDir();
    const set = await runCommandLine(['config', 'set', 'http.timeout', '25s'], { configDir });
    expect(set.stderr).toBe('Set http.timeout for profile "default".\n');
    const unset = await runCommandLine(['config', 'unset', 'http.timeout'], {
      configDir,
      env: { B2BCTL_TIMEOUT: '15s' },
    });
    expect(unset.stderr).toBe('Removed http.timeout from profile "default".\n');
  });
});
