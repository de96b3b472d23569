/**
 * login, whoami and logout, each command line run in process against the sandbox (moved from
 * test/e2e/auth/login.test.ts, which keeps a few runs of the binary): what is stored, printed, traced and sent.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { asJson, cachedToken, configFile, freshConfigDir, readConfig, tokenFlagWarning } from '../../support/cli.js';
import { login, runCommandLine } from '../../support/command-line.js';
import {
  fetchToken,
  listingRoute,
  requestCounts,
  resetCounts,
  sandboxPassword,
  sandboxUser,
  seedReps,
  tokenRoute,
  useFileSandbox,
} from '../../support/sandbox.js';
import { expectPasswordLoginStored, loggedInLine } from '../../support/auth.js';
import { textServer } from '../../support/text-server.js';

let sandbox: RunningSandbox;

useFileSandbox((started) => (sandbox = started));
beforeEach(async () => {
  await resetCounts(sandbox);
});

describe('login', () => {
  it('takes --username and the password from --password-stdin', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
      {
        configDir,
        stdin: `${sandboxPassword}\n`,
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const profile = expectPasswordLoginStored(sandbox, configDir);
    expect(result.stderr).toBe(loggedInLine(sandbox, profile));
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });

  it.each([
    ['as given', sandboxPassword],
    // B2BCTL_PASSWORD="$(cat file)" of a file saved on Windows: the shell takes the LF, not the CR.
    ['with the CR of a Windows file', `${sandboxPassword}\r`],
  ])('takes the user and password from B2BCTL_USERNAME and B2BCTL_PASSWORD (%s)', async (_, password) => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['login', '--base-url', sandbox.url], {
      configDir,
      env: { B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: password },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const profile = expectPasswordLoginStored(sandbox, configDir);
    expect(result.stderr).toBe(loggedInLine(sandbox, profile));
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });

  it('logs in to a named profile and keeps the default one apart', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--profile', 'staging', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
      {
        configDir,
        stdin: sandboxPassword,
      },
    );
    expect(result.code).toBe(0);
    const profiles = readConfig(configDir).profiles;
    expect(Object.keys(profiles)).toEqual(['staging']);
    expect(result.stderr).toBe(loggedInLine(sandbox, profiles.staging ?? {}, 'staging'));
  });

  it('stores a pre-issued token given with the global --token flag, checked with one listing request', async () => {
    const token = await fetchToken(sandbox);
    await resetCounts(sandbox);
    const configDir = freshConfigDir();
    const result = await runCommandLine(['--token', token, 'login', '--base-url', sandbox.url], { configDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${tokenFlagWarning}Stored a pre-issued token for profile "default" at ${sandbox.url}. Its expiry is unknown: when the platform refuses it, b2bctl logs in again if B2BCTL_PASSWORD and a username (--username, B2BCTL_USERNAME) are there, and otherwise asks you to run b2bctl login.\n`,
    );
    const profile = readConfig(configDir).profiles.default ?? {};
    expect(profile.token).toBe(token);
    expect(profile.baseUrl).toBe(sandbox.url);
    expect(profile.tokenExpiresAt).toBeUndefined();
    expect(statSync(configFile(configDir)).mode & 0o777).toBe(0o600);
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });

    // The stored token is the one used afterwards.
    const listing = await runCommandLine(['sellers', 'list', '--limit', '1'], { configDir });
    expect(listing.code).toBe(0);
    expect(listing.stdout).toBe(asJson(seedReps.slice(0, 1)));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 2 });
  });

  it('accepts --token after the subcommand too', async () => {
    const token = await fetchToken(sandbox);
    const configDir = freshConfigDir();
    const result = await runCommandLine(['login', '--base-url', sandbox.url, '--token', token], { configDir });
    expect(result.code).toBe(0);
    expect(cachedToken(configDir)).toBe(token);
  });

  it('stores a pre-issued token read with --token-stdin, without its newline', async () => {
    const token = await fetchToken(sandbox);
    await resetCounts(sandbox);
    const configDir = freshConfigDir();
    const result = await runCommandLine(['login', '--base-url', sandbox.url, '--token-stdin'], {
      configDir,
      stdin: `${token}\n`,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `Stored a pre-issued token for profile "default" at ${sandbox.url}. Its expiry is unknown: when the platform refuses it, b2bctl logs in again if B2BCTL_PASSWORD and a username (--username, B2BCTL_USERNAME) are there, and otherwise asks you to run b2bctl login.\n`,
    );
    expect(cachedToken(configDir)).toBe(token);
    expect(statSync(configFile(configDir)).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('refuses a token the platform refuses (exit 77), storing nothing; --no-verify stores it unchecked', async () => {
    await resetCounts(sandbox);
    const configDir = freshConfigDir();
    const refused = await runCommandLine(['login', '--base-url', sandbox.url, '--token-stdin'], {
      configDir,
      stdin: 'not-a-token\n',
    });
    expect(refused.code).toBe(77);
    expect(refused.stderr).toBe(
      'error: The platform refused this token (HTTP 401 on GET /sellerModule/listSellers); nothing was stored. Check it, or log in with the username and password.\n',
    );
    expect(
      existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined,
    ).toBeUndefined();
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });

    const unchecked = await runCommandLine(['login', '--base-url', sandbox.url, '--token-stdin', '--no-verify'], {
      configDir,
      stdin: 'not-a-token\n',
    });
    expect(unchecked.code).toBe(0);
    expect(cachedToken(configDir)).toBe('not-a-token');
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('refuses an empty --token-stdin with exit 2', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['login', '--base-url', sandbox.url, '--token-stdin'], {
      configDir,
      stdin: '',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: The token is empty: pipe it with --token-stdin.\n');
    expect(existsSync(configFile(configDir))).toBe(false);
  });

  it('refuses --password-stdin together with --token (exit 2)', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin', '--token', 'abc'],
      {
        configDir,
        stdin: sandboxPassword,
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `${tokenFlagWarning}error: Use only one of --password-stdin, --token and --token-stdin.\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('without a terminal and without a username, exits 2 naming --username and B2BCTL_USERNAME', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['login', '--base-url', sandbox.url], { configDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: No username for login and no terminal to ask on: pass --username EMAIL or set B2BCTL_USERNAME.\n',
    );
    expect(existsSync(configFile(configDir))).toBe(false);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('with --no-input, the refusal names --no-input, not a missing terminal', async () => {
    const result = await runCommandLine(['--no-input', 'login', '--base-url', sandbox.url], {
      configDir: freshConfigDir(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: No username for login and --no-input says not to ask: pass --username EMAIL or set B2BCTL_USERNAME.\n',
    );
  });

  it('without a terminal and without a password, exits 2 naming --password-stdin and B2BCTL_PASSWORD', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['login', '--base-url', sandbox.url, '--username', sandboxUser], { configDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: No password for login and no terminal to ask on: pipe it with --password-stdin or set B2BCTL_PASSWORD.\n',
    );
    expect(existsSync(configFile(configDir))).toBe(false);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('refuses an empty --password-stdin with exit 2', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
      {
        configDir,
        stdin: '\n',
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: The password is empty: pipe it with --password-stdin or set B2BCTL_PASSWORD.\n');
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('exits 77 on a wrong password and stores nothing', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
      {
        configDir,
        stdin: 'not-the-password\n',
      },
    );
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: Login refused for ${sandboxUser} at ${sandbox.url} (HTTP 401: Invalid username or password): check the username and password, or the token route may be elsewhere: POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic).\n`,
    );
    expect(result.stderr).not.toContain('not-the-password');
    expect(existsSync(configFile(configDir))).toBe(false);
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });

  it('refuses a base URL with a query (exit 2), from the flag or B2BCTL_BASE_URL: nothing sent, nothing stored, the key not shown', async () => {
    const withKey = `${sandbox.url}/?api_key=SECRETQ`;
    const refusal = (from: string) =>
      `error: Setting "baseUrl" must not hold a query (?name=value): b2bctl would send it with no request; give the address alone (b2bctl api -H 'Name: value' sends a header of your own), not "${sandbox.url}/?api_key=***" (from ${from}).\n`;
    const configDir = freshConfigDir();
    const flag = await runCommandLine(['login', '--base-url', withKey, '--username', sandboxUser, '--password-stdin'], {
      configDir,
      stdin: sandboxPassword,
    });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(refusal('the --base-url flag'));
    const environment = await runCommandLine(['sellers', 'list'], { configDir, env: { B2BCTL_BASE_URL: withKey } });
    expect(environment.code).toBe(2);
    expect(environment.stderr).toBe(refusal('B2BCTL_BASE_URL'));
    expect(await requestCounts(sandbox)).toEqual({});
    expect(existsSync(configFile(configDir))).toBe(false);
  });

  it('exits 77 on an unknown user', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--base-url', sandbox.url, '--username', 'someone@else.test', '--password-stdin'],
      { configDir, stdin: sandboxPassword },
    );
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `error: Login refused for someone@else.test at ${sandbox.url} (HTTP 401: Invalid username or password): check the username and password, or the token route may be elsewhere: POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic).\n`,
    );
  });
});

describe('whoami and logout', () => {
  it('whoami prints json when piped, with the expiry and never the token', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    await resetCounts(sandbox);
    const profile = readConfig(configDir).profiles.default ?? {};
    const result = await runCommandLine(['whoami'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      asJson({
        profile: 'default',
        baseUrl: sandbox.url,
        username: sandboxUser,
        tokenStatus: 'valid',
        tokenSource: 'profile',
        tokenExpiresAt: profile.tokenExpiresAt,
      }),
    );
    expect(result.stdout).not.toContain(cachedToken(configDir));
    // whoami reads the profile only: nothing reaches the platform.
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('whoami -o table shows the same facts as lines, never the token', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const profile = readConfig(configDir).profiles.default ?? {};
    const result = await runCommandLine(['whoami', '-o', 'table'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `Profile:  default\nBase URL: ${sandbox.url}\nUser:     ${sandboxUser}\nToken:    valid until ${profile.tokenExpiresAt}\n`,
    );
    expect(result.stdout).not.toContain(cachedToken(configDir));
  });

  it.each([
    [
      'B2BCTL_TIMEOUT',
      'abc',
      'Setting "http.timeout" must be a number of milliseconds of at least 100 (or a time such as 30s, 5m or 1h), not "abc" (from B2BCTL_TIMEOUT).',
    ],
    [
      'B2BCTL_ALLOW_HTTP',
      'yes',
      'Setting "http.allowPlain" must be one of true, false, not "yes" (from B2BCTL_ALLOW_HTTP).',
    ],
    [
      'B2BCTL_RETRIES',
      'x',
      'Setting "http.retries" must be a whole number (0 or more), not "x" (from B2BCTL_RETRIES).',
    ],
  ])(
    'whoami in an environment with %s=%s: exit 2 naming the setting, as every command reading it would stop',
    async (variable, value, message) => {
      const configDir = freshConfigDir();
      await login(sandbox, configDir);
      await resetCounts(sandbox);
      const result = await runCommandLine(['whoami', '-o', 'json'], { configDir, env: { [variable]: value } });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`error: ${message}\n`);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  // Read as the jobs read them: a stock schema that does not read passed here and failed the nightly push.
  it('whoami in an environment whose stock schema does not read: exit 2 naming the setting', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const result = await runCommandLine(['whoami', '-o', 'json'], { configDir, env: { B2BCTL_STOCK_SCHEMA: '{bad' } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: The stock schema from the stock\.schema setting \(from B2BCTL_STOCK_SCHEMA\) is not usable: .*\n$/,
    );
  });

  it('whoami with another base URL (flag or B2BCTL_BASE_URL) says the token is not for it and exits 77, as every command would', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const other = 'https://loja.example.com.br';
    const result = await runCommandLine(['whoami', '--base-url', other, '-o', 'table'], { configDir });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe(
      `Profile:  default\nBase URL: ${other}\nUser:     ${sandboxUser}\nToken:    issued for another base URL than ${other}, so not sent there\n`,
    );
    expect(result.stderr).toContain(`its token was issued for ${sandbox.url}, not ${other}`);
    // Not "log in to the profile again", which would log in to its own store once more.
    expect(result.stderr).toContain(
      `(B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile NAME --base-url ${other}, then --profile NAME)`,
    );
    const json = await runCommandLine(['whoami'], { configDir, env: { B2BCTL_BASE_URL: other } });
    expect(JSON.parse(json.stdout)).toMatchObject({ tokenStatus: 'other-base-url', baseUrl: other });
  });

  it('whoami shows a pre-issued token as "unknown" expiry and does not print it', async () => {
    const token = await fetchToken(sandbox);
    const configDir = freshConfigDir();
    expect(
      (await runCommandLine(['login', '--base-url', sandbox.url, '--token-stdin'], { configDir, stdin: token })).code,
    ).toBe(0);
    const result = await runCommandLine(['whoami'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      asJson({
        profile: 'default',
        baseUrl: sandbox.url,
        username: null,
        tokenStatus: 'unknown',
        tokenSource: 'profile',
        tokenExpiresAt: null,
      }),
    );
    expect(result.stdout).not.toContain(token);
  });

  it('logout removes the token but keeps the base URL and user; whoami then exits 77', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const token = cachedToken(configDir);

    const logout = await runCommandLine(['logout'], { configDir });
    expect(logout.code).toBe(0);
    expect(logout.stdout).toBe('');
    expect(logout.stderr).toBe('Logged out of profile "default". Run b2bctl login to log in again.\n');
    const text = readFileSync(configFile(configDir), 'utf8');
    expect(text).not.toContain(token);
    expect(readConfig(configDir).profiles.default).toEqual({ baseUrl: sandbox.url, username: sandboxUser });
    expect(statSync(configFile(configDir)).mode & 0o777).toBe(0o600);

    const whoami = await runCommandLine(['whoami'], { configDir });
    expect(whoami.code).toBe(77);
    expect(whoami.stdout).toBe('');
    expect(whoami.stderr).toBe(
      `error: Not logged in for profile "default": no token is cached. Run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default.\n`,
    );

    const again = await runCommandLine(['logout'], { configDir });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('Profile "default" holds no token; nothing to do.\n');
  });

  it('logout of a named profile names it in the hint, and leaves the other profile logged in', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    await login(sandbox, configDir, ['--profile', 'staging']);
    const logout = await runCommandLine(['logout', '--profile', 'staging'], { configDir });
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe(
      'Logged out of profile "staging". Run b2bctl login --profile staging to log in again.\n',
    );
    const profiles = readConfig(configDir).profiles;
    expect(profiles.staging?.token).toBeUndefined();
    expect(profiles.default?.token).toBeDefined();

    const whoami = await runCommandLine(['whoami', '--profile', 'staging'], { configDir });
    expect(whoami.code).toBe(77);
    expect(whoami.stderr).toBe(
      `error: Not logged in for profile "staging": no token is cached. Run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile staging.\n`,
    );
  });
});

describe('--verbose', () => {
  it('on login traces the request and answer with the password and the token redacted', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--verbose', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
      {
        configDir,
        stdin: `${sandboxPassword}\n`,
      },
    );
    expect(result.code).toBe(0);
    const token = cachedToken(configDir);
    const lines = result.stderr.split('\n');
    expect(lines).toContain(`> POST ${sandbox.url}/v1/auth/token`);
    expect(lines).toContain('> content-type: application/json');
    expect(lines).toContain(`> {"username":"${sandboxUser}","password":"[redacted]"}`);
    // Each answer names its request: beside others in flight, an answer under a login's request may be another's.
    expect(lines.some((line) => /^< 200 \(\d+ ms\) to (POST|GET) http:\/\/\S+$/.test(line))).toBe(true);
    expect(lines.some((line) => line.startsWith('< {"access_token":"[redacted]"'))).toBe(true);
    expect(result.stderr).not.toContain(sandboxPassword);
    expect(result.stderr).not.toContain(token);
    expect(result.stdout).toBe('');
  });

  it('on login to a store that names its token otherwise (answers.token.accessToken), the token is redacted too', async () => {
    const issued = 'eyJ0b2tlbiBvZiB0aGUgdGVzdA.c2lnbmVk';
    const store = textServer((_text, _request, answer) =>
      answer
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ result: { jwt: issued, ttl: 3600 }, user: sandboxUser })),
    );
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    try {
      const configDir = freshConfigDir();
      await runCommandLine(['config', 'set', 'answers.token.accessToken', 'result.jwt'], { configDir });
      const result = await runCommandLine(
        ['login', '--verbose', '--base-url', url, '--username', sandboxUser, '--password-stdin'],
        { configDir, stdin: `${sandboxPassword}\n` },
      );
      expect(result.code).toBe(0);
      expect(cachedToken(configDir)).toBe(issued);
      const answer = result.stderr.split('\n').find((line) => line.startsWith('< {'));
      expect(answer).toBe(`< {"result":{"jwt":"[redacted]","ttl":3600},"user":"${sandboxUser}"}`);
      expect(result.stderr).not.toContain(issued);
    } finally {
      await new Promise<void>((resolve) => store.close(() => resolve()));
    }
  });

  // The trace is where an operator looks for the field's name, and went into tickets with a live 12-hour token.
  it('on login to a store whose token field b2bctl does not know yet, every text that could be a token is redacted, the names shown', async () => {
    const issued = '2bdd6b89616b4f5da749d30dc6f2318f';
    const store = textServer((_text, _request, answer) =>
      answer.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: { sessao: issued, validade: 43200 },
          token_type: 'Bearer',
          mensagem: 'Sessão criada',
        }),
      ),
    );
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    try {
      const result = await runCommandLine(
        ['login', '--verbose', '--base-url', url, '--username', sandboxUser, '--password-stdin'],
        { configDir: freshConfigDir(), stdin: `${sandboxPassword}\n` },
      );
      expect(result.code).not.toBe(0);
      const answer = result.stderr.split('\n').find((line) => line.startsWith('< {'));
      expect(answer).toBe(
        '< {"data":{"sessao":"[redacted]","validade":43200},"token_type":"Bearer","mensagem":"Sessão criada"}',
      );
      expect(result.stderr).not.toContain(issued);
      expect(result.stderr).toContain('set answers.token.accessToken to the field that holds it');
    } finally {
      await new Promise<void>((resolve) => store.close(() => resolve()));
    }
  });

  // A refusal issues no token: its words are what the operator reads (a user test: `"status":"[redacted]"`).
  it('on a refused login, the words of the refusal stay readable, the password it quotes masked', async () => {
    const store = textServer((_text, _request, answer) =>
      answer.writeHead(401, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          status: 'UNAUTHORIZED',
          error: 'invalid_grant',
          requestId: 'req_7f3a9c21',
          message: `bad password ${sandboxPassword}`,
        }),
      ),
    );
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    try {
      const result = await runCommandLine(
        ['login', '--verbose', '--base-url', url, '--username', sandboxUser, '--password-stdin'],
        { configDir: freshConfigDir(), stdin: `${sandboxPassword}\n` },
      );
      expect(result.code).toBe(77);
      const answer = result.stderr.split('\n').find((line) => line.startsWith('< {'));
      expect(answer).toBe(
        '< {"status":"UNAUTHORIZED","error":"invalid_grant","requestId":"req_7f3a9c21","message":"bad password [redacted]"}',
      );
      expect(result.stderr).not.toContain(sandboxPassword);
    } finally {
      await new Promise<void>((resolve) => store.close(() => resolve()));
    }
  });

  it('on a listing shows "authorization: Bearer [redacted]" and never the token', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const token = cachedToken(configDir);
    const result = await runCommandLine(['sellers', 'list', '--verbose', '--limit', '2'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps.slice(0, 2)));
    const lines = result.stderr.split('\n');
    expect(lines).toContain(`> GET ${sandbox.url}/sellerModule/listSellers?limit=2`);
    expect(lines).toContain('> authorization: Bearer [redacted]');
    // Each answer names its request: beside others in flight, an answer under a login's request may be another's.
    expect(lines.some((line) => /^< 200 \(\d+ ms\) to (POST|GET) http:\/\/\S+$/.test(line))).toBe(true);
    expect(result.stderr).not.toContain(token);
    expect(result.stderr).not.toContain(sandboxPassword);
  });

  it('on a 401 replay with B2BCTL_PASSWORD shows neither the password nor the old or new token', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const oldToken = cachedToken(configDir);
    await fetch(`${sandbox.url}/_sandbox/tokens/revoke`, { method: 'POST' });
    const result = await runCommandLine(['sellers', 'list', '--verbose', '--limit', '1'], {
      configDir,
      env: { B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(result.code).toBe(0);
    const newToken = cachedToken(configDir);
    expect(newToken).not.toBe(oldToken);
    const lines = result.stderr.split('\n');
    expect(lines.filter((line) => line === '> authorization: Bearer [redacted]')).toHaveLength(2);
    expect(lines).toContain(`> {"username":"${sandboxUser}","password":"[redacted]"}`);
    expect(lines).toContain('The platform refused the token of profile "default"; logging in again.');
    for (const secret of [sandboxPassword, oldToken, newToken]) expect(result.stderr).not.toContain(secret);
  });
});

describe('a login for this run only (another base URL given with B2BCTL_PASSWORD)', () => {
  it('--base-url of another store: the run logs in there, and the profile keeps its own store and token', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const before = readConfig(configDir).profiles.default;
    // The same sandbox by another name: another store as far as the profile can tell.
    const other = sandbox.url.replace('127.0.0.1', 'localhost');
    const run = await runCommandLine(['sellers', 'list', '--base-url', other, '--limit', '1', '-o', 'json'], {
      configDir,
      env: { B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(run.code).toBe(0);
    expect(readConfig(configDir).profiles.default).toEqual(before);
    // And the next plain run still goes to the profile's store with its token, no login.
    resetCounts(sandbox);
    expect((await runCommandLine(['sellers', 'list', '--limit', '1', '-o', 'json'], { configDir })).code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('a cron job of environment variables alone writes no profile', async () => {
    const configDir = freshConfigDir();
    const run = await runCommandLine(['sellers', 'list', '--limit', '1', '-o', 'json'], {
      configDir,
      env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(run.code).toBe(0);
    expect(existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined).toBe(
      undefined,
    );
  });
});

describe('B2BCTL_TOKEN set in the shell', () => {
  it('login and logout say it outranks the profile token, so neither changes what is sent', async () => {
    const configDir = freshConfigDir();
    const env = { B2BCTL_TOKEN: 'stale-token-of-the-shell' };
    const warning = "B2BCTL_TOKEN is set in this shell and outranks the profile's token";
    const loggedIn = await runCommandLine(
      ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
      { configDir, env, stdin: `${sandboxPassword}\n` },
    );
    expect(loggedIn.code).toBe(0);
    expect(loggedIn.stderr).toContain(warning);
    const loggedOut = await runCommandLine(['logout'], { configDir, env });
    expect(loggedOut.code).toBe(0);
    expect(loggedOut.stderr).toContain(warning);
    expect((await runCommandLine(['logout'], { configDir })).stderr).not.toContain(warning);
  });
});
