import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { asJson, cachedToken, freshConfigDir, readConfig } from '../../support/cli.js';
import { type CommandLineOptions, login, runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import {
  fetchToken,
  listingRoute,
  requestCounts,
  resetCounts,
  revokeTokens,
  sandboxPassword,
  sandboxUser,
  seedReps,
  startTestSandbox,
  tokenRoute,
} from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

// The login line names the config folder the run used, as its resume line does, so that pasted it logs in there.
const tokenRefused = (configDir: string) =>
  `error: Not logged in for profile "default": the platform refused its token. Run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default (or set B2BCTL_PASSWORD so b2bctl logs in again by itself).\n`;
const notLoggedIn =
  /^error: Not logged in for profile "default": its token expired at \S+\. Run B2BCTL_CONFIG_DIR=\S+ b2bctl login --profile default \(or set B2BCTL_PASSWORD so b2bctl logs in again by itself\)\.\n$/;

/**
 * Tokens of the short-lived sandbox last 2 s. The sandbox and every command run against it read one fake clock,
 * so moving it 2.5 s on outlives a token on both sides at once, without the test waiting.
 */
const shortTtlSeconds = 2;
const clock = new FakeClock(Date.now());
const outliveShortToken = () => clock.advance(2500);

let shortLived: RunningSandbox;
let sandbox: RunningSandbox;

/** `b2bctl ARGS` in process on the short-lived sandbox's clock. */
const runShortLived = (args: readonly string[], options: CommandLineOptions) =>
  runCommandLine(args, { clock, ...options });

/** `b2bctl login --username … --password-stdin` on the short-lived sandbox, on its clock; throws when it fails. */
async function loginShortLived(configDir: string): Promise<void> {
  const result = await runShortLived(
    ['login', '--base-url', shortLived.url, '--username', sandboxUser, '--password-stdin'],
    { configDir, stdin: `${sandboxPassword}\n` },
  );
  if (result.code !== 0) throw new Error(`login failed with exit ${result.code}: ${result.stderr}`);
}

beforeAll(async () => {
  [shortLived, sandbox] = await Promise.all([
    startTestSandbox({ tokenTtlSeconds: shortTtlSeconds }, clock),
    startTestSandbox(),
  ]);
});
afterAll(async () => {
  await Promise.all([shortLived.close(), sandbox.close()]);
  removeTemporaryFolders();
});
beforeEach(async () => {
  await Promise.all([resetCounts(shortLived), resetCounts(sandbox)]);
});

describe('renewal of an expired token (--token-ttl)', () => {
  it('stores the expiry the token route announced', async () => {
    const configDir = freshConfigDir();
    await loginShortLived(configDir);
    const profile = readConfig(configDir).profiles.default ?? {};
    expect(Date.parse(profile.tokenExpiresAt ?? '') - Date.parse(profile.tokenObtainedAt ?? '')).toBe(
      shortTtlSeconds * 1000,
    );
  });

  it('logs in again before the call when B2BCTL_PASSWORD is set, with the username from the profile', async () => {
    const configDir = freshConfigDir();
    await loginShortLived(configDir);
    const oldToken = cachedToken(configDir);
    await outliveShortToken();
    await resetCounts(shortLived);

    const result = await runShortLived(['sellers', 'list', '--limit', '3'], {
      configDir,
      env: { B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps.slice(0, 3)));
    // A lifetime of seconds is used as said, and the login that read it says so (docs/platform.md, "Logging in").
    expect(result.stderr).toBe(
      `The token of profile "default" has expired; logging in again as ${sandboxUser}.\n` +
        `warning: the token route's answer "expires_in": ${shortTtlSeconds} says the token lasts ${shortTtlSeconds} s, far less than the document's 12 hours; b2bctl uses it as said, so each command may have to log in again.\n`,
    );
    // Renewed first: one more token request, and the listing went out once, with the new token.
    expect(await requestCounts(shortLived)).toEqual({ [tokenRoute]: 1, [listingRoute]: 1 });
    const newToken = cachedToken(configDir);
    expect(newToken).not.toBe(oldToken);
    expect(shortLived.state.checkToken(newToken, clock.now())).toBe('valid');
    expect(JSON.stringify(readConfig(configDir))).not.toContain(sandboxPassword);
  });

  it('takes the username from B2BCTL_USERNAME when the profile has none', async () => {
    const configDir = freshConfigDir();
    await loginShortLived(configDir);
    expect((await runShortLived(['config', 'set', 'username', ''], { configDir })).code).toBe(0);
    expect(readConfig(configDir).profiles.default?.username).toBeUndefined();
    await outliveShortToken();
    await resetCounts(shortLived);

    const result = await runShortLived(['sellers', 'list', '--limit', '1'], {
      configDir,
      env: { B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps.slice(0, 1)));
    expect(await requestCounts(shortLived)).toEqual({ [tokenRoute]: 1, [listingRoute]: 1 });
  });

  it('without credentials exits 77 with the Not logged in message, and sends nothing', async () => {
    const configDir = freshConfigDir();
    await loginShortLived(configDir);
    await outliveShortToken();
    await resetCounts(shortLived);

    const result = await runShortLived(['sellers', 'list'], { configDir });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(notLoggedIn);
    expect(await requestCounts(shortLived)).toEqual({});
  });

  it('with a username but no password still exits 77 and sends nothing', async () => {
    const configDir = freshConfigDir();
    await loginShortLived(configDir);
    await outliveShortToken();
    await resetCounts(shortLived);

    const result = await runShortLived(['sellers', 'list'], { configDir, env: { B2BCTL_USERNAME: sandboxUser } });
    expect(result.code).toBe(77);
    expect(result.stderr).toMatch(notLoggedIn);
    expect(await requestCounts(shortLived)).toEqual({});
  });

  it('a wrong B2BCTL_PASSWORD: exit 77, the one line under -q says the token expired and the re-login was refused', async () => {
    const configDir = freshConfigDir();
    await loginShortLived(configDir);
    await outliveShortToken();
    await resetCounts(shortLived);

    const result = await runShortLived(['-q', 'sellers', 'list', '--limit', '1', '-o', 'json'], {
      configDir,
      env: { B2BCTL_PASSWORD: 'wrong-password' },
    });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: The token of profile "default" expired and logging in again as ${sandboxUser} at ${shortLived.url} with the password in B2BCTL_PASSWORD was refused (HTTP 401: Invalid username or password): check B2BCTL_PASSWORD, or run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default.\n`,
    );
    expect(result.stderr).not.toContain('wrong-password');
    expect(await requestCounts(shortLived)).toEqual({ [tokenRoute]: 1 });
  });

  it('whoami reports the expired token, then exits 77 without credentials', async () => {
    const configDir = freshConfigDir();
    await loginShortLived(configDir);
    const profile = readConfig(configDir).profiles.default ?? {};
    await outliveShortToken();

    const result = await runShortLived(['whoami'], { configDir });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe(
      asJson({
        profile: 'default',
        baseUrl: shortLived.url,
        username: sandboxUser,
        tokenStatus: 'expired',
        tokenSource: 'profile',
        tokenExpiresAt: profile.tokenExpiresAt,
      }),
    );
    expect(result.stderr).toMatch(notLoggedIn);
  });
});

describe('one re-login and one replay after a 401', () => {
  it('with B2BCTL_PASSWORD: one re-login, the listing counted twice (the 401 and the replay)', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const oldToken = cachedToken(configDir);
    await revokeTokens(sandbox);
    await resetCounts(sandbox);

    const result = await runCommandLine(['sellers', 'list', '--limit', '4', '--offset', '2'], {
      configDir,
      env: { B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps.slice(2, 6)));
    expect(result.stderr).toBe('The platform refused the token of profile "default"; logging in again.\n');
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1, [listingRoute]: 2 });
    const newToken = cachedToken(configDir);
    expect(newToken).not.toBe(oldToken);
    expect(sandbox.state.checkToken(newToken, Date.now())).toBe('valid');
  });

  it('with --all, a revoked token is renewed once and the walk goes on', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    await revokeTokens(sandbox);
    await resetCounts(sandbox);

    const result = await runCommandLine(['sellers', 'list', '--all', '--limit', '30'], {
      configDir,
      env: { B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps));
    // Pages at 0, 30, 60 and the empty page at 64, plus the refused first try.
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1, [listingRoute]: 5 });
  });

  it('without the password: exit 77, one listing request (the 401), no login', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    await revokeTokens(sandbox);
    await resetCounts(sandbox);

    const result = await runCommandLine(['sellers', 'list'], { configDir });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(tokenRefused(configDir));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('a pre-issued token (no username) that is refused exits 77 even with B2BCTL_PASSWORD', async () => {
    const configDir = freshConfigDir();
    const token = await fetchToken(sandbox);
    expect((await runCommandLine(['login', '--base-url', sandbox.url, '--token', token], { configDir })).code).toBe(0);
    await revokeTokens(sandbox);
    await resetCounts(sandbox);

    const result = await runCommandLine(['sellers', 'list'], { configDir, env: { B2BCTL_PASSWORD: sandboxPassword } });
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(tokenRefused(configDir));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });
});
