/**
 * `customer create` on the real Windows-1252 export of the customer sheet with one cell retyped as people and
 * Excel do (issue 10): the row is refused with its line and row, and nothing is sent.
 * - Item 5: a CNPJ typed as a number that Excel displayed, and then exported, in scientific notation:
 *   `11.222.333/0001-81` typed as 11222333000181 is written `1,12223E+13` in a pt-BR CSV, its digits gone.
 * - Item 14: a NUL past the first 4 KB (`Ana\x00Maria` was created on the platform, because only the first
 *   bytes were checked for binary content): a long complement pushes the rest past 4 KB.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { storedCustomers } from '../../support/customers.js';
import { repoRoot, requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

const realExport = readFileSync(
  join(repoRoot, 'test', 'fixtures', 'real-exports', 'clientes-corrigido.win1252.csv'),
  'latin1',
);

/** `customer create` of the real export as `retype` leaves it, written back in Windows-1252. */
async function createRetyped(retype: (text: string) => string) {
  const dir = freshWorkDir();
  const retyped = retype(realExport);
  expect(retyped).not.toBe(realExport);
  writeFileSync(join(dir, 'clientes.csv'), Buffer.from(retyped, 'latin1'));
  // The sheet's registration date is read by no customer field: left out, as its user would.
  return runCommandLine(['customer', 'create', 'clientes.csv', '--ignore-column', 'Data de cadastro'], {
    configDir: freshConfigDir(),
    cwd: dir,
    env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
  });
}

async function expectNothingSent(): Promise<void> {
  expect(await requestCounts(sandbox)).toEqual({});
  expect(await storedCustomers(sandbox)).toEqual([]);
}

describe('a document in scientific notation', () => {
  it('1,12223E+13: exit 65 with the fix, the line and row, nothing sent', async () => {
    const result = await createRetyped((text) => text.replace(';11.222.333/0001-81;', ';1,12223E+13;'));
    expect(result.code).toBe(65);
    // Line 5 is row 4: the cell with a line break on line 2 is one row.
    expect(result.stderr).toContain(
      'clientes.csv:5 (row 4): Property [document] with value [1,12223E+13] does not pass validation (Excel showed this number in scientific notation; format the column as Text and export again)',
    );
    await expectNothingSent();
  });
});

describe('a NUL in a customer name after the first 4 KB', () => {
  it('is refused with its line and row, and nothing is sent', async () => {
    const result = await createRetyped((text) => {
      const retyped = text
        .replace(';Sala 12;', `;Sala 12 ${'x'.repeat(4200)};`)
        .replace('Banco do Brasil S.A.', 'Banco\u0000do Brasil S.A.');
      expect(retyped.indexOf('\u0000')).toBeGreaterThan(4096);
      return retyped;
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'clientes.csv:8 (row 7): field "name" holds an invisible or control character (U+0000) at character 6; delete it (in a spreadsheet, retype the cell)',
    );
    await expectNothingSent();
  });
});
