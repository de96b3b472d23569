/**
 * `b2bctl login` in process: the prompts on a terminal (a scripted prompter), what is stored in the profile,
 * and what the sandbox received for each answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as login } from '../../../src/commands/auth/login.js';
import { ExitCode } from '../../../src/base/errors.js';
import { requestCounts, sandboxPassword, sandboxUser, tokenRoute, useSandbox } from '../../support/sandbox.js';

const fixture = useSandbox();
const terminal = { stdin: true, stderr: true, stdout: true };
const prompted = { username: undefined, passwordStdin: false, tokenStdin: false };

function storedProfile(configDir: string): Record<string, string> | undefined {
  try {
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
      profiles: Record<string, Record<string, string>>;
    };
    return config.profiles.default;
  } catch {
    return undefined;
  }
}

describe('login on a terminal (scripted prompter)', () => {
  it('asks for the base URL, the user and the password, logs in once and stores the token', async () => {
    const { sandbox, context } = fixture();
    const test = context({ tty: terminal, answers: [sandbox.url, sandboxUser, sandboxPassword] });
    expect(await test.run(login, prompted)).toBe(ExitCode.ok);
    expect(test.prompts).toEqual([
      { kind: 'input', message: 'Base URL of the platform API' },
      { kind: 'input', message: 'Integration user (e-mail)' },
      { kind: 'password', message: `Password of ${sandboxUser} at ${sandbox.url} (profile "default")` },
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
    const profile = storedProfile(test.configDir);
    expect(profile).toMatchObject({ baseUrl: sandbox.url, username: sandboxUser });
    expect(profile?.token).toMatch(/\S{16,}/);
    // The fake clock, shared with the sandbox, sets the token's lifetime: 12 hours from its instant.
    expect(profile?.tokenExpiresAt).toBe(new Date(test.clock.now() + 12 * 3600 * 1000).toISOString());
    expect(test.stderr()).toBe(
      `Logged in to ${sandbox.url} as ${sandboxUser} (profile "default"); the token is valid until ${profile?.tokenExpiresAt}.\n`,
    );
    expect(test.stdout()).toBe('');
    expect(test.stderr()).not.toContain(sandboxPassword);
  });

  it('a wrong password exits 77, stores no token and never shows the password', async () => {
    const { sandbox, context } = fixture();
    const test = context({ tty: terminal, answers: [sandbox.url, sandboxUser, 'not-the-password'] });
    expect(await test.run(login, prompted)).toBe(ExitCode.authFailed);
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
    expect(storedProfile(test.configDir)?.token).toBeUndefined();
    expect(test.stderr().split('\n').filter(Boolean)).toHaveLength(1);
    expect(test.stderr()).not.toContain('not-the-password');
  });

  it.each([
    ['at the base URL', [null]],
    ['at the user', ['URL', null]],
    ['at the password', ['URL', sandboxUser, null]],
  ])('Ctrl-D %s exits 75 and sends nothing', async (_where, script) => {
    const { sandbox, context } = fixture();
    const answers = script.map((answer) => (answer === 'URL' ? sandbox.url : answer));
    const test = context({ tty: terminal, answers });
    expect(await test.run(login, prompted)).toBe(ExitCode.interrupted);
    expect(test.stderr()).toBe('error: No answer at the prompt (its input was closed); nothing was changed.\n');
    expect(test.prompts).toHaveLength(answers.length);
    expect(await requestCounts(sandbox)).toEqual({});
    expect(storedProfile(test.configDir)?.token).toBeUndefined();
  });

  it('with no terminal it asks nothing: no user is a usage error (exit 2) and nothing is sent', async () => {
    const { sandbox, context } = fixture();
    const test = context({ globals: { baseUrl: sandbox.url }, answers: [] });
    expect(await test.run(login, prompted)).toBe(ExitCode.usage);
    expect(test.prompts).toEqual([]);
    expect(test.stderr()).toBe(
      'error: No username for login and no terminal to ask on: pass --username EMAIL or set B2BCTL_USERNAME.\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('on a terminal with CI set it asks nothing, and says CI is why', async () => {
    const { sandbox, context } = fixture();
    const test = context({
      globals: { baseUrl: sandbox.url },
      answers: [],
      tty: { stdin: true, stderr: true },
      env: { CI: 'true' },
    });
    expect(await test.run(login, prompted)).toBe(ExitCode.usage);
    expect(test.prompts).toEqual([]);
    expect(test.stderr()).toBe(
      'error: No username for login and CI is set, where no one answers a prompt: pass --username EMAIL or set B2BCTL_USERNAME.\n',
    );
  });

  it('loggedInContext leaves a profile later commands use', async () => {
    const { loggedInContext } = fixture();
    const test = await loggedInContext();
    expect(storedProfile(test.configDir)?.token).toMatch(/\S{16,}/);
  });
});
