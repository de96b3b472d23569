/**
 * What `stock validate` says about a spreadsheet export (issue 10, items 4, 5, 6, 15): rows named as
 * the spreadsheet numbers them below a cell with a line break, numbers quoted as they were written,
 * a currency sign explained, one message for a control character, and text after a closing quote.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/stock/validate.js';
import { ExitCode, InputError } from '../../../src/base/errors.js';
import { testContext } from '../../support/test-context.js';
import { freshWorkDir } from '../../support/cli.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixtures = join(__dirname, '..', '..', 'fixtures', 'spreadsheets');
const configDir = temporaryFolder('b2bctl-validate-as-written-');

async function validate(file: string, options: { json?: boolean; decimal?: ',' | '.' } = {}) {
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: configDir }, tty: { stdout: !options.json } });
  let failure: unknown;
  try {
    // The description column is read by no stock field: left out, as a user would.
    await run(
      { file: join(fixtures, file), strict: false, decimal: options.decimal, ignoreColumns: ['descrição'] },
      memory.context,
    );
  } catch (error) {
    failure = error;
  }
  const prefix = `${join(fixtures, file)}:`;
  const lines = memory
    .stdout()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line));
  return { lines, stderr: memory.stderr(), failure };
}

describe('a LibreOffice-style export with line breaks in cells (Windows-1252, ;, decimal commas)', () => {
  const file = 'estoque-quebras.win1252.csv';

  it('names the line and the spreadsheet row once they differ, and only the line before', async () => {
    const { lines, failure } = await validate(file);
    expect((failure as InputError).exitCode).toBe(ExitCode.dataInvalid);
    expect(lines.map((line) => line.slice(0, line.indexOf(': ')))).toEqual([
      '4 (row 3)',
      '5 (row 4)',
      '6 (row 5)',
      '9 (row 6)',
      '10 (row 7)',
    ]);
  });

  it('quotes numbers as written: [104,313] and [1.234,567], never the parsed 104.313 or 1234.567', async () => {
    const { lines } = await validate(file);
    expect(lines).toContain(
      '4 (row 3): Property [quantity] with value [104,313] does not pass validation (quantity must be a whole number of 0 or more)',
    );
    expect(lines).toContain(
      '5 (row 4): Property [quantity] with value [9007199254740993] does not pass validation (quantity has too many digits for a number (16; a number holds 15); format the column as Text)',
    );
    expect(lines).toContain(
      '9 (row 6): Property [price] with value [1.234,567] does not pass validation (price must have at most 2 decimals)',
    );
  });

  it('explains R$ in a number, with an example in the file’s own notation', async () => {
    const { lines } = await validate(file);
    expect(lines).toContain(
      '6 (row 5): Property [price] with value [R$ 1.234,50] does not pass validation (price must be a number of 0 or more with at most 2 decimals, such as 1234,56; drop the currency sign: write 1.234,50)',
    );
  });

  it('a control character in a SKU is one message, with its position', async () => {
    const { lines } = await validate(file);
    const sku = lines.filter((line) => line.startsWith('10 (row 7)'));
    expect(sku).toEqual([
      '10 (row 7): field "sku" holds an invisible or control character (U+0001) at character 3; delete it (in a spreadsheet, retype the cell)',
    ]);
  });

  it('JSON output carries the row beside the line', async () => {
    const { lines } = await validate(file, { json: true });
    const problems = lines.map((line) => JSON.parse(line) as { line: number; row?: number; value: string });
    expect(problems[0]).toMatchObject({ line: 4, row: 3, value: '104,313' });
    expect(problems.every((problem) => problem.row !== undefined)).toBe(true);
  });
});

describe('R$ in a decimal-point file', () => {
  it('says which notation to write, or which --decimal reads it', async () => {
    const { lines } = await validate('estoque-reais.csv');
    expect(lines).toEqual([
      '2: Property [price] with value [R$ 1,234.50] does not pass validation (price must be a number of 0 or more with at most 2 decimals, such as 1234.56; drop the currency sign and the thousands commas: write 1234.50)',
      '3: Property [price] with value [R$ 1.234,50] does not pass validation (price must be a number of 0 or more with at most 2 decimals, such as 1234.56; drop the currency sign, and pass --decimal , since 1.234,50 uses "," for decimals)',
    ]);
  });
});

describe('a decimal point in a ";" file LibreOffice saved in a locale that writes points', () => {
  const saved = join(__dirname, '..', '..', 'fixtures', 'libreoffice', 'estoque-ponto-decimal.csv');

  it('is read by its decimal points, which its sample shows (12.5 is 12.5)', async () => {
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: configDir }, tty: { stdout: true } });
    await run({ file: saved, strict: false, allowZeroPrice: true }, memory.context);
    expect(memory.stdout()).toBe('');
  });

  it('beside decimal commas, a point is refused with what it is and the two ways to write it', async () => {
    const mixed = join(freshWorkDir(), 'misto.csv');
    writeFileSync(mixed, `${readFileSync(saved, 'utf8')}GEN-0000004;1;7,25\n`);
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: configDir }, tty: { stdout: true } });
    await expect(run({ file: mixed, strict: false, allowZeroPrice: true }, memory.context)).rejects.toBeInstanceOf(
      InputError,
    );
    expect(memory.stdout().trim().split('\n')).toEqual([
      `${mixed}:4: Property [price] with value [12.5] does not pass validation (price must be a number of 0 or more with at most 2 decimals, such as 1234,56; written with a decimal point it is 12.5: write 12,5, or pass --decimal . if the whole file writes decimals so)`,
    ]);
  });
});

describe('a workbook whose prices are formulas, stored to the last bit as Excel stores them', () => {
  const saved = join(__dirname, '..', '..', 'fixtures', 'libreoffice', 'estoque-formulas-excel.xlsx');

  it('reads each number as the sheet shows it (11.000000000000002 is 11), refusing only the 2.5 units of =10/4', async () => {
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: configDir }, tty: { stdout: true } });
    await expect(run({ file: saved, strict: false }, memory.context)).rejects.toBeInstanceOf(InputError);
    expect(memory.stdout().trim().split('\n')).toEqual([
      `${saved}:6: Property [quantity] with value [2.5] does not pass validation (quantity must be a whole number of 0 or more)`,
    ]);
  });
});

describe('text after a closing quote', () => {
  it('"CAF-2"x is an error naming its line, not a SKU with quotes in it', async () => {
    const { lines, failure } = await validate('estoque-aspas.csv');
    expect(failure).toBeInstanceOf(InputError);
    expect((failure as InputError).message).toBe(
      `${join(fixtures, 'estoque-aspas.csv')}:3: text follows the closing quote of a quoted cell (such as "Ana"x); put the whole cell inside the quotes, and write a quote inside it as "".`,
    );
    expect(lines.join('\n')).not.toContain('"CAF-2"x');
  });
});
