/**
 * The base URL asked for at `b2bctl login` on a terminal (a scripted prompter): an answer b2bctl cannot use (a host
 * typed without its scheme, as copied from a browser's address bar) is asked for again with the scheme offered and
 * never saved, and a profile that already holds such a value is mended by the next login rather than stopping it.
 * The password's question names whose password it is.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as login } from '../../../src/commands/auth/login.js';
import { ExitCode } from '../../../src/base/errors.js';
import { requestCounts, sandboxPassword, sandboxUser, tokenRoute, useSandbox } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixture = useSandbox();
const terminal = { stdin: true, stderr: true, stdout: true };
const prompted = { username: undefined, passwordStdin: false, tokenStdin: false };
const question = 'Base URL of the platform API';

function storedProfile(configDir: string): Record<string, string> | undefined {
  const file = join(configDir, 'config.json');
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, Record<string, string>> }).profiles
    .default;
}

/** A config folder whose default profile holds `profile`, as an older b2bctl (or a hand) left it. */
function configHolding(profile: Record<string, string>): string {
  const folder = join(temporaryFolder('b2bctl-login-prompt-'), 'config');
  mkdirSync(folder, { mode: 0o700 });
  writeFileSync(join(folder, 'config.json'), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return folder;
}

describe('the base URL typed at the login prompt', () => {
  it('typed without its scheme, it is asked for again with http:// offered (this machine), and Enter takes it', async () => {
    const { sandbox, context } = fixture();
    const typed = sandbox.url.replace(/^http:\/\//, '');
    const test = context({ tty: terminal, answers: [typed, '', sandboxUser, sandboxPassword] });
    expect(await test.run(login, prompted)).toBe(ExitCode.ok);
    expect(test.prompts.slice(0, 2)).toEqual([
      { kind: 'input', message: question },
      { kind: 'input', message: question, default: sandbox.url },
    ]);
    expect(test.stderr().split('\n')[0]).toBe(
      `The base URL "${typed}" (from the prompt) must be an absolute URL such as https://store.example.com; it was not saved. Enter takes ${sandbox.url}, or type another.`,
    );
    expect(test.stderr()).not.toContain('from profile');
    expect(storedProfile(test.configDir)).toMatchObject({ baseUrl: sandbox.url, username: sandboxUser });
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });

  it('a host off this machine is offered with https://; nothing is saved and nothing sent until one is usable', async () => {
    const { sandbox, context } = fixture();
    const test = context({ tty: terminal, answers: ['api.mystore.com.br', 'localhost:8787', null] });
    expect(await test.run(login, prompted)).toBe(ExitCode.interrupted);
    expect(test.prompts).toEqual([
      { kind: 'input', message: question },
      { kind: 'input', message: question, default: 'https://api.mystore.com.br' },
      { kind: 'input', message: question, default: 'http://localhost:8787' },
    ]);
    expect(test.stderr()).toContain(
      'The base URL "localhost:8787" (from the prompt) must be an http:// or https:// URL; it was not saved. Enter takes http://localhost:8787, or type another.\n',
    );
    expect(storedProfile(test.configDir)).toBeUndefined();
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a profile holding a base URL without its scheme is offered the mended one at the next login, which replaces it', async () => {
    const { sandbox, context } = fixture();
    const saved = sandbox.url.replace(/^http:\/\//, '');
    const test = context({
      tty: terminal,
      configDir: configHolding({ baseUrl: saved, username: sandboxUser }),
      answers: ['', sandboxPassword],
    });
    expect(await test.run(login, prompted)).toBe(ExitCode.ok);
    expect(test.prompts).toEqual([
      { kind: 'input', message: question, default: sandbox.url },
      { kind: 'password', message: `Password of ${sandboxUser} at ${sandbox.url} (profile "default")` },
    ]);
    expect(test.stderr().split('\n')[0]).toBe(
      `The base URL saved in profile "default", "${saved}", must be an absolute URL such as https://store.example.com: give the right one, and it replaces it. Enter takes ${sandbox.url}.`,
    );
    expect(storedProfile(test.configDir)).toMatchObject({ baseUrl: sandbox.url, username: sandboxUser });
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });

  it('with no terminal, such a profile stops the login (exit 2) with the setting named, and nothing is sent', async () => {
    const { sandbox, context } = fixture();
    const saved = sandbox.url.replace(/^http:\/\//, '');
    const test = context({
      configDir: configHolding({ baseUrl: saved }),
      stdin: `${sandboxPassword}\n`,
    });
    expect(await test.run(login, { ...prompted, username: sandboxUser, passwordStdin: true })).toBe(ExitCode.usage);
    expect(test.prompts).toEqual([]);
    expect(test.stderr()).toBe(
      `error: Setting "baseUrl" must be an absolute URL such as https://store.example.com, not "${saved}" (from profile "default"; change it with b2bctl config set baseUrl VALUE). It has no scheme: did you mean ${sandbox.url}?\n`,
    );
    expect(storedProfile(test.configDir)).toEqual({ baseUrl: saved });
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('the password asked for again at a login', () => {
  it('names the user, the store and the profile it is for', async () => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext({ tty: terminal, answers: [sandboxPassword] });
    expect(await test.run(login, prompted)).toBe(ExitCode.ok);
    expect(test.prompts).toEqual([
      { kind: 'password', message: `Password of ${sandboxUser} at ${sandbox.url} (profile "default")` },
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });
});
