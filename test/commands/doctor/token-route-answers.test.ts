/**
 * doctor logs in as `login` does (one exchange, its typed refusals turned into findings): a second copy of the login
 * in doctor had drifted (a user test), saying of a 400 "check the username and password" without the advice login
 * gives, of a 5xx "no token where b2bctl looks", and of a missing route its own words. Each answer here is read
 * as login reads it, doctor naming only where the password came from.
 */
import { expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

interface Finding {
  check: string;
  result: string;
  status?: number;
  detail: string;
  setting?: string;
}

/** `doctor -o json` logging in as erp@store.test with B2BCTL_PASSWORD, the token route answering `status` `text`. */
async function doctorWithTokenRoute(status: number, text: string) {
  platform.routes['POST /v1/auth/token'] = answerJsonText(status, text);
  const result = await runCommandLine(['doctor', '-o', 'json'], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_USERNAME: 'erp@store.test', B2BCTL_PASSWORD: 'Senha#2001' },
  });
  const findings = JSON.parse(result.stdout) as Finding[];
  const token = findings.find((finding) => finding.check === 'POST /v1/auth/token (json)');
  return { code: result.code, token, tokenRequests: platform.received.filter((each) => each.startsWith('POST')) };
}

it("a 400: login's advice (the request's shape first), naming B2BCTL_PASSWORD, exit 77", async () => {
  const doctor = await doctorWithTokenRoute(400, '{"message":"grant_type ausente"}');
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 400,
    detail: `The token route POST ${platform.url}/v1/auth/token refused the login request for erp@store.test (HTTP 400: grant_type ausente): a 400 is most often the request's shape rather than the password. Check auth.style, the style of the request (json, form or basic; this one was json), and paths.token; if both are right, the username and B2BCTL_PASSWORD.`,
    setting: 'auth.style',
  });
  expect(doctor.code).toBe(77);
  expect(doctor.tokenRequests).toEqual(['POST /v1/auth/token']);
});

it('a 401: refused, check the username and B2BCTL_PASSWORD, exit 77', async () => {
  const doctor = await doctorWithTokenRoute(401, '{"error":"invalid_grant"}');
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 401,
    detail: `Login refused for erp@store.test at ${platform.url} (HTTP 401): check the username and B2BCTL_PASSWORD.`,
  });
  expect(doctor.code).toBe(77);
});

it('a 503: the platform unavailable, as login says it, not an answer without a token, exit 69', async () => {
  const doctor = await doctorWithTokenRoute(503, '{"message":"em manutenção"}');
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 503,
    detail: `POST ${platform.url}/v1/auth/token kept failing with HTTP 503 after 1 attempt; the platform is unavailable, try again later.`,
  });
  expect(doctor.code).toBe(69);
});

it("a 500: the platform's error and its words, as login says it, not an answer without a token", async () => {
  const doctor = await doctorWithTokenRoute(500, '{"message":"erro interno"}');
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 500,
    detail: `POST ${platform.url}/v1/auth/token failed with HTTP 500: erro interno`,
  });
  expect(doctor.code).toBe(1);
});

it('a 404: no token route there, the paths.token setting to check, exit 2', async () => {
  const doctor = await doctorWithTokenRoute(404, '{}');
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 404,
    detail: `The token route POST ${platform.url}/v1/auth/token does not exist (HTTP 404). Check the paths.token setting (b2bctl config get paths.token).`,
    setting: 'paths.token',
  });
  expect(doctor.code).toBe(2);
});

it('a 200 without a token: its fields named, the setting to point at the token, exit 1 as login', async () => {
  const doctor = await doctorWithTokenRoute(200, '{"sessao":"abc","validade":3600}');
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 200,
    detail: 'answered 200 without a token b2bctl recognises (fields: sessao, validade)',
    setting: 'answers.token.accessToken',
  });
  expect(doctor.code).toBe(1);
});
