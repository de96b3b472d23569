/**
 * Real spreadsheet exports of the customer sheet (issue 10), made by LibreOffice
 * (test/fixtures/real-exports/README.md): each encoding imports with its accents intact and its
 * trailing `;;;;` rows skipped; a sheet whose documents lost their zeros stops before any request.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, runCli, useSandboxPerFile } from '../../support/cli.js';
import { createRoute, storedCustomer, storedCustomers } from '../../support/customers.js';
import { timed } from '../../support/run-files.js';
import { repoRoot, requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const fixtures = join(repoRoot, 'test', 'fixtures', 'real-exports');

function workspace(name: string) {
  const dir = freshWorkDir();
  copyFileSync(join(fixtures, name), join(dir, name));
  // The sheet's registration date is read by no customer field: left out, as its user would.
  return {
    dir,
    run: (args: string[]) => runCli([...args, '--ignore-column', 'Data de cadastro'], { configDir, cwd: dir }),
  };
}

describe('customer create of every real export of the customer sheet', () => {
  const cases: { name: string; file: string; args?: string[] }[] = [
    { name: 'Windows-1252 ";" (Excel "CSV")', file: 'clientes-corrigido.win1252.csv' },
    { name: 'UTF-8 with BOM (Excel "CSV UTF-8")', file: 'clientes.utf8-bom.csv' },
    { name: 'UTF-16LE with BOM, tab (Excel "Unicode text")', file: 'clientes.utf16.txt' },
    { name: 'CP850 with --encoding cp850', file: 'clientes.cp850.csv', args: ['--encoding', 'cp850'] },
    { name: 'MacRoman with --encoding macintosh', file: 'clientes.macroman.csv', args: ['--encoding', 'macintosh'] },
  ];
  for (const { name, file, args = [] } of cases) {
    it(`${name}: 6 created with accents intact, 3 blank rows skipped`, async () => {
      const { run } = workspace(file);
      const result = await run(['customer', 'create', file, ...args]);
      expect(result.code).toBe(0);
      expect(result.stderr.split('\n')).toContainEqual(
        expect.stringMatching(timed('customer create: 6 records, 6 valid, 0 invalid, 3 blank rows skipped ({s} s)')),
      );
      expect(await requestCounts(sandbox)).toMatchObject({ [createRoute]: 6 });
      expect(await storedCustomers(sandbox)).toHaveLength(6);
      const acucar = await storedCustomer(sandbox, '00.360.305/0001-04');
      expect(acucar.name).toBe('Açúcar & Café São João Ltda');
      expect((await storedCustomer(sandbox, '529.982.247-25')).name).toBe('Antônio Conceição Araújo');
      expect((await storedCustomer(sandbox, '00.000.000/0001-91')).name).toBe(
        'Banco do Brasil S.A. (Agência Conceição)',
      );
    });
  }
});

describe('a sheet whose documents were typed as numbers', () => {
  it('create: each lost zero is named with the valid document; no login, no request', async () => {
    const file = 'clientes-digitado.win1252.csv';
    const { run } = workspace(file);
    const result = await run(['customer', 'create', file]);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      `${file}:2: Property [document] with value [1234567890] does not pass validation (a CPF has 11 digits and a CNPJ 14 characters; a leading zero was probably lost in a spreadsheet: 012.345.678-90 would be valid)`,
    );
    expect(result.stderr).toContain(
      `${file}:4 (row 3): Property [document] with value [360305000104] does not pass validation (a CPF has 11 digits and a CNPJ 14 characters; a leading zero was probably lost in a spreadsheet: 00.360.305/0001-04 would be valid)`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
    expect(await storedCustomers(sandbox)).toEqual([]);
  });
});
