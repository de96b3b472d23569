/**
 * A `--skip-invalid` run resumed: the records it found invalid stay in its report, and the resume writes them into
 * its own errors file too, so the one feed-back command it prints covers every record to fix. They were left in the
 * interrupted run's errors file only, and the resume named a file that lacked them (found by a fresh user test).
 */
import { readFileSync, writeFileSync } from 'node:fs';
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

describe('a --skip-invalid run resumed', () => {
  it("names one errors file holding the interrupted run's invalid record, counted as the closing lines say", async () => {
    const folder = temporaryFolder('b2bctl-resume-carries-');
    const configDir = join(folder, 'config');
    const items = Array.from({ length: 20 }, (_, index) => `GEN-${String(index + 1).padStart(7, '0')};${index}`);
    items[2] = 'GEN-0000003;três';
    writeFileSync(join(folder, 'stock.csv'), ['sku;quantity', ...items, ''].join('\n'));
    // The three requests after the first answered 503, --retries 0: the run stops asking for a resume.
    for (let fault = 0; fault < 3; fault++) await scheduleFault(sandbox, '/v1/stock/batch', 2, 503);
    const flags = ['--route', 'batch', '--batch-size', '5', '--concurrency', '1', '--retries', '0', '--skip-invalid'];
    const night = await runCommandLine(['stock', 'push', 'stock.csv', ...flags], { configDir, cwd: folder, env });
    expect(night.code).toBe(69);
    const resumeLine = /run:? (B2BCTL_CONFIG_DIR=.*--resume \S+)$/m.exec(night.stderr)?.[1] ?? '';
    expect(resumeLine).not.toBe('');

    await resetCounts(sandbox);
    const resumed = await runCommandLine(resumeLine.replace(/^.* b2bctl /, '').split(' '), {
      configDir,
      cwd: folder,
      env,
    });
    expect(resumed.code).toBe(1);
    // The 14 valid items the stopped run left unknown, in batches of 5.
    expect(await requestCounts(sandbox)).toEqual({ 'PUT /v1/stock/batch': 3 });
    const errors = /^stock push: errors: (\S+) \(1 record to fix and feed back\)$/m.exec(resumed.stderr)?.[1] ?? '';
    expect(errors).toMatch(/^stock\.errors-\d{8}-\d{6}(-\d+)?\.csv$/);
    expect(resumed.stderr).toMatch(
      new RegExp(`^stock push: once fixed, feed it back with: .* b2bctl stock push ${errors} `, 'm'),
    );
    expect(
      readFileSync(join(folder, errors), 'utf8')
        .replace(/^\uFEFF/, '')
        .split('\n')[1],
    ).toMatch(/^GEN-0000003;três;4;/);
    expect(readFileSync(join(folder, errors), 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(resumed.stderr).toContain(`error: 1 item did not go through (1 invalid);`);
    expect(resumed.stderr).toContain(`the errors file ${errors} say`);
  });
});
