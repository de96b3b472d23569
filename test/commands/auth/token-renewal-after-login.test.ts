/**
 * A run that logs in again by itself (B2BCTL_PASSWORD) after the operator logged its profile in to another store
 * while it ran (a user test): the renewed token is the run's, and the profile keeps the newer login's store, user
 * and token. Only a profile that still names the run's store and user gets the renewed token, and never a new base
 * URL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { configFile, freshConfigDir, readConfig } from '../../support/cli.js';
import { login, runCommandLine } from '../../support/command-line.js';
import { sandboxUser, startTestSandbox } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const oldStore = useScriptedPlatform();
let newStore: RunningSandbox;
beforeAll(async () => {
  newStore = await startTestSandbox();
});
afterAll(async () => {
  await newStore.close();
  removeTemporaryFolders();
});

const oldUser = 'erp@old.test';
const renewedToken = 'RENEWED-old-store-token';

/** A profile logged in to the old store as `oldUser`, its cached token valid for hours yet. */
function profileOnTheOldStore(): string {
  const configDir = freshConfigDir();
  const profile = {
    baseUrl: oldStore.url,
    username: oldUser,
    token: 'FIRST-old-store-token',
    tokenObtainedAt: new Date(Date.now() - 60_000).toISOString(),
    tokenExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  };
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeFileSync(configFile(configDir), JSON.stringify({ profiles: { default: profile } }));
  return configDir;
}

/**
 * The old store refuses the run's first request (its token revoked) after `meanwhile` ran (a `login` by the
 * operator, or nothing), then issues `renewedToken` and answers the replay.
 */
function oldStoreRefusesOnceAfter(meanwhile: () => Promise<void>): void {
  let pings = 0;
  oldStore.routes['GET /v1/ping'] = (request, _body, response) => {
    pings += 1;
    if (pings === 1) {
      void meanwhile().then(() => response.writeHead(401).end());
      return;
    }
    const renewed = request.headers.authorization === `Bearer ${renewedToken}`;
    response.writeHead(renewed ? 200 : 401, { 'content-type': 'application/json' }).end('{"ok":1}');
  };
  oldStore.routes['POST /v1/auth/token'] = (_request, _body, response) =>
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: renewedToken, expires_in: 43200 }));
}

describe('a token renewed while the profile was logged in elsewhere (a user test)', () => {
  it('keeps the newer login: the renewed token serves the run only, and the run says so once', async () => {
    const configDir = profileOnTheOldStore();
    let afterLogin: Record<string, string> | undefined;
    oldStoreRefusesOnceAfter(async () => {
      await login(newStore, configDir);
      afterLogin = readConfig(configDir).profiles.default;
    });

    const result = await runCommandLine(['api', '/v1/ping'], { configDir, env: { B2BCTL_PASSWORD: 'old-secret' } });

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"ok"');
    expect(oldStore.received).toEqual(['GET /v1/ping', 'POST /v1/auth/token', 'GET /v1/ping']);
    expect(afterLogin?.baseUrl).toBe(newStore.url);
    // The profile is the operator's login, to the byte: its store, its user, its token and the token's times.
    expect(readConfig(configDir).profiles.default).toEqual(afterLogin);
    expect(result.stderr).toBe(
      'The platform refused the token of profile "default"; logging in again.\n' +
        `warning: profile "default" was changed while this run ran (it now names ${newStore.url} as ${sandboxUser}; this run started with ${oldStore.url} as ${oldUser}): the renewed token is used for this run only and the profile is left as it is.\n`,
    );
  });

  it('a profile that still names the run store and user gets the renewed token, and nothing else changes', async () => {
    const configDir = profileOnTheOldStore();
    const before = readConfig(configDir).profiles.default;
    oldStoreRefusesOnceAfter(async () => {});

    const result = await runCommandLine(['api', '/v1/ping'], { configDir, env: { B2BCTL_PASSWORD: 'old-secret' } });

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('The platform refused the token of profile "default"; logging in again.\n');
    const after = readConfig(configDir).profiles.default;
    expect(after).toMatchObject({ baseUrl: before?.baseUrl, username: oldUser, token: renewedToken });
    expect(Object.keys(after ?? {}).toSorted()).toEqual(Object.keys(before ?? {}).toSorted());
  });
});
