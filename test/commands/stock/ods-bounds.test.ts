/**
 * An .ods whose content.xml holds what no spreadsheet program writes is held to the bounds of an .xlsx
 * (workbook-bounds.test.ts): a cell of millions of characters, a `<text:s>` standing for a billion spaces, a row never
 * ended, a value repeated over more columns than a sheet has, a row repeated a billion times, more merged ranges
 * than any sheet of records. Each ends at once with one line naming the file and what is too large, exit 65, nothing
 * sent: not a reader holding or copying until the heap is gone.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type B2bctlError, ExitCode } from '../../../src/base/errors.js';
import { run as push } from '../../../src/commands/stock/push.js';
import { run as validate } from '../../../src/commands/stock/validate.js';
import { requestCounts, useSandbox } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';
import { odsNumber, odsText, writeOds } from '../../support/workbook-writer.js';

const fixture = useSandbox();

const header = `<table:table-row>${['sku', 'quantity', 'price', 'salePrice', 'warehouse'].map((name) => odsText(name)).join('')}</table:table-row>`;

/** A valid stock line (`attributes` on its row, such as `table:number-rows-repeated`). */
function stockRow(sku: string, attributes = ''): string {
  return `<table:table-row${attributes === '' ? '' : ` ${attributes}`}>${odsText(sku)}${odsNumber(1)}${odsNumber(9.9)}</table:table-row>`;
}

function workbook(name: string, rows: string, options?: Parameters<typeof writeOds>[2]): string {
  const file = join(temporaryFolder('b2bctl-ods-bounds-'), name);
  writeOds(file, rows, options);
  return file;
}

const tail =
  'Open it in the spreadsheet program and save it again; if it is meant to be this long, raise the setting: b2bctl config set input.maxRowChars NUMBER.';

/** `stock push` of `file`: its exit code and stderr, and that nothing reached the platform. */
async function pushed(file: string): Promise<{ code: number; stderr: string; closing: string | undefined }> {
  const { sandbox, loggedInContext } = fixture();
  const test = await loggedInContext();
  const code = await test.run(push, { file, route: 'batch', strict: false, dryRun: false, skipInvalid: false });
  expect(await requestCounts(sandbox)).toEqual({});
  return { code, stderr: test.stderr(), closing: (test.error as B2bctlError | undefined)?.closingLine?.message };
}

describe('an .ods holding more than any row may', () => {
  it('a cell of 6,000,000 characters (a file of kilobytes): refused naming its cell, exit 65, nothing sent', async () => {
    const file = workbook(
      'bigcell.ods',
      `${header}<table:table-row>${odsText('SKU-2')}${odsNumber(1)}${odsNumber(9.9)}${odsText('', 'table:number-columns-repeated="1"')}${odsText('A'.repeat(6_000_000))}</table:table-row>${stockRow('SKU-3')}`,
    );
    const { code, stderr, closing } = await pushed(file);
    expect(code).toBe(ExitCode.dataInvalid);
    expect(stderr).toMatch(
      new RegExp(
        `^stock push: validating ${file}\\nerror: ${file}:2: cell Estoque!E2 runs on for more than 5,[23]\\d\\d,\\d{3} characters of the workbook's XML without ending, more than a row within the input.maxRowChars setting can take: the workbook is damaged \\(a bad copy or disk\\), or holds a cell far longer than a spreadsheet row. ${tail.replace(/[.]/g, '\\.')}\\n$`,
      ),
    );
    expect(closing).toMatch(/: nothing (sent|read); exit 65$/);
  });

  it('a <text:s> standing for 100,000,000 spaces: refused before they are made, naming the cell (the row holds 6 more)', async () => {
    const spaces = '<text:s text:c="100000000"/>';
    const file = workbook(
      'spaces.ods',
      `${header}<table:table-row>${odsText('SKU-2')}<table:table-cell office:value-type="string"><text:p>1${spaces}</text:p></table:table-cell></table:table-row>`,
    );
    const { code, stderr } = await pushed(file);
    expect(code).toBe(ExitCode.dataInvalid);
    expect(stderr).toContain(
      `\nerror: ${file}:2: cell Estoque!B2 runs on for more than 100,000,006 characters of the workbook's XML without ending, `,
    );
  });

  it('a damaged row that never ends (cells without `</table:table-row>`): refused naming the row, exit 65', async () => {
    const garbage = '<table:table-cell table:style-name="ce1"/>'.repeat(200_000);
    const file = workbook('flip.ods', `${header}${stockRow('SKU-2')}<table:table-row>${garbage}`);
    const { code, stderr } = await pushed(file);
    expect(code).toBe(ExitCode.dataInvalid);
    expect(stderr).toMatch(
      new RegExp(
        `\\nerror: ${file}:3: row 3 of sheet "Estoque" runs on for more than [\\d,]+ characters of the workbook's XML without ending, `,
      ),
    );
  });

  it("text that runs on outside any row (a damaged stream before the sheet): the workbook's content.xml, exit 65", async () => {
    const file = workbook('before.ods', `${header}${stockRow('SKU-2')}`, {
      beforeTable: `<table:table table:name="Capa"><table:table-row>${odsText('x')}</table:table-row></table:table>${'B'.repeat(6_000_000)}`,
    });
    const { code, stderr } = await pushed(file);
    expect(code).toBe(ExitCode.dataInvalid);
    expect(stderr).toMatch(
      new RegExp(
        `\\nerror: ${file}: the workbook's content.xml runs on for more than [\\d,]+ characters of the workbook's XML without ending, `,
      ),
    );
  });

  it('a value repeated over 1,000,000 columns: refused naming the last cell and input.maxColumns, exit 65', async () => {
    const file = workbook(
      'wide.ods',
      `${header}<table:table-row>${odsText('SKU-2')}${odsNumber(1, 'table:number-columns-repeated="1000000"')}</table:table-row>`,
    );
    const { code, stderr } = await pushed(file);
    expect(code).toBe(ExitCode.dataInvalid);
    expect(stderr).toContain(
      `\nerror: ${file}:2: row 2 of sheet "Estoque" has values up to cell Estoque!BDWGO2, column 1,000,001, more than the 16,384 columns the input.maxColumns setting allows: the workbook is damaged (a bad copy or disk), or holds a row far wider than a sheet of records. Open it in the spreadsheet program and save it again; if it is meant to be this wide, raise the setting: b2bctl config set input.maxColumns NUMBER.\n`,
    );
  });

  it('a row of values repeated 1,000,000,000 times: refused at once, naming the row, exit 65, nothing sent', async () => {
    const file = workbook('repeated.ods', `${header}${stockRow('SKU-2', 'table:number-rows-repeated="1000000000"')}`);
    const { code, stderr } = await pushed(file);
    expect(code).toBe(ExitCode.dataInvalid);
    expect(stderr).toContain(
      `\nerror: ${file}:2: row 2 of sheet "Estoque" is repeated 1,000,000,000 times, past row 1,048,576, the last a sheet of Excel or Calc holds: the workbook is damaged (a bad copy or disk), or was not saved by a spreadsheet program. Open it in the spreadsheet program and save it again; if the sheet is meant to be this long, save it as CSV and pass that file.\n`,
    );
  });

  it('more than 262,144 merged ranges held at once: refused naming the sheet, exit 65', async () => {
    // Empty, right of the header: a cell holding data there is refused first, as data under no header.
    const merged = `<table:table-cell table:number-rows-spanned="1000"/>`;
    const rows = `<table:table-row>${odsText('SKU-2')}${merged.repeat(4_000)}</table:table-row>`.repeat(66);
    const file = workbook('merged.ods', `${header}${rows}`);
    const test = await fixture().loggedInContext();
    const code = await test.run(validate, { file, strict: false });
    expect(code).toBe(ExitCode.dataInvalid);
    expect(test.stderr()).toBe(
      `error: ${file}: sheet "Estoque" merges more than 262,144 ranges of cells, more than b2bctl holds: the workbook is damaged (a bad copy or disk), or merges far more cells than a sheet of records. Open it in the spreadsheet program and save it again; if its cells are meant to be merged so, unmerge them, fill each value down its rows, and save it again.\n`,
    );
  });
});

describe('an .ods whose other parts hold more than any workbook', () => {
  it('a settings.xml of 6,000,000 characters (read whole before the rows): refused naming it, exit 65', async () => {
    const file = workbook('settings.ods', `${header}${stockRow('SKU-2')}`, {
      settings: `<office:document-settings>${'C'.repeat(6_000_000)}</office:document-settings>`,
    });
    const { code, stderr } = await pushed(file);
    expect(code).toBe(ExitCode.dataInvalid);
    expect(stderr).toMatch(
      new RegExp(
        `\\nerror: ${file}: the workbook's settings.xml runs on for more than [\\d,]+ characters of the workbook's XML without ending, `,
      ),
    );
  });

  it('10,001 sheets (a few bytes each): refused at the one past the most Calc holds, exit 65', async () => {
    const file = workbook('sheets.ods', `${header}${stockRow('SKU-2')}`, {
      beforeTable: '<table:table table:name="x"/>'.repeat(10_000),
      sheet: 'Estoque',
    });
    const test = await fixture().loggedInContext();
    const code = await test.run(validate, { file, strict: false, sheet: 'Estoque' });
    expect(code).toBe(ExitCode.dataInvalid);
    expect(test.stderr()).toBe(
      `error: ${file}: the workbook lists more than 10,000 sheets, the most Calc holds: the workbook is damaged (a bad copy or disk), or was not saved by a spreadsheet program. Open it in the spreadsheet program and save it again; or export the sheet as CSV and pass that file.\n`,
    );
  });
});

describe('an .ods within the bounds', () => {
  it('a row repeated 20,000 times is read as 20,000 rows (not cut at 16,384), a batch at a time', async () => {
    const file = workbook(
      'estoque.ods',
      `${header}${stockRow('SKU-2')}<table:table-row table:number-rows-repeated="20000">${odsText('', 'table:number-columns-repeated="2"')}${odsNumber(9.9)}</table:table-row>${stockRow('SKU-LAST')}`,
    );
    const test = await fixture().loggedInContext();
    const code = await test.run(validate, { file, strict: false });
    expect(code).toBe(ExitCode.dataInvalid);
    expect(test.stderr()).toContain(`error: 20000 of 20002 records of ${file} are invalid`);
    const lines = new Set(
      test
        .stdout()
        .split('\n')
        .flatMap((line) => /"line":(\d+)/.exec(line)?.[1] ?? []),
    );
    expect(lines.size).toBe(20_000);
    expect([lines.has('3'), lines.has('20002'), lines.has('20003')]).toEqual([true, true, false]);
  });
});
