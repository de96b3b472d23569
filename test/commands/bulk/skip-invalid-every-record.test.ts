/**
 * `--skip-invalid` when every record is invalid: the run reports them as it does beside a single valid record, so an
 * errors file exists to fix and feed back. It refused the file (exit 65) and wrote none, though one valid record was
 * enough to get one (found by a fresh user test: a day-two sheet with one systematic problem gave nothing to fix).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;
useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

describe('--skip-invalid, every record invalid', () => {
  it('writes the report and the errors file with every record, prints the feed-back command, exits 1; nothing sent', async () => {
    const folder = freshWorkDir();
    writeFileSync(
      join(folder, 'i.csv'),
      'document,name,phone\n100.079.190-42,A,1198000031\n100.087.109-61,B,2198000034\n',
    );
    const run = await runCommandLine(['customer', 'update', 'i.csv', '--skip-invalid'], { configDir, cwd: folder });
    expect(run.code).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({});
    const errors = readdirSync(folder).find((name) => /^i\.errors-\d{8}-\d{6}\.csv$/.test(name)) as string;
    const report = readdirSync(folder).find((name) => /^i\.report-\d{8}-\d{6}\.csv$/.test(name)) as string;
    expect(
      readFileSync(join(folder, errors), 'utf8')
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(0, 3),
    ).toEqual([
      'document,name,phone,row,error',
      '100.079.190-42,A,1198000031,2,Property [phone] with value [1198000031] does not pass validation (a landline number has 8 digits and starts with 2 to 5)',
      '100.087.109-61,B,2198000034,3,Property [phone] with value [2198000034] does not pass validation (a landline number has 8 digits and starts with 2 to 5)',
    ]);
    expect(run.stderr).toContain(
      'customer update: sending nothing (every record is invalid); reporting them for --skip-invalid\n',
    );
    expect(run.stderr).toContain(`customer update: errors: ${errors} (2 records to fix and feed back)\n`);
    expect(run.stderr).toMatch(
      new RegExp(
        `^customer update: once fixed, feed it back with: .* b2bctl customer update ${errors} --profile default\n`,
        'm',
      ),
    );
    expect(run.stderr).toContain(
      `error: 2 customers did not go through (2 invalid); the report ${report} and the errors file ${errors} say why.\n`,
    );
  });

  it('without --skip-invalid the file is still refused, nothing written (exit 65)', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'i.csv'), 'document,name,phone\n100.079.190-42,A,1198000031\n');
    const run = await runCommandLine(['customer', 'update', 'i.csv'], { configDir, cwd: folder });
    expect(run.code).toBe(65);
    expect(readdirSync(folder)).toEqual(['i.csv']);
  });
});
