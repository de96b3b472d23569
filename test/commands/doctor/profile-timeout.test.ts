/**
 * doctor's requests wait as long as every command's do: the http.timeout setting (profile or B2BCTL_TIMEOUT). With a
 * fixed 10 s of its own it called every check "ok", exit 0, on a profile whose every job timed out (a user test).
 */
import { expect, it } from 'vitest';
import { run } from '../../../src/commands/doctor/run.js';
import { systemClock } from '../../../src/base/clock.js';
import { ProfileStore } from '../../../src/config/profile-store.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { testContext } from '../../support/test-context.js';
import { temporaryFolder } from '../../support/temporary.js';

const platform = useScriptedPlatform();

interface Finding {
  check: string;
  result: string;
  detail: string;
  setting?: string;
}

/**
 * A store slower than any time-out: it never answers (the client gives up and closes). The fast routes answer at
 * once and the time-out is 2 s, so a busy machine does not make them miss it too.
 */
const neverAnswered = () => undefined;

function configWithToken(settings: Record<string, string>): string {
  const configDir = temporaryFolder('b2bctl-doctor-');
  new ProfileStore(configDir).update('default', {
    baseUrl: platform.url,
    token: 'token-of-the-test',
    tokenObtainedAt: new Date().toISOString(),
    tokenExpiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    ...settings,
  });
  return configDir;
}

it.each([
  ['the profile', { 'http.timeout': '2s' }, {}],
  ['B2BCTL_TIMEOUT', {}, { B2BCTL_TIMEOUT: '2s' }],
])(
  'http.timeout 2 s from %s and a store that does not answer: the reachability check fails naming http.timeout, exit 69',
  async (_from, settings: Record<string, string>, env: Record<string, string>) => {
    platform.routes['GET /'] = neverAnswered;
    const test = testContext({ configDir: configWithToken(settings), clock: systemClock, env });
    expect(await test.run(run, {})).toBe(69);
    const findings = JSON.parse(test.stdout()) as Finding[];
    expect(findings.find((finding) => finding.check.startsWith('GET http'))).toMatchObject({
      result: 'fail',
      setting: 'http.timeout',
      detail: expect.stringContaining('did not answer within the 2 s time-out'),
    });
    // One request, not retried: doctor answers in seconds.
    expect(platform.received).toEqual(['GET /']);
  },
);

it('a route slower than http.timeout fails its own line with the time-out', async () => {
  platform.routes['GET /'] = (_request, _body, response) => answerJson(response, 200, {});
  platform.routes['GET /sellerModule/listSellers'] = neverAnswered;
  platform.routes['GET /v1/orders'] = (_request, _body, response) => answerJson(response, 200, []);
  const test = testContext({ configDir: configWithToken({ 'http.timeout': '2s' }), clock: systemClock });
  expect(await test.run(run, {})).toBe(69);
  const findings = JSON.parse(test.stdout()) as Finding[];
  expect(findings.find((finding) => finding.check.startsWith('GET /sellerModule/listSellers'))).toMatchObject({
    result: 'fail',
    detail: expect.stringContaining('did not answer within the 2 s time-out'),
  });
  expect(findings.find((finding) => finding.check.startsWith('GET /v1/orders'))).toMatchObject({ result: 'ok' });
});
