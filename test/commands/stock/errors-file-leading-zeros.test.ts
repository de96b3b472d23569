/**
 * An errors file whose SKUs have leading zeros (`000123`, `007890`), fixed in LibreOffice Calc and saved as CSV as the
 * docs foresee (a user test: Calc stored the SKUs as numbers, the file came back with `123` and `7890`, and the feed-back
 * run sent them, exit 0: another product's stock). The errors file writes such a code behind a `'`, which Calc keeps
 * as text, and the feed-back run reads it without: the platform receives the SKUs of the input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireTools } from '../../support/external-tools.js';
import { convertedByCalc } from '../../support/libreoffice.js';
import { onlyErrorsFile } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { inlineCell, numberCell, writeXlsx } from '../../support/workbook-writer.js';

const soffice = requireTools('soffice');
const platform = useScriptedPlatform();

interface SentItem {
  sku: string;
  quantity: number;
  price: number;
}

/** The items of every stock batch received, in order; the SKUs in `refused` answered REJECTED. */
function stockStore(refused: readonly string[]): SentItem[] {
  const sent: SentItem[] = [];
  platform.routes['PUT /v1/stock/batch'] = (_request, body, response) => {
    const items = (JSON.parse(body) as { items: SentItem[] }).items;
    sent.push(...items);
    const results = items.map((item, index) => ({
      index,
      sku: item.sku,
      status: refused.includes(item.sku) ? 'REJECTED' : 'APPLIED',
      message: refused.includes(item.sku) ? 'SKU not found' : '',
    }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  };
  return sent;
}

function push(folder: string, file: string, ...flags: string[]) {
  return runCommandLine(['stock', 'push', file, '--route', 'batch', ...flags], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
    cwd: folder,
  });
}

/** A pt-BR stock file (`;`, decimal commas): a SKU the platform takes, two with leading zeros, one refused. */
function stockFile(folder: string): string {
  const rows = ['A1;1;1,00;;CD-SP', '000123;10;1.234,50;;CD-SP', '007890;-3;10,00;;CD-SP', 'REJ-1;5;2,50;;CD-SP'];
  writeFileSync(join(folder, 'est.csv'), `sku;quantity;price;salePrice;warehouse\r\n${rows.join('\r\n')}\r\n`);
  return 'est.csv';
}

/** The first run (000123 and REJ-1 refused, 007890 invalid), then its errors file with the -3 fixed to 3. */
async function fixedErrorsFile(folder: string): Promise<string> {
  const sent = stockStore(['000123', 'REJ-1']);
  const first = await push(folder, stockFile(folder), '--skip-invalid');
  expect(first.code).toBe(1);
  expect(sent.map((item) => item.sku)).toEqual(['A1', '000123', 'REJ-1']);
  const errors = readFileSync(join(folder, onlyErrorsFile(folder, 'est')), 'utf8');
  expect(errors.split('\r\n').slice(0, 4)).toEqual([
    '\uFEFFsku;quantity;price;salePrice;warehouse;row;error',
    // In the file's order (the invalid row 4 was found before row 3 was refused).
    "'000123;10;1.234,50;;CD-SP;3;SKU not found",
    "'007890;-3;10,00;;CD-SP;4;Property [quantity] with value [-3] does not pass validation (quantity must be a whole number of 0 or more)",
    'REJ-1;5;2,50;;CD-SP;5;SKU not found',
  ]);
  writeFileSync(join(folder, 'errors-edit.csv'), errors.replace(';-3;10,00;', ';3;10,00;'));
  return 'errors-edit.csv';
}

/** A workbook row: a SKU as a text cell, its quantity and a price of 2.5 as number cells. */
const workbookRow = (number: number, sku: string, quantity: number) =>
  `<row r="${number}">${inlineCell(`A${number}`, sku)}${numberCell(`B${number}`, quantity)}${numberCell(`C${number}`, 2.5)}</row>`;

/** A workbook whose SKUs are text cells (`0000001`, `0000002`) pushed with the first refused: its errors file's name. */
async function workbookErrorsFile(folder: string): Promise<string> {
  writeXlsx(
    join(folder, 'f.xlsx'),
    `<row r="1">${inlineCell('A1', 'sku')}${inlineCell('B1', 'quantity')}${inlineCell('C1', 'price')}</row>${workbookRow(2, '0000001', 4)}${workbookRow(3, '0000002', 5)}`,
  );
  stockStore(['0000001']);
  expect((await push(folder, 'f.xlsx')).code).toBe(1);
  return onlyErrorsFile(folder, 'f');
}

/** A Calc of a pt-BR or an en-US office; `special` is its "detect special numbers" (dates, times, percentages). */
interface CalcLocale {
  language: 1046 | 1033;
  locale: 'pt_BR.UTF-8' | 'en_US.UTF-8';
  special: boolean;
}

const ptBR: CalcLocale = { language: 1046, locale: 'pt_BR.UTF-8', special: false };

/** The CSV opened in Calc as a user opens it (`separator`, UTF-8, default column types) and saved as CSV again. */
function savedByCalc(folder: string, csv: string, separator: ';' | ',', calc = ptBR): string {
  const options = `${separator.charCodeAt(0)},34,76,1,,${calc.language},false,${calc.special}`;
  const out = `calc-${calc.language}-${calc.special}`;
  convertedByCalc({
    folder,
    infilter: `Text - txt - csv (StarCalc):${options}`,
    convertTo: `csv:Text - txt - csv (StarCalc):${options},true,false,false`,
    outdir: join(folder, out),
    files: [join(folder, csv)],
    timeoutMs: 300_000,
    // The office's Calc (a pt-BR one writes decimal commas), whatever the machine's locale.
    env: { ...process.env, LC_ALL: calc.locale },
  });
  return join(out, csv);
}

/**
 * SKUs a spreadsheet reads as a number, a date, a time, a percentage, an amount or a boolean, and writes back its own
 * way (a user test: `2.10` came back `2.1` and `+123` as `123`, fed back with exit 0); `-123` and `1A` it keeps.
 */
const valueLikeSkus = [
  '2.10 +123 -0001 1,50 1.500 1.234,5 1,234.5 1E5 .5 ,5 1/2 01/02/2026 2026-01-01 12:30'.split(' '),
  ['1 PM', '3 jan', '3-Jan-2026', '50%', '(123)', '$5', 'R$ 5', 'true', '-123', '1A'],
  // Read by Calc with "detect special numbers" as -123, -1.5 and the first of the month (a user test).
  ['123-', '1.5-', 'Dec 2026', 'dez/2026', 'março 2026', 'dezembro 2026', 'Jan 2026', 'March 2026'],
].flat();

/** A run with every valueLikeSkus item refused: its `;` errors file, each item's quantity its place in the list. */
async function valueLikeErrorsFile(folder: string): Promise<string> {
  const rows = valueLikeSkus.map((sku, index) => `${sku};${index + 1};2,50`);
  writeFileSync(join(folder, 'v.csv'), `sku;quantity;price\r\n${rows.join('\r\n')}\r\n`);
  stockStore(valueLikeSkus);
  expect((await push(folder, 'v.csv')).code).toBe(1);
  return onlyErrorsFile(folder, 'v');
}

describe('stock push: an errors file whose SKUs have leading zeros, fixed and fed back', () => {
  it('as b2bctl wrote it: the platform receives 007890 and 000123, exit 0', async () => {
    const folder = freshWorkDir();
    const fixed = await fixedErrorsFile(folder);
    const sent = stockStore([]);
    const run = await push(folder, fixed);
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    expect(sent.map((item) => [item.sku, item.quantity, item.price])).toEqual([
      ['000123', 10, 1234.5],
      ['007890', 3, 10],
      ['REJ-1', 5, 2.5],
    ]);
  });

  it("a user's own file with '000123 (as some ERPs export codes): sent as 000123, the quantity's '0010 as 10", async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'erp.csv'), "sku,quantity,price\n'000123,'0010,1.50\n'0000000000000000001,2,3.00\n");
    const sent = stockStore([]);
    const run = await push(folder, 'erp.csv');
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    expect(sent.map((item) => [item.sku, item.quantity, item.price])).toEqual([
      ['000123', 10, 1.5],
      ['0000000000000000001', 2, 3],
    ]);
  });

  it('a workbook whose SKUs are text cells: its `,` errors file keeps them as the next run reads them', async () => {
    const folder = freshWorkDir();
    const errors = readFileSync(join(folder, await workbookErrorsFile(folder)), 'utf8');
    expect(errors).toBe("\uFEFFsku,quantity,price,row,error\r\n'0000001,4,2.5,2,SKU not found\r\n");
  });
});

describe('stock push: an errors file whose SKUs read as numbers or dates', () => {
  it("writes each behind a ', but not -123, 1A, nor any quantity or price, and the next run sends them as they were", async () => {
    const folder = freshWorkDir();
    const errors = await valueLikeErrorsFile(folder);
    const text = readFileSync(join(folder, errors), 'utf8');
    expect(text).toContain("\r\n'2.10;1;2,50;2;SKU not found\r\n");
    expect(text).toContain("\r\n'+123;2;2,50;3;SKU not found\r\n");
    expect(text).toContain("\r\n'3 jan;16;2,50;17;SKU not found\r\n");
    expect(text).toContain("\r\n'true;22;2,50;23;SKU not found\r\n");
    expect(text).toContain('\r\n-123;23;2,50;24;SKU not found\r\n');
    expect(text).toContain('\r\n1A;24;2,50;25;SKU not found\r\n');
    const sent = stockStore([]);
    const run = await push(folder, errors);
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    expect(sent.map((item) => [item.sku, item.quantity])).toEqual(valueLikeSkus.map((sku, index) => [sku, index + 1]));
  });
});

describe.skipIf(soffice.missing)(`stock push: the errors file saved again by LibreOffice Calc${soffice.note}`, () => {
  it.each([
    ['pt-BR', ptBR],
    ['pt-BR with special numbers', { ...ptBR, special: true }],
    ['en-US', { language: 1033, locale: 'en_US.UTF-8', special: false }],
    ['en-US with special numbers', { language: 1033, locale: 'en_US.UTF-8', special: true }],
  ] as const)(
    'SKUs that read as numbers or dates, saved as CSV by a %s Calc: the platform receives each as it was',
    { timeout: 600_000 },
    async (_name, calc: CalcLocale) => {
      const folder = freshWorkDir();
      const saved = savedByCalc(folder, await valueLikeErrorsFile(folder), ';', calc);
      const sent = stockStore([]);
      const run = await push(folder, saved);
      expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
      expect(sent.map((item) => [item.sku, item.quantity, item.price])).toEqual(
        valueLikeSkus.map((sku, index) => [sku, index + 1, 2.5]),
      );
    },
  );

  it(
    "opened and saved as CSV with default column types: Calc keeps '000123, the platform receives 007890 and 000123",
    { timeout: 600_000 },
    async () => {
      const folder = freshWorkDir();
      const saved = savedByCalc(folder, await fixedErrorsFile(folder), ';');
      // Calc stored the guarded codes as text, and wrote them back as they were.
      const text = readFileSync(join(folder, saved), 'utf8');
      expect(text).toMatch(/^'?007890;3;10;;CD-SP;4;/m);
      expect(text).toMatch(/^'?000123;10;1234,5;;CD-SP;3;/m);
      const sent = stockStore([]);
      const run = await push(folder, saved);
      expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
      expect(sent.map((item) => [item.sku, item.quantity, item.price])).toEqual([
        ['000123', 10, 1234.5],
        ['007890', 3, 10],
        ['REJ-1', 5, 2.5],
      ]);
    },
  );

  it(
    "a workbook's `,` errors file opened and saved as CSV: the platform receives 0000001",
    { timeout: 600_000 },
    async () => {
      const folder = freshWorkDir();
      const saved = savedByCalc(folder, await workbookErrorsFile(folder), ',');
      expect(readFileSync(join(folder, saved), 'utf8')).toMatch(/^'?0000001,4,2[.,]5,2,SKU not found/m);
      const sent = stockStore([]);
      const run = await push(folder, saved);
      expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
      expect(sent.map((item) => [item.sku, item.quantity, item.price])).toEqual([['0000001', 4, 2.5]]);
    },
  );
});
