/**
 * `stock push --excel`: the report is in the dialect a pt-BR Excel opens as is (a BOM, `;` between cells), a SKU
 * Excel would run as a formula is still quoted, and --resume of that report leaves its done records alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport } from '../../support/run-files.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** The report's rows, read with `;` after its BOM. */
function excelRows(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), { bom: true, columns: true, delimiter: ';' }) as Record<string, string>[];
}

describe('stock push --excel', () => {
  it('writes the report with a BOM and `;`, guards formulas, and --resume skips its done records', async () => {
    const dir = freshWorkDir();
    // A known SKU (applied), a formula-like one the catalogue lacks (rejected), and a known one with a bad quantity.
    writeFileSync(
      join(dir, 'stock.csv'),
      'sku;quantity;price\r\nPAR-SXT-M10X50-ZN;13;17,35\r\n=1+1;1;1,00\r\nPAR-SXT-M8X40-ZN;x;1,00\r\n',
    );
    const configDir = freshConfigDir();
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
    const run = (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env });

    const first = await run(['--excel', 'stock', 'push', 'stock.csv', '--skip-invalid']);
    expect(first.code).toBe(1);
    const reportPath = join(dir, onlyReport(dir, 'stock'));
    const text = readFileSync(reportPath, 'utf8');
    expect(text.startsWith('\uFEFFline;key;outcome;status;id;message;row\r\n')).toBe(true);
    const rows = excelRows(reportPath).toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => [row.line, row.key, row.outcome])).toEqual([
      ['2', 'PAR-SXT-M10X50-ZN', 'applied'],
      ['3', "'=1+1", 'rejected'],
      ['4', 'PAR-SXT-M8X40-ZN', 'invalid'],
    ]);

    const resumed = await run(['stock', 'push', 'stock.csv', '--skip-invalid', '--resume', reportPath]);
    expect(resumed.stderr).not.toContain('Cannot resume');
    expect(resumed.stderr).not.toContain('not a b2bctl report');
    expect(resumed.code).toBe(1);
    // The resumed run keeps the report's dialect: one BOM, `;`, and rows only for the two records not done.
    const after = readFileSync(reportPath, 'utf8');
    expect(after.split('\uFEFF')).toHaveLength(2);
    const again = excelRows(reportPath).slice(rows.length);
    expect(again.map((row) => [row.line, row.key]).toSorted()).toEqual([
      ['3', "'=1+1"],
      ['4', 'PAR-SXT-M8X40-ZN'],
    ]);
  });
});
