/**
 * Issue 4's "Done when": the nightly cron run. No terminal, the credentials only in the environment,
 * a cached token that has expired, and a generated 1,000,000-row file pushed through the queue route;
 * once the queue drains, the sandbox's stock equals the file on every SKU.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { sandboxDefaults, type SandboxOptions } from '../../../src/sandbox/options.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { systemClock } from '../../../src/base/clock.js';
import { cachedToken, collect, freshConfigDir, freshWorkDir, readConfig, spawnCli } from '../../support/cli.js';
import { filesStartingWith, maskClock } from '../../support/run-files.js';
import {
  logInProcess,
  requestCounts,
  resetCounts,
  sandboxPassword,
  sandboxUser,
  seedDirectory,
  tokenRoute,
} from '../../support/sandbox.js';
import { compareWithGenerated, queueDrained, queueRoute, writeGeneratedStock } from '../../support/stock.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const rows = 1_000_000;

let sandbox: RunningSandbox | undefined;

afterAll(async () => {
  await sandbox?.close();
  removeTemporaryFolders();
});

/**
 * A ceiling for a hung run, not a bound on a slow one: about a minute on a quiet machine (writing the file, the push,
 * the checks), but on a shared 2-core machine at load 20 writing the file alone took 2.5 min and the test missed a
 * 240 s ceiling; 15 min is ten times a quiet run with room to spare.
 */
const millionRows = { timeout: 900_000 };

it(
  'a cron run with an expired cached token pushes 1,000,000 rows through the queue route, and the sandbox ends equal to the file',
  millionRows,
  async () => {
    // The options object stays the test's, so the token lifetime can be changed once the cached token is dead.
    const options: SandboxOptions = {
      ...sandboxDefaults,
      host: '127.0.0.1',
      port: 0,
      seedDirectory,
      tokenTtlSeconds: 2,
    };
    sandbox = await startSandbox(options);
    const configDir = freshConfigDir();
    const dir = freshWorkDir();

    // Logged in an hour ago, by the platform's clock and by b2bctl's: the 2-second token expired long before the
    // run, on both sides, without the test waiting it out. Logged in by the login command in process: the
    // profile the binary's login writes, one spawn fewer.
    const anHourAgo = -3_600_000;
    sandbox.state.clock.shiftBy(anHourAgo);
    await logInProcess(sandbox, { configDir, clock: { ...systemClock, now: () => systemClock.now() + anHourAgo } });
    sandbox.state.clock.shiftBy(0);
    const expiredToken = cachedToken(configDir);
    expect(Date.parse(readConfig(configDir).profiles.default?.tokenExpiresAt ?? '')).toBeLessThan(Date.now());
    // New tokens last the platform's 12 hours: renewal in the middle of a run is token-renewal.test.ts's subject.
    options.tokenTtlSeconds = sandboxDefaults.tokenTtlSeconds;
    writeGeneratedStock(join(dir, 'big.csv'), rows);
    await resetCounts(sandbox);

    // As cron runs it: stdin, stdout and stderr are not terminals, and nothing but the environment knows the password.
    const push = spawnCli(
      ['stock', 'push', 'big.csv', '--route', 'queue'],
      configDir,
      {
        B2BCTL_USERNAME: sandboxUser,
        B2BCTL_PASSWORD: sandboxPassword,
      },
      dir,
    );
    push.stdin?.end();
    const result = collect(push);
    // A test that fails or times out stops the push it started, as Ctrl-C would: the run removes its own temporary
    // files (its verdict spool) before it exits, instead of leaving them for the file's check to blame on the test.
    onTestFinished(async () => {
      if (push.exitCode !== null || push.signalCode !== null) return;
      push.kill('SIGTERM');
      await result;
    });
    const { stdout, stderr, code } = await result;
    expect(stdout).toBe('');
    expect(code).toBe(0);

    // No progress bar: no carriage returns or escape sequences, only whole log lines.
    expect(stderr).not.toContain('\r');
    expect(stderr).not.toContain('\u001b[');
    const lines = maskClock(stderr).trimEnd().split('\n');
    const progress = lines.filter((line) => line.startsWith('progress: '));
    expect(lines.filter((line) => !line.startsWith('progress: '))).toEqual([
      'stock push: validating big.csv',
      'stock push: 1000000 records, 1000000 valid, 0 invalid (T s)',
      'stock push: sending 1000000 items in up to 5000 requests of up to 200 items through the queue route (concurrency 8)',
      'The token of profile "default" has expired; logging in again as integration@sandbox.test.',
      // 5001: the summary counts every request the run made, the login included.
      'stock push: 1000000 queued; 5001 requests, 0 retries, 0 throttled (429); T s, R items/s',
      'stock push: report: big.report-STAMP.csv',
    ]);
    // The checking pass shows its count too when it lasts over 10 s (a busy machine): those lines come first.
    const checking = progress.filter((line) => / records checked, /.test(line));
    const sending = progress.filter((line) => !checking.includes(line));
    expect(progress).toEqual([...checking, ...sending]);
    for (const line of checking) expect(line).toMatch(/^progress: \d+ records checked, \d+\/s, 0 invalid$/);
    for (const line of sending) expect(line).toMatch(/^progress: \d+ of 1000000 items \(\d{1,2}%\), \d+\/s, 0 failed$/);
    // At most one progress line per 10 s of sending, by the run's own account of its duration.
    const sendingSeconds = Number(/; (\d+\.\d) s, \d+ items\/s$/m.exec(stderr)?.[1]);
    expect(sending.length).toBeLessThanOrEqual(Math.floor(sendingSeconds / 10));

    // One login (the expired token was never sent), and the fewest requests the queue route allows.
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1, [queueRoute]: rows / 200 });
    expect(cachedToken(configDir)).not.toBe(expiredToken);

    // The report: every line once, queued, with a batch id; read as a stream.
    const [reportName] = filesStartingWith(dir, 'big.report-');
    const reported = new Uint8Array(rows + 2);
    let reportRows = 0;
    let notQueued = 0;
    for await (const line of createInterface({
      input: createReadStream(join(dir, reportName as string)),
      crlfDelay: Infinity,
    })) {
      if (line === '' || line.startsWith('line,')) continue;
      const [lineNumber, key, outcome, status, id] = line.split(',');
      reportRows++;
      const number = Number(lineNumber);
      if (
        outcome !== 'queued' ||
        status !== '202' ||
        !id ||
        reported[number] ||
        key !== `GEN-${String(number - 1).padStart(7, '0')}`
      )
        notQueued++;
      reported[number] = 1;
    }
    expect({ reportRows, notQueued }).toEqual({ reportRows: rows, notQueued: 0 });

    await queueDrained(sandbox);
    expect(await compareWithGenerated(sandbox, rows)).toEqual({
      lines: rows,
      missing: 0,
      mismatches: [],
      updates: rows,
    });
  },
);
