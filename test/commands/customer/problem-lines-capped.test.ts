/**
 * A customer file invalid in most of its records (decision 0036): create and update print the first 100 problem
 * lines, the rest by reason, and the validate command that lists them all, checking the file as the run did
 * (`customer validate --update` for an update).
 */
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { excelCsv, sandboxWorkspace, useSandboxPerFile } from '../../support/cli.js';
import { createHeader } from '../../support/customers.js';
import { requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** 120 records whose document is no CPF, each valid otherwise. */
const badCreates = [
  createHeader,
  ...Array.from(
    { length: 120 },
    (_, index) => `CPF,${100 + index},Ana,ana${index}@example.com.br,11987654321,Senha-forte-1,01310-100,10`,
  ),
].join('\n');
/** The same documents to update a name of (an update needs only the document). */
const badUpdates = excelCsv('document;name', ...Array.from({ length: 120 }, (_, index) => `${100 + index};Ana`));

describe.each([
  ['create', badCreates, []],
  ['update', badUpdates, ['--update']],
])('customer %s of a file with 120 invalid documents', (verb, file, validateFlags) => {
  it(`prints 100 problem lines, sums up the rest, and names customer validate${validateFlags.map((flag) => ` ${flag}`).join('')}; sends nothing`, async () => {
    const { run } = sandboxWorkspace(sandbox, token, { 'clientes.csv': file });
    const result = await run(['customer', verb, 'clientes.csv', '--quiet']);
    expect(result.code).toBe(65);
    const lines = result.stderr.split('\n');
    expect(lines.filter((line) => /^clientes\.csv:\d+: /.test(line))).toHaveLength(100);
    expect(lines.filter((line) => line.startsWith('clientes.csv: ')).at(-1)).toBe(
      `clientes.csv: every problem is listed by b2bctl customer validate clientes.csv ${validateFlags.map((flag) => `${flag} `).join('')}-o csv > problems.csv`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('customer create of 120 records whose password cell holds a formula error', () => {
  it('the summed-up reason shows the password as the printed lines do: [redacted]', async () => {
    const file = [
      createHeader,
      ...Array.from(
        { length: 120 },
        (_, index) => `cpf,${100 + index},Ana,ana${index}@example.com.br,11987654321,#NOME?,01310-100,10`,
      ),
    ].join('\n');
    const { run } = sandboxWorkspace(sandbox, token, { 'clientes.csv': file });
    const result = await run(['customer', 'create', 'clientes.csv', '--quiet']);
    expect(result.code).toBe(65);
    const summary = result.stderr.split('\n').filter((line) => line.startsWith('clientes.csv: '));
    expect(summary).toContain(
      'clientes.csv: 70 problems (first at line 52): field "password" holds [redacted], the error a spreadsheet formula gave, not a value; correct the formula or type the value, and export again',
    );
    expect(result.stderr).not.toContain('#NOME?');
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('customer status of a file with 120 invalid documents', () => {
  it('has no validate command to name: the errors file of a --skip-invalid run lists them', async () => {
    const states = excelCsv('document;active', ...Array.from({ length: 120 }, (_, index) => `${100 + index};true`));
    const { run } = sandboxWorkspace(sandbox, token, { 'estados.csv': states });
    const result = await run(['customer', 'status', 'estados.csv', '--quiet']);
    expect(result.code).toBe(65);
    const lines = result.stderr.split('\n');
    expect(lines.filter((line) => /^estados\.csv:\d+: /.test(line))).toHaveLength(100);
    expect(lines.filter((line) => line.startsWith('estados.csv: ')).at(-1)).toBe(
      'estados.csv: every invalid record, with why, is in the errors file of a run with --skip-invalid (which sends the valid ones)',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
