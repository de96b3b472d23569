/**
 * The token's end as the token route's answer states it, which the document does not show (it says 12 hours): a
 * lifetime in seconds or in milliseconds, an instant (ISO 8601, epoch seconds or milliseconds), both, or a value far
 * from 12 hours. What login stores is what whoami shows; anything read otherwise than stated, or not believed as
 * stated, is one warning line of the login that read it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../support/fake-clock.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { sandboxPassword, sandboxUser } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

const now = '2026-11-30T08:00:00.000Z';
const token = 'a-token-the-platform-issued-0123456789';
const warningOf = (said: string) => `warning: the token route's answer ${said}.`;

function answering(body: unknown): void {
  routes['POST /v1/auth/token'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** `login`, then `whoami -o json`, on one config folder at the instant `now`. */
async function loginThenWhoami(): Promise<{ code: number | null; stderr: string; whoami: Record<string, unknown> }> {
  const configDir = freshConfigDir();
  const clock = new FakeClock(Date.parse(now));
  const login = await runCommandLine(
    ['login', '--base-url', platform.url, '--username', sandboxUser, '--password-stdin'],
    { configDir, clock, stdin: `${sandboxPassword}\n` },
  );
  const whoami = await runCommandLine(['whoami', '-o', 'json'], { configDir, clock });
  expect(whoami.code).toBe(0);
  return { code: login.code, stderr: login.stderr, whoami: JSON.parse(whoami.stdout) as Record<string, unknown> };
}

function loggedIn(until: string): string {
  return `Logged in to ${platform.url} as ${sandboxUser} (profile "default"); the token is valid until ${until}.`;
}

describe('login reads the token lifetime or expiry the answer states', () => {
  it.each([
    ['nothing: the document 12 hours', { access_token: token }, '2026-11-30T20:00:00.000Z'],
    ['expires_in in seconds', { access_token: token, expires_in: 3600 }, '2026-11-30T09:00:00.000Z'],
    ['expires_at in ISO 8601', { token, expires_at: '2026-11-30T10:00:00Z' }, '2026-11-30T10:00:00.000Z'],
    ['expiresAt in epoch seconds', { data: { token, expiresAt: 1_796_040_000 } }, '2026-11-30T12:00:00.000Z'],
    ['expiresAt in epoch milliseconds', { token, expiresAt: 1_796_040_000_000 }, '2026-11-30T12:00:00.000Z'],
    [
      'both, the instant earlier',
      { access_token: token, expires_in: 43_200, expires_at: '2026-11-30T10:00:00Z' },
      '2026-11-30T10:00:00.000Z',
    ],
    [
      'both, the lifetime earlier',
      { access_token: token, expires_in: 600, expires_at: '2026-11-30T10:00:00Z' },
      '2026-11-30T08:10:00.000Z',
    ],
  ])('%s: stored, shown by whoami, no warning', async (_shape, body, until) => {
    answering(body);
    const { code, stderr, whoami } = await loginThenWhoami();
    expect(code).toBe(0);
    expect(stderr).toBe(`${loggedIn(until)}\n`);
    expect(whoami).toMatchObject({ tokenStatus: 'valid', tokenExpiresAt: until });
    expect(received).toEqual(['POST /v1/auth/token']);
  });

  it.each([
    [
      'expiresIn in milliseconds (1,000 × 12 h and more)',
      { data: { token, expiresIn: 43_200_000 } },
      '2026-11-30T20:00:00.000Z',
      '"data.expiresIn": 43200000 would be 500 days as seconds, so b2bctl reads it as milliseconds: 12 h',
    ],
    [
      'a lifetime of 30 days, counted for 7',
      { access_token: token, expires_in: 2_592_000 },
      '2026-12-07T08:00:00.000Z',
      `"expires_in": 2592000 says the token lasts 30 days, far past the document's 12 hours; b2bctl counts it valid for 7 days at most, then logs in again as for an expired one`,
    ],
    [
      'a lifetime of 30 seconds, used as said',
      { access_token: token, expires_in: 30 },
      '2026-11-30T08:00:30.000Z',
      `"expires_in": 30 says the token lasts 30 s, far less than the document's 12 hours; b2bctl uses it as said, so each command may have to log in again`,
    ],
    [
      'an expires_at already past, ignored',
      { access_token: token, expires_in: 3600, expires_at: '2026-11-30T06:00:00Z' },
      '2026-11-30T09:00:00.000Z',
      `"expires_at": "2026-11-30T06:00:00Z" is already past by this machine's clock (${now}), so b2bctl ignores it: check this machine's clock (b2bctl doctor compares it with the platform's)`,
    ],
  ])('%s: one warning line, then the login line', async (_shape, body, until, said) => {
    answering(body);
    const { code, stderr, whoami } = await loginThenWhoami();
    expect(code).toBe(0);
    expect(stderr).toBe(`${warningOf(said)}\n${loggedIn(until)}\n`);
    expect(whoami).toMatchObject({ tokenStatus: 'valid', tokenExpiresAt: until });
    expect(received).toEqual(['POST /v1/auth/token']);
  });

  it('answers.token.expiresAt points at a field of another name', async () => {
    answering({ access_token: token, auth: { until: '2026-11-30T09:30:00Z' } });
    const configDir = freshConfigDir();
    await runCommandLine(['config', 'set', 'answers.token.expiresAt', 'auth.until'], { configDir });
    const login = await runCommandLine(
      ['login', '--base-url', platform.url, '--username', sandboxUser, '--password-stdin'],
      { configDir, clock: new FakeClock(Date.parse(now)), stdin: `${sandboxPassword}\n` },
    );
    expect(login.stderr).toBe(`${loggedIn('2026-11-30T09:30:00.000Z')}\n`);
  });

  it("a login of its own (B2BCTL_PASSWORD) for the profile's cache warns the same, once", async () => {
    answering({ data: { token, expiresIn: 43_200_000 } });
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    const configDir = freshConfigDir();
    await runCommandLine(['config', 'set', 'baseUrl', platform.url], { configDir });
    await runCommandLine(['config', 'set', 'username', sandboxUser], { configDir });
    const clock = new FakeClock(Date.parse(now));
    const result = await runCommandLine(['sellers', 'list', '-o', 'json'], {
      configDir,
      clock,
      env: { B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `${warningOf('"data.expiresIn": 43200000 would be 500 days as seconds, so b2bctl reads it as milliseconds: 12 h')}\n`,
    );
    expect(received).toEqual(['POST /v1/auth/token', 'GET /sellerModule/listSellers']);
    const whoami = await runCommandLine(['whoami', '-o', 'json'], { configDir, clock });
    expect(JSON.parse(whoami.stdout)).toMatchObject({ tokenExpiresAt: '2026-11-30T20:00:00.000Z' });
  });
});

describe('doctor', () => {
  it("a fresh login's token check warns as login does", async () => {
    answering({ data: { token, expiresIn: 43_200_000 } });
    const configDir = freshConfigDir();
    await runCommandLine(['config', 'set', 'username', sandboxUser], { configDir });
    const result = await runCommandLine(['doctor', '-o', 'json'], {
      configDir,
      clock: new FakeClock(Date.parse(now)),
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_PASSWORD: sandboxPassword },
    });
    const findings = JSON.parse(result.stdout) as { check: string; result: string; detail: string }[];
    expect(findings.find((finding) => finding.check === 'POST /v1/auth/token (json)')).toMatchObject({
      result: 'warn',
      detail: `token obtained for ${sandboxUser}: token in "data.token", lifetime in "data.expiresIn" (43200000 ms); the token route's answer "data.expiresIn": 43200000 would be 500 days as seconds, so b2bctl reads it as milliseconds: 12 h.`,
    });
  });
});
