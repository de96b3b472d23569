/**
 * A `--skip-invalid` run resumed: its invalid records are in its report and errors file already, and the input has
 * not changed (a resume checks that), so a resume counts them (the summary, exit 1) without a second row in either
 * (its own errors file holds them: resume-carries-invalid.test.ts). Each resume appended them again, and the report
 * no longer had one row per record (found by a fresh user test).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { generateCustomers } from '../../support/customers.js';
import { readReport } from '../../support/run-files.js';
import { temporaryFolder } from '../../support/temporary.js';

let configDir: string;
useSandboxPerFile({ login: true }, (ready) => ({ configDir } = ready));

describe('a --skip-invalid run resumed twice', () => {
  it('keeps one report row and one errors-file row per invalid record, and still exits 1', async () => {
    const folder = temporaryFolder('b2bctl-resume-invalid-');
    const lines = generateCustomers(4).toString('utf8').trimEnd().split('\n');
    // Line 3's e-mail is no e-mail: invalid, every time the file is read.
    lines[2] = (lines[2] ?? '').replace(/,[^,@]+@[^,]+,/, ',not-an-email,');
    writeFileSync(join(folder, 'customers.csv'), `${lines.join('\n')}\n`);
    const run = (args: readonly string[]) => runCommandLine(args, { configDir, cwd: folder });

    const first = await run(['customer', 'create', 'customers.csv', '--skip-invalid']);
    expect(first.code).toBe(1);
    const report = readdirSync(folder).find((name) => /^customers\.report-.*\.csv$/.test(name)) as string;
    const errors = readdirSync(folder).find((name) => /^customers\.errors-.*\.csv$/.test(name)) as string;
    for (let resume = 1; resume <= 2; resume++) {
      const resumed = await run(['customer', 'create', 'customers.csv', '--resume', report]);
      expect(resumed.code).toBe(1);
      expect(resumed.stderr).toContain('1 invalid');
    }
    const rows = readReport(join(folder, report));
    expect(rows.map((row) => `${row.line} ${row.outcome}`).toSorted()).toEqual([
      '2 created',
      '3 invalid',
      '4 created',
      '5 created',
    ]);
    expect(readFileSync(join(folder, errors), 'utf8').trimEnd().split('\n')).toHaveLength(2);
  });
});
