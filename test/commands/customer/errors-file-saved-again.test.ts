/**
 * An errors file fixed the ways an office operator fixes it: saved by LibreOffice Calc as .xlsx or .ods, or with
 * its `row` and `error` columns deleted. b2bctl's formula guard (the `'` before a cell starting `-`) and its
 * `#RETYPE!` mark must read the same from every one of them: never sent as part of a value.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { createHeader, storedCustomer } from '../../support/customers.js';
import { requireTools } from '../../support/external-tools.js';
import { convertedByCalc } from '../../support/libreoffice.js';
import { requestCounts, resetCounts } from '../../support/sandbox.js';

const soffice = requireTools('soffice');

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const document = '529.982.247-25';
const otherDocument = '111.444.777-35';
const updateHeader =
  'document,name,customerRegistrationAddress.complement,customerRegistrationAddress.zipcode,customerRegistrationAddress.number';
const guardMessage = (value: string) =>
  `field "customerRegistrationAddress.complement" holds ${value}: a ' before = + - @ is the mark b2bctl's errors file puts against spreadsheet formulas, taken off only in a file that still ends with the errors file's row and error columns; delete the ' here, or write it twice ('') if the value itself starts with one`;

function cli(args: readonly string[], cwd: string) {
  return runCommandLine(args, { configDir, cwd });
}

/** The errors file of an update whose CEP was 7 digits, for a complement `- fundos`, its CEP then fixed. */
async function fixedErrorsFile(folder: string): Promise<string> {
  writeFileSync(
    join(folder, 'p.csv'),
    `${updateHeader}\n${document},Ana,- fundos,1310100,20\n${otherDocument},Bia,Casa 2,04538-133,21\n`,
  );
  const first = await cli(['customer', 'update', 'p.csv', '--skip-invalid'], folder);
  expect(first.code).toBe(1);
  const errorsName = readdirSync(folder).find((name) => name.startsWith('p.errors-')) as string;
  const errors = readFileSync(join(folder, errorsName), 'utf8');
  expect(errors).toContain(`${document},Ana,'- fundos,1310100,20,2,`);
  writeFileSync(join(folder, 'fixed.csv'), errors.replace(',1310100,', ',01310-100,'));
  return 'fixed.csv';
}

/** The CSV as LibreOffice Calc opens it (`,`, UTF-8, pt-BR) and saves it as `format`; the saved file's name. */
function savedByCalc(folder: string, csv: string, format: 'xlsx' | 'ods'): string {
  const files = [join(folder, csv)];
  convertedByCalc({
    folder,
    infilter: 'CSV:44,34,76,1,,1046',
    convertTo: format,
    outdir: folder,
    files,
    timeoutMs: 120_000,
  });
  return csv.replace(/\.csv$/, `.${format}`);
}

beforeEach(async () => {
  const folder = freshWorkDir();
  writeFileSync(
    join(folder, 'c.csv'),
    `${createHeader}\ncpf,${document},Ana,ana@example.com,11987654321,Senha#1,01310-100,10\ncpf,${otherDocument},Bia,bia@example.com,11987654322,Senha#1,01310-100,20\n`,
  );
  const created = await cli(['customer', 'create', 'c.csv'], folder);
  if (created.code !== 0) throw new Error(`the customers to update were not created: ${created.stderr}`);
  await resetCounts(sandbox);
});

describe.skipIf(soffice.missing)(`the fixed errors file saved by Calc${soffice.note}`, () => {
  it.each(['xlsx', 'ods'] as const)(
    'as .%s with its row and error columns: the guard is taken off, the complement sent as the input had it',
    async (format) => {
      const folder = freshWorkDir();
      const workbook = savedByCalc(folder, await fixedErrorsFile(folder), format);
      const run = await cli(['customer', 'update', workbook], folder);
      expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
      expect((await storedCustomer(sandbox, document)).customerRegistrationAddress?.complement).toBe('- fundos');
    },
  );

  it('as .xlsx: a #RETYPE! cell is refused in the words the CSV uses, nothing sent', async () => {
    const folder = freshWorkDir();
    writeFileSync(
      join(folder, 'rt.csv'),
      `${updateHeader},row,error\n${document},Ana,Casa,#RETYPE! 22041001,20,2,the cell is a number\n`,
    );
    const workbook = savedByCalc(folder, 'rt.csv', 'xlsx');
    const run = await cli(['customer', 'update', workbook], folder);
    expect(run.code).toBe(65);
    expect(run.stderr).toContain(
      `rt.xlsx:2: field "customerRegistrationAddress.zipcode" holds #RETYPE! 22041001: the run that wrote this errors file could not trust that value (the error column says why); type the value in its place, then feed the file back\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('as .xlsx without its row and error columns: the lone guard is refused, nothing sent', async () => {
    const folder = freshWorkDir();
    const fixed = await fixedErrorsFile(folder);
    const lines = readFileSync(join(folder, fixed), 'utf8').split('\n');
    writeFileSync(join(folder, 'cut.csv'), lines.map((line) => line.split(',').slice(0, 5).join(',')).join('\n'));
    await resetCounts(sandbox);
    const run = await cli(['customer', 'update', savedByCalc(folder, 'cut.csv', 'xlsx')], folder);
    expect(run.code).toBe(65);
    expect(run.stderr).toContain(`cut.xlsx:2: ${guardMessage("'- fundos")}\n`);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('the fixed errors file as CSV, its columns cut', () => {
  it('without row and error: the lone guard is refused, nothing sent; the errors file marks the cell to type again', async () => {
    const folder = freshWorkDir();
    const fixed = await fixedErrorsFile(folder);
    const lines = readFileSync(join(folder, fixed), 'utf8').split('\n');
    writeFileSync(join(folder, 'cut.csv'), lines.map((line) => line.split(',').slice(0, 5).join(',')).join('\n'));
    await resetCounts(sandbox);
    const run = await cli(['customer', 'update', 'cut.csv', '--skip-invalid'], folder);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cut.csv:2: ${guardMessage("'- fundos")}\n`);
    expect(await requestCounts(sandbox)).toEqual({});
    // Fed back unchanged, either reading of the ' could be wrong: the cell is to be typed again.
    const errorsName = readdirSync(folder).find((name) => name.startsWith('cut.errors-')) as string;
    expect(readFileSync(join(folder, errorsName), 'utf8')).toContain(
      `${document},Ana,#RETYPE! '- fundos,01310-100,20,2,`,
    );
  });

  it('without error, keeping row: row is ignored and the guard taken off', async () => {
    const folder = freshWorkDir();
    const fixed = await fixedErrorsFile(folder);
    const lines = readFileSync(join(folder, fixed), 'utf8').split('\n');
    writeFileSync(join(folder, 'rowed.csv'), lines.map((line) => line.split(',').slice(0, 6).join(',')).join('\n'));
    await resetCounts(sandbox);
    const run = await cli(['customer', 'update', 'rowed.csv'], folder);
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    expect((await storedCustomer(sandbox, document)).customerRegistrationAddress?.complement).toBe('- fundos');
  });

  it("a value that starts with ' written twice (''-Ana) in a plain file is sent with one", async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'n.csv'), `document,name\n${document},''-Ana\n`);
    const run = await cli(['customer', 'update', 'n.csv'], folder);
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    expect((await storedCustomer(sandbox, document)).name).toBe("'-Ana");
  });
});
