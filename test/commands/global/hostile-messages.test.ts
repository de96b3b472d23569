/**
 * The messages the hostile-file replay found unclear, each checked word for word on the bulk command that reads
 * the file, with nothing sent to the platform.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine } from '../../support/command-line.js';
import { fetchToken, requestCounts, resetCounts, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: await fetchToken(sandbox) };
});
beforeEach(() => resetCounts(sandbox));
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

async function run(args: readonly string[], files: Record<string, string | Buffer>) {
  const folder = temporaryFolder('b2bctl-hostile-');
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  const result = await runCommandLine(args, { configDir: join(folder, 'config'), cwd: folder, env });
  expect(await requestCounts(sandbox)).toEqual({});
  return result;
}

const customerHeader =
  'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number';

describe('messages of the hostile-file replay', () => {
  it('rows written with another delimiter than the header: says the delimiter looks wrong and names --delimiter', async () => {
    const result = await run(['customer', 'create', 'c.csv'], {
      'c.csv': `${customerHeader}\ncpf,123.000.007-09,Cliente 1 São João,a@b.com.br,11987654321,Senha#1,01310-100,1\n`,
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'error: c.csv:2: the row is one cell holding "," where the header has 8 ";"-separated columns: the delimiter looks wrong; nothing was sent. Save the file with one delimiter, or pass --delimiter "," if the rows are right.\n',
    );
    // One error for the file: no "required" for each field the row's cells did not reach.
    expect(result.stderr).not.toContain('required');
    expect(result.stderr.match(/c\.csv:/g)).toHaveLength(1);
  });

  it('a short row: says it has fewer cells than the header', async () => {
    const result = await run(['stock', 'push', 's.csv'], { 's.csv': 'sku,quantity,price\nGEN-0000001,3\n' });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      's.csv:2: the row has 2 cells but the header has 3 columns: a cell is missing, or a delimiter or quote is off\n',
    );
  });

  it('data under an empty header cell: names the unnamed column and its first data; exit 65', async () => {
    const result = await run(['stock', 'push', 's.csv', '--dry-run'], {
      's.csv': 'sku,,quantity\nGEN-0000001,lote 7,3\n',
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'error: s.csv:2: column 2 (B) has no header but holds "lote 7"; nothing was sent. Give the column a header (a field name, or one --map reads), or delete it.\n',
    );
  });

  it('1.500 as a quantity in a tab-separated file: suggests --decimal ,', async () => {
    const result = await run(['stock', 'push', 't.txt'], { 't.txt': 'sku\tquantity\nGEN-0000001\t1.500\n' });
    expect(result.code).toBe(65);
    // One line, the reader's, naming both readings (the rules' own complaint about the 1.5 read from it is not said).
    expect(result.stderr).toContain(
      't.txt:2: quantity: 1.500 is 1500 written the pt-BR way, or 1.5 with a decimal point: pass --decimal , or --decimal . to say which the file writes\n',
    );
    expect(result.stderr).not.toContain('Property [quantity]');
  });

  it.each([
    [
      'a LibreOffice .ods cut short (only its first bytes)',
      'f.ods',
      Buffer.concat([
        Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]),
        Buffer.from('mimetypeapplication/vnd.oasis.opendocument.spreadsheet'),
      ]),
      'error: f.ods: cannot read the workbook (end of central directory record signature not found); the file is damaged or cut short. Open it in the spreadsheet program and save it again.',
    ],
    [
      'an old Excel .xls',
      'f.xls',
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
      'error: f.xls: this is an old Excel workbook (.xls), which b2bctl does not read. Save it as .xlsx (Excel: Save As > "Excel Workbook"; LibreOffice: File > Save As > "Excel 2007-365"), or convert it with soffice --headless --convert-to xlsx FILE, and pass that file.',
    ],
    [
      'a gzip file',
      'f.csv.gz',
      gzipSync('sku,quantity\nGEN-0000001,3\n'),
      'error: f.csv.gz: this is gzip-compressed. Decompress it first (gunzip FILE), or pipe it: zcat FILE | b2bctl … -',
    ],
    [
      'UTF-16 without a BOM',
      'f.csv',
      Buffer.from('sku,quantity\nGEN-0000001,3\n', 'utf16le'),
      'error: f.csv: this is UTF-16 text without a byte-order mark (utf-16le). Pass --encoding utf-16le, or save it as UTF-8.',
    ],
  ])('%s is named, exit 65', async (_what, name, bytes, message) => {
    const result = await run(['stock', 'push', name], { [name]: bytes });
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(message);
    expect(result.code).toBe(65);
  });

  it('UTF-16 without a BOM reads with the --encoding the message names', async () => {
    const result = await run(['stock', 'validate', 'f.csv', '--encoding', 'utf-16le'], {
      'f.csv': Buffer.from('sku,quantity\nGEN-0000001,3\n', 'utf16le'),
    });
    expect(result.code).toBe(0);
  });

  it('a symbolic link loop is called one, exit 66', async () => {
    const folder = temporaryFolder('b2bctl-loop-');
    symlinkSync(join(folder, 'b.csv'), join(folder, 'a.csv'));
    symlinkSync(join(folder, 'a.csv'), join(folder, 'b.csv'));
    const result = await runCommandLine(['stock', 'push', 'a.csv'], {
      configDir: join(folder, 'config'),
      cwd: folder,
      env,
    });
    expect(result.stderr).toContain(
      'error: a.csv: is a symbolic link that leads back to itself (a loop of links); point it at the real file.\n',
    );
    expect(result.code).toBe(66);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('191 as a document gets the lost-zeros hint; a phone in scientific notation the spreadsheet hint', async () => {
    const result = await run(['customer', 'create', 'c.csv'], {
      'c.csv': `${customerHeader}\ncpf;191;Ana;ana@b.com.br;1,19877E+10;Senha#1;01310-100;1\n`,
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'Property [document] with value [191] does not pass validation (a CPF has 11 digits and a CNPJ 14 characters; a leading zero was probably lost in a spreadsheet: 000.000.001-91 or 00.000.000/0001-91 would be valid)',
    );
    expect(result.stderr).toContain(
      'Property [phone] with value [1,19877E+10] does not pass validation (Excel showed this number in scientific notation; format the column as Text and export again)',
    );
  });
});
