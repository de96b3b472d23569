/**
 * Real spreadsheet exports of the stock sheet (issue 10), made by LibreOffice (test/fixtures/real-exports/README.md):
 * every Office encoding and layout imports with its accents intact; a file whose encoding cannot be
 * trusted stops before any request, naming the line and the likely encoding.
 */
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { maskClock } from '../../support/run-files.js';
import { repoRoot, requestCounts } from '../../support/sandbox.js';
import { batchRoute, stockEntries, stockSummary } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

const fixtures = join(repoRoot, 'test', 'fixtures', 'real-exports');

/** A working folder holding copies of the named fixtures (and other files), and a runner of the CLI inside it. */
function workspace(names: string[], files: Record<string, string | Buffer> = {}) {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  for (const name of names) copyFileSync(join(fixtures, name), join(dir, name));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  return { dir, run: (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env }) };
}

async function expectNothingSent(dir: string, inputs: string[]): Promise<void> {
  expect(await requestCounts(sandbox)).toEqual({});
  expect((await stockSummary(sandbox)).lines).toBe(0);
  expect(readdirSync(dir).toSorted()).toEqual(inputs.toSorted());
}

/** The sheet's description and date columns: read by no stock field, left out as its user would. */
const leftOut = ['--ignore-column', 'descrição', '--ignore-column', 'atualizado em'];

/** The stock sheet as typed: what every export must store, whatever its encoding or layout. */
const expectedStock = [
  { sku: 'ACU-REF-5KG', warehouse: 'CD-Ribeirão Preto', quantity: 12, price: 119.9, salePrice: null },
  { sku: 'AGUA-MIN-500ML-CX12', warehouse: 'CD-SP', quantity: 2000000, price: 18.75, salePrice: null },
  { sku: 'CAFE-TORR-500G', warehouse: null, quantity: 0, price: 25, salePrice: 22.5 },
  { sku: 'PAR-SXT-M8X40-ZN', warehouse: 'CD-SP', quantity: 1500, price: 1234.5, salePrice: 1111.05 },
];

describe('every real export of the stock sheet is pushed with its accents, its trailing ;;;; rows skipped', () => {
  const cases: { name: string; file: string; args?: string[] }[] = [
    { name: 'Windows-1252 ";" (Excel "CSV")', file: 'estoque.win1252.csv' },
    { name: 'tab-separated with decimal commas (sniffed)', file: 'estoque.tab.txt' },
    { name: 'UTF-16LE with BOM, tab (Excel "Unicode text")', file: 'estoque.utf16.txt' },
    { name: 'Excel\'s "sep=;" first line', file: 'estoque.sep.csv' },
    {
      name: 'CP850 with --encoding cp850 (Excel "CSV (MS-DOS)")',
      file: 'estoque.cp850.csv',
      args: ['--encoding', 'cp850'],
    },
    {
      name: 'MacRoman with --encoding macintosh (Excel "CSV (Macintosh)")',
      file: 'estoque.macroman.csv',
      args: ['--encoding', 'macintosh'],
    },
  ];
  for (const { name, file, args = [] } of cases) {
    it(`${name}`, async () => {
      const { run } = workspace([file]);
      const result = await run(['stock', 'push', file, ...args, ...leftOut]);
      expect(result.code).toBe(0);
      expect(maskClock(result.stderr)).toContain(
        `stock push: 4 records, 4 valid, 0 invalid, 3 blank rows skipped (T s)`,
      );
      const stored = (await stockEntries(sandbox)).map(({ sku, warehouse, quantity, price, salePrice }) => ({
        sku,
        warehouse,
        quantity,
        price,
        salePrice,
      }));
      expect(stored).toEqual(expectedStock);
    });
  }

  it('with --quiet a good night is the closing line alone: the columns left out on purpose are not said', async () => {
    const file = 'estoque.win1252.csv';
    const json = 'estoque.json';
    const { run } = workspace([file], {
      [json]: JSON.stringify([
        {
          sku: 'ACU-REF-5KG',
          quantity: 12,
          price: 119.9,
          descrição: 'Açúcar refinado 5 kg',
          'atualizado em': '29/11/2026',
        },
      ]),
    });
    for (const input of [file, json]) {
      const quiet = await run(['stock', 'push', input, '--route', 'batch', ...leftOut, '--quiet']);
      expect(quiet.stderr).toBe('');
      expect(quiet.closingLine).toMatch(
        new RegExp(`^stock push: ${input} to profile "default" \\(.+\\): \\d applied; exit 0$`),
      );
      expect(quiet.code).toBe(0);
    }
    // Without --quiet the notes stay, once per column (or key), at the header.
    const told = await run(['stock', 'push', file, '--route', 'batch', ...leftOut]);
    expect(told.stderr).toContain(`${file}:1: column "descrição" is left out (--ignore-column).`);
    expect(told.code).toBe(0);
  });

  it('validate counts the blank rows in its summary', async () => {
    const { run } = workspace(['estoque.win1252.csv']);
    const result = await run(['stock', 'validate', 'estoque.win1252.csv', ...leftOut]);
    expect(maskClock(result.stderr)).toContain(
      'estoque.win1252.csv: 4 records, 4 valid, 0 invalid (0 problems, 3 blank rows skipped) in T s.',
    );
    expect(result.code).toBe(0);
  });

  it('an empty template with only ;;;; rows below the header is nothing to push (exit 0)', async () => {
    const file = 'template.csv';
    const { dir, run } = workspace([], { [file]: 'sku;quantity;price;salePrice;warehouse\r\n;;;;\r\n  ;;; ;\r\n' });
    const result = await run(['stock', 'push', file]);
    expect(result.code).toBe(0);
    expect(maskClock(result.stderr)).toContain(`${file} has no records; nothing to send.`);
    await expectNothingSent(dir, [file]);
  });
});

describe('a file whose encoding cannot be trusted stops before any request', () => {
  it('CP850 without --encoding: names the line, the misread word and the likely encoding', async () => {
    const file = 'estoque.cp850.csv';
    const { dir, run } = workspace([file]);
    const result = await run(['stock', 'push', file]);
    expect(result.stderr).toBe(
      `stock push: validating ${file}\nerror: ${file}:1: "descri‡Æo" is not Brazilian text when read as windows-1252; the file is probably CP850 (Excel's "CSV (MS-DOS)"), where it reads "descrição": pass --encoding cp850, or re-export it as "CSV UTF-8".\n`,
    );
    expect(result.code).toBe(65);
    await expectNothingSent(dir, [file]);
  });

  it('MacRoman without --encoding: a byte Windows-1252 does not define is never sent as U+FFFD', async () => {
    const file = 'estoque.macroman.csv';
    const { dir, run } = workspace([file]);
    const result = await run(['stock', 'validate', file]);
    expect(result.stderr).toBe(
      `error: ${file}:1: byte 0x8D is not a character in windows-1252; the file is probably MacRoman (Excel's "CSV (Macintosh)"), where it reads "descrição": pass --encoding macintosh, or re-export it as "CSV UTF-8".\n`,
    );
    expect(result.code).toBe(65);
    await expectNothingSent(dir, [file]);
  });

  it('a UTF-8 file with one Windows-1252 row in its first 64 KB: mixed encodings at that line, nothing sent', async () => {
    const rows = Array.from({ length: 50 }, (_, index) => `ACU-REF-5KG;1;1,00;;CD-São Paulo ${index}`);
    const content = Buffer.concat([
      Buffer.from(`sku;quantity;price;salePrice;warehouse\r\n${rows.join('\r\n')}\r\n`),
      Buffer.from('SKU-X;1;1,00;;CD-Ribeir\xe3o Preto\r\n', 'latin1'),
    ]);
    const badByte = content.indexOf(0xe3, content.length - 20);
    const { dir, run } = workspace([], { 'mixed.csv': content });
    const result = await run(['stock', 'push', 'mixed.csv']);
    expect(result.stderr).toBe(
      `stock push: validating mixed.csv\nerror: mixed.csv:52: mixed encodings: line 52 is not UTF-8 (bytes 0xE3 0x6F 0x20 0x50 after byte ${badByte}) but line 2 holds UTF-8 ("CD-São"); no single encoding reads the file whole, so nothing was sent. Re-export the whole file as "CSV UTF-8", or retype line 52 in UTF-8.\n`,
    );
    expect(result.code).toBe(65);
    await expectNothingSent(dir, ['mixed.csv']);
  });

  it('an ASCII file whose first accent after 64 KB is Windows-1252 is read as Windows-1252 throughout', async () => {
    const rows = Array.from({ length: 2500 }, (_, index) => `PAR-SXT-M8X40-ZN;1;1,00;;WAREHOUSE-${index}`);
    const content = Buffer.concat([
      Buffer.from(`sku;quantity;price;salePrice;warehouse\r\n${rows.join('\r\n')}\r\n`),
      Buffer.from('ACU-REF-5KG;1;1,00;;CD-Ribeir\xe3o Preto\r\n', 'latin1'),
    ]);
    expect(content.length).toBeGreaterThan(64 * 1024);
    const { run } = workspace([], { 'late.csv': content });
    const result = await run(['stock', 'push', 'late.csv', '--route', 'batch']);
    expect(result.code).toBe(0);
    const stored = await stockEntries(sandbox);
    expect(stored.find((entry) => entry.sku === 'ACU-REF-5KG')?.warehouse).toBe('CD-Ribeirão Preto');
    expect((await requestCounts(sandbox))[batchRoute]).toBeGreaterThan(0);
  });

  it('a BOM followed by Windows-1252 is read as Windows-1252 (no "ï»¿sku" header)', async () => {
    const content = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('sku;quantity;price;salePrice;warehouse\r\nACU-REF-5KG;2;3,50;;CD-S\xe3o Paulo\r\n', 'latin1'),
    ]);
    const { run } = workspace([], { 'bom1252.csv': content });
    const result = await run(['stock', 'push', 'bom1252.csv']);
    expect(result.code).toBe(0);
    expect((await stockEntries(sandbox)).map((entry) => entry.warehouse)).toEqual(['CD-São Paulo']);
  });

  it('--encoding with a name nobody knows is a usage error before anything is read or sent', async () => {
    const { dir, run } = workspace(['estoque.win1252.csv']);
    const result = await run(['stock', 'push', 'estoque.win1252.csv', '--encoding', 'klingon']);
    expect(result.stderr).toContain(
      'error: --encoding klingon: not an encoding b2bctl knows; use a name such as utf-8, windows-1252, cp850, macintosh or utf-16le.',
    );
    expect(result.code).toBe(2);
    await expectNothingSent(dir, ['estoque.win1252.csv']);
  });
});

describe('numbers beyond exact precision', () => {
  it('a price of 99999999999999999999.99 is refused as written, nothing sent', async () => {
    const file = 'big.csv';
    const { dir, run } = workspace([], {
      [file]: 'sku,quantity,price\nACU-REF-5KG,1,99999999999999999999.99\n',
    });
    const result = await run(['stock', 'push', file]);
    expect(result.stderr).toContain(
      `${file}:2: Property [price] with value [99999999999999999999.99] does not pass validation`,
    );
    expect(result.code).toBe(65);
    await expectNothingSent(dir, [file]);
  });
});
