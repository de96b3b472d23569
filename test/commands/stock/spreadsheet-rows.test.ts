/**
 * The spreadsheet's row beside the file's line (issue 10, item 6), in everything a push writes: messages,
 * the report's `row` column, the errors file's `row` column, and repeats ("also on line 3 (row 2)").
 * The input is the real `sep=;` export (test/fixtures/real-exports/estoque.sep.csv: Excel's hidden first
 * line, a cell with a line break, trailing `;;;;` rows), with two cells retyped to make two rows invalid:
 * Excel hides the `sep=` line, so every row is one lower than its line, and two lower below the
 * two-line cell. `--resume` keys on the line: from a report with the row column, and from one written
 * before it.
 */
import { parse } from 'csv-parse/sync';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyErrorsFile, onlyReport, readErrorsCsv, readReport } from '../../support/run-files.js';
import { repoRoot, requestCounts, resetCounts } from '../../support/sandbox.js';
import { batchRoute, stockEntries } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

const realExport = readFileSync(join(repoRoot, 'test', 'fixtures', 'real-exports', 'estoque.sep.csv'), 'latin1');

/**
 * The real export with CAFE-TORR-500G's quantity retyped as -1 (line 6, row 4) and AGUA-MIN-500ML-CX12's SKU
 * retyped as the first row's (line 7, row 5: a repeat of line 3, row 2, so both are invalid); every other byte as
 * LibreOffice wrote it.
 */
function retypedExport(): Buffer {
  const text = realExport
    .replace('CAFE-TORR-500G;0;', 'CAFE-TORR-500G;-1;')
    .replace('AGUA-MIN-500ML-CX12;', 'PAR-SXT-M8X40-ZN;');
  expect(text).not.toBe(realExport);
  return Buffer.from(text, 'latin1');
}

function workspace() {
  const dir = freshWorkDir();
  writeFileSync(join(dir, 'estoque.csv'), retypedExport());
  const configDir = freshConfigDir();
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  // The sheet's description and date columns are read by no stock field: left out, as its user would.
  const leftOut = ['--ignore-column', 'descrição', '--ignore-column', 'atualizado em'];
  return { dir, run: (args: string[]) => runCommandLine([...args, ...leftOut], { configDir, cwd: dir, env }) };
}

const byLine = <T extends { line: string }>(rows: T[]) => rows.toSorted((a, b) => Number(a.line) - Number(b.line));

describe('a sep= export with a two-line cell: rows are Excel’s, lines the file’s', () => {
  it('messages name both, the header included; each repeat names the row of the other', async () => {
    const { run } = workspace();
    const result = await run(['stock', 'validate', 'estoque.csv', '-o', 'table']);
    expect(result.code).toBe(65);
    expect(result.stdout).toBe(
      [
        'estoque.csv:6 (row 4): Property [quantity] with value [-1] does not pass validation (quantity must be a whole number of 0 or more)',
        'estoque.csv:7 (row 5): Property [sku] with value [PAR-SXT-M8X40-ZN @ CD-SP] does not pass validation (the same SKU in this warehouse is also on line 3 (row 2) of this file)',
        'estoque.csv:3 (row 2): Property [sku] with value [PAR-SXT-M8X40-ZN @ CD-SP] does not pass validation (the same SKU in this warehouse is also on line 7 (row 5) of this file)',
        '',
      ].join('\n'),
    );
    // The header line too is named by line and row (below Excel's hidden sep= line).
    expect(result.stderr).toContain('estoque.csv:2 (row 1): column "descrição" is left out (--ignore-column).');
  });

  it('validate -o csv ends each problem with its row, as the report does; a JSON input has no row column', async () => {
    const { dir, run } = workspace();
    const result = await run(['stock', 'validate', 'estoque.csv', '-o', 'csv']);
    expect(result.code).toBe(65);
    const rows = parse(result.stdout) as string[][];
    expect(rows[0]).toEqual(['file', 'line', 'field', 'value', 'message', 'row']);
    expect(rows.slice(1).map((row) => [row[1], row[2], row[5]])).toEqual([
      ['6', 'quantity', '4'],
      ['7', 'sku', '5'],
      ['3', 'sku', '2'],
    ]);
    writeFileSync(join(dir, 'estoque.json'), '[{"sku":"A","quantity":-1,"price":1}]');
    const json = await run(['stock', 'validate', 'estoque.json', '-o', 'csv']);
    expect(json.code).toBe(65);
    expect((parse(json.stdout) as string[][])[0]).toEqual(['file', 'line', 'field', 'value', 'message']);
  });

  it('the report keeps the line in its line cell and adds the row; the errors file has the row before its error', async () => {
    const { dir, run } = workspace();
    const result = await run(['stock', 'push', 'estoque.csv', '--skip-invalid']);
    expect(result.code).toBe(1);
    const report = byLine(readReport(join(dir, onlyReport(dir, 'estoque'))));
    expect(report.map(({ line, row, key, outcome }) => [line, row, key, outcome])).toEqual([
      ['3', '2', 'PAR-SXT-M8X40-ZN', 'invalid'],
      ['4', '3', 'ACU-REF-5KG', 'applied'],
      ['6', '4', 'CAFE-TORR-500G', 'invalid'],
      ['7', '5', 'PAR-SXT-M8X40-ZN', 'invalid'],
    ]);
    const errors = readErrorsCsv(join(dir, onlyErrorsFile(dir, 'estoque')), ';');
    expect(errors.header.slice(-2)).toEqual(['row', 'error']);
    expect(errors.rows.map((row) => [row[0], row.at(-2)])).toEqual([
      ['PAR-SXT-M8X40-ZN', '2'],
      ['CAFE-TORR-500G', '4'],
      ['PAR-SXT-M8X40-ZN', '5'],
    ]);
    expect(errors.rows[0]?.at(-1)).toContain('also on line 7 (row 5) of this file');
    expect(errors.rows[2]?.at(-1)).toContain('also on line 3 (row 2) of this file');
  });

  it('the errors file fed back: its row and error columns are not read as data, and its own rows are named', async () => {
    const { dir, run } = workspace();
    await run(['stock', 'push', 'estoque.csv', '--skip-invalid']);
    const errorsFile = onlyErrorsFile(dir, 'estoque');
    await resetCounts(sandbox);
    const again = await run(['stock', 'validate', errorsFile, '-o', 'table']);
    expect(again.code).toBe(65);
    expect(again.stderr).not.toMatch(/unknown column "(row|error)"/);
    // Line 1 is its header (no sep= line): rows and lines agree again. Both rows of the repeated SKU are there, for
    // the operator to keep one: until then they still name each other.
    expect(again.stdout).toBe(
      [
        `${errorsFile}:3: Property [quantity] with value [-1] does not pass validation (quantity must be a whole number of 0 or more)`,
        `${errorsFile}:4: Property [sku] with value [PAR-SXT-M8X40-ZN @ CD-SP] does not pass validation (the same SKU in this warehouse is also on line 2 of this file)`,
        `${errorsFile}:2: Property [sku] with value [PAR-SXT-M8X40-ZN @ CD-SP] does not pass validation (the same SKU in this warehouse is also on line 4 of this file)`,
        '',
      ].join('\n'),
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

/**
 * A report of the first two records only (the run died there: the repeated SKU's first line invalid, the next one
 * applied), with or without the row column.
 */
async function interruptedRun(withRowColumn: boolean) {
  const { dir, run } = workspace();
  const first = await run(['stock', 'push', 'estoque.csv', '--skip-invalid']);
  expect(first.code).toBe(1);
  const reportPath = join(dir, onlyReport(dir, 'estoque'));
  const lines = readFileSync(reportPath, 'utf8').split('\r\n');
  const kept = lines.filter((line, index) => index === 0 || /^[34],/.test(line));
  const report = withRowColumn ? kept : kept.map((line) => line.replace(/,[^,]*$/, ''));
  writeFileSync(reportPath, `${report.join('\r\n')}\r\n`);
  // What is in the store now came from the first run; the resume must not send these two again.
  await resetCounts(sandbox);
  return { dir, run, reportPath, before: report };
}

describe('--resume keys on the line, whatever the report says of rows', () => {
  for (const withRowColumn of [true, false]) {
    it(`from a report ${withRowColumn ? 'with' : 'written before'} the row column: the done lines are skipped, the report keeps its columns`, async () => {
      const { run, reportPath, before } = await interruptedRun(withRowColumn);
      const resumed = await run(['stock', 'push', 'estoque.csv', '--resume', reportPath]);
      expect(resumed.code).toBe(1);
      expect(resumed.stderr).toContain('(1 already done by the resumed run)');
      // Only the invalid records had no done row: nothing valid was left to send.
      expect((await requestCounts(sandbox))[batchRoute]).toBeUndefined();
      expect((await stockEntries(sandbox)).map((entry) => entry.sku)).toEqual(['ACU-REF-5KG']);
      const text = readFileSync(reportPath, 'utf8');
      expect(text.startsWith(`${before.join('\r\n')}\r\n`)).toBe(true);
      const rows = byLine(readReport(reportPath));
      expect(rows.map(({ line, row, outcome }) => [line, row, outcome])).toEqual([
        ['3', withRowColumn ? '2' : undefined, 'invalid'],
        ['4', withRowColumn ? '3' : undefined, 'applied'],
        ['6', withRowColumn ? '4' : undefined, 'invalid'],
        ['7', withRowColumn ? '5' : undefined, 'invalid'],
      ]);
      // Every row has as many cells as the header: never a row cell without a column.
      const widths = new Set((parse(text) as string[][]).map((cells) => cells.length));
      expect(widths).toEqual(new Set([withRowColumn ? 7 : 6]));
    });
  }

  it('a resume that sends: the rows it adds carry the row of their record', async () => {
    const { dir, run } = workspace();
    // The first applied record's row only, as if the run died after its first answer (line 3 repeats a SKU: invalid).
    writeFileSync(
      join(dir, 'estoque.csv'),
      retypedExport().toString('latin1').replace('CAFE-TORR-500G;-1;', 'CAFE-TORR-500G;0;'),
      'latin1',
    );
    const first = await run(['stock', 'push', 'estoque.csv', '--skip-invalid']);
    expect(first.code).toBe(1);
    const reportPath = join(dir, onlyReport(dir, 'estoque'));
    const lines = readFileSync(reportPath, 'utf8').split('\r\n');
    writeFileSync(
      reportPath,
      `${lines.filter((line, index) => index === 0 || line.startsWith('4,')).join('\r\n')}\r\n`,
    );
    await resetCounts(sandbox);
    const resumed = await run(['stock', 'push', 'estoque.csv', '--resume', reportPath]);
    expect(resumed.code).toBe(1);
    expect((await requestCounts(sandbox))[batchRoute]).toBe(1);
    const rows = byLine(readReport(reportPath));
    expect(rows.map(({ line, row, key, outcome }) => [line, row, key, outcome])).toEqual([
      ['3', '2', 'PAR-SXT-M8X40-ZN', 'invalid'],
      ['4', '3', 'ACU-REF-5KG', 'applied'],
      ['6', '4', 'CAFE-TORR-500G', 'applied'],
      ['7', '5', 'PAR-SXT-M8X40-ZN', 'invalid'],
    ]);
  });
});
