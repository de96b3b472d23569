/**
 * `sellers list` as a process: exit codes and what reaches stdout and stderr through pipes. The listing rules and
 * the output formats are tested in process (test/commands/sellers/list.test.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { asJson, freshConfigDir, login, runCli } from '../../support/cli.js';
import { listingRoute, requestCounts, resetCounts, seedReps, useFileSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useFileSandbox((started) => (sandbox = started));
beforeEach(async () => {
  configDir = freshConfigDir();
  await login(sandbox, configDir);
  await resetCounts(sandbox);
});

const list = (...args: string[]) => runCli(['sellers', 'list', ...args], { configDir });

describe('sellers list (built CLI)', () => {
  it('returns the platform default page of 20, as json when piped; stderr says there may be more', async () => {
    const result = await list();
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('First 20 sales reps; --all for every page.\n');
    expect(result.stdout).toBe(asJson(seedReps.slice(0, 20)));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('ndjson is one compact object per line', async () => {
    const result = await list('-o', 'ndjson', '--all', '--limit', '25');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(seedReps.map((rep) => `${JSON.stringify(rep)}\n`).join(''));
  });

  it('an empty table prints the header line only, and one note on stderr', async () => {
    const result = await list('--email', 'nobody-at-all', '-o', 'table');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('EMAIL  DOCUMENT  CODE  PROFILE  RESTRICTED  PERMISSIONS\n');
    expect(result.stderr).toBe('No sales reps found with an e-mail containing "nobody-at-all".\n');
  });
});
