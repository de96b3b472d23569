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
import { requestCounts, resetCounts } from '../../support/sandbox.js';

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
    // The resumed run keeps the report's dialect: one BOM, `;`, and a new row only for the record it sent again (the
    // rejected one), which replaces its old one; the invalid one is counted (exit 1) but has its row already.
    const after = readFileSync(reportPath, 'utf8');
    expect(after.split('\uFEFF')).toHaveLength(2);
    const again = excelRows(reportPath);
    expect(again.map((row) => [row.line, row.key, row.outcome]).at(-1)).toEqual(['3', "'=1+1", 'rejected']);
    expect(again.map((row) => row.line).toSorted()).toEqual(['2', '3', '4']);
  });

  it('the report.excel setting (env B2BCTL_REPORT_EXCEL) asks for the same report without the flag', async () => {
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'stock.csv'), 'sku;quantity;price\r\nPAR-SXT-M10X50-ZN;13;17,35\r\n');
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token, B2BCTL_REPORT_EXCEL: 'true' };
    const result = await runCommandLine(['stock', 'push', 'stock.csv'], { configDir: freshConfigDir(), cwd: dir, env });
    expect(result.code).toBe(0);
    // The listing dialect of stdout is not the setting's business: only the report changes.
    expect(readFileSync(join(dir, onlyReport(dir, 'stock')), 'utf8')).toMatch(
      /^\uFEFFline;key;outcome;status;id;message;row\r\n2;PAR-SXT-M10X50-ZN;applied;/,
    );
  });

  it('a bad report.excel value is refused before anything is sent', async () => {
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'stock.csv'), 'sku;quantity;price\r\nPAR-SXT-M10X50-ZN;13;17,35\r\n');
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token, B2BCTL_REPORT_EXCEL: 'yes' };
    await resetCounts(sandbox);
    const result = await runCommandLine(['stock', 'push', 'stock.csv'], { configDir: freshConfigDir(), cwd: dir, env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('B2BCTL_REPORT_EXCEL');
    expect(result.stderr).toContain('must be one of true, false');
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('stock push --excel beside -o json or -o ndjson (a user test: refused, the advice -o csv --excel refused too)', () => {
  it.each(['json', 'ndjson'])(
    '-o %s --excel: the report for Excel and the summary on stdout, exit 0',
    async (format) => {
      const dir = freshWorkDir();
      writeFileSync(join(dir, 'stock.csv'), 'sku;quantity;price\r\nPAR-SXT-M10X50-ZN;13;17,35\r\n');
      const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
      const args = ['stock', 'push', 'stock.csv', '--route', 'batch', '--excel', '-o', format];
      const result = await runCommandLine(args, { configDir: freshConfigDir(), cwd: dir, env });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout.trim())).toMatchObject({
        command: 'stock push',
        outcomes: { applied: 1 },
        exitCode: 0,
      });
      const reportPath = join(dir, onlyReport(dir, 'stock'));
      expect(readFileSync(reportPath, 'utf8').startsWith('\uFEFFline;key;outcome;')).toBe(true);
      expect(result.stderr).not.toContain('error:');
    },
  );
});
