/**
 * Two lines for one SKU (in one warehouse) in one stock file: two quantities, or prices, for one product, that
 * contradict. With --skip-invalid neither is sent, both are reported naming the other and go to the errors file, for
 * the operator to keep one; the file's order never decides which quantity the platform holds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { excelCsv, sandboxWorkspace, useSandboxPerFile } from '../../support/cli.js';
import { expectLines, onlyErrorsFile, onlyReport, readErrorsCsv, readReport, timed } from '../../support/run-files.js';
import { requestCounts, resetCounts } from '../../support/sandbox.js';
import { batchRoute, stockEntries } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** A working folder holding the given files, and a runner of the CLI inside it. */
function workspace(files: Record<string, string | Buffer>) {
  return sandboxWorkspace(sandbox, token, files);
}

const repeated = (value: string, line: number, label = 'SKU') =>
  `Property [sku] with value [${value}] does not pass validation (the same ${label} is also on line ${line} of this file)`;

describe('stock push --skip-invalid with two lines for one SKU', () => {
  it('sends neither quantity, reports both naming the other, and puts both in the errors file; the line kept is applied', async () => {
    const { configDir, dir, run } = workspace({
      'estoque.csv': excelCsv(
        'sku;quantity;price',
        'GEN-0000090;5;10,00',
        'GEN-0000091;6;20,00',
        'GEN-0000090;7;10,00',
      ),
    });
    const result = await run(['stock', 'push', 'estoque.csv', '--route', 'batch', '--skip-invalid']);
    expect(result.code).toBe(1);
    const report = onlyReport(dir, 'estoque');
    const errors = onlyErrorsFile(dir, 'estoque');
    expectLines(result.stderr, [
      'stock push: validating estoque.csv',
      `estoque.csv:4: ${repeated('GEN-0000090', 2)}`,
      // The first line's problem is known once the file is read.
      `estoque.csv:2: ${repeated('GEN-0000090', 4)}`,
      timed('stock push: 3 records, 1 valid, 2 invalid ({s} s)'),
      'stock push: sending 1 item in up to 1 request of up to 50 items through the batch route (concurrency 8)',
      timed('stock push: 1 applied, 2 invalid; 1 request, 0 retries, 0 throttled (429); {s} s, {n} items/s'),
      `stock push: report: ${report}`,
      `stock push: errors: ${errors} (2 records to fix and feed back)`,
      `stock push: once fixed, feed it back with: B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push ${errors} --profile default --base-url ${sandbox.url} --route batch`,
      `error: 2 items did not go through (2 invalid); the report ${report} and the errors file ${errors} say why.`,
    ]);
    // Only the SKU named once reached the platform: neither quantity of GEN-0000090 is stored.
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 1 });
    expect(await stockEntries(sandbox)).toEqual([
      { sku: 'GEN-0000091', warehouse: null, quantity: 6, price: 20, salePrice: null, updates: 1 },
    ]);
    const rows = readReport(join(dir, report)).toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => [row.line, row.key, row.outcome, row.message])).toEqual([
      ['2', 'GEN-0000090', 'invalid', repeated('GEN-0000090', 4)],
      ['3', 'GEN-0000091', 'applied', ''],
      ['4', 'GEN-0000090', 'invalid', repeated('GEN-0000090', 2)],
    ]);
    const errorsFile = readErrorsCsv(join(dir, errors), ';');
    expect(errorsFile.header).toEqual(['sku', 'quantity', 'price', 'row', 'error']);
    expect(errorsFile.rows).toEqual([
      ['GEN-0000090', '5', '10,00', '2', repeated('GEN-0000090', 4)],
      ['GEN-0000090', '7', '10,00', '4', repeated('GEN-0000090', 2)],
    ]);

    // The operator deletes the stale line and feeds the errors file back: the quantity kept is the one applied.
    const [header, , kept] = readFileSync(join(dir, errors), 'utf8').split('\r\n');
    writeFileSync(join(dir, 'corrigido.csv'), `${header}\r\n${kept}\r\n`);
    await resetCounts(sandbox);
    expect((await run(['stock', 'push', 'corrigido.csv', '--route', 'batch', '--quiet'])).code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 1 });
    expect((await stockEntries(sandbox)).find((entry) => entry.sku === 'GEN-0000090')?.quantity).toBe(7);
  });

  it('per warehouse: the SKU in another warehouse is sent, both lines of the one repeated in a warehouse are not', async () => {
    const { dir, run } = workspace({
      'estoque.csv': excelCsv(
        'sku;quantity;warehouse',
        'GEN-0000092;5;CD-SP',
        'GEN-0000092;8;CD-RJ',
        'GEN-0000092;9;CD-SP',
      ),
    });
    const result = await run(['stock', 'push', 'estoque.csv', '--route', 'batch', '--skip-invalid']);
    expect(result.code).toBe(1);
    // The lines of the validation pass (the rest as in the test above).
    expectLines(`${result.stderr.split('\n').slice(0, 4).join('\n')}\n`, [
      'stock push: validating estoque.csv',
      `estoque.csv:4: ${repeated('GEN-0000092 @ CD-SP', 2, 'SKU in this warehouse')}`,
      `estoque.csv:2: ${repeated('GEN-0000092 @ CD-SP', 4, 'SKU in this warehouse')}`,
      timed('stock push: 3 records, 1 valid, 2 invalid ({s} s)'),
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 1 });
    expect(await stockEntries(sandbox)).toEqual([
      { sku: 'GEN-0000092', warehouse: 'CD-RJ', quantity: 8, price: null, salePrice: null, updates: 1 },
    ]);
    expect(readErrorsCsv(join(dir, onlyErrorsFile(dir, 'estoque')), ';').rows).toEqual([
      ['GEN-0000092', '5', 'CD-SP', '2', repeated('GEN-0000092 @ CD-SP', 4, 'SKU in this warehouse')],
      ['GEN-0000092', '9', 'CD-SP', '4', repeated('GEN-0000092 @ CD-SP', 2, 'SKU in this warehouse')],
    ]);
  });
});
