/**
 * A promotion the ERP ended (decision 0030): a file with a salePrice column whose cell is empty (a JSON null) sends
 * `"salePrice": null`, which ends the promotion on the platform; a file without the column keeps the platform's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { excelCsv, sandboxWorkspace, useSandboxPerFile } from '../../support/cli.js';
import { requestCounts } from '../../support/sandbox.js';
import { batchRoute, stockLine } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** A working folder holding the given files, and a runner of the CLI inside it. */
function workspace(files: Record<string, string | Buffer>) {
  return sandboxWorkspace(sandbox, token, files);
}

/** The first day: GEN-0000090 on promotion at 9,00. */
const promotionOn = excelCsv('sku;quantity;price;salePrice;warehouse', 'GEN-0000090;5;10,00;9,00;');

/** What the sandbox holds of a SKU's prices, and how many items were applied to it. */
async function prices(sku: string) {
  const { price, salePrice, updates } = await stockLine(sandbox, sku);
  return { price, salePrice, updates };
}

describe('a promotion the ERP ended', () => {
  it('CSV with the salePrice column and its cell empty: null is sent and the promotion ends, exit 0', async () => {
    const { run } = workspace({
      'day1.csv': promotionOn,
      'day2.csv': excelCsv('sku;quantity;price;salePrice;warehouse', 'GEN-0000090;5;10,00;;'),
    });
    expect((await run(['stock', 'push', 'day1.csv', '--route', 'batch', '--quiet'])).code).toBe(0);
    expect(await prices('GEN-0000090')).toEqual({ price: 10, salePrice: 9, updates: 1 });
    const day2 = await run(['stock', 'push', 'day2.csv', '--route', 'batch', '--verbose']);
    expect(day2.code).toBe(0);
    expect(day2.stderr).toContain('> {"items":[{"sku":"GEN-0000090","quantity":5,"price":10,"salePrice":null}]}\n');
    expect(await prices('GEN-0000090')).toEqual({ price: 10, salePrice: null, updates: 2 });
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 2 });
  });

  it('CSV without a salePrice column: no sale price is sent, the platform keeps its promotion', async () => {
    const { run } = workspace({
      'day1.csv': promotionOn,
      'quantities.csv': excelCsv('sku;quantity;price', 'GEN-0000090;7;10,00'),
    });
    expect((await run(['stock', 'push', 'day1.csv', '--route', 'batch', '--quiet'])).code).toBe(0);
    const day2 = await run(['stock', 'push', 'quantities.csv', '--route', 'batch', '--verbose']);
    expect(day2.code).toBe(0);
    expect(day2.stderr).toContain('> {"items":[{"sku":"GEN-0000090","quantity":7,"price":10}]}\n');
    expect(await prices('GEN-0000090')).toEqual({ price: 10, salePrice: 9, updates: 2 });
  });

  it('JSON: a null salePrice ends the promotion, a record without the key keeps it', async () => {
    const { run } = workspace({
      'day1.csv': excelCsv(
        'sku;quantity;price;salePrice;warehouse',
        'GEN-0000090;5;10,00;9,00;',
        'GEN-0000091;5;20,00;18,00;',
      ),
      'day2.json': JSON.stringify([
        { sku: 'GEN-0000090', quantity: 5, price: 10, salePrice: null },
        { sku: 'GEN-0000091', quantity: 6 },
      ]),
    });
    expect((await run(['stock', 'push', 'day1.csv', '--route', 'batch', '--quiet'])).code).toBe(0);
    expect((await run(['stock', 'push', 'day2.json', '--route', 'batch', '--quiet'])).code).toBe(0);
    expect(await prices('GEN-0000090')).toEqual({ price: 10, salePrice: null, updates: 2 });
    expect(await prices('GEN-0000091')).toEqual({ price: 20, salePrice: 18, updates: 2 });
  });

  it('a workbook LibreOffice saved, whose empty salePrice is no cell at all: that promotion ends, the other is sent', async () => {
    const workbook = readFileSync(join(__dirname, '..', '..', 'fixtures', 'libreoffice', 'estoque-promocao-fim.xlsx'));
    const { run } = workspace({
      'day1.csv': excelCsv('sku;quantity;price;salePrice;warehouse', 'GEN-0000001;5;10,00;9,00;'),
      'estoque.xlsx': workbook,
    });
    expect((await run(['stock', 'push', 'day1.csv', '--route', 'batch', '--quiet'])).code).toBe(0);
    expect((await run(['stock', 'push', 'estoque.xlsx', '--route', 'batch', '--quiet'])).code).toBe(0);
    expect(await prices('GEN-0000001')).toEqual({ price: 10, salePrice: null, updates: 2 });
    expect(await prices('GEN-0000002')).toEqual({ price: 12.5, salePrice: 11, updates: 1 });
  });

  it('a sale price of 0 is still refused, and the refusal says how to end a promotion: exit 65, nothing sent', async () => {
    const { run } = workspace({
      'day3.csv': excelCsv('sku;quantity;price;salePrice;warehouse', 'GEN-0000090;5;10,00;0;'),
    });
    const result = await run(['stock', 'push', 'day3.csv', '--route', 'batch']);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'day3.csv:2: Property [salePrice] with value [0] does not pass validation (a sale price of 0 would sell the product for nothing; leave the cell empty to end a promotion, or pass --allow-zero-price if 0 is meant)\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
