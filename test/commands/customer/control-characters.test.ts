/**
 * A NUL past the first 4 KB of a customer file (issue 10, item 14: `Ana\x00Maria` was created on the
 * platform, because only the first bytes were checked for binary content). The input is the real
 * Windows-1252 export of the customer sheet with a long complement (pushing the rest past 4 KB) and a
 * NUL typed into the last customer's name; `customer create` refuses that row with its line, sends nothing.
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

describe('a NUL in a customer name after the first 4 KB', () => {
  it('is refused with its line and row, and nothing is sent', async () => {
    const dir = freshWorkDir();
    const realExport = readFileSync(
      join(repoRoot, 'test', 'fixtures', 'real-exports', 'clientes-corrigido.win1252.csv'),
      'latin1',
    );
    const retyped = realExport
      .replace(';Sala 12;', `;Sala 12 ${'x'.repeat(4200)};`)
      .replace('Banco do Brasil S.A.', 'Banco\u0000do Brasil S.A.');
    expect(retyped.indexOf('\u0000')).toBeGreaterThan(4096);
    writeFileSync(join(dir, 'clientes.csv'), Buffer.from(retyped, 'latin1'));
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
    const result = await runCommandLine(['customer', 'create', 'clientes.csv'], {
      configDir: freshConfigDir(),
      cwd: dir,
      env,
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'clientes.csv:8 (row 7): field "name" holds an invisible or control character (U+0000) at character 6; delete it (in a spreadsheet, retype the cell)',
    );
    expect(await requestCounts(sandbox)).toEqual({});
    expect(await storedCustomers(sandbox)).toEqual([]);
  });
});
