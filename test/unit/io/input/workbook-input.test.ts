import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { customerCatalogue } from '../../../../src/commands/customer/customer-input.js';
import { moveCatalogue } from '../../../../src/orders/moves/move-input.js';
import { stockCatalogue } from '../../../../src/commands/stock/stock-input.js';
import { InputError, UsageError } from '../../../../src/base/errors.js';
import type { InputOptions, InputRecord } from '../../../../src/io/input/open-input.js';
import { openAnyInput } from '../../../../src/io/input/workbook-or-text.js';
import { cellValue } from '../../../../src/io/input/workbook-input.js';
import { type FieldCatalogue, planColumns } from '../../../../src/io/input/record-shape.js';
import { ruleCatalogue } from '../../../../src/tax/table-file.js';
import { isCurrencyFormat, serialDate } from '../../../../src/io/input/workbook-cells.js';
import { MergedCells } from '../../../../src/io/input/workbook-merges.js';
import { chooseSheet } from '../../../../src/io/input/workbook-sheet.js';
import { canListOpenFiles, openFiles } from '../../../support/open-files.js';

const fixtures = join(__dirname, '../../../fixtures');
const workbook = (name: string) => join(fixtures, 'workbooks', name);

async function readAll(
  path: string,
  catalogue: FieldCatalogue,
  extra: Partial<InputOptions> = {},
): Promise<{ records: InputRecord[]; warnings: string[]; sheet?: string }> {
  const warnings: string[] = [];
  const input = await openAnyInput({
    path,
    stdin: Readable.from([]),
    catalogue,
    warn: (message) => warnings.push(message),
    ...extra,
  });
  const records: InputRecord[] = [];
  for await (const record of input.records) records.push(record);
  return { records, warnings, sheet: input.workbook?.sheet };
}

/** The columns of these sheets that no field reads, left out as a user would (`--ignore-column`). */
const leftOut = ['descrição', 'atualizado em'];

const valuesAndProblems = (records: InputRecord[]) =>
  records.map((record) => ({ line: record.line, values: record.values, problems: record.problems }));

describe('a workbook saved by LibreOffice, as .xlsx and as .ods', () => {
  it.each(['estoque-variado.xlsx', 'estoque-variado.ods'])('%s: every cell by its type', async (name) => {
    const { records, warnings, sheet } = await readAll(workbook(name), stockCatalogue, {
      ignoredColumns: ['atualizado em'],
    });
    expect(sheet).toBe('Estoque');
    expect(valuesAndProblems(records)).toEqual([
      // A text cell keeps its leading zeros; numbers are numbers, whatever the cell shows (1.234,50).
      {
        line: 2,
        values: { sku: '000123', quantity: 10, price: 1234.5, salePrice: 1111.05, warehouse: 'CD-SP' },
        problems: [],
      },
      // A formula by its saved value; a warehouse merged down three rows is the warehouse of each.
      { line: 3, values: { sku: 'ABC-2', quantity: 20, price: 99.9, warehouse: 'CD-SP' }, problems: [] },
      {
        line: 4,
        values: { sku: 'ABC-3', quantity: 5, warehouse: 'CD-SP' },
        // Each cell's problem names its field and value, for validate -o json (`select(.field == "price")`).
        problems: [
          {
            field: 'price',
            value: '#DIV/0!',
            message: 'Estoque!C4 (price): the formula gives the error #DIV/0!; correct it or type the value',
          },
        ],
      },
      // A hidden row is read, as a CSV export would have it.
      { line: 5, values: { sku: 'ABC-4', quantity: 7, price: 10, warehouse: 'CD-RJ' }, problems: [] },
      {
        line: 6,
        values: { sku: '4567', quantity: 1, price: 2, warehouse: 'CD-RJ' },
        problems: [
          {
            field: 'sku',
            value: '4567',
            message:
              'Estoque!A6 (sku): 4567: the cell is a number, so leading zeros and digits past the 15th are lost; format the column as Text and type the value again',
          },
        ],
      },
      // Numbers typed as text read as CSV text does, a decimal comma included.
      { line: 7, values: { sku: 'ABC-6', quantity: 3, price: 4.5, warehouse: 'CD-RJ' }, problems: [] },
    ]);
    expect(warnings.filter((warning) => !/unknown column|is left out \(--ignore-column\)/.test(warning))).toEqual([
      `warning: ${workbook(name)}: sheet "Estoque" hides column D "salePrice"; hidden columns are read like the others, as a CSV export would. Delete a column to leave it out.`,
      `warning: ${workbook(name)}:5: row 5 of sheet "Estoque" is hidden (by a filter or Hide); hidden rows are read like the others, as a CSV export would. Delete the rows you want left out.`,
    ]);
  });

  it.each(['estoque-variado.xlsx', 'estoque-variado.ods'])('%s: --sheet by name or by tab number', async (name) => {
    for (const choice of ['Outro', 'outro', '3']) {
      const { records, sheet } = await readAll(workbook(name), stockCatalogue, { sheet: choice });
      expect(sheet).toBe('Outro');
      expect(valuesAndProblems(records)).toEqual([{ line: 2, values: { sku: 'OUTRO-1', quantity: 42 }, problems: [] }]);
    }
  });

  it.each(['estoque-variado.xlsx', 'estoque-variado.ods'])('%s: --sheet naming no sheet lists them', async (name) => {
    const reading = readAll(workbook(name), stockCatalogue, { sheet: 'Plan1' });
    await expect(reading).rejects.toThrow(InputError);
    await expect(reading).rejects.toThrow(
      `${workbook(name)}: no sheet "Plan1" (--sheet); the workbook has 1 "Estoque", 2 "Rascunho", 3 "Outro". Pass --sheet with one of those names or numbers.`,
    );
  });

  it.each(['estoque-variado.xlsx', 'estoque-variado.ods'])('%s: a date cell is an ISO date', async (name) => {
    const types: Record<string, 'string'> = { sku: 'string', updatedAt: 'string' };
    const catalogue: FieldCatalogue = { typeOf: (path) => types[path], knownPaths: Object.keys(types) };
    const { records } = await readAll(workbook(name), catalogue, {
      headerMap: { 'atualizado em': 'updatedAt' },
      ignoredColumns: ['quantity', 'price', 'salePrice', 'warehouse'],
    });
    expect(records[0]?.values).toEqual({ sku: '000123', updatedAt: '2024-03-05' });
  });

  it('reads a workbook piped on stdin as the same file', async () => {
    const bytes = readFileSync(workbook('estoque-variado.xlsx'));
    const fromFile = await readAll(workbook('estoque-variado.xlsx'), stockCatalogue, {
      ignoredColumns: ['atualizado em'],
    });
    const fromStdin = await readAll('-', stockCatalogue, {
      stdin: Readable.from([bytes.subarray(0, 999), bytes.subarray(999)]),
      ignoredColumns: ['atualizado em'],
    });
    expect(valuesAndProblems(fromStdin.records)).toEqual(valuesAndProblems(fromFile.records));
  });
});

describe('the real workbooks read as their own CSV export, value for value', () => {
  it.each<[string, string, FieldCatalogue]>([
    ['workbooks/estoque.xlsx', 'real-exports/estoque.win1252.csv', stockCatalogue],
    ['libreoffice/estoque.ods', 'real-exports/estoque.win1252.csv', stockCatalogue],
    ['libreoffice/clientes-corrigido.xlsx', 'real-exports/clientes-corrigido.win1252.csv', customerCatalogue('create')],
    // 750 KB of sheet XML: many chunks of the reader, so many batches of rows.
    ['workbooks/estoque-3000.xlsx', 'workbooks/estoque-3000.csv', stockCatalogue],
  ])('%s', async (book, csv, catalogue) => {
    const ignoredColumns = [...leftOut, 'Data de cadastro'];
    const fromBook = await readAll(join(fixtures, book), catalogue, { ignoredColumns });
    const fromCsv = await readAll(join(fixtures, csv), catalogue, { ignoredColumns });
    expect(fromBook.records.length).toBeGreaterThan(3);
    expect(fromBook.records.map((record) => record.values)).toEqual(fromCsv.records.map((record) => record.values));
    expect(fromBook.records.flatMap((record) => record.problems)).toEqual([]);
  });
});

describe('what a workbook reader refuses', () => {
  it('data under a header no field reads, as CSV does: the run stops naming the column and --ignore-column', async () => {
    await expect(readAll(workbook('estoque-variado.xlsx'), stockCatalogue)).rejects.toThrow(
      /^.*estoque-variado\.xlsx:2: column 6 \(F\) "atualizado em" holds "2024-03-05" but no field reads it, so it would not be sent; nothing was sent\. .*--ignore-column 'atualizado em'\.$/,
    );
  });

  it('a zip cut short: damaged, with what to do', async () => {
    const bytes = readFileSync(workbook('estoque-variado.xlsx')).subarray(0, 3000);
    await expect(readAll('-', stockCatalogue, { stdin: Readable.from([bytes]) })).rejects.toThrow(
      'stdin: cannot read the workbook (end of central directory record signature not found); the file is damaged or cut short. Open it in the spreadsheet program and save it again.',
    );
  });

  it('--sheet for a CSV file: a usage error', async () => {
    const reading = readAll(join(fixtures, 'real-exports/estoque.win1252.csv'), stockCatalogue, { sheet: '2' });
    await expect(reading).rejects.toThrow(UsageError);
    await expect(reading).rejects.toThrow(
      /--sheet 2: .*estoque\.win1252\.csv is text, not a workbook \(\.xlsx, \.ods\); drop --sheet\./,
    );
  });
});

const text = (value: string) => ({ kind: 'text' as const, text: value });

describe('workbook rules', () => {
  it('the first visible sheet by default; a hidden one only when named', () => {
    const sheets = [
      { name: 'Leia-me', hidden: true },
      { name: 'Plan1', hidden: false },
    ];
    expect(chooseSheet(sheets, undefined, 'f.xlsx')).toBe(1);
    expect(chooseSheet(sheets, 'Leia-me', 'f.xlsx')).toBe(0);
    expect(chooseSheet(sheets, '1', 'f.xlsx')).toBe(0);
    expect(() => chooseSheet([{ name: 'A', hidden: true }], undefined, 'f.xlsx')).toThrow(
      'f.xlsx: the workbook has no visible sheet. Pass --sheet NAME.',
    );
  });

  it.each([
    [45356, '2024-03-05'],
    [45356.5, '2024-03-05T12:00:00'],
    [1, '1900-01-01'],
    [61, '1900-03-01'],
  ])('date serial %s is %s', (serial, iso) => {
    expect(serialDate(serial)).toBe(iso);
  });

  it('a merged range below the header fills its first column down its rows, not the columns it spans; one touching the header fills nothing', () => {
    const merges = new MergedCells([
      { top: 1, left: 0, bottom: 2, right: 0 },
      { top: 2, left: 1, bottom: 3, right: 2 },
    ]);
    merges.skipThrough(1);
    const rows = [
      { row: 2, cells: [undefined, text('X'), undefined] },
      { row: 3, cells: [text('a'), undefined, undefined] },
      { row: 4, cells: [text('b'), undefined, undefined] },
    ];
    for (const row of rows) merges.fill(row);
    expect(rows.map((row) => row.cells)).toEqual([
      [undefined, text('X'), undefined],
      [text('a'), text('X'), undefined],
      [text('b'), undefined, undefined],
    ]);
  });
});

describe.skipIf(!canListOpenFiles)('letting go of a workbook (no /proc: skipped)', () => {
  it('close() lets go of a workbook whose rows were never read, and a second close() does nothing', async () => {
    const path = workbook('estoque-3000.xlsx');
    const input = await openAnyInput({ path, stdin: Readable.from([]), catalogue: stockCatalogue, warn: () => {} });
    expect(openFiles()).toContain(path);
    input.close();
    await vi.waitFor(() => expect(openFiles()).not.toContain(path));
    input.close();
  });
});

describe('cellValue: a cell whose type is not what its column holds', () => {
  it.each([
    [
      { kind: 'boolean', value: true } as const,
      'erpNumber',
      'TRUE: the cell is a yes/no (TRUE or FALSE), not the code typed',
    ],
    [{ kind: 'date', text: '2026-02-01' } as const, 'complement', '2026-02-01: the cell is a date'],
    [{ kind: 'date', text: '2026-05-12' } as const, 'erpNumber', '2026-05-12: the cell is a date'],
  ])('%j in a text column (%s) is a problem naming what the cell is', (cell, path, problem) => {
    const column = { path, type: 'string' as const, textKind: moveCatalogue.textKindOf?.(path) };
    expect(cellValue(cell, column, '.').problem).toMatch(new RegExp(`^${problem.replace(/[()]/g, '\\$&')}`));
  });

  it("a number, yes/no or date cell is refused where the field catalogue says code, not by the path's last word", () => {
    const number = { kind: 'number', number: 4021010 } as const;
    const yes = { kind: 'boolean', value: true } as const;
    const date = { kind: 'date', text: '2026-05-12' } as const;
    const code = { path: 'invoice.series', type: 'string' as const, textKind: 'code' as const };
    expect(cellValue(number, code, '.')).toEqual({
      value: '4021010',
      problem:
        '4021010: the cell is a number, so leading zeros and digits past the 15th are lost; format the column as Text and type the value again',
    });
    expect(cellValue(yes, code, '.')).toEqual({
      value: 'true',
      problem:
        'TRUE: the cell is a yes/no (TRUE or FALSE), not the code typed; format the column as Text and type the value again',
    });
    expect(cellValue(date, code, '.')).toEqual({
      value: '2026-05-12',
      problem:
        '2026-05-12: the cell is a date (the spreadsheet read what was typed as one), so the code typed is lost; format the column as Text and type the value again',
    });
    // A text field no catalogue calls a code takes a number as it is, whatever its name ends with; a yes/no is
    // refused in any text field (below).
    const plain = { path: 'seller.document', type: 'string' as const };
    expect(cellValue(number, plain, '.')).toEqual({ value: '4021010' });
  });

  it("a number cell with a fraction is refused where the field catalogue says address number, not by the path's last word", () => {
    const catalogue = customerCatalogue('create');
    const fraction = { kind: 'number', number: 12.5 } as const;
    const column = (path: string) => ({ path, type: 'string' as const, textKind: catalogue.textKindOf?.(path) });
    const refusal =
      '12.5: the cell is a number with a fraction (12,5 on a pt-BR screen), which an address number does not hold as typed; format the column as Text and type the value again';
    for (const path of ['customerRegistrationAddress.number', 'addressList.2.number'])
      expect(cellValue(fraction, column(path), '.')).toEqual({ value: '12.5', problem: refusal });
    // A text field the catalogue does not call an address number, whatever its name ends with, takes it as it is.
    expect(catalogue.textKindOf?.('customerRegistrationAddress.complement')).toBeUndefined();
    expect(cellValue(fraction, { path: 'invoice.number', type: 'string' }, '.')).toEqual({ value: '12.5' });
    // A whole address number is its digits.
    expect(cellValue({ kind: 'number', number: 120 }, column('addressList.0.number'), '.')).toEqual({ value: '120' });
  });

  it('a yes/no cell in a free-text column is refused as a date is: "false" is neither what was typed nor shown', () => {
    expect(cellValue({ kind: 'boolean', value: false }, { path: 'reason', type: 'string' }, '.')).toEqual({
      value: 'false',
      problem:
        'FALSE: the cell is a yes/no (TRUE or FALSE), not the text typed; format the column as Text and type the value again',
    });
  });

  it('a money cell in a text column is refused; in a number column it is its number', () => {
    const money = { kind: 'number', number: 1500.5, currency: true } as const;
    expect(cellValue(money, { path: 'complement', type: 'string' }, '.')).toEqual({
      value: '1500.5',
      problem:
        '1500.5: the cell is an amount of money (shown such as R$ 1.500,50), not the text typed; format the column as Text and type the value again',
    });
    expect(cellValue(money, { path: 'price', type: 'number' }, '.')).toEqual({ value: 1500.5 });
  });
});

/** The column a header of one column is planned as, with what its catalogue declares. */
const planned = (catalogue: FieldCatalogue, header: string) =>
  planColumns([header], catalogue).columns[0] as Parameters<typeof cellValue>[1];

describe('cellValue: a plain number cell with a fraction in a text column (a user test)', () => {
  const fraction = { kind: 'number', number: 1500.5 } as const;

  it.each(['customerRegistrationAddress.complement', 'name', 'tradingName', 'customerGroupList'])(
    'a customer file refuses it under %s, as a money cell is: "1500.5" is neither typed nor shown',
    (header) => {
      const read = cellValue(fraction, planned(customerCatalogue('create'), header), '.');
      expect(read.problem).toBe(
        '1500.5: the cell is a number with a fraction (1500,5 on a pt-BR screen, 1500.5 on an English one), not the text typed; format the column as Text and type the value again',
      );
    },
  );

  it('a whole number (an address number, a phone typed as digits) stays as it is', () => {
    const catalogue = customerCatalogue('create');
    expect(
      cellValue({ kind: 'number', number: 120 }, planned(catalogue, 'customerRegistrationAddress.complement'), '.'),
    ).toEqual({
      value: '120',
    });
    expect(cellValue({ kind: 'number', number: 11987654321 }, planned(catalogue, 'phone'), '.')).toEqual({
      value: '11987654321',
    });
  });

  it("a tax table's rate, read as text to keep its digits, is its number: that catalogue does not refuse fractions", () => {
    expect(cellValue({ kind: 'number', number: 17.5 }, planned(ruleCatalogue, 'icmsRate'), '.')).toEqual({
      value: '17.5',
    });
  });
});

describe('isCurrencyFormat: the number formats that show money', () => {
  it.each([
    [165, '[$R$-416] #.##0,00', true],
    [165, '"R$" #,##0.00', true],
    [165, '[$$-409]#,##0.00;[RED]\\-[$$-409]#,##0.00', true],
    [165, '#,##0.00 [$€-407]', true],
    [7, undefined, true],
    [44, undefined, true],
    [164, 'General', false],
    [165, '[$-416]dd/mm/yyyy', false],
    [166, '0.00%', false],
    [2, undefined, false],
  ])('format %i %j: %s', (id, code, money) => {
    expect(isCurrencyFormat(id, code)).toBe(money);
  });
});
