/**
 * `stock validate` and `stock push` as a process: exit codes, stdin piped to -, the report beside the input.
 * The samples through each route, --batch-size, --dry-run and --schema are tested in process
 * (test/commands/stock/push-samples.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshConfigDir, freshWorkDir, runCli, useSandboxPerFile } from '../../support/cli.js';
import { maskClock, onlyFile, readReport } from '../../support/run-files.js';
import { requestCounts, seedDirectory } from '../../support/sandbox.js';
import { batchRoute, offSaleSkus, sampleCsvEntries, stockEntries, stockSummary } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** A test's own config folder and working folder, with the token in the environment (no login, no token request). */
function workspace(...samples: string[]) {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  copySamples(dir, ...samples);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  const run = (args: string[], stdin?: string | Buffer) => runCli(args, { configDir, cwd: dir, env, stdin });
  return { configDir, dir, run };
}

const csvLines = sampleCsvEntries().length;

describe('stock validate', () => {
  it('passes samples/stock.csv (pt-BR Excel: semicolons, decimal commas, CRLF) and sends nothing', async () => {
    const { run } = workspace('stock.csv');
    const result = await run(['stock', 'validate', 'stock.csv']);
    expect(maskClock(result.stderr)).toBe('stock.csv: 52 rows, 52 valid, 0 invalid (0 problems) in T s.\n');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('stock push --route batch', () => {
  it('pushes samples/stock.csv in 2 requests of up to 50, a result per item in the report, and the sandbox holds the file', async () => {
    const { dir, run } = workspace('stock.csv');
    expect((await stockSummary(sandbox)).offSale).toBe(offSaleSkus.length);
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch']);
    expect(maskClock(result.stderr)).toBe(
      [
        'stock push: validating stock.csv',
        'stock push: 52 records, 52 valid, 0 invalid (T s)',
        'stock push: sending 52 items in up to 2 requests of up to 50 items through the batch route (concurrency 8)',
        'stock push: 52 applied; 2 requests, 0 retries, 0 throttled (429); T s, R items/s',
        'stock push: report: stock.report-STAMP.csv',
        '',
      ].join('\n'),
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);

    const report = readReport(onlyFile(dir, 'stock.report-'));
    expect(report).toEqual(
      sampleCsvSkus().map((sku, index) => ({
        line: String(index + 2),
        key: sku,
        outcome: 'applied',
        status: '200',
        id: '',
        message: '',
        row: String(index + 2),
      })),
    );
    expect(readdirSync(dir).filter((name) => name.includes('.errors-'))).toEqual([]);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 2 });
    // Every product of the catalogue is in the file, so every off-sale one is back on sale.
    expect((await stockSummary(sandbox)).offSale).toBe(0);
  });
});

describe('stock push from stdin', () => {
  it('pushes the Excel CSV piped to -, with the report in the working folder', async () => {
    const { dir, run } = workspace();
    const result = await run(
      ['stock', 'push', '-', '--route', 'batch'],
      readFileSync(join(seedDirectory, 'stock.csv')),
    );
    expect(maskClock(result.stderr)).toBe(
      [
        'stock push: validating stdin',
        'stock push: 52 records, 52 valid, 0 invalid (T s)',
        'stock push: sending 52 items in up to 2 requests of up to 50 items through the batch route (concurrency 8)',
        'stock push: 52 applied; 2 requests, 0 retries, 0 throttled (429); T s, R items/s',
        'stock push: report: stdin.report-STAMP.csv',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
    expect(readReport(onlyFile(dir, 'stdin.report-'))).toHaveLength(csvLines);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
  });
});

function sampleCsvSkus(): string[] {
  const [, ...rows] = readFileSync(join(seedDirectory, 'stock.csv'), 'utf8')
    .split('\r\n')
    .filter((row) => row !== '');
  return rows.map((row) => row.split(';')[0] as string);
}
