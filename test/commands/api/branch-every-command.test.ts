/**
 * A branch in a route setting, for a command other than `api`: `{branch}` in a `paths.*` setting is filled from
 * the branch setting, and a 403 on that path is the one line about the head office (exit 77), whatever the command.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { requestCounts, resetCounts, stopTestSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  ({ sandbox, configDir } = await startLoggedInSandbox());
  // A store whose sales rep listing is per branch (the sandbox's branch route stands in for it).
  const set = await runCommandLine(['config', 'set', 'paths.sellers', '/v1/branches/{branch}/contracts'], {
    configDir,
  });
  if (set.code !== 0) throw new Error(`config set paths.sellers failed: ${set.stderr}`);
});
afterAll(() => stopTestSandbox(sandbox));

it('sellers list fills {branch} from the branch setting and reads the linked branch', async () => {
  await resetCounts(sandbox);
  const result = await runCommandLine(['sellers', 'list', '-o', 'json'], { configDir, env: { B2BCTL_BRANCH: '0002' } });
  expect(result.code).toBe(0);
  // The branch's short page, then the page after it, which is the listing's end.
  expect(await requestCounts(sandbox)).toEqual({ 'GET /v1/branches/:branch/contracts': 2 });
});

it('sellers list on an unlinked branch says so in one line, exit 77', async () => {
  const result = await runCommandLine(['sellers', 'list'], { configDir, env: { B2BCTL_BRANCH: '0099' } });
  expect(result.code).toBe(77);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toEqual([
    `error: Branch "0099" is not linked to this token's head office (HTTP 403 on GET ${sandbox.url}/v1/branches/0099/contracts?limit=20: Branch [0099] is not linked to the head office of this token); use a branch of this head office, or log in as that branch's head office.`,
  ]);
});

it('without a branch, the command says how to give one and sends nothing', async () => {
  await resetCounts(sandbox);
  const result = await runCommandLine(['sellers', 'list'], { configDir });
  expect(result.code).toBe(2);
  expect(result.stderr.trim()).toBe(
    'error: The paths.sellers setting names {branch}, and no branch is set: set B2BCTL_BRANCH, or run b2bctl config set branch CODE.',
  );
  expect(await requestCounts(sandbox)).toEqual({});
});
