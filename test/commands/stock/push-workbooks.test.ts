/**
 * Workbooks pushed as they are (test/fixtures/workbooks/README.md): the real stock workbook, as .xlsx and as .ods,
 * stores what was typed in one run; a number typed in the SKU column stops the run before any request, naming the cell.
 */
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { maskClock } from '../../support/run-files.js';
import { repoRoot, requestCounts } from '../../support/sandbox.js';
import { stockEntries, stockSummary } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

const fixtures = join(repoRoot, 'test', 'fixtures');

function workspace(source: string, name: string) {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  copyFileSync(join(fixtures, source), join(dir, name));
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  return { dir, run: (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env }) };
}

/** The stock sheet as typed (the same as its CSV exports store: push-real-exports.test.ts). */
const expectedStock = [
  { sku: 'ACU-REF-5KG', warehouse: 'CD-Ribeirão Preto', quantity: 12, price: 119.9, salePrice: null },
  { sku: 'AGUA-MIN-500ML-CX12', warehouse: 'CD-SP', quantity: 2000000, price: 18.75, salePrice: null },
  { sku: 'CAFE-TORR-500G', warehouse: null, quantity: 0, price: 25, salePrice: 22.5 },
  { sku: 'PAR-SXT-M8X40-ZN', warehouse: 'CD-SP', quantity: 1500, price: 1234.5, salePrice: 1111.05 },
];

describe('stock push of a workbook', () => {
  it.each([
    ['workbooks/estoque.xlsx', 'estoque.xlsx'],
    ['libreoffice/estoque.ods', 'estoque.ods'],
  ])('%s: the values as typed, in one run', async (source, name) => {
    const { run } = workspace(source, name);
    // The columns no field reads are left out on purpose, as for the CSV exports (push-real-exports.test.ts).
    const result = await run([
      'stock',
      'push',
      name,
      '--ignore-column',
      'descrição',
      '--ignore-column',
      'atualizado em',
    ]);
    expect(maskClock(result.stderr)).toContain(`stock push: 4 records, 4 valid, 0 invalid (T s)`);
    expect(result.code).toBe(0);
    const stored = (await stockEntries(sandbox)).map(({ sku, warehouse, quantity, price, salePrice }) => ({
      sku,
      warehouse,
      quantity,
      price,
      salePrice,
    }));
    expect(stored).toEqual(expectedStock);
  });

  it('a number cell in the SKU column and a formula error: exit 65 naming the cells, nothing sent', async () => {
    const name = 'estoque.xlsx';
    const { dir, run } = workspace('workbooks/estoque-variado.xlsx', name);
    const result = await run(['stock', 'push', name, '--ignore-column', 'atualizado em']);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      `${name}:6: Estoque!A6 (sku): 4567: the cell is a number, so leading zeros and digits past the 15th are lost; format the column as Text and type the value again\n`,
    );
    expect(result.stderr).toContain(
      `${name}:4: Estoque!C4 (price): the formula gives the error #DIV/0!; correct it or type the value\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
    expect((await stockSummary(sandbox)).lines).toBe(0);
    expect(readdirSync(dir)).toEqual([name]);
  });
});
