import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SalesRep } from '../../../src/domain/sales-rep.js';
import type { SandboxOptions } from '../../../src/sandbox/options.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { asJson, freshConfigDir, runCli, tokenFlagWarning } from '../../support/cli.js';
import {
  listingRoute,
  requestCounts,
  resetCounts,
  sandboxPassword,
  sandboxUser,
  seedReps,
  startTestSandbox,
} from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

/**
 * Retries against a faulty sandbox. Ten retries per request make a give-up vanishingly unlikely
 * (0.3^11 per request at a 30 % failure rate), so the outcome does not depend on luck.
 */
const retryEnv = { B2BCTL_RETRIES: '10' };

const sandboxes: RunningSandbox[] = [];

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  removeTemporaryFolders();
});

async function faulty(options: Partial<SandboxOptions>): Promise<RunningSandbox> {
  const sandbox = await startTestSandbox(options);
  sandboxes.push(sandbox);
  return sandbox;
}

async function loginAndListAll(
  sandbox: RunningSandbox,
): Promise<{ reps: SalesRep[]; stdout: string; listingRequests: number }> {
  const configDir = freshConfigDir();
  const loginResult = await runCli(
    ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
    {
      configDir,
      env: retryEnv,
      stdin: sandboxPassword,
    },
  );
  expect(loginResult.code).toBe(0);
  await resetCounts(sandbox);
  const result = await runCli(['sellers', 'list', '--all', '--limit', '5'], { configDir, env: retryEnv });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const counts = await requestCounts(sandbox);
  return {
    reps: JSON.parse(result.stdout) as SalesRep[],
    stdout: result.stdout,
    listingRequests: counts[listingRoute] ?? 0,
  };
}

/** Pages of 5 over 64 reps: 13 pages with records, then the empty page. */
const pagesOfFive = Math.ceil(64 / 5) + 1;

// Concurrent: each test has its own sandbox and config folder, so the rate-limited one's waits for Retry-After
// (seconds of an idle worker) overlap the others.
describe.concurrent('retries through the CLI', () => {
  let failing: RunningSandbox;
  let limited: RunningSandbox;
  beforeAll(async () => {
    [failing, limited] = await Promise.all([faulty({ failRate: 0.3 }), faulty({ rateLimit: 2 })]);
  });

  it('with 30 % of requests answered 503, --all --limit 5 still returns all 64 exactly once, in seed order', async () => {
    const { reps, stdout, listingRequests } = await loginAndListAll(failing);
    expect(reps).toHaveLength(64);
    expect(new Set(reps.map((rep) => rep.id)).size).toBe(64);
    expect(stdout).toBe(asJson(seedReps));
    // Every page was asked for at least once; 503s add more requests, never fewer.
    expect(listingRequests).toBeGreaterThanOrEqual(pagesOfFive);
  });

  it('above a rate limit of 2 per second (429 with Retry-After), --all --limit 5 still returns all 64 exactly once', async () => {
    const { reps, stdout, listingRequests } = await loginAndListAll(limited);
    expect(reps).toHaveLength(64);
    expect(new Set(reps.map((rep) => rep.id)).size).toBe(64);
    expect(stdout).toBe(asJson(seedReps));
    expect(listingRequests).toBeGreaterThanOrEqual(pagesOfFive);
  });

  it('gives up with exit 69 when every request fails', async () => {
    const broken = await faulty({ failRate: 1 });
    const result = await runCli(['sellers', 'list', '--base-url', broken.url, '--token', 'abc'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_RETRIES: '1' },
    });
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${tokenFlagWarning}error: GET ${broken.url}/sellerModule/listSellers?limit=20 kept failing with HTTP 503 after 2 attempts; the platform is unavailable, try again later.\n`,
    );
    expect(await requestCounts(broken)).toEqual({ [listingRoute]: 2 });
  });

  it('never retries a 401: one request, then exit 77', async () => {
    const sandbox = await faulty({});
    const result = await runCli(['sellers', 'list', '--base-url', sandbox.url, '--token', 'abc'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_RETRIES: '5' },
    });
    // A made-up token is refused once (401) and, with no credentials, not retried: exit 77 after one request.
    expect(result.code).toBe(77);
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });
});
