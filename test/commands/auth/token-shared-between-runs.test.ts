/**
 * Two jobs of one profile (a stock push and an orders poll started by cron at once) whose cached token has expired,
 * on a store whose token route revokes the previous token when it issues the next (the platform document is silent
 * on it; a user test met one): each logged in by itself, and each login logged the other job out, until one run
 * ended exit 77. They share the profile's token now (docs/platform.md, "Logging in"): a login is made under the
 * profile's login lock, after a look at what another run saved, and a 401 is answered by the token another run saved
 * before any login.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/base/errors.js';
import { type LockHolder, lockText, profileLockPath } from '../../../src/config/lock.js';
import type { Context } from '../../../src/context.js';
import { PlatformClient } from '../../../src/platform/client.js';
import { TokenSource } from '../../../src/platform/token-source.js';
import { configFile, freshConfigDir, readConfig } from '../../support/cli.js';
import { FakeClock } from '../../support/fake-clock.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { until } from '../../support/until.js';
import { testContext, type TestContext } from '../../support/test-context.js';

const store = useScriptedPlatform();
afterAll(() => removeTemporaryFolders());

const user = 'erp@mystore.test';
const tokenRoute = 'POST /v1/auth/token';
const pingRoute = 'GET /v1/ping';
const clock = new FakeClock(Date.UTC(2026, 10, 23, 2, 0, 0));
const hourMs = 3_600_000;

/**
 * The store: each login issues `ISSUED-n` and revokes every token before it; the ping answers 200 to the one token
 * it issued last (`valid`, which a test may set as if someone else had logged in), 401 to any other.
 */
function storeThatRevokesOnLogin(firstValid: string): { valid: string } {
  const state = { valid: firstValid };
  let issued = 0;
  store.routes[tokenRoute] = (_request, _body, response) => {
    issued += 1;
    state.valid = `ISSUED-${issued}`;
    answerJson(response, 200, { access_token: state.valid, expires_in: 43_200 });
  };
  store.routes[pingRoute] = (request, _body, response) => {
    const valid = request.headers.authorization === `Bearer ${state.valid}`;
    answerJson(response, valid ? 200 : 401, valid ? { ok: 1 } : { error: 'token revoked' });
  };
  return state;
}

/** A config folder whose profile names the store and user, caching `token` obtained `ageMs` ago for 12 hours. */
function profileWithToken(token: string, ageMs: number): string {
  const configDir = freshConfigDir();
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeProfile(configDir, token, ageMs);
  return configDir;
}

/** Writes the profile as another run's save leaves it: `token`, obtained `ageMs` ago, valid 12 hours. */
function writeProfile(configDir: string, token: string, ageMs: number): void {
  const obtainedAt = clock.now() - ageMs;
  const profile = {
    baseUrl: store.url,
    username: user,
    token,
    tokenObtainedAt: new Date(obtainedAt).toISOString(),
    tokenExpiresAt: new Date(obtainedAt + 12 * hourMs).toISOString(),
  };
  writeFileSync(configFile(configDir), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
}

/** One job of the profile: a command's context on the shared clock, B2BCTL_PASSWORD set as cron jobs set it. */
function job(configDir: string, env: Record<string, string> = {}): TestContext {
  return testContext({ configDir, clock, env: { B2BCTL_PASSWORD: 'cron-secret', ...env } });
}

/** The job's platform client, its session read (the profile as it is now) before anything is sent. */
function platformOf(tested: TestContext): Promise<PlatformClient> {
  return tested.context.platform();
}

/** A client whose token source waits `waitMs` at most for another run's login. */
async function platformWaiting(context: Context, waitMs: number): Promise<PlatformClient> {
  const session = await context.session();
  const tokens = new TokenSource(session, context.env, context.clock, context.log.info, context.log.warn, { waitMs });
  return new PlatformClient(await context.httpClient(session.requireBaseUrl()), session, tokens);
}

async function ping(platform: PlatformClient): Promise<number> {
  return (await platform.exchange({ method: 'GET', path: '/v1/ping', safeToRepeat: true })).status;
}

const logins = () => store.received.filter((request) => request === tokenRoute).length;

describe('two jobs of one profile share its token', () => {
  it('two jobs that find the token expired together log in once: the second takes the token the first saved', async () => {
    const configDir = profileWithToken('EXPIRED', 13 * hourMs);
    storeThatRevokesOnLogin('EXPIRED');
    const [push, poll] = [job(configDir), job(configDir)];
    const [pushPlatform, pollPlatform] = await Promise.all([platformOf(push), platformOf(poll)]);

    // Started in one turn: both read the expired token, and both reach the login lock before either login is answered.
    expect(await Promise.all([ping(pushPlatform), ping(pollPlatform)])).toEqual([200, 200]);
    // Each again, as a run's next request: neither was logged out by the other.
    expect(await Promise.all([ping(pushPlatform), ping(pollPlatform)])).toEqual([200, 200]);

    expect(logins()).toBe(1);
    expect(store.received.filter((request) => request === pingRoute)).toHaveLength(4);
    expect(readConfig(configDir).profiles.default?.token).toBe('ISSUED-1');
    const said = [push.stderr(), poll.stderr()].toSorted();
    expect(said[0]).toContain('The token of profile "default" has expired; logging in again as erp@mystore.test.\n');
    expect(said[1]).toContain(
      'The token of profile "default" has expired; using the token another b2bctl run saved in the profile meanwhile, without logging in.\n',
    );
    await Promise.all([push.context.close(), poll.context.close()]);
  });

  it("a 401 after another job's renewal is answered by the token that job saved, without a login", async () => {
    const configDir = profileWithToken('FIRST', hourMs);
    const platform = storeThatRevokesOnLogin('FIRST');
    const push = job(configDir);
    const pushPlatform = await platformOf(push);
    expect(await ping(pushPlatform)).toBe(200);

    // The store revokes FIRST (its own reasons); the poll job meets the 401 first and logs in, saving ISSUED-1.
    platform.valid = 'REVOKED-BY-THE-STORE';
    const poll = job(configDir);
    expect(await ping(await platformOf(poll))).toBe(200);
    expect(logins()).toBe(1);

    // The push's next request still carries FIRST: refused, then replayed with ISSUED-1 read from the profile.
    expect(await ping(pushPlatform)).toBe(200);
    expect(logins()).toBe(1);
    expect(store.received.slice(-2)).toEqual([pingRoute, pingRoute]);
    expect(push.stderr()).toContain(
      'The platform refused the token of profile "default"; using the token another b2bctl run saved in the profile meanwhile, without logging in.\n',
    );
    expect(push.stderr()).not.toContain('logging in again');
    await Promise.all([push.context.close(), poll.context.close()]);
  });

  it('a saved token that is refused too is followed by one login, and the request replayed with its token', async () => {
    const configDir = profileWithToken('FIRST', hourMs);
    const platform = storeThatRevokesOnLogin('FIRST');
    const push = job(configDir);
    const pushPlatform = await platformOf(push);
    expect(await ping(pushPlatform)).toBe(200);
    writeProfile(configDir, 'SAVED-THEN-REVOKED', 0);
    platform.valid = 'NEITHER';

    expect(await ping(pushPlatform)).toBe(200);

    expect(store.received).toEqual([pingRoute, pingRoute, pingRoute, tokenRoute, pingRoute]);
    expect(readConfig(configDir).profiles.default?.token).toBe('ISSUED-1');
    expect(push.stderr()).toContain(
      'The platform refused the token of profile "default"; using the token another b2bctl run saved in the profile meanwhile, without logging in.\n',
    );
    expect(push.stderr()).toContain('The platform refused the token of profile "default"; logging in again.\n');
    await push.context.close();
  });

  it('two saved tokens in turn, each refused: after the first, the run logs in itself instead of taking the second', async () => {
    const configDir = profileWithToken('FIRST', hourMs);
    const platform = storeThatRevokesOnLogin('FIRST');
    const push = job(configDir);
    const pushPlatform = await platformOf(push);
    expect(await ping(pushPlatform)).toBe(200);
    writeProfile(configDir, 'SAVED-BY-A-SECOND-RUN', 0);
    platform.valid = 'NEITHER';
    // A third run saves its token while the second run's is being refused (three cron jobs on a revoking store).
    const answerPing = store.routes[pingRoute];
    store.routes[pingRoute] = (request, body, response) => {
      if (request.headers.authorization === 'Bearer SAVED-BY-A-SECOND-RUN')
        writeProfile(configDir, 'SAVED-BY-A-THIRD-RUN', 0);
      answerPing?.(request, body, response);
    };

    expect(await ping(pushPlatform)).toBe(200);

    expect(store.received).toEqual([pingRoute, pingRoute, pingRoute, tokenRoute, pingRoute]);
    expect(readConfig(configDir).profiles.default?.token).toBe('ISSUED-1');
    expect(push.stderr()).toContain('The platform refused the token of profile "default"; logging in again.\n');
    await push.context.close();
  });

  it('a login lock held by a live process past the wait: the error names the lock and its holder, and nothing is sent', async () => {
    const configDir = profileWithToken('EXPIRED', 13 * hourMs);
    storeThatRevokesOnLogin('EXPIRED');
    const lockPath = profileLockPath(configDir, 'default', 'login');
    mkdirSync(`${configDir}/locks`, { mode: 0o700 });
    // This test's own process, alive throughout, holds the lock as a run stuck in its login would.
    const held = lockText('a login');
    writeFileSync(lockPath, held, { mode: 0o600 });
    const holder = JSON.parse(held) as LockHolder;
    const push = job(configDir);
    // The run's own wait, on the fake clock it shares with this test: the waiter's pauses move it, not the wall clock.
    const pushPlatform = await platformOf(push);
    const startedAt = clock.now();

    let error: unknown;
    let settled = false;
    void ping(pushPlatform).then(
      () => (settled = true),
      (thrown: unknown) => ((error = thrown), (settled = true)),
    );
    // The holder never lets go: the shared clock is moved on until the waiter gives up, no wall-clock wait.
    await until(() => (settled ? true : (clock.advance(30_000), false)), 'the login lock wait to end');

    expect(error).toMatchObject({ exitCode: ExitCode.interrupted });
    expect((error as Error).message).toBe(
      `The login lock of profile "default" (${lockPath}) has been held for over 2.3 min by PID ${process.pid} (a login, since ${holder.startedAt}), which is still running; this run waited for its token and sent nothing. Try again; if PID ${process.pid} is not b2bctl, remove ${lockPath}.`,
    );
    // 4 attempts of 30 s, the back-off between them and the margin: the wait from the retry policy in force.
    expect(clock.now() - startedAt).toBeGreaterThanOrEqual(136_750);
    expect(store.received).toEqual([]);
    expect(readConfig(configDir).profiles.default?.token).toBe('EXPIRED');
    await push.context.close();
  });

  it('Ctrl-C while waiting for the login lock stops the wait: exit 75, nothing sent', async () => {
    const configDir = profileWithToken('EXPIRED', 13 * hourMs);
    storeThatRevokesOnLogin('EXPIRED');
    const lockPath = profileLockPath(configDir, 'default', 'login');
    mkdirSync(`${configDir}/locks`, { mode: 0o700 });
    writeFileSync(lockPath, lockText('a login'), { mode: 0o600 });
    const push = job(configDir);
    // The wait a run is given (two minutes), which the interrupt must end long before.
    const session = await push.context.session();
    const tokens = new TokenSource(session, push.context.env, clock, push.context.log.info, push.context.log.warn, {
      signal: push.context.interrupt,
    });
    const pushPlatform = new PlatformClient(await push.context.httpClient(store.url), session, tokens);

    const pinged = ping(pushPlatform).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    push.interrupt('SIGTERM');
    const error = await pinged;

    expect(error).toMatchObject({
      exitCode: ExitCode.interrupted,
      message: `Interrupted (SIGTERM) while waiting for another b2bctl run to log in for profile "default" (${lockPath}); nothing was sent.`,
    });
    expect(store.received).toEqual([]);
    await push.context.close();
  });

  it('a login for this run only (a user given in B2BCTL_USERNAME) takes no lock, as before, and saves nothing', async () => {
    const configDir = profileWithToken('EXPIRED', 13 * hourMs);
    storeThatRevokesOnLogin('EXPIRED');
    mkdirSync(`${configDir}/locks`, { mode: 0o700 });
    writeFileSync(profileLockPath(configDir, 'default', 'login'), lockText('a login'), { mode: 0o600 });
    const other = job(configDir, { B2BCTL_USERNAME: 'other@mystore.test' });

    expect(await ping(await platformWaiting(other.context, 100))).toBe(200);

    expect(store.received).toEqual([tokenRoute, pingRoute]);
    expect(readConfig(configDir).profiles.default?.token).toBe('EXPIRED');
    await other.context.close();
  });
});
