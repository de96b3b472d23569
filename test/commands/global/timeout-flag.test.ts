/**
 * `--timeout` (api and every bulk command) is read by the http.timeout setting's own parser: it takes the units
 * B2BCTL_TIMEOUT and `config set http.timeout` take, a bare number stays milliseconds, and it refuses what the
 * setting refuses (under 100 ms), in the setting's words, before anything is sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir } from '../../support/cli.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { requestCounts, resetCounts, stopTestSandbox } from '../../support/sandbox.js';

const latencyMs = 400;
let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  ({ sandbox, configDir } = await startLoggedInSandbox({ latencyMs }));
});
beforeEach(() => resetCounts(sandbox));
afterAll(() => stopTestSandbox(sandbox));

const tooShort =
  "error: option '--timeout <time>' argument '1' is invalid. expected a number of milliseconds of at least 100 (or a time such as 30s, 5m or 1h).";

describe('--timeout takes what the http.timeout setting takes', () => {
  it('api --timeout 200ms times out as B2BCTL_TIMEOUT=200ms does, and --timeout 2s waits for the answer', async () => {
    const args = ['api', '/v1/contracts', '--retries', '0'];
    const fromFlag = await runCommandLine([...args, '--timeout', '200ms'], { configDir });
    const fromEnv = await runCommandLine(args, { configDir, env: { B2BCTL_TIMEOUT: '200ms' } });
    expect(fromFlag.code).toBe(69);
    expect(fromFlag.stderr).toMatch(/\(timed out\)/);
    expect(fromFlag.stderr).toBe(fromEnv.stderr);
    const patient = await runCommandLine([...args, '--timeout', '2s'], { configDir });
    expect(patient.stderr).toBe('');
    expect(patient.code).toBe(0);
  });

  it('a bare number is still milliseconds: api --timeout 200 times out against a 400 ms answer', async () => {
    const result = await runCommandLine(['api', '/v1/contracts', '--retries', '0', '--timeout', '200'], { configDir });
    expect(result.code).toBe(69);
    expect(result.stderr).toMatch(/\(timed out\)/);
  });

  it('stock push --dry-run --timeout 30s is taken', async () => {
    const work = freshWorkDir();
    writeFileSync(join(work, 'stock.csv'), 'sku,quantity\nGEN-0000001,5\n');
    const result = await runCommandLine(['stock', 'push', 'stock.csv', '--timeout', '30s', '--dry-run'], {
      configDir,
      cwd: work,
    });
    expect(result.stderr).not.toMatch(/error/);
    expect(result.code).toBe(0);
  });

  it.each([
    [['api', '/v1/contracts']],
    [['stock', 'push', 'stock.csv']],
    [['customer', 'status', '12345678909', 'inactive']],
  ])('%j --timeout 1 (1 ms) is refused as config set http.timeout 1 is: exit 2, nothing sent', async (args) => {
    const result = await runCommandLine([...args, '--timeout', '1'], { configDir, cwd: freshWorkDir() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(tooShort);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--timeout 1s5 is refused in the words config set uses for it', async () => {
    const setting = await runCommandLine(['config', 'set', 'http.timeout', '1s5'], { configDir });
    const flag = await runCommandLine(['api', '/v1/contracts', '--timeout', '1s5'], { configDir });
    expect(setting.stderr).toBe(
      'error: "http.timeout" must be a number of milliseconds of at least 100 (or a time such as 30s, 5m or 1h), not "1s5"\n',
    );
    expect(flag.code).toBe(2);
    expect(flag.stderr.split('\n')[0]).toBe(
      "error: option '--timeout <time>' argument '1s5' is invalid. expected a number of milliseconds of at least 100 (or a time such as 30s, 5m or 1h).",
    );
  });
});
