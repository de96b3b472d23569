/**
 * A token route that answers 400 refused the request, most often its shape (the style of auth.style, the route of
 * paths.token), which retyping a correct password does not fix: the line says what to check first and carries the
 * platform's own words, never the password. The gateway dialect's token route takes a form only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialectNamed } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requestCounts, resetCounts, sandboxPassword, sandboxUser, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ dialect: dialectNamed('gateway') });
});
beforeEach(() => resetCounts(sandbox));
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

/** A config folder whose profile "gw" points at the gateway's token route, in the JSON style it refuses. */
async function gatewayProfile(): Promise<string> {
  const configDir = freshConfigDir();
  const set = await runCommandLine(['config', 'set', '--profile', 'gw', 'paths.token', '/oauth/token'], { configDir });
  expect(set.code).toBe(0);
  return configDir;
}

const loginArgs = ['login', '--profile', 'gw', '--username', sandboxUser, '--password-stdin'];

describe('login answered 400', () => {
  it('names auth.style and paths.token and shows the platform message, not "check the password"; exit 77', async () => {
    const configDir = await gatewayProfile();
    const result = await runCommandLine([...loginArgs, '--base-url', sandbox.url], {
      configDir,
      stdin: `${sandboxPassword}\n`,
    });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: The token route POST ${sandbox.url}/oauth/token refused the login request for ${sandboxUser} (HTTP 400: Send {"username","password"} as JSON, a form, or Basic credentials): a 400 is most often the request's shape rather than the password. Check auth.style, the style of the request (json, form or basic; this one was json), and paths.token; if both are right, the username and password.\n`,
    );
    expect(result.stderr).not.toContain(sandboxPassword);
    expect(await requestCounts(sandbox)).toEqual({ 'POST /oauth/token': 1 });

    // What the line says to change is enough.
    await runCommandLine(['config', 'set', '--profile', 'gw', 'auth.style', 'form'], { configDir });
    const fixed = await runCommandLine([...loginArgs, '--base-url', sandbox.url], {
      configDir,
      stdin: `${sandboxPassword}\n`,
    });
    expect(fixed.stderr).toMatch(/^Logged in to /);
    expect(fixed.code).toBe(0);
  });

  it('a 401 still says to check the username and password', async () => {
    const configDir = await gatewayProfile();
    await runCommandLine(['config', 'set', '--profile', 'gw', 'auth.style', 'form'], { configDir });
    const result = await runCommandLine([...loginArgs, '--base-url', sandbox.url], {
      configDir,
      stdin: 'not-the-password\n',
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `error: Login refused for ${sandboxUser} at ${sandbox.url} (HTTP 401): check the username and password.\n`,
    );
  });

  it('an automatic login answered 400 says so too, after what it was for', async () => {
    const configDir = await gatewayProfile();
    const result = await runCommandLine(['sellers', 'list', '-q', '--profile', 'gw'], {
      configDir,
      env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: sandboxPassword },
    });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: No token is cached for profile "gw" and logging in as ${sandboxUser} at ${sandbox.url} with the password in B2BCTL_PASSWORD was refused (HTTP 400: Send {"username","password"} as JSON, a form, or Basic credentials): a 400 is most often the request's shape rather than the password. Check auth.style, the style of the request (json, form or basic; this one was json), and paths.token; if both are right, check B2BCTL_PASSWORD, or run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile gw --base-url ${sandbox.url}.\n`,
    );
    expect(result.stderr).not.toContain(sandboxPassword);
    expect(await requestCounts(sandbox)).toEqual({ 'POST /oauth/token': 1 });
  });
});
