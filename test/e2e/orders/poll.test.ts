import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { systemClock } from '../../../src/base/clock.js';
import { cleanEnv, cliPath, freshConfigDir, freshWorkDir, runCli, sleep, spawnCli } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { credentialsEnv, logInProcess, requestCounts, resetCounts, seedDirectory } from '../../support/sandbox.js';
import { sandboxDefaults, type SandboxOptions } from '../../../src/sandbox/options.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;

afterAll(removeTemporaryFolders);
afterEach(async () => sandbox?.close());

async function setUp(faults: Partial<SandboxOptions> = {}): Promise<void> {
  const options: SandboxOptions = { ...sandboxDefaults, host: '127.0.0.1', port: 0, seedDirectory };
  sandbox = await startSandbox(options);
  // Logged in and configured by the commands run in process: the profile the binary writes, two spawns fewer.
  configDir = await logInProcess(sandbox, { configDir: freshConfigDir(), clock: systemClock });
  // No lag: a run's upper bound is its start, so back-to-back runs in a test see the changes between them.
  expect((await runCommandLine(['config', 'set', 'orders.lag', '0'], { configDir })).code).toBe(0);
  // The faults once logged in (the sandbox reads its options at each request): what these tests try is the poll. A
  // 503 to one in five requests beat the login's 4 attempts once in a full run.
  Object.assign(options, faults);
}

/**
 * A ceiling for a test of several polls over the seeded orders, each a spawned binary: about 20 s on a quiet
 * machine, ten times that with two CPU-bound processes per core beside it. Only a hung run reaches it.
 */
const severalPolls = { timeout: 300_000 };

/**
 * Waits until `written()` says enough is there, for a child that is still running: one that ended first fails the
 * test at once (it would never write more); the child is killed when the test ends, passed, failed or timed out.
 */
async function whileRunning(child: ChildProcess, written: () => boolean, what: string): Promise<void> {
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  while (!written()) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the poll ended (${child.exitCode ?? child.signalCode}) before ${what}`);
    await sleep(20);
  }
}

const poll = (args: string[] = [], env: Record<string, string> = {}) =>
  runCli(['orders', 'poll', ...args], { configDir, env });

/** `id@lastUpdated` of every line of an NDJSON output. */
function versions(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const order = JSON.parse(line) as { id: number; lastUpdated: string };
      return `${order.id}@${order.lastUpdated}`;
    });
}

function currentVersions(): string[] {
  return [...sandbox.state.orders.orders.values()].map((order) => `${order.id}@${order.lastUpdated}`).toSorted();
}

function expectNoDuplicates(keys: string[]): void {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
}

// Bad input (exit 2, nothing sent) is checked in process: test/commands/orders/poll-bad-input.test.ts.

describe('orders poll against a changing platform', () => {
  it('emits every version once across runs while every listing request churns orders', severalPolls, async () => {
    await setUp();
    sandbox.state.orders.churnProbability = 1;
    const emitted: string[] = versions((await poll(['--since', '31d'])).stdout);
    for (let run = 0; run < 5; run++) {
      await sleep(5);
      const result = await poll();
      expect(result.code).toBe(0);
      emitted.push(...versions(result.stdout));
    }
    sandbox.state.orders.churnProbability = 0;
    await sleep(5);
    emitted.push(...versions((await poll()).stdout));
    expectNoDuplicates(emitted);
    // Every order's current version was emitted (older versions were emitted when they were current).
    const missing = currentVersions().filter((key) => !emitted.includes(key));
    expect(missing).toEqual([]);
  });

  it('catches an update stamped just behind the cursor (late commit), once', async () => {
    await setUp();
    await poll(['--since', '31d']);
    const cursor = JSON.parse(readFileSync(join(configDir, 'cursors', 'default.orders-poll.json'), 'utf8')) as {
      cursor: string;
    };
    // The platform stamps the next update a minute in the past: behind the cursor, inside the look-back (5 min).
    sandbox.state.orders.lastUpdatedSkewMs = 60_000;
    const touched = sandbox.state.orders.update(7, sandbox.state.clock.now())!;
    expect(Date.parse(touched.lastUpdated)).toBeLessThan(Date.parse(cursor.cursor));
    await sleep(5);
    const next = versions((await poll()).stdout);
    expect(next).toContain(`7@${touched.lastUpdated}`);
    await sleep(5);
    expect(versions((await poll()).stdout)).not.toContain(`7@${touched.lastUpdated}`);
  });

  it('completes through 503s, resets and 429s with nothing missed or twice', severalPolls, async () => {
    await setUp({ failRate: 0.15, resetRate: 0.05, rateLimit: 40 });
    // One attempt in five fails: with the default 3 retries, one request in ~600 fails all four attempts and
    // the run rightly ends 69 (it did in 2 of ~40 runs on a loaded machine). This test is about what a run that
    // gets through emits, so it gives each request more attempts.
    const result = await poll(['--since', '31d', '--concurrency', '6'], { B2BCTL_RETRIES: '8' });
    expect(result.code).toBe(0);
    const emitted = versions(result.stdout);
    expectNoDuplicates(emitted);
    expect(emitted.toSorted()).toEqual(currentVersions());
  });

  it('logs in again once when the token is revoked in the middle of the scan', async () => {
    await setUp();
    let listings = 0;
    const churn = sandbox.state.orders.churnBeforeListing.bind(sandbox.state.orders);
    sandbox.state.orders.churnBeforeListing = (now: number) => {
      if (++listings === 3) sandbox.state.tokens.clear();
      churn(now);
    };
    await resetCounts(sandbox);
    const result = await poll(['--since', '31d', '--concurrency', '1'], credentialsEnv(sandbox));
    expect(result.code).toBe(0);
    expect(versions(result.stdout).toSorted()).toEqual(currentVersions());
    expect((await requestCounts(sandbox))['POST /v1/auth/token']).toBe(1);
  });
});

describe('orders poll and the reader or the process going away', () => {
  it('loses nothing when the reader closes the pipe after 3 lines', async () => {
    await setUp();
    await poll(['--since', '31d']);
    const created = Array.from({ length: 400 }, () => sandbox.state.orders.create(sandbox.state.clock.now()));
    await sleep(5);
    const head = await new Promise<string>((resolve, reject) => {
      const child = spawn('sh', ['-c', `"${process.execPath}" "${cliPath}" orders poll | head -3`], {
        env: cleanEnv(configDir),
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    expect(versions(head)).toHaveLength(3);
    const second = await poll();
    expect(second.code).toBe(0);
    const seen = new Set([...versions(head), ...versions(second.stdout)]);
    expect(created.filter((order) => !seen.has(`${order.id}@${order.lastUpdated}`))).toEqual([]);
  });

  it(
    'leaves no half-written file after SIGKILL during --out-dir, and the next run misses nothing',
    severalPolls,
    async () => {
      await setUp({ latencyMs: 15 });
      const outDir = join(freshWorkDir(), 'orders');
      mkdirSync(outDir);
      const child = spawnCli(['orders', 'poll', '--since', '31d', '--detail', '--out-dir', outDir], configDir);
      await whileRunning(
        child,
        () => existsSync(outDir) && readdirSync(outDir).filter((name) => name.endsWith('.json')).length >= 20,
        '20 orders were written',
      );
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('close', resolve));
      const again = await runCli(['orders', 'poll', '--detail', '--out-dir', outDir], { configDir });
      expect(again.code).toBe(0);
      const names = readdirSync(outDir);
      expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
      const orders = names.map(
        (name) => JSON.parse(readFileSync(join(outDir, name), 'utf8')) as { id: number; lastUpdated: string },
      );
      const written = new Set(orders.map((order) => `${order.id}@${order.lastUpdated}`));
      expect(currentVersions().filter((key) => !written.has(key))).toEqual([]);
    },
  );
});

describe('orders poll into a file', () => {
  it(
    'moves the cursor window by window when stdout is a file, so a SIGKILL costs only re-emits',
    severalPolls,
    async () => {
      await setUp({ latencyMs: 15 });
      const file = join(freshWorkDir(), 'orders.ndjson');
      const child = spawn(
        'sh',
        ['-c', `exec "${process.execPath}" "${cliPath}" orders poll --since 31d --detail --concurrency 2 > "${file}"`],
        { env: cleanEnv(configDir) },
      );
      await whileRunning(
        child,
        () => existsSync(file) && readFileSync(file, 'utf8').split('\n').length >= 40,
        '40 lines were written',
      );
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('close', resolve));
      const cursorFile = join(configDir, 'cursors', 'default.orders-poll.json');
      expect(existsSync(cursorFile)).toBe(true);
      // Whole lines only: a torn last line is the one the kill cut.
      const first = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.endsWith('}'));
      const second = await poll();
      expect(second.code).toBe(0);
      const seen = new Set([...versions(first.join('\n')), ...versions(second.stdout)]);
      expect(currentVersions().filter((key) => !seen.has(key))).toEqual([]);
    },
  );
});

describe('orders poll with --since left in the crontab line', () => {
  it('uses --since for the first run only, then the cursor: nothing emitted twice', async () => {
    await setUp();
    const first = await poll(['--since', '31d']);
    await sleep(5);
    const second = await poll(['--since', '31d']);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('--since counts only for a first run');
    expect(versions(second.stdout).filter((key) => versions(first.stdout).includes(key))).toEqual([]);
  });
});
