/**
 * A run some of whose records failed only because the platform was unavailable (a 503 after every retry) ends with
 * exit 1, and its error line, alone under --quiet, names the report and the errors file and gives the resume command
 * that sends them again. It printed neither: a cron log of 14 kept reports did not say which, nor what to run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { scheduleFault } from '../../support/api-sandbox.js';
import { runCommandLine } from '../../support/command-line.js';
import { readReport } from '../../support/run-files.js';
import { requestCounts, resetCounts, useSandboxWithToken } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
useSandboxWithToken((ready) => ({ sandbox, env } = ready));

const batchRoute = 'PUT /v1/stock/batch';

/** `count` known SKUs, then `unknown` ones the store rejects. */
function stockFile(folder: string, count: number, unknown = 0): void {
  const known = Array.from({ length: count }, (_, index) => `GEN-${String(index + 1).padStart(7, '0')};${index}`);
  const rejected = Array.from({ length: unknown }, (_, index) => `NAO-EXISTE-${index + 1};1`);
  writeFileSync(join(folder, 'stock.csv'), ['sku;quantity', ...known, ...rejected, ''].join('\n'));
}

describe('records that failed on an unavailable platform', () => {
  it('the error line alone (--quiet) names the files and the resume command, which sends exactly them', async () => {
    const folder = temporaryFolder('b2bctl-unavailable-');
    const configDir = join(folder, 'config');
    stockFile(folder, 30);
    await resetCounts(sandbox);
    // The second of three requests is answered 503; --retries 0 spends no retry on it.
    await scheduleFault(sandbox, '/v1/stock/batch', 2, 503);
    const flags = ['--route', 'batch', '--batch-size', '10', '--concurrency', '1', '--retries', '0'];
    const night = await runCommandLine(['stock', 'push', 'stock.csv', ...flags, '--quiet'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(night.code).toBe(1);
    const report = /--resume (\S+)$/m.exec(night.stderr)?.[1] ?? '';
    expect(report).toMatch(/^stock\.report-\d{8}-\d{6}\.csv$/);
    const errors = report.replace('.report-', '.errors-');
    const resumeLine = `B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push stock.csv --profile default --base-url ${sandbox.url} --concurrency 1 --retries 0 --route batch --batch-size 10 --resume ${report}`;
    expect(night.stderr).toBe(
      `error: 10 items did not go through (10 failed); the report ${report} and the errors file ${errors} say why. 10 items failed because the platform was unavailable, and may go through when sent again: run ${resumeLine}\n`,
    );

    // Pasted as printed: the ten failed items, in one request, and nothing else.
    await resetCounts(sandbox);
    const resumed = await runCommandLine(resumeLine.replace(/^.* b2bctl /, '').split(' '), {
      configDir,
      cwd: folder,
      env,
    });
    expect(resumed.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 1 });
    expect(readReport(join(folder, report)).filter((row) => row.outcome === 'applied')).toHaveLength(30);
  });

  it('says the resume also sends the rejected records again, as they are', async () => {
    const folder = temporaryFolder('b2bctl-unavailable-rejected-');
    stockFile(folder, 20, 2);
    await scheduleFault(sandbox, '/v1/stock/batch', 1, 503);
    await resetCounts(sandbox);
    const night = await runCommandLine(
      ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '10', '--concurrency', '1', '--retries', '0'],
      { configDir: join(folder, 'config'), cwd: folder, env },
    );
    expect(night.code).toBe(1);
    // The 10 have nothing to fix, and the resume sends them again: the errors file says which are which, and offers
    // no feed-back command of its own beside the resume (both run, the 10 would go twice).
    expect(night.stderr).toMatch(
      /^stock push: errors: stock\.errors-\d{8}-\d{6}\.csv \(12 records: 2 to fix, 10 that failed because the platform was unavailable, which the resume command below sends again\)\nstock push: once the resume command below has finished the run, fix and feed back the errors file that run writes: it holds every record still to fix\n/m,
    );
    expect(night.stderr).not.toContain('feed it back with');
    const last = night.stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(last).toMatch(
      /^error: 12 items did not go through \(2 rejected, 10 failed\); the report \S+ and the errors file \S+ say why\. 10 items failed because the platform was unavailable, and may go through when sent again: run .* --resume \S+ \(it also sends the 2 other items not done again, as they are\)$/,
    );
    // Pasted: the 10 failed and the 2 rejected go again (12 items, 2 requests); the 2 are rejected again.
    await resetCounts(sandbox);
    const resumeWords = / run B2BCTL_CONFIG_DIR=\S+ b2bctl (.*) \(it also sends/.exec(last)?.[1]?.split(' ') ?? [];
    const resumed = await runCommandLine(resumeWords, { configDir: join(folder, 'config'), cwd: folder, env });
    expect(resumed.code).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 2 });
    expect(resumed.stderr).toContain('stock push: 10 applied, 2 rejected;');
  });

  it('a run stopped by the platform gives one way to finish the night: the resume, no feed-back command of a part', async () => {
    const folder = temporaryFolder('b2bctl-unavailable-stop-');
    const configDir = join(folder, 'config');
    stockFile(folder, 60);
    await resetCounts(sandbox);
    // Requests 2, 3 and 4 answered 503 (no retry spent) stop the run: 10 applied, 30 failed, 20 never sent. Each
    // fault counts the requests the ones before it let through.
    for (let fault = 0; fault < 3; fault++) await scheduleFault(sandbox, '/v1/stock/batch', 2, 503);
    const flags = ['--route', 'batch', '--batch-size', '10', '--concurrency', '1', '--retries', '0'];
    const night = await runCommandLine(['stock', 'push', 'stock.csv', ...flags], { configDir, cwd: folder, env });
    expect(night.code).toBe(69);
    const report = /--resume (\S+)$/m.exec(night.stderr)?.[1] ?? '';
    const errors = report.replace('.report-', '.errors-');
    // The feed-back command would send the 30 and leave the 20 never sent: the resume sends all 50.
    expect(night.stderr).toContain(
      `stock push: report: ${report}\nstock push: errors: ${errors} (30 records that failed because the platform was unavailable, which the resume command below sends again)\nerror: `,
    );
    expect(night.stderr).not.toContain('feed it back');
    expect(night.stderr).toMatch(
      /^error: .*Stopped after 3 failed requests in a row; when the platform is back, run: B2BCTL_CONFIG_DIR=\S+ b2bctl stock push stock\.csv .* --resume \S+$/m,
    );
  });

  it('no resume command when nothing failed for want of the platform: only the files that say why', async () => {
    const folder = temporaryFolder('b2bctl-rejected-only-');
    stockFile(folder, 3, 1);
    const night = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', '--quiet'], {
      configDir: join(folder, 'config'),
      cwd: folder,
      env,
    });
    expect(night.code).toBe(1);
    expect(night.stderr).toMatch(
      /^error: 1 item did not go through \(1 rejected\); the report stock\.report-\d{8}-\d{6}\.csv and the errors file stock\.errors-\d{8}-\d{6}\.csv say why\.\n$/,
    );
  });
});
