/**
 * A token with characters around or inside it that no HTTP header can carry: a token route that answers
 * `"TOK…\n"`, one whose token holds a line break or another control character, a profile an older b2bctl cached such
 * a token in, and a token given in B2BCTL_TOKEN, --token or --token-stdin. The line end around a token is dropped;
 * a token still holding one is refused where it is read, naming where it came from, never as a network that cannot
 * be reached (undici refuses to send such a header, which read as `Cannot reach … check the network`, exit 69).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { configFile, freshConfigDir, readConfig } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { sandboxPassword, sandboxUser } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

const token = 'TOK-SECRET-issued-0123456789';
/** The Authorization header of each `GET /v1/ping` received, in order. */
const sentAuthorizations: (string | undefined)[] = [];

function tokenRouteAnswers(accessToken: string): void {
  routes['POST /v1/auth/token'] = (_request, _body, response) =>
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: accessToken, expires_in: 3600 }));
}

function pingAnswers(): void {
  sentAuthorizations.length = 0;
  routes['GET /v1/ping'] = (request, _body, response) => {
    sentAuthorizations.push(request.headers.authorization);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":1}');
  };
}

const loginArgs = () => ['login', '--base-url', platform.url, '--username', sandboxUser, '--password-stdin'];
const runLogin = (configDir: string) => runCommandLine(loginArgs(), { configDir, stdin: `${sandboxPassword}\n` });

/** A profile logged in with a good token, then its cached token replaced by `cached`, as an older b2bctl wrote it. */
async function profileCaching(cached: string): Promise<string> {
  const configDir = freshConfigDir();
  tokenRouteAnswers(token);
  expect((await runLogin(configDir)).code).toBe(0);
  const config = readConfig(configDir);
  const profile = config.profiles.default;
  if (profile === undefined) throw new Error('no default profile');
  profile.token = cached;
  writeFileSync(configFile(configDir), JSON.stringify(config));
  received.length = 0;
  return configDir;
}

/** The token cached in the default profile, if the config file holds one. */
function storedToken(configDir: string): string | undefined {
  return existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined;
}

const cannotReach = /Cannot reach|check the network|network/i;

describe('a token route that answers the token with whitespace around it', () => {
  it.each([
    ['a trailing line feed', `${token}\n`],
    ['a trailing CR LF', `${token}\r\n`],
    ['spaces and a tab around it', ` \t${token} `],
  ])('%s: login stores the token alone and the next command sends it', async (_case, answered) => {
    const configDir = freshConfigDir();
    tokenRouteAnswers(answered);
    const login = await runLogin(configDir);
    expect(login.code).toBe(0);
    expect(storedToken(configDir)).toBe(token);
    pingAnswers();
    const api = await runCommandLine(['api', '/v1/ping'], { configDir });
    expect(api.stderr).toBe('');
    expect(api.code).toBe(0);
    expect(sentAuthorizations).toEqual([`Bearer ${token}`]);
  });
});

describe('a token route that answers a token no HTTP header can carry', () => {
  it.each([
    ['a CR LF and a header after it', `${token}\r\nX-Injected: 1`, 'a carriage return (CR)'],
    ['a line feed inside', `TOK-SECRET\nrest-of-it`, 'a line feed (LF)'],
    ['a control character inside', `TOK-SECRET\u0007rest`, 'the control character U+0007'],
    ['a character past Latin-1', `TOK-SECRET\u20acrest`, 'the character U+20AC'],
  ])('%s: login refuses it, exit 69, naming the token route; nothing stored', async (_case, answered, named) => {
    const configDir = freshConfigDir();
    tokenRouteAnswers(answered);
    const login = await runLogin(configDir);
    expect(login.stderr).toBe(
      `error: POST ${platform.url}/v1/auth/token answered a token that holds ${named}, which no HTTP header can carry, so b2bctl cannot send it; nothing was stored. The token route's answer is malformed: check paths.token and answers.token.accessToken, or ask the platform's support (b2bctl --verbose login shows the answer, the token masked).\n`,
    );
    expect(login.code).toBe(69);
    expect(login.stderr).not.toMatch(cannotReach);
    expect(login.stderr).not.toContain('TOK-SECRET');
    expect(storedToken(configDir)).toBeUndefined();
    expect(received).toEqual(['POST /v1/auth/token']);
  });

  it("a command's own login (B2BCTL_PASSWORD, a cron job) refuses it too: the cached token is kept, nothing else sent", async () => {
    const configDir = await profileCaching('');
    tokenRouteAnswers(`${token}\r\nX-Injected: 1`);
    pingAnswers();
    const api = await runCommandLine(['api', '/v1/ping'], { configDir, env: { B2BCTL_PASSWORD: sandboxPassword } });
    expect(api.stderr).toBe(
      `error: POST ${platform.url}/v1/auth/token answered a token that holds a carriage return (CR), which no HTTP header can carry, so b2bctl cannot send it; nothing was stored. The token route's answer is malformed: check paths.token and answers.token.accessToken, or ask the platform's support (b2bctl --verbose login shows the answer, the token masked).\n`,
    );
    expect(api.code).toBe(69);
    expect(storedToken(configDir)).toBe('');
    expect(received).toEqual(['POST /v1/auth/token']);
  });
});

describe('a token an older b2bctl cached with a line break', () => {
  it('around it: sent without it', async () => {
    const configDir = await profileCaching(`${token}\n`);
    pingAnswers();
    const api = await runCommandLine(['api', '/v1/ping'], { configDir });
    expect(api.stderr).toBe('');
    expect(api.code).toBe(0);
    expect(sentAuthorizations).toEqual([`Bearer ${token}`]);
  });

  it('inside it, without B2BCTL_PASSWORD: exit 77, log in again; nothing sent', async () => {
    const configDir = await profileCaching(`${token}\r\nX-Injected: 1`);
    pingAnswers();
    const api = await runCommandLine(['api', '/v1/ping'], { configDir });
    expect(api.stderr).toBe(
      `error: Not logged in for profile "default": its cached token holds a character no HTTP header can carry (a line break or another control character), so it cannot be sent. Run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default (or set B2BCTL_PASSWORD so b2bctl logs in again by itself).\n`,
    );
    expect(api.code).toBe(77);
    expect(api.stderr).not.toMatch(cannotReach);
    expect(received).toEqual([]);
  });

  it('inside it, with B2BCTL_PASSWORD: logs in again, says why, and stores the new token', async () => {
    const configDir = await profileCaching(`${token}\r\nX-Injected: 1`);
    const fresh = 'TOK-fresh-issued-9876543210';
    tokenRouteAnswers(fresh);
    pingAnswers();
    const api = await runCommandLine(['api', '/v1/ping'], { configDir, env: { B2BCTL_PASSWORD: sandboxPassword } });
    expect(api.stderr).toBe(
      `The token cached in profile "default" holds a character no HTTP header can carry; logging in again as ${sandboxUser}.\n`,
    );
    expect(api.code).toBe(0);
    expect(received).toEqual(['POST /v1/auth/token', 'GET /v1/ping']);
    expect(sentAuthorizations).toEqual([`Bearer ${fresh}`]);
    expect(storedToken(configDir)).toBe(fresh);
  });
});

describe('a token the user gives', () => {
  it('B2BCTL_TOKEN ending in a line feed is sent without it', async () => {
    const configDir = await profileCaching(token);
    pingAnswers();
    const api = await runCommandLine(['api', '/v1/ping'], { configDir, env: { B2BCTL_TOKEN: 'TOK-from-env-0123\n' } });
    expect(api.code).toBe(0);
    expect(sentAuthorizations).toEqual(['Bearer TOK-from-env-0123']);
  });

  it.each([
    ['B2BCTL_TOKEN', ['api', '/v1/ping'], { B2BCTL_TOKEN: 'TOK-SECRET\nX: 1' }],
    ['--token', ['--token', 'TOK-SECRET\nX: 1', 'api', '/v1/ping'], {}],
  ])('%s holding a line feed inside: exit 2 naming it; nothing sent', async (source, args, env) => {
    const configDir = await profileCaching(token);
    const api = await runCommandLine(args, { configDir, env });
    expect(api.stderr.split('\n').at(-2)).toBe(
      `error: The token given with ${source} holds a line feed (LF), which no HTTP header can carry: give the token alone, on one line.`,
    );
    expect(api.code).toBe(2);
    expect(received).toEqual([]);
  });

  it('login --token-stdin with a line break inside: exit 2, nothing stored or sent', async () => {
    const configDir = freshConfigDir();
    const login = await runCommandLine(['login', '--base-url', platform.url, '--token-stdin', '--no-verify'], {
      configDir,
      stdin: 'TOK-SECRET\r\nX: 1\n',
    });
    expect(login.stderr).toBe(
      'error: The token given with --token-stdin holds a carriage return (CR), which no HTTP header can carry: give the token alone, on one line.\n',
    );
    expect(login.code).toBe(2);
    expect(storedToken(configDir)).toBeUndefined();
    expect(received).toEqual([]);
  });
});

describe('doctor', () => {
  it('fails the token check of a login whose answer holds such a token, naming the field, exit 69', async () => {
    const configDir = await profileCaching(token);
    tokenRouteAnswers(`${token}\r\nX-Injected: 1`);
    const doctor = await runCommandLine(['doctor', '-o', 'json'], {
      configDir,
      env: { B2BCTL_PASSWORD: sandboxPassword },
    });
    const checks = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
    expect(checks.find((each) => each.check === 'POST /v1/auth/token (json)')).toMatchObject({
      result: 'fail',
      detail:
        'answered 200 with a token in "access_token" that holds a carriage return (CR), which no HTTP header can carry: b2bctl cannot send it, and login refuses it',
    });
    expect(doctor.code).toBe(69);
    expect(doctor.stdout).not.toContain('TOK-SECRET');
  });

  it('fails the cached token check of such a token, saying to log in again, exit 77', async () => {
    const configDir = await profileCaching(`${token}\nX: 1`);
    const doctor = await runCommandLine(['doctor', '-o', 'json'], { configDir });
    const checks = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
    expect(checks.find((each) => each.check === 'token (cached)')).toMatchObject({
      result: 'fail',
      detail: `the token holds a line feed (LF), which no HTTP header can carry, so it cannot be sent: run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default`,
    });
    expect(doctor.code).toBe(77);
    expect(received).not.toContain('GET /v1/ping');
  });
});
