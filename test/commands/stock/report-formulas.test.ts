/**
 * Formula injection (issue 10, item 12) in the report: a SKU Excel would run as a formula is written with
 * a quote in front (`'=1+1`), a plain negative number is not, and --resume still recognises each record
 * by that key cell (it was refused as "the report of another file").
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport, readReport } from '../../support/run-files.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

describe('the report of SKUs that look like formulas', () => {
  it("guards them with a quote, and --resume reads them back as the file's keys", async () => {
    const dir = freshWorkDir();
    writeFileSync(
      join(dir, 'stock.csv'),
      'sku;quantity;price\r\n=1+1;1;1,00\r\n@SUM(1);2;2,00\r\n-5;3;3,00\r\n+CMD;4;4,00\r\n',
    );
    const configDir = freshConfigDir();
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
    const run = (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env });
    // The sandbox's catalogue knows none of these SKUs: each is answered, and rejected.
    const first = await run(['stock', 'push', 'stock.csv']);
    expect(first.code).toBe(1);
    const reportPath = join(dir, onlyReport(dir, 'stock'));
    const keys = readReport(reportPath)
      .toSorted((a, b) => Number(a.line) - Number(b.line))
      .map((row) => row.key);
    expect(keys).toEqual(["'=1+1", "'@SUM(1)", '-5', "'+CMD"]);

    const resumed = await run(['stock', 'push', 'stock.csv', '--resume', reportPath]);
    expect(resumed.stderr).not.toContain('Cannot resume');
    expect(resumed.code).toBe(1);
    // Each sent again and rejected again: one row per record, the resume's.
    expect(readReport(reportPath)).toHaveLength(4);
  });
});
