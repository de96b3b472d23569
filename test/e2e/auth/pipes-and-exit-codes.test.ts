/**
 * login and whoami as a process: exit codes, what reaches stdout and stderr through pipes. The rest of login,
 * whoami and logout is tested in process (test/commands/auth/login-logout-whoami.test.ts).
 */
import { existsSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { asJson, cachedToken, configFile, freshConfigDir, login, readConfig, runCli } from '../../support/cli.js';
import {
  requestCounts,
  resetCounts,
  sandboxPassword,
  sandboxUser,
  tokenRoute,
  useFileSandbox,
} from '../../support/sandbox.js';
import { expectPasswordLoginStored, loggedInLine } from '../../support/auth.js';

let sandbox: RunningSandbox;

useFileSandbox((started) => (sandbox = started));
beforeEach(async () => {
  await resetCounts(sandbox);
});

describe('login', () => {
  it('takes --username and the password from --password-stdin', async () => {
    const configDir = freshConfigDir();
    const result = await runCli(['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'], {
      configDir,
      stdin: `${sandboxPassword}\n`,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const profile = expectPasswordLoginStored(sandbox, configDir);
    expect(result.stderr).toBe(loggedInLine(sandbox, profile));
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });

  it('exits 77 on a wrong password and stores nothing', async () => {
    const configDir = freshConfigDir();
    const result = await runCli(['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'], {
      configDir,
      stdin: 'not-the-password\n',
    });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: Login refused for ${sandboxUser} at ${sandbox.url} (HTTP 401: Invalid username or password): check the username and password, or the token route may be elsewhere: POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic).\n`,
    );
    expect(result.stderr).not.toContain('not-the-password');
    expect(existsSync(configFile(configDir))).toBe(false);
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });
});

describe('whoami', () => {
  it('whoami prints json when piped, with the expiry and never the token', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    await resetCounts(sandbox);
    const profile = readConfig(configDir).profiles.default ?? {};
    const result = await runCli(['whoami'], { configDir });
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
});
