/**
 * One output style for problems (issue 9): `validate` prints `file:line: message` on a terminal and NDJSON when
 * piped, with the same documented fields for customers and stock; messages quote the cell as written; the
 * duplicate-SKU check runs on rows invalid for another reason; `--dry-run --skip-invalid` exits as the real run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { run as validateCustomers } from '../../../src/commands/customer/validate.js';
import { run as validateStock } from '../../../src/commands/stock/validate.js';
import { sandboxDefaults } from '../../../src/sandbox/options.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runBuiltCli } from '../../support/cli.js';
import { temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';
import { useFileSandbox } from '../../support/sandbox.js';
import { ndjsonOf } from '../../support/ndjson.js';

let sandbox: RunningSandbox;
useFileSandbox((started) => (sandbox = started));
beforeEach(async () => {
  await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
});

async function requestsReceived(): Promise<Record<string, number>> {
  return (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Record<string, number>;
}

// pt-BR Excel: semicolons, decimal commas, CRLF. Line 2's price has three decimals as written; lines 3 and 4 repeat
// a SKU and are both invalid for other reasons; line 6 repeats line 5's SKU, which is invalid.
const stock = [
  'sku;quantity;price',
  'A-1;3;1.234,567',
  'A-2;x;2,50',
  'A-2;4;abc',
  'A-3;-1;2',
  'A-3;1;2',
  'A-4;7;9,90',
  '',
].join('\r\n');

const customers = [
  'name,documentType,document,username,password,phone,customerRegistrationAddress.zipcode,customerRegistrationAddress.number',
  'Ana,cpf,529.982.247-25,ana@example.com,s3cret!,11987654321,01310-100,100',
  'Bia,cpf,1234567890,bia@example.com,s3cret!,11987654321,01310-100,101',
  '',
].join('\n');

function folderWith(name: string, content: string): string {
  const folder = temporaryFolder();
  writeFileSync(join(folder, name), content);
  return folder;
}

describe('validate output', () => {
  it('piped: NDJSON with file, line, field, value (as written) and message, for stock', async () => {
    const result = await runBuiltCli(['stock', 'validate', 'estoque.csv'], { cwd: folderWith('estoque.csv', stock) });
    expect(result.code).toBe(65);
    const problems = ndjsonOf<Record<string, unknown>>(result.stdout);
    for (const problem of problems) expect(Object.keys(problem)).toEqual(['file', 'line', 'field', 'value', 'message']);
    expect(problems.map(({ line, field, value }) => [line, field, value])).toEqual([
      [2, 'price', '1.234,567'],
      [3, 'quantity', 'x'],
      [4, 'price', 'abc'],
      [4, 'sku', 'A-2'],
      [5, 'quantity', '-1'],
      [6, 'sku', 'A-3'],
      // The first lines of the repeated SKUs, known once the file is read.
      [3, 'sku', 'A-2'],
      [5, 'sku', 'A-3'],
    ]);
    expect(problems[0]?.message).toBe(
      'Property [price] with value [1.234,567] does not pass validation (price must have at most 2 decimals)',
    );
    expect(problems[3]?.message).toBe(
      'Property [sku] with value [A-2] does not pass validation (the same SKU is also on line 3 of this file)',
    );
    expect(problems[6]?.message).toBe(
      'Property [sku] with value [A-2] does not pass validation (the same SKU is also on line 4 of this file)',
    );
  });

  it('piped: the same fields for customers', async () => {
    const result = await runBuiltCli(['customer', 'validate', 'clientes.csv'], {
      cwd: folderWith('clientes.csv', customers),
    });
    expect(result.code).toBe(65);
    const problem = JSON.parse(result.stdout.trimEnd().split('\n')[0] as string) as Record<string, unknown>;
    expect(problem).toMatchObject({ file: 'clientes.csv', line: 3, field: 'document', value: '1234567890' });
    expect(Object.keys(problem)).toEqual(['file', 'line', 'field', 'value', 'message']);
  });

  it('on a terminal: file:line: message lines, the same for customers and stock', async () => {
    const stockRun = testContext({ tty: { stdout: true } });
    const stockFile = join(folderWith('estoque.csv', stock), 'estoque.csv');
    await expect(validateStock({ file: stockFile, strict: false }, stockRun.context)).rejects.toThrow(/invalid/);
    expect(stockRun.stdout().split('\n')[0]).toBe(
      `${stockFile}:2: Property [price] with value [1.234,567] does not pass validation (price must have at most 2 decimals)`,
    );
    const customerRun = testContext({ tty: { stdout: true } });
    const customerFile = join(folderWith('clientes.csv', customers), 'clientes.csv');
    await expect(
      validateCustomers({ file: customerFile, strict: false, mode: 'create' }, customerRun.context),
    ).rejects.toThrow(/invalid/);
    expect(customerRun.stdout()).toMatch(
      new RegExp(`^${customerFile.replaceAll('.', '\\.')}:3: Property \\[document\\] with value \\[1234567890\\] `),
    );
  });
});

describe('--dry-run --skip-invalid', () => {
  it('exits 1 as the real run does, saying so, and sends nothing', async () => {
    const env = {
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_USERNAME: sandboxDefaults.username,
      B2BCTL_PASSWORD: sandboxDefaults.password,
    };
    const dry = await runBuiltCli(['stock', 'push', 'estoque.csv', '--dry-run', '--skip-invalid'], {
      cwd: folderWith('estoque.csv', stock),
      env,
    });
    expect(dry.stderr.trimEnd().split('\n').at(-1)).toBe(
      'error: dry run: 5 records of estoque.csv are invalid (listed above) and would be reported as invalid; the real run would exit 1 as this one does. Nothing was sent.',
    );
    expect(dry.code).toBe(1);
    expect(await requestsReceived()).toEqual({});
    const real = await runBuiltCli(['stock', 'push', 'estoque.csv', '--skip-invalid'], {
      cwd: folderWith('estoque.csv', stock),
      env,
    });
    expect(real.code).toBe(dry.code);
  });
});
