/**
 * `b2bctl api --rate N` paces its requests with the shared pacer (on the test's fake clock, so nothing waits):
 * the pages of a listing start 1/N s apart; without --rate nothing waits.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { stopTestSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => ({ sandbox, configDir } = await startLoggedInSandbox()));
afterAll(() => stopTestSandbox(sandbox));

it('--rate 4 starts the 4 pages of the cashback history 250 ms apart (the short third read on to an empty one)', async () => {
  const clock = new FakeClock(Date.now());
  const result = await runCommandLine(['api', '/v1/cashback/history', '--paginate', '--rate', '4'], {
    configDir,
    clock,
  });
  expect(result.code).toBe(0);
  expect(result.stdout.trim().split('\n')).toHaveLength(130);
  expect(clock.waits).toEqual([250, 250, 250]);
});

it('without --rate, nothing waits', async () => {
  const clock = new FakeClock(Date.now());
  const result = await runCommandLine(['api', '/v1/cashback/history', '--paginate'], { configDir, clock });
  expect(result.code).toBe(0);
  expect(clock.waits).toEqual([]);
});
