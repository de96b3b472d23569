/**
 * `stock push` against a platform that throttles, fails, resets connections and is slow, and a push
 * that is killed, interrupted, or started twice (issue 4, "Bad input and faults").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../../src/sandbox/options.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, freshConfigDir, freshWorkDir, runCli, sleep, spawnCli } from '../../support/cli.js';
import {
  filesStartingWith,
  maskClock,
  readReport,
  reportRowCount,
  summaryCounts,
  summaryLine,
} from '../../support/run-files.js';
import { fetchToken, requestCounts, startTestSandbox } from '../../support/sandbox.js';
import {
  batchRoute,
  compareWithGenerated,
  queueDrained,
  queueRoute,
  resetSandboxStock,
  stockSummary,
  writeGeneratedStock,
} from '../../support/stock.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { countOf } from '../../../src/lib/plural.js';

const sandboxes: RunningSandbox[] = [];

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  removeTemporaryFolders();
});

async function sandboxWith(
  options: Partial<SandboxOptions>,
): Promise<{ sandbox: RunningSandbox; env: Record<string, string> }> {
  const sandbox = await startTestSandbox(options);
  sandboxes.push(sandbox);
  const token = await fetchToken(sandbox);
  await resetSandboxStock(sandbox);
  return { sandbox, env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token } };
}

/** A working folder with `count` generated rows in big.csv, and a fresh config folder. */
function workspace(count: number) {
  const dir = freshWorkDir();
  writeGeneratedStock(join(dir, 'big.csv'), count);
  return { dir, configDir: freshConfigDir() };
}

/** Every line of the report exactly once, each with one of the given outcomes. */
function expectCompleteReport(dir: string, count: number, outcome: 'applied' | 'queued'): void {
  const [reportName, ...others] = filesStartingWith(dir, 'big.report-').filter((name) => name.endsWith('.csv'));
  expect(others).toEqual([]);
  // Its run record sits beside it, for --resume.
  expect(filesStartingWith(dir, 'big.report-')).toContain((reportName as string).replace(/\.csv$/, '.meta.json'));
  const rows = readReport(join(dir, reportName as string));
  expect(rows.map((row) => Number(row.line)).toSorted((a, b) => a - b)).toEqual(
    Array.from({ length: count }, (_, index) => index + 2),
  );
  expect(rows.filter((row) => row.outcome !== outcome)).toEqual([]);
}

/** Resolves once the child has printed `text` on stderr; fails if it exits first. */
function stderrShows(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes(text)) {
        child.stderr?.off('data', onData);
        resolvePromise();
      }
    };
    child.stderr?.on('data', onData);
    child.on('exit', () =>
      reject(new Error(`exited before printing ${JSON.stringify(text)}; stderr so far:\n${seen}`)),
    );
  });
}

/** Waits until the push's report holds at least `rows` rows: polls bounded by a count, not a clock. */
async function reportReaches(dir: string, rows: number): Promise<string> {
  for (let poll = 0; poll < 3_000; poll++) {
    const [name] = filesStartingWith(dir, 'big.report-');
    if (name && reportRowCount(join(dir, name)) >= rows) return join(dir, name);
    await sleep(5);
  }
  throw new Error(`the report never reached ${rows} rows`);
}

describe('a platform that throttles: --rate-limit 5 while we ask for --rate 50', () => {
  it('finishes, applies every item once, and counts the 429s in the summary', async () => {
    const { sandbox, env } = await sandboxWith({ rateLimit: 5 });
    const { dir, configDir } = workspace(1000);
    const result = await runCli(['stock', 'push', 'big.csv', '--route', 'batch', '--rate', '50'], {
      configDir,
      cwd: dir,
      env,
    });
    expect(result.code).toBe(0);
    expect(maskClock(result.stderr).split('\n').slice(0, 3)).toEqual([
      'stock push: validating big.csv',
      'stock push: 1000 records, 1000 valid, 0 invalid (T s)',
      'stock push: sending 1000 items in up to 20 requests of up to 50 items through the batch route (concurrency 8, at most 50 requests/s)',
    ]);
    const counts = summaryCounts(result.stderr);
    expect(summaryLine(result.stderr)).toBe(
      `stock push: 1000 applied; ${countOf(counts.requests, 'requests')}, ${countOf(counts.retries, 'retries')}, ${counts.throttled} throttled (429)`,
    );
    // 20 requests at 50 per second meet a limit of 5 per second: some are refused, and each refusal is retried.
    expect(counts.throttled).toBeGreaterThan(0);
    expect(counts.requests).toBe(20 + counts.throttled);
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: counts.requests });
    expectCompleteReport(dir, 1000, 'applied');
    expect(await compareWithGenerated(sandbox, 1000)).toEqual({
      lines: 1000,
      missing: 0,
      mismatches: [],
      updates: 1000,
    });
  }, 60_000);
});

describe('a platform that fails 5 % of requests with 503 and resets 2 % of connections', () => {
  let faulty: { sandbox: RunningSandbox; env: Record<string, string> };
  beforeAll(async () => {
    faulty = await sandboxWith({ failRate: 0.05, resetRate: 0.02 });
  });
  beforeEach(async () => {
    await resetSandboxStock(faulty.sandbox);
  });

  // 200 requests meet a fault with a probability of 1 - 0.93^200 (all but 1 in a million); ten
  // retries a request make giving up vanishingly unlikely (0.07^11).
  it('batch route: every item applied exactly once, exit 0, the retries counted', async () => {
    const { dir, configDir } = workspace(2000);
    const result = await runCli(
      ['stock', 'push', 'big.csv', '--route', 'batch', '--batch-size', '10', '--retries', '10'],
      { configDir, cwd: dir, env: faulty.env },
    );
    expect(result.code).toBe(0);
    const counts = summaryCounts(result.stderr);
    expect(summaryLine(result.stderr)).toBe(
      `stock push: 2000 applied; ${countOf(counts.requests, 'requests')}, ${countOf(counts.retries, 'retries')}, 0 throttled (429)`,
    );
    expect(counts.retries).toBeGreaterThan(0);
    expect(counts.requests).toBe(200 + counts.retries);
    expect(await requestCounts(faulty.sandbox)).toEqual({ [batchRoute]: counts.requests });
    expectCompleteReport(dir, 2000, 'applied');
    expect(await compareWithGenerated(faulty.sandbox, 2000)).toEqual({
      lines: 2000,
      missing: 0,
      mismatches: [],
      updates: 2000,
    });
  }, 60_000);

  it('queue route: every batch accepted exactly once, and once drained every item applied once', async () => {
    const { dir, configDir } = workspace(2000);
    const result = await runCli(
      ['stock', 'push', 'big.csv', '--route', 'queue', '--batch-size', '10', '--retries', '10'],
      { configDir, cwd: dir, env: faulty.env },
    );
    expect(result.code).toBe(0);
    const counts = summaryCounts(result.stderr);
    expect(summaryLine(result.stderr)).toBe(
      `stock push: 2000 queued; ${countOf(counts.requests, 'requests')}, ${countOf(counts.retries, 'retries')}, 0 throttled (429)`,
    );
    expect(counts.retries).toBeGreaterThan(0);
    expectCompleteReport(dir, 2000, 'queued');
    await queueDrained(faulty.sandbox);
    // A 503 or a reset comes before the body is read, so no retried batch was queued twice.
    expect((await stockSummary(faulty.sandbox)).batches).toBe(200);
    expect(await compareWithGenerated(faulty.sandbox, 2000)).toEqual({
      lines: 2000,
      missing: 0,
      mismatches: [],
      updates: 2000,
    });
  }, 60_000);
});

describe('a push that is stopped', () => {
  // 40 requests of 50, one at a time, each answered after 40 ms: about two seconds of pushing.
  const slowPush = ['stock', 'push', 'big.csv', '--route', 'batch', '--concurrency', '1'];
  let slow: { sandbox: RunningSandbox; env: Record<string, string> };
  beforeAll(async () => {
    slow = await sandboxWith({ latencyMs: 40 });
  });
  beforeEach(async () => {
    await resetSandboxStock(slow.sandbox);
  });

  it('SIGKILL half-way, then --resume REPORT: the rest is sent, every item applied, the report complete', async () => {
    const { dir, configDir } = workspace(2000);
    const child = spawnCli(slowPush, configDir, slow.env, dir);
    const finished = collect(child);
    const reportPath = await reportReaches(dir, 1000);
    child.kill('SIGKILL');
    const killed = await finished;
    expect(killed.signal).toBe('SIGKILL');
    const doneBeforeKill = reportRowCount(reportPath);
    expect(doneBeforeKill).toBeGreaterThanOrEqual(1000);
    expect(doneBeforeKill).toBeLessThan(2000);
    expect(doneBeforeKill % 50).toBe(0);
    // The killed run's lock is still there; the resumed run takes it over.
    const lockPath = join(configDir, 'locks', 'default.stock-push.lock');
    expect(existsSync(lockPath)).toBe(true);

    await resetCountsOf(slow.sandbox);
    const resumed = await runCli([...slowPush, '--resume', reportPath], { configDir, cwd: dir, env: slow.env });
    expect(resumed.code).toBe(0);
    const lines = maskClock(resumed.stderr, dir).split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^warning: taking over the stale lock ${escape(lockPath)} left by PID ${child.pid} \\(b2bctl stock push \\(profile default\\), [0-9TZ:.-]+\\), which is no longer running\\.$`,
      ),
    );
    expect(lines.slice(1)).toEqual([
      'stock push: validating big.csv',
      'stock push: 2000 records, 2000 valid, 0 invalid (T s)',
      `stock push: sending ${2000 - doneBeforeKill} items (${doneBeforeKill} already done by the resumed run) in up to ${Math.ceil((2000 - doneBeforeKill) / 50)} requests of up to 50 items through the batch route (concurrency 1)`,
      `stock push: ${2000 - doneBeforeKill} applied; ${(2000 - doneBeforeKill) / 50} requests, 0 retries, 0 throttled (429); T s, R items/s`,
      'stock push: report: DIR/big.report-STAMP.csv',
      '',
    ]);
    expect(await requestCounts(slow.sandbox)).toEqual({ [batchRoute]: (2000 - doneBeforeKill) / 50 });
    expect(existsSync(lockPath)).toBe(false);
    expectCompleteReport(dir, 2000, 'applied');
    const comparison = await compareWithGenerated(slow.sandbox, 2000);
    expect({ ...comparison, updates: undefined }).toEqual({
      lines: 2000,
      missing: 0,
      mismatches: [],
      updates: undefined,
    });
    // Only the batch in flight at the kill (one, at concurrency 1) can have been applied twice.
    expect(comparison.updates - 2000).toBeLessThanOrEqual(50);
  });

  // SIGHUP as SIGTERM: a run started by hand over ssh gets it when the connection drops (it ended the run at once,
  // silently, the last request's items applied but not in the report).
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s: the request in flight finishes, exit 75 with the resume command, which completes the push',
    async (signal) => {
      const { dir, configDir } = workspace(2000);
      const child = spawnCli(slowPush, configDir, slow.env, dir);
      const finished = collect(child);
      await reportReaches(dir, 500);
      child.kill(signal);
      const stopped = await finished;
      expect(stopped.code).toBe(75);
      const reportName = filesStartingWith(dir, 'big.report-')[0] as string;
      const doneBeforeStop = reportRowCount(join(dir, reportName));
      expect(doneBeforeStop).toBeLessThan(2000);
      const lines = maskClock(stopped.stderr).split('\n');
      expect(lines.slice(-3)).toEqual([
        'stock push: report: big.report-STAMP.csv',
        `error: Interrupted; the requests in flight were finished and reported. Resume with: B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push big.csv --profile default --base-url ${slow.sandbox.url} --concurrency 1 --route batch --resume big.report-STAMP.csv`,
        '',
      ]);
      expect(lines.at(-4)).toBe(
        `stock push: ${doneBeforeStop} applied, ${2000 - doneBeforeStop} not sent; ${doneBeforeStop / 50} requests, 0 retries, 0 throttled (429); T s, R items/s`,
      );
      // Interrupted cleanly: the lock is released, and what the report says is exactly what the platform applied.
      expect(existsSync(join(configDir, 'locks', 'default.stock-push.lock'))).toBe(false);
      expect((await stockSummary(slow.sandbox)).applied).toBe(doneBeforeStop);

      const resumeCommand =
        /Resume with: B2BCTL_CONFIG_DIR=\S+ b2bctl (.*)$/m.exec(stopped.stderr)?.[1]?.split(' ') ?? [];
      const resumed = await runCli(resumeCommand, { configDir, cwd: dir, env: slow.env });
      expect(maskClock(resumed.stderr)).toContain(
        `stock push: ${2000 - doneBeforeStop} applied; ${(2000 - doneBeforeStop) / 50} requests, 0 retries, 0 throttled (429); T s, R items/s\n`,
      );
      expect(resumed.code).toBe(0);
      expectCompleteReport(dir, 2000, 'applied');
      expect(await compareWithGenerated(slow.sandbox, 2000)).toEqual({
        lines: 2000,
        missing: 0,
        mismatches: [],
        updates: 2000,
      });
    },
  );
});

describe('the per-profile lock', () => {
  let slow: { sandbox: RunningSandbox; env: Record<string, string> };
  beforeAll(async () => {
    slow = await sandboxWith({ latencyMs: 40 });
  });
  beforeEach(async () => {
    await resetSandboxStock(slow.sandbox);
  });

  it("a second push for the same profile while the first runs exits 75 naming the holder's PID, and sends nothing", async () => {
    const { dir, configDir } = workspace(2000);
    writeFileSync(join(dir, 'other.csv'), 'sku,quantity\nCIM-CP2-50KG,9\n');
    const first = spawnCli(
      ['stock', 'push', 'big.csv', '--route', 'batch', '--concurrency', '1'],
      configDir,
      slow.env,
      dir,
    );
    const firstFinished = collect(first);
    // The lock is taken before validation starts.
    await stderrShows(first, 'stock push: validating big.csv');
    const second = await runCli(['stock', 'push', 'other.csv', '--route', 'batch'], {
      configDir,
      cwd: dir,
      env: slow.env,
    });
    const lockPath = join(configDir, 'locks', 'default.stock-push.lock');
    expect(second.stderr.replace(/since [0-9TZ:.-]+\)/, 'since T)')).toBe(
      `error: Another "b2bctl stock push (profile default)" is running (PID ${first.pid}, since T); this run stops so the two do not overlap. If PID ${first.pid} is not b2bctl, remove ${lockPath}.\n`,
    );
    expect(second.code).toBe(75);
    expect((await firstFinished).code).toBe(0);
    expect(filesStartingWith(dir, 'other.report-')).toEqual([]);
    expect(await compareWithGenerated(slow.sandbox, 2000)).toEqual({
      lines: 2000,
      missing: 0,
      mismatches: [],
      updates: 2000,
    });
    expect(existsSync(lockPath)).toBe(false);
  });

  // Before the lock was written whole (src/bulk/lock.ts), a run could read it empty, take it for
  // stale and run alongside: about one round in thirty of six pushes started together.
  it('pushes started at the same moment: exactly one runs, each other one names its PID', async () => {
    // 60 requests one at a time, 40 ms each: the winner holds the lock well past the others' start.
    const { dir, configDir } = workspace(3000);
    const children = Array.from({ length: 6 }, () =>
      spawnCli(['stock', 'push', 'big.csv', '--route', 'batch', '--concurrency', '1'], configDir, slow.env, dir),
    );
    const results = await Promise.all(children.map((child) => collect(child)));
    const winners = results.filter((result) => result.code === 0);
    expect(winners).toHaveLength(1);
    const winnerPid = children[results.indexOf(winners[0] as (typeof results)[number])]?.pid;
    expect(winners[0]?.stderr).not.toContain('warning');
    const lockPath = join(configDir, 'locks', 'default.stock-push.lock');
    for (const loser of results.filter((result) => result.code !== 0)) {
      expect(loser.code).toBe(75);
      expect(loser.stderr.replace(/since [0-9TZ:.-]+\)/, 'since T)')).toBe(
        `error: Another "b2bctl stock push (profile default)" is running (PID ${winnerPid}, since T); this run stops so the two do not overlap. If PID ${winnerPid} is not b2bctl, remove ${lockPath}.\n`,
      );
    }
    expect(await compareWithGenerated(slow.sandbox, 3000)).toEqual({
      lines: 3000,
      missing: 0,
      mismatches: [],
      updates: 3000,
    });
  });

  it('another profile has its own lock: held for "default", a push for "night" runs', async () => {
    const { dir, configDir } = workspace(100);
    expect(
      (await runCli(['config', 'set', 'baseUrl', slow.sandbox.url, '--profile', 'night'], { configDir })).code,
    ).toBe(0);
    // Held by a live process (this test's own), so the holder is running for as long as the test needs.
    const lockPath = join(configDir, 'locks', 'default.stock-push.lock');
    mkdirSync(join(configDir, 'locks'), { recursive: true });
    writeFileSync(
      lockPath,
      JSON.stringify({
        pid: process.pid,
        command: 'b2bctl stock push (profile default)',
        startedAt: '2026-11-21T05:00:00.000Z',
      }),
    );
    const blocked = await runCli(['stock', 'push', 'big.csv', '--route', 'batch'], {
      configDir,
      cwd: dir,
      env: slow.env,
    });
    expect(blocked.stderr).toBe(
      `error: Another "b2bctl stock push (profile default)" is running (PID ${process.pid}, since 2026-11-21T05:00:00.000Z); this run stops so the two do not overlap. If PID ${process.pid} is not b2bctl, remove ${lockPath}.\n`,
    );
    expect(blocked.code).toBe(75);
    expect(await requestCounts(slow.sandbox)).toEqual({});
    const night = await runCli(['stock', 'push', 'big.csv', '--route', 'batch', '--profile', 'night'], {
      configDir,
      cwd: dir,
      env: slow.env,
    });
    expect(night.stderr).not.toContain('error:');
    expect(night.code).toBe(0);
    expect(await requestCounts(slow.sandbox)).toEqual({ [batchRoute]: 2 });
    // The other run's lock is left alone.
    expect(existsSync(lockPath)).toBe(true);
    expect(existsSync(join(configDir, 'locks', 'night.stock-push.lock'))).toBe(false);
  });

  it('a stale lock left by a dead process is taken over with a warning', async () => {
    const { dir, configDir } = workspace(100);
    const deadPid = await pidOfFinishedProcess();
    const lockPath = join(configDir, 'locks', 'default.stock-push.lock');
    mkdirSync(join(configDir, 'locks'), { recursive: true });
    writeFileSync(
      lockPath,
      JSON.stringify({
        pid: deadPid,
        command: 'b2bctl stock push (profile default)',
        startedAt: '2026-11-21T05:00:00.000Z',
      }),
    );
    const result = await runCli(['stock', 'push', 'big.csv', '--route', 'queue'], {
      configDir,
      cwd: dir,
      env: slow.env,
    });
    expect(maskClock(result.stderr)).toBe(
      [
        `warning: taking over the stale lock ${lockPath} left by PID ${deadPid} (b2bctl stock push (profile default), 2026-11-21T05:00:00.000Z), which is no longer running.`,
        'stock push: validating big.csv',
        'stock push: 100 records, 100 valid, 0 invalid (T s)',
        'stock push: sending 100 items in up to 1 request of up to 200 items through the queue route (concurrency 8)',
        'stock push: 100 queued; 1 request, 0 retries, 0 throttled (429); T s, R items/s',
        'stock push: report: big.report-STAMP.csv',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
    expect(existsSync(lockPath)).toBe(false);
    expect(await requestCounts(slow.sandbox)).toEqual({ [queueRoute]: 1 });
    await queueDrained(slow.sandbox);
    expect(await compareWithGenerated(slow.sandbox, 100)).toEqual({
      lines: 100,
      missing: 0,
      mismatches: [],
      updates: 100,
    });
  });
});

async function resetCountsOf(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
}

/** The PID of a process that has exited (and whose PID no process has taken since, in practice). */
async function pidOfFinishedProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolvePromise) => child.on('exit', resolvePromise));
  return child.pid as number;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
