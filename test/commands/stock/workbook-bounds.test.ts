/**
 * A workbook whose sheet holds what no spreadsheet program writes: a cell of millions of characters in a file of
 * kilobytes, a damaged stream inflated into rows that never end or cells never closed, a workbook saved over while
 * it is read. Each ends at once with one line naming the file (and the cell, when the XML names it), exit 65, nothing
 * sent: not a reader holding the text until the heap is gone (a user test).
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type B2bctlError, ExitCode } from '../../../src/base/errors.js';
import { run as push } from '../../../src/commands/stock/push.js';
import { run as validate } from '../../../src/commands/stock/validate.js';
import { requestCounts, useSandbox } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';
import { inlineCell, numberCell, writeXlsx } from '../../support/workbook-writer.js';

const fixture = useSandbox();

const header = `<row r="1">${['sku', 'quantity', 'price', 'salePrice', 'warehouse'].map((name, index) => inlineCell(`${'ABCDE'[index]}1`, name)).join('')}</row>`;

/** Row `row` of a valid stock line (its quantity `quantity`). */
function stockRow(row: number, quantity = row): string {
  return `<row r="${row}">${inlineCell(`A${row}`, `SKU-${row}`)}${numberCell(`B${row}`, quantity)}${numberCell(`C${row}`, 9.9)}</row>`;
}

function workbook(name: string, sheetData: string): string {
  const file = join(temporaryFolder('b2bctl-workbook-bounds-'), name);
  writeXlsx(file, sheetData);
  return file;
}

describe('a workbook whose sheet holds more than any row may', () => {
  it('a cell of 6,000,000 characters (a file of kilobytes): refused naming its cell, exit 65, nothing sent', async () => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext();
    const file = workbook(
      'bigcell.xlsx',
      `${header}<row r="2">${inlineCell('A2', 'SKU-2')}${numberCell('B2', 1)}${inlineCell('E2', 'A'.repeat(6_000_000))}</row>${stockRow(3)}`,
    );
    const code = await test.run(push, { file, route: 'batch', strict: false, dryRun: false, skipInvalid: false });
    expect(code).toBe(ExitCode.dataInvalid);
    expect(test.stderr()).toMatch(
      new RegExp(
        `^stock push: validating ${file}\\nerror: ${file}:2: cell Estoque!E2 runs on for more than 5,30\\d,\\d{3} characters of the workbook's XML without ending, more than a row within the input.maxRowChars setting can take: the workbook is damaged \\(a bad copy or disk\\), or holds a cell far longer than a spreadsheet row. Open it in the spreadsheet program and save it again; if it is meant to be this long, raise the setting: b2bctl config set input.maxRowChars NUMBER.\\n$`,
      ),
    );
    expect((test.error as B2bctlError).closingLine?.message).toMatch(/: nothing (sent|read); exit 65$/);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a damaged sheet whose text never opens another row (`</row>` without `<row`): refused, exit 65, nothing sent', async () => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext();
    const garbage = '<c r="B9" s="2"><v>1</v></c></row>'.repeat(200_000);
    const file = workbook('flip.xlsx', `${header}${stockRow(2)}<row r="3" ht="12.8">${garbage}`);
    const code = await test.run(push, { file, route: 'batch', strict: false, dryRun: false, skipInvalid: false });
    expect(code).toBe(ExitCode.dataInvalid);
    expect(test.stderr()).toMatch(
      new RegExp(
        `\\nerror: ${file}:4: row 4 of sheet "Estoque" runs on for more than [\\d,]+ characters of the workbook's XML without ending, `,
      ),
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it("a damaged row holding a cell never closed: the damaged workbook's line, exit 65, nothing sent", async () => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext();
    const file = workbook(
      'open-cell.xlsx',
      `${header}${stockRow(2)}<row r="3"><c r="A3" t="inlineStr"><is><t>SKU-3</t></is></row>${stockRow(4)}`,
    );
    const code = await test.run(push, { file, route: 'batch', strict: false, dryRun: false, skipInvalid: false });
    expect(code).toBe(ExitCode.dataInvalid);
    expect(test.stderr()).toContain(
      `error: ${file}: cannot read the workbook (row 3 holds a cell never closed); the file is damaged or cut short. Open it in the spreadsheet program and save it again.\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

/** 60,000 rows (the first one refused: its problem is the moment the test saves the workbook over). */
function largeWorkbook(): string {
  const rows = Array.from({ length: 60_000 }, (_, index) => stockRow(index + 2, index === 0 ? -1 : index));
  return workbook('estoque.xlsx', `${header}${rows.join('')}`);
}

/** Saves `small` over `file` once `stream` has carried the problem of its row 2, as Excel or the ERP would. */
function saveOverOnceRowTwoIsShown(stream: NodeJS.WritableStream, file: string, small: string): void {
  let shown = '';
  const onData = (chunk: Buffer) => {
    shown += chunk.toString('utf8');
    if (!shown.includes(`${file}:2: `) && !/"line": ?2,/.test(shown)) return;
    (stream as unknown as Readable).off('data', onData);
    writeFileSync(file, readFileSync(small));
  };
  (stream as unknown as Readable).on('data', onData);
}

describe('a workbook saved over while it is read', () => {
  it('stock push: "changed while it was being read", exit 65, nothing sent (not `unexpected end of file`, exit 1)', async () => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext();
    const file = largeWorkbook();
    const small = workbook('small.xlsx', `${header}${stockRow(2)}`);
    saveOverOnceRowTwoIsShown(test.context.io.stderr, file, small);
    const code = await test.run(push, { file, route: 'batch', strict: false, dryRun: false, skipInvalid: false });
    expect(test.stderr()).toContain(
      `\nerror: ${file} changed while it was being read (another program is writing or replacing it); nothing was sent. Run again once the export is complete, or copy it first and pass the copy.\n`,
    );
    expect((test.error as B2bctlError).closingLine?.message).toBe(
      `stock push: ${file} to profile "default" (${sandbox.url}): nothing sent; exit 65`,
    );
    expect(code).toBe(ExitCode.dataInvalid);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('stock validate: the same refusal, exit 65', async () => {
    const { loggedInContext } = fixture();
    const test = await loggedInContext();
    const file = largeWorkbook();
    const small = join(temporaryFolder('b2bctl-workbook-bounds-'), 'small.xlsx');
    copyFileSync(workbook('s.xlsx', `${header}${stockRow(2)}`), small);
    saveOverOnceRowTwoIsShown(test.context.io.stdout, file, small);
    const code = await test.run(validate, { file, strict: false });
    expect(test.stderr()).toBe(
      `error: ${file} changed while it was being read (another program is writing or replacing it): what was checked is not the file as it now stands. Run again once the export is complete, or copy it first and validate the copy.\n`,
    );
    expect(code).toBe(ExitCode.dataInvalid);
  });
});

describe('a workbook listing more merged ranges than any sheet of records', () => {
  it('262,145 ranges after the rows: refused before a row is read, naming the sheet, exit 65, nothing sent', async () => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext();
    const merges = Array.from({ length: 262_145 }, (_, index) => `<mergeCell ref="F${index + 2}:G${index + 2}"/>`);
    const file = join(temporaryFolder('b2bctl-workbook-bounds-'), 'merged.xlsx');
    writeXlsx(file, `${header}${stockRow(2)}`, `<mergeCells count="${merges.length}">${merges.join('')}</mergeCells>`);
    const code = await test.run(push, { file, route: 'batch', strict: false, dryRun: false, skipInvalid: false });
    expect(code).toBe(ExitCode.dataInvalid);
    expect(test.stderr()).toBe(
      `stock push: validating ${file}\nerror: ${file}: sheet "Estoque" merges more than 262,144 ranges of cells, more than b2bctl holds: the workbook is damaged (a bad copy or disk), or merges far more cells than a sheet of records. Open it in the spreadsheet program and save it again; if its cells are meant to be merged so, unmerge them, fill each value down its rows, and save it again.\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('262,144 ranges are read', async () => {
    const test = await fixture().loggedInContext();
    const merges = Array.from({ length: 262_144 }, (_, index) => `<mergeCell ref="F${index + 2}:G${index + 2}"/>`);
    const file = join(temporaryFolder('b2bctl-workbook-bounds-'), 'merged.xlsx');
    writeXlsx(file, `${header}${stockRow(2)}`, `<mergeCells count="${merges.length}">${merges.join('')}</mergeCells>`);
    expect(await test.run(validate, { file, strict: false })).toBe(ExitCode.ok);
  });
});
