/**
 * `customer create --excel`: the report is in the dialect a pt-BR Excel opens as is (a BOM, `;` between cells), a
 * document Excel would run as a formula is still quoted, and --resume of that report creates nobody twice. The
 * errors file keeps the input's delimiter.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { createHeader } from '../../support/customers.js';
import { onlyReport } from '../../support/run-files.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

function excelRows(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), { bom: true, columns: true, delimiter: ';' }) as Record<string, string>[];
}

describe('customer create --excel', () => {
  it('writes the report with a BOM and `;`, guards formulas, and --resume skips the created customer', async () => {
    const dir = freshWorkDir();
    writeFileSync(
      join(dir, 'people.csv'),
      `${createHeader}\n` +
        'cpf,529.982.247-25,"Ana, da Silva",ana@example.com,11987654321,Senha#1,01310-100,10\n' +
        'cpf,=1+1,Bia,bia@example.com,11987654322,Senha#2,01310-100,11\n',
    );
    const configDir = freshConfigDir();
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
    const run = (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env });

    const first = await run(['--excel', 'customer', 'create', 'people.csv', '--skip-invalid']);
    expect(first.code).toBe(1);
    const reportPath = join(dir, onlyReport(dir, 'people'));
    expect(readFileSync(reportPath, 'utf8').startsWith('\uFEFFline;key;outcome;status;id;message;row\r\n')).toBe(true);
    const rows = excelRows(reportPath).toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => [row.line, row.key, row.outcome])).toEqual([
      ['2', '529.982.247-25', 'created'],
      ['3', "'=1+1", 'invalid'],
    ]);
    expect(rows[0]?.status).toBe('200');
    // The errors file is no report: it keeps the input's `,`, to be fed back as the input was read (docs/bulk-runs.md).
    const errorsName = readdirSync(dir).find((name) => /^people\.errors-.*\.csv$/.test(name)) as string;
    expect(readFileSync(join(dir, errorsName), 'utf8').split('\r\n')[0]).toBe(`\uFEFF${createHeader},row,error`);

    const resumed = await run(['customer', 'create', 'people.csv', '--skip-invalid', '--resume', reportPath]);
    expect(resumed.stderr).not.toContain('not a b2bctl report');
    expect(resumed.code).toBe(1);
    expect(readFileSync(reportPath, 'utf8').split('\uFEFF')).toHaveLength(2);
    // Ana, created, is neither sent nor reported a second time; the invalid record (its key formula-guarded, read
    // back as the record's own) is counted, exit 1, and keeps its one row.
    expect(excelRows(reportPath).slice(rows.length)).toEqual([]);
    expect(resumed.stderr).toContain('1 invalid');
  });
});

describe('customer create --excel, documents that are digits only', () => {
  it("guards a key a spreadsheet would read as a number ('00360305000104'), as the errors file does; --resume reads it back", async () => {
    const dir = freshWorkDir();
    // Digits-only documents, as an ERP exports them: a spreadsheet would drop their leading zeros.
    writeFileSync(
      join(dir, 'lz.csv'),
      'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number\n' +
        'cnpj,00360305000104,Banco Zero,zero@example.com,11987654321,Senha#1,01310-100,10\n' +
        'cpf,01234567890,Bia Zero,bia.zero@example.com,11987654322,Senha#2,01310-100,11\n',
    );
    const configDir = freshConfigDir();
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
    const run = (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env });

    const first = await run(['--excel', 'customer', 'create', 'lz.csv', '--skip-invalid']);
    const reportPath = join(dir, onlyReport(dir, 'lz'));
    const rows = excelRows(reportPath).toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => [row.line, row.key])).toEqual([
      ['2', "'00360305000104"],
      ['3', "'01234567890"],
    ]);
    // Whatever the records' outcomes, --resume of that report finds each row's key the record's own.
    const resumed = await run(['customer', 'create', 'lz.csv', '--skip-invalid', '--resume', reportPath]);
    expect(resumed.stderr).not.toContain('not a b2bctl report');
    expect(resumed.stderr).not.toContain('Cannot resume');
    expect(resumed.code).toBe(first.code);
  });
});
