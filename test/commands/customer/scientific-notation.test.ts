/**
 * A CNPJ typed as a number that Excel displayed, and then exported, in scientific notation (issue 10,
 * item 5): `11.222.333/0001-81` typed as 11222333000181 is written `1,12223E+13` in a pt-BR CSV, its
 * digits gone. The input is the real Windows-1252 export of the customer sheet with that one cell as
 * Excel writes it; `customer create` names the cause and the fix, and sends nothing.
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

describe('a document in scientific notation', () => {
  it('1,12223E+13: exit 65 with the fix, the line and row, nothing sent', async () => {
    const dir = freshWorkDir();
    const realExport = readFileSync(
      join(repoRoot, 'test', 'fixtures', 'real-exports', 'clientes-corrigido.win1252.csv'),
      'latin1',
    );
    const retyped = realExport.replace(';11.222.333/0001-81;', ';1,12223E+13;');
    expect(retyped).not.toBe(realExport);
    writeFileSync(join(dir, 'clientes.csv'), Buffer.from(retyped, 'latin1'));
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
    const result = await runCommandLine(['customer', 'create', 'clientes.csv'], {
      configDir: freshConfigDir(),
      cwd: dir,
      env,
    });
    expect(result.code).toBe(65);
    // Line 5 is row 4: the cell with a line break on line 2 is one row.
    expect(result.stderr).toContain(
      'clientes.csv:5 (row 4): Property [document] with value [1,12223E+13] does not pass validation (Excel showed this number in scientific notation; format the column as Text and export again)',
    );
    expect(await requestCounts(sandbox)).toEqual({});
    expect(await storedCustomers(sandbox)).toEqual([]);
  });
});
