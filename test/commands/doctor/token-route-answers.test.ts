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

/**
 * `doctor -o json` logging in as erp@store.test with B2BCTL_PASSWORD, the token route answering `status` `text`;
 * `routeSet`: the profile sets paths.token (to the same path), so the route is the user's rather than b2bctl's guess.
 */
async function doctorWithTokenRoute(status: number, text: string, options: { routeSet?: boolean } = {}) {
  platform.routes['POST /v1/auth/token'] = answerJsonText(status, text);
  const configDir = freshConfigDir();
  const set =
    options.routeSet === true
      ? await runCommandLine(['config', 'set', 'paths.token', '/v1/auth/token'], { configDir })
      : undefined;
  if (set !== undefined && set.code !== 0) throw new Error(`config set paths.token: ${set.stderr}`);
  const result = await runCommandLine(['doctor', '-o', 'json'], {
    configDir,
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

it("a 401 at the default route: the store's words, the username and B2BCTL_PASSWORD, or the route elsewhere, exit 77", async () => {
  const doctor = await doctorWithTokenRoute(401, '{"error":"invalid_grant"}');
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 401,
    detail: `Login refused for erp@store.test at ${platform.url} (HTTP 401: invalid_grant): check the username and B2BCTL_PASSWORD, or the token route may be elsewhere: POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic).`,
    setting: 'paths.token',
  });
  expect(doctor.code).toBe(77);
});

it('a 401 at a token route the user set: the username and B2BCTL_PASSWORD only, exit 77', async () => {
  const doctor = await doctorWithTokenRoute(401, '{"error":"invalid_grant"}', { routeSet: true });
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 401,
    detail: `Login refused for erp@store.test at ${platform.url} (HTTP 401: invalid_grant): check the username and B2BCTL_PASSWORD.`,
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

it('a 404 at the default route: the route is a guess, the settings that move it, exit 2', async () => {
  const doctor = await doctorWithTokenRoute(404, '{}');
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 404,
    detail: `The token route POST ${platform.url}/v1/auth/token does not exist (HTTP 404): POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic).`,
    setting: 'paths.token',
  });
  expect(doctor.code).toBe(2);
});

it('a 405 at a token route the user set: the paths.token setting to check, the answer quoted, exit 2', async () => {
  const doctor = await doctorWithTokenRoute(405, '{"message":"Método não permitido"}', { routeSet: true });
  expect(doctor.token).toEqual({
    check: 'POST /v1/auth/token (json)',
    result: 'fail',
    status: 405,
    detail: `The token route POST ${platform.url}/v1/auth/token does not exist (HTTP 405: Método não permitido). Check the paths.token setting (b2bctl config get paths.token).`,
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

it('B2BCTL_PASSWORD without a username: the line names the username that is missing, and no login is tried', async () => {
  platform.routes['POST /v1/auth/token'] = answerJsonText(200, '{"access_token":"never-asked-for-0001"}');
  const configDir = freshConfigDir();
  const result = await runCommandLine(['doctor', '-o', 'json'], {
    configDir,
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_PASSWORD: 'Senha#2001' },
  });
  const findings = JSON.parse(result.stdout) as Finding[];
  expect(findings.find((finding) => finding.check === 'token (cached)')).toEqual({
    check: 'token (cached)',
    result: 'fail',
    detail: `no token for profile "default", and B2BCTL_PASSWORD cannot log in without a username, which profile "default" does not name: set B2BCTL_USERNAME, or run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default --username USER (the profile keeps it)`,
    setting: 'username',
  });
  expect(result.code).toBe(77);
  expect(platform.received.filter((each) => each.startsWith('POST'))).toEqual([]);
});

it('no password and no token: the line still says to log in or set B2BCTL_PASSWORD', async () => {
  const configDir = freshConfigDir();
  const result = await runCommandLine(['doctor', '-o', 'json'], {
    configDir,
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_USERNAME: 'erp@store.test' },
  });
  const findings = JSON.parse(result.stdout) as Finding[];
  expect(findings.find((finding) => finding.check === 'token (cached)')?.detail).toBe(
    `no token for profile "default": run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default, or set B2BCTL_PASSWORD to let doctor log in`,
  );
  expect(result.code).toBe(77);
});
