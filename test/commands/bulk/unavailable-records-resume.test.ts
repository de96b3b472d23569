/**
 * A run some of whose batches the platform left without an outcome (a 503 after every retry, which may come after it
 * applied them: `unknown`) ends with exit 1, and its error line, alone under --quiet, names the report and the errors
 * file and gives the command that sends them again. It printed neither: a cron log of 14 kept reports did not say
 * which, nor what to run. A run stopped by the platform gives its resume command.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { scheduleFault } from '../../support/api-sandbox.js';
import { runCommandLine } from '../../support/command-line.js';
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
  it('the error line alone (--quiet) names the files and the command that sends the unknown items again, exactly them', async () => {
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
    const report = /the report (\S+) and/.exec(night.stderr)?.[1] ?? '';
    expect(report).toMatch(/^stock\.report-\d{8}-\d{6}\.csv$/);
    const errors = report.replace('.report-', '.errors-');
    const feedBackLine = `B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push ${errors} --profile default --base-url ${sandbox.url} --concurrency 1 --retries 0 --route batch --batch-size 10`;
    expect(night.stderr).toBe(
      `error: The outcome of 10 items is not known (10 unknown); the report ${report} and the errors file ${errors} say why. They may have been applied without an answer; the errors file holds them to send again as they are: run ${feedBackLine}\n`,
    );

    // Pasted as printed: the ten unknown items, in one request, and nothing else.
    await resetCounts(sandbox);
    const resumed = await runCommandLine(feedBackLine.replace(/^.* b2bctl /, '').split(' '), {
      configDir,
      cwd: folder,
      env,
    });
    expect(resumed.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 1 });
    expect(resumed.stderr).toContain('stock push: 10 applied;');
  });

  it('unknown and rejected items share the errors file: fed back as printed, both go again, the unknown through', async () => {
    const folder = temporaryFolder('b2bctl-unavailable-rejected-');
    stockFile(folder, 20, 2);
    await scheduleFault(sandbox, '/v1/stock/batch', 1, 503);
    await resetCounts(sandbox);
    const night = await runCommandLine(
      ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '10', '--concurrency', '1', '--retries', '0'],
      { configDir: join(folder, 'config'), cwd: folder, env },
    );
    expect(night.code).toBe(1);
    // The 10 have nothing to fix: the errors file says which are which.
    expect(night.stderr).toMatch(
      /^stock push: errors: stock\.errors-\d{8}-\d{6}\.csv \(12 records: 2 to fix, 10 whose outcome is unknown, with nothing to fix\)\nstock push: once fixed, feed it back with: (.*)$/m,
    );
    const feedBack = /^stock push: once fixed, feed it back with: B2BCTL_CONFIG_DIR=\S+ b2bctl (.*)$/m.exec(
      night.stderr,
    )?.[1];
    const last = night.stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(last).toMatch(
      /^error: 2 items did not go through and the outcome of 10 is not known \(2 rejected, 10 unknown\); the report \S+ and the errors file \S+ say why\.$/,
    );
    // Fed back: the 10 unknown and the 2 rejected go again (12 items, 2 requests); the 2 are rejected again.
    await resetCounts(sandbox);
    const resumed = await runCommandLine(feedBack?.split(' ') ?? [], {
      configDir: join(folder, 'config'),
      cwd: folder,
      env,
    });
    expect(resumed.code).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 2 });
    expect(resumed.stderr).toContain('stock push: 10 applied, 2 rejected;');
  });

  it('a run stopped by the platform gives one way to finish the night: the resume, no feed-back command of a part', async () => {
    const folder = temporaryFolder('b2bctl-unavailable-stop-');
    const configDir = join(folder, 'config');
    stockFile(folder, 60);
    await resetCounts(sandbox);
    // Requests 2, 3 and 4 answered 503 (no retry spent) stop the run: 10 applied, 30 unknown, 20 never sent. Each
    // fault counts the requests the ones before it let through.
    for (let fault = 0; fault < 3; fault++) await scheduleFault(sandbox, '/v1/stock/batch', 2, 503);
    const flags = ['--route', 'batch', '--batch-size', '10', '--concurrency', '1', '--retries', '0'];
    const night = await runCommandLine(['stock', 'push', 'stock.csv', ...flags], { configDir, cwd: folder, env });
    expect(night.code).toBe(69);
    const report = /--resume (\S+)$/m.exec(night.stderr)?.[1] ?? '';
    const errors = report.replace('.report-', '.errors-');
    // The feed-back command would send the 30 and leave the 20 never sent: the resume sends all 50.
    expect(night.stderr).toContain(
      `stock push: report: ${report}\nstock push: errors: ${errors} (30 records whose outcome is unknown, with nothing to fix, which the resume command below sends again)\nerror: `,
    );
    expect(night.stderr).not.toContain('feed it back');
    expect(night.stderr).toMatch(
      /^error: .*Stopped after 3 failed requests in a row; when the platform is back, run: B2BCTL_CONFIG_DIR=\S+ b2bctl stock push stock\.csv .* --resume \S+$/m,
    );
  });

  // Under --quiet this line is all a cron log holds: it gave the files and no command, unless every record was unknown.
  it('no resume command when nothing failed for want of the platform: under --quiet, the files and the feed-back command', async () => {
    const folder = temporaryFolder('b2bctl-rejected-only-');
    stockFile(folder, 3, 1);
    const night = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', '--quiet'], {
      configDir: join(folder, 'config'),
      cwd: folder,
      env,
    });
    expect(night.code).toBe(1);
    expect(night.stderr).toMatch(
      /^error: 1 item did not go through \(1 rejected\); the report stock\.report-\d{8}-\d{6}\.csv and the errors file stock\.errors-\d{8}-\d{6}\.csv say why\. Fix the errors file, then feed it back: run B2BCTL_CONFIG_DIR=\S+ b2bctl stock push stock\.errors-\d{8}-\d{6}\.csv --profile default --base-url \S+ --route batch\n$/,
    );
  });

  it('unknown and rejected items under --quiet: the line says which to fix, and the command that sends both', async () => {
    const folder = temporaryFolder('b2bctl-quiet-mixed-');
    stockFile(folder, 20, 2);
    await scheduleFault(sandbox, '/v1/stock/batch', 1, 503);
    const night = await runCommandLine(
      [
        'stock',
        'push',
        'stock.csv',
        '--route',
        'batch',
        '--batch-size',
        '10',
        '--concurrency',
        '1',
        '--retries',
        '0',
        '--quiet',
      ],
      { configDir: join(folder, 'config'), cwd: folder, env },
    );
    expect(night.code).toBe(1);
    expect(night.stderr).toMatch(
      /^error: 2 items did not go through and the outcome of 10 is not known \(2 rejected, 10 unknown\); the report \S+ and the errors file \S+ say why\. Fix the errors file's 2 items to fix \(its 10 unknown go again as they are\), then feed it back: run B2BCTL_CONFIG_DIR=\S+ b2bctl stock push stock\.errors-\S+ .*--route batch --batch-size 10\n$/,
    );
  });
});
