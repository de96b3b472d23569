/**
 * Cron logs that stand alone (issue 9): with stderr a file or pipe, every line of a real stock push starts with an
 * ISO-8601 time; `--log-format json` writes one object per line (time, level, message, fields) for log shippers,
 * the final error included; `plain` keeps the bare lines.
 */
import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxDefaults } from '../../../src/sandbox/options.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { cleanEnv, cliPath, collect, freshConfigDir, runBuiltCli } from '../../support/cli.js';
import { requireThat } from '../../support/external-tools.js';
import { onlyFile, readReport } from '../../support/run-files.js';
import { stockSummary } from '../../support/stock.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const samples = resolve(__dirname, '../../../samples');
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ ...sandboxDefaults, host: '127.0.0.1', port: 0, seedDirectory: samples });
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

/** A night's push as cron runs it: credentials in the environment, stderr not a terminal. */
async function nightlyPush(extra: string[], env: Record<string, string> = {}) {
  const folder = temporaryFolder();
  copyFileSync(join(samples, 'stock.csv'), join(folder, 'stock.csv'));
  return runBuiltCli(['stock', 'push', 'stock.csv', ...extra], {
    cwd: folder,
    env: {
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_USERNAME: sandboxDefaults.username,
      B2BCTL_PASSWORD: sandboxDefaults.password,
      ...env,
    },
  });
}

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z /;

describe('a cron run of stock push', () => {
  it('text (the default): every stderr line starts with the time, in order', async () => {
    const result = await nightlyPush([], { B2BCTL_LOG_FORMAT: '' });
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.filter((line) => !isoTime.test(line))).toEqual([]);
    const times = lines.map((line) => Date.parse(line.slice(0, 24)));
    expect(times.toSorted((a, b) => a - b)).toEqual(times);
    expect(lines.map((line) => line.slice(25))).toContain('stock push: validating stock.csv');
    expect(lines.at(-2)?.slice(25)).toMatch(/^stock push: 52 applied; \d+ requests?, 0 retries, 0 throttled \(429\);/);
    // The last line says it all: file, profile and store, counts, exit code.
    expect(result.closingLine).toMatch(
      new RegExp(
        `${isoTime.source}stock push: stock\\.csv to profile "default" \\(http://127\\.0\\.0\\.1:\\d+\\): 52 applied; exit 0$`,
      ),
    );
    expect(result.stdout).toBe('');
  });

  it('--quiet keeps exactly the closing line, timestamped', async () => {
    const result = await nightlyPush(['--quiet'], { B2BCTL_LOG_FORMAT: '' });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.closingLine).toMatch(
      new RegExp(
        `${isoTime.source}stock push: stock\\.csv to profile "default" \\(http://127\\.0\\.0\\.1:\\d+\\): 52 applied; exit 0$`,
      ),
    );
  });

  it('--quiet, a failed run: the error, then the closing line with its exit code', async () => {
    const result = await nightlyPush(['--quiet', '--retries', '0'], { B2BCTL_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(69);
    expect(result.stderr).toMatch(
      // Why first: a mistyped base URL in a crontab is named as such, however small the file.
      // The run's own login is the first request, and the line says it was the login that could not reach the store.
      /^error: Logging in as integration@sandbox\.test \(POST http:\/\/127\.0\.0\.1:9\/v1\/auth\/token\) failed: Cannot reach http:\/\/127\.0\.0\.1:9 after 1 attempt: nothing listens at 127\.0\.0\.1:9 \(ECONNREFUSED\)\. Check the base URL \(--base-url or B2BCTL_BASE_URL\) .* Stopped: no request is sent without the login, so the items it held back were not sent; when the platform is back, run: .*--resume stock\.report-\d{8}-\d{6}\.csv\n$/,
    );
    expect(result.closingLine).toBe(
      'stock push: stock.csv to profile "default" (http://127.0.0.1:9): 52 not sent; exit 69',
    );
  });

  it('--log-format json: one object per line; the summary carries its counts as fields', async () => {
    const result = await nightlyPush(['--log-format', 'json']);
    expect(result.code).toBe(0);
    const entries = result.stderr
      .trimEnd()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { time: string; level: string; message: string; fields?: Record<string, unknown> },
      );
    for (const entry of entries) {
      expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
      expect(['debug', 'info', 'warn', 'error']).toContain(entry.level);
    }
    const summary = entries.find((entry) => entry.message.startsWith('stock push: 52 applied'));
    expect(summary?.level).toBe('info');
    expect(summary?.fields).toMatchObject({
      command: 'stock push',
      outcomes: { applied: 52, failed: 0 },
      retries: 0,
      report: expect.stringMatching(/^stock\.report-\d{8}-\d{6}\.csv$/),
    });
  });

  it('--log-format json: the error that ends the run is an object too, level error, no "error:" prefix', async () => {
    const result = await nightlyPush(['--log-format', 'json'], { B2BCTL_BASE_URL: 'not a url' });
    expect(result.code).toBe(2);
    const last = JSON.parse(result.stderr.trimEnd().split('\n').at(-1) as string) as { level: string; message: string };
    expect(last.level).toBe('error');
    expect(last.message).toMatch(
      /^Setting "baseUrl" must be an absolute URL such as https:\/\/store\.example\.com, not "not a url"/,
    );
    expect(last.message).not.toMatch(/^error: /);
  });

  it('B2BCTL_LOG_FORMAT=plain: the bare lines, for a journal that adds its own times', async () => {
    const result = await nightlyPush([], { B2BCTL_LOG_FORMAT: 'plain' });
    expect(result.stderr.split('\n')[0]).toBe('stock push: validating stock.csv');
  });
});

/** A night's push with stderr, the cron log, on /dev/full (every write fails with ENOSPC, as on a full log disk). */
async function pushWithLogFull(env: Record<string, string> = {}) {
  const folder = temporaryFolder();
  copyFileSync(join(samples, 'stock.csv'), join(folder, 'stock.csv'));
  const full = openSync('/dev/full', 'w');
  try {
    const child = spawn(process.execPath, [cliPath, 'stock', 'push', 'stock.csv', '--retries', '0'], {
      cwd: folder,
      env: cleanEnv(freshConfigDir(), {
        B2BCTL_BASE_URL: sandbox.url,
        B2BCTL_USERNAME: sandboxDefaults.username,
        B2BCTL_PASSWORD: sandboxDefaults.password,
        B2BCTL_LOG_FORMAT: 'text',
        ...env,
      }),
      stdio: ['ignore', 'pipe', full],
    });
    return { folder, result: await collect(child) };
  } finally {
    closeSync(full);
  }
}

const devFull = requireThat(existsSync('/dev/full'), 'no /dev/full on this system');

describe.skipIf(devFull.missing)(`a cron log that cannot be written${devFull.note}`, () => {
  it('is given up: the run sends everything and exits as if the log were fine, its report complete', async () => {
    const before = (await stockSummary(sandbox)).applied;
    const { folder, result } = await pushWithLogFull();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const rows = readReport(onlyFile(folder, 'stock.report-'));
    expect(rows.map((row) => row.outcome)).toEqual(Array.from({ length: 52 }, () => 'applied'));
    expect((await stockSummary(sandbox)).applied).toBe(before + 52);
  });

  it('a failed night still ends with its own exit code: 69 for a store that is down, its report sending nothing again', async () => {
    const { folder, result } = await pushWithLogFull({ B2BCTL_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(69);
    // The login could not reach the store, so no item was sent: the report holds no row, and its resume sends all.
    const rows = readReport(onlyFile(folder, 'stock.report-'));
    expect(rows).toEqual([]);
  });
});
