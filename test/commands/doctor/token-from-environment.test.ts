/**
 * doctor with B2BCTL_TOKEN set over a profile that has its own token (a user test): the probes sent the variable's
 * token, but the token line described the profile's (`cached, obtained …, valid until …`), which was not used. The
 * line now says where the token sent came from, as whoami's tokenSource does.
 */
import { expect, it } from 'vitest';
import { run } from '../../../src/commands/doctor/run.js';
import { systemClock } from '../../../src/base/clock.js';
import { ProfileStore } from '../../../src/config/profile-store.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { testContext } from '../../support/test-context.js';
import { temporaryFolder } from '../../support/temporary.js';

const store = useScriptedPlatform();

const profileToken = 'token-of-the-profile-0123456789';
const environmentToken = 'EnvTokenValue12345';

interface Finding {
  check: string;
  result: string;
  detail: string;
}

/** Every Authorization header the store received; every route answered as the platform would. */
function recordAuthorizations(): (string | undefined)[] {
  const seen: (string | undefined)[] = [];
  for (const method of ['GET', 'PUT', 'POST'])
    store.routes[`${method} *`] = (request, _body, response) => {
      if (request.url !== '/') seen.push(request.headers.authorization);
      answerJson(response, 200, request.url === '/' ? {} : []);
    };
  return seen;
}

function loggedInProfile(): string {
  const configDir = temporaryFolder('b2bctl-doctor-env-token-');
  const now = Date.now();
  new ProfileStore(configDir).update('stand', {
    baseUrl: store.url,
    username: 'erp@loja.test',
    token: profileToken,
    tokenObtainedAt: new Date(now).toISOString(),
    tokenExpiresAt: new Date(now + 86_400_000).toISOString(),
  });
  return configDir;
}

it('the token line names B2BCTL_TOKEN, the token the probes sent, not the profile’s cached one', async () => {
  const seen = recordAuthorizations();
  const test = testContext({
    configDir: loggedInProfile(),
    clock: systemClock,
    globals: { profile: 'stand' },
    env: { B2BCTL_TOKEN: environmentToken },
  });
  expect(await test.run(run, {})).toBe(0);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check === 'token (cached)')).toEqual({
    check: 'token (cached)',
    result: 'ok',
    detail: 'the token in B2BCTL_TOKEN (expiry unknown); the token cached in profile "stand" is not used',
  });
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((authorization) => authorization === `Bearer ${environmentToken}`)).toBe(true);
});

it('without the variable, the line describes the profile’s token, as before', async () => {
  const seen = recordAuthorizations();
  const test = testContext({ configDir: loggedInProfile(), clock: systemClock, globals: { profile: 'stand' } });
  expect(await test.run(run, {})).toBe(0);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check === 'token (cached)')?.detail).toMatch(
    /^cached, obtained .*, valid until /,
  );
  expect(seen.every((authorization) => authorization === `Bearer ${profileToken}`)).toBe(true);
});
