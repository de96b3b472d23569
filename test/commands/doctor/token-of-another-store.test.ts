/**
 * doctor run with --base-url or B2BCTL_BASE_URL naming another store than the one the profile logged in to (a user
 * test): it sent the profile's cached token to that store's routes (with --document a PUT too) and could call the
 * token "ok", exit 0, where every other command refuses (exit 77) and sends nothing. It now applies the same rule
 * before anything is sent: the token line fails with the words every command says, the routes are skipped, exit 77.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, it } from 'vitest';
import { run } from '../../../src/commands/doctor/run.js';
import { systemClock } from '../../../src/base/clock.js';
import { ProfileStore } from '../../../src/config/profile-store.js';
import { answerJson, useScriptedPlatform, type ScriptedPlatform } from '../../support/scripted-platform.js';
import { testContext } from '../../support/test-context.js';
import { temporaryFolder } from '../../support/temporary.js';

const storeA = useScriptedPlatform();
const storeB = useScriptedPlatform();

const tokenOfStoreA = 'token-of-store-a-0123456789';

interface Finding {
  check: string;
  result: string;
  detail: string;
}

/** Every request a store received, with the Authorization it carried; every one answered as the platform would. */
function recordEverything(store: ScriptedPlatform): { method: string; path: string; authorization?: string }[] {
  const seen: { method: string; path: string; authorization?: string }[] = [];
  const answer = (request: IncomingMessage, _body: string, response: ServerResponse) => {
    seen.push({ method: request.method ?? '', path: request.url ?? '', authorization: request.headers.authorization });
    if (request.method === 'POST')
      answerJson(response, 200, { access_token: 'token-store-b-issued', expires_in: 3600 });
    else if (request.url === '/') answerJson(response, 200, {});
    else answerJson(response, 200, []);
  };
  for (const method of ['GET', 'PUT', 'POST']) store.routes[`${method} *`] = answer;
  return seen;
}

/** A config folder whose profile "lojaA" logged in to store A: its token cached and valid for a day. */
function profileOfStoreA(): string {
  const configDir = temporaryFolder('b2bctl-doctor-');
  const now = Date.now();
  new ProfileStore(configDir).update('lojaA', {
    baseUrl: storeA.url,
    username: 'erp@loja-a.test',
    token: tokenOfStoreA,
    tokenObtainedAt: new Date(now).toISOString(),
    tokenExpiresAt: new Date(now + 86_400_000).toISOString(),
  });
  return configDir;
}

it.each([
  ['--base-url', { baseUrl: 'STORE_B' }, {}],
  ['B2BCTL_BASE_URL', {}, { B2BCTL_BASE_URL: 'STORE_B' }],
])(
  'the base URL of another store given with %s: the cached token is sent nowhere, its line fails, exit 77',
  async (_how, flags: { baseUrl?: string }, variables: Record<string, string>) => {
    const atA = recordEverything(storeA);
    const atB = recordEverything(storeB);
    const test = testContext({
      configDir: profileOfStoreA(),
      clock: systemClock,
      globals: { profile: 'lojaA', ...(flags.baseUrl ? { baseUrl: storeB.url } : {}) },
      env: Object.fromEntries(Object.keys(variables).map((name) => [name, storeB.url])),
    });
    expect(await test.run(run, { document: '00.360.305/0001-04' })).toBe(77);
    const findings = JSON.parse(test.stdout()) as Finding[];
    expect(findings.find((finding) => finding.check === 'token (cached)')).toMatchObject({
      result: 'fail',
      detail: `Not logged in for profile "lojaA": its token was issued for ${storeA.url}, not ${storeB.url}. Log in to ${storeB.url} in a profile of its own (B2BCTL_CONFIG_DIR=${test.configDir} b2bctl login --profile NAME --base-url ${storeB.url}, then --profile NAME), or set B2BCTL_PASSWORD so this run logs in there by itself.`,
    });
    expect(findings.find((finding) => finding.check === 'routes')).toMatchObject({ result: 'skip' });
    expect(test.stderr()).toContain(`token (cached): Not logged in for profile "lojaA": its token was issued for`);
    // Store B was asked whether it answers (no credential), and nothing else: no route, no PUT, no token.
    expect(atB).toEqual([{ method: 'GET', path: '/', authorization: undefined }]);
    expect(atA).toEqual([]);
  },
);

it('with B2BCTL_PASSWORD, doctor checks a fresh login at the other store and never sends the cached token', async () => {
  const atA = recordEverything(storeA);
  const atB = recordEverything(storeB);
  const test = testContext({
    configDir: profileOfStoreA(),
    clock: systemClock,
    globals: { profile: 'lojaA', baseUrl: storeB.url },
    env: { B2BCTL_PASSWORD: 'password-at-store-b' },
  });
  await test.run(run, {});
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.some((finding) => finding.check === 'token (cached)')).toBe(false);
  expect(atB.map((request) => request.method)).toContain('POST');
  expect(atB.filter((request) => request.authorization?.includes(tokenOfStoreA))).toEqual([]);
  expect(atA).toEqual([]);
});

it('the store the profile logged in to: the cached token is used as before', async () => {
  const atA = recordEverything(storeA);
  const test = testContext({ configDir: profileOfStoreA(), clock: systemClock, globals: { profile: 'lojaA' } });
  expect(await test.run(run, {})).toBe(0);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check === 'token (cached)')).toMatchObject({ result: 'ok' });
  expect(atA.filter((request) => request.authorization === `Bearer ${tokenOfStoreA}`)).toHaveLength(2);
});
