/**
 * Numbers, documents, JSON and paths named right: each refusal says what the input holds in the user's words, with
 * its line, and nothing is sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { storedCustomers } from '../../support/customers.js';
import { clearSandboxCustomers, requestCounts, resetCounts } from '../../support/sandbox.js';
import { stockSummary } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));
beforeEach(async () => {
  await clearSandboxCustomers(sandbox);
  await resetCounts(sandbox);
});

async function run(args: string[], files: Record<string, string | Buffer>) {
  const dir = freshWorkDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  const result = await runCommandLine(args, { configDir: freshConfigDir(), cwd: dir, env });
  expect(await requestCounts(sandbox)).toEqual({});
  expect(await storedCustomers(sandbox)).toEqual([]);
  expect((await stockSummary(sandbox)).lines).toBe(0);
  return result;
}

const customerHeader =
  'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number\r\n';

describe('numbers', () => {
  it('a quantity of 17 digits: too many digits for a number, format the column as Text', async () => {
    const result = await run(['stock', 'push', 'estoque.csv'], {
      'estoque.csv': 'sku;quantity;price\r\nACU-REF-5KG;12345678901234567;1,00\r\n',
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'estoque.csv:2: Property [quantity] with value [12345678901234567] does not pass validation (quantity has too many digits for a number (17; a number holds 15); format the column as Text)\n',
    );
  });

  it('a JSON price of 1e309 is refused as beyond any number, never read as Infinity', async () => {
    const result = await run(['stock', 'push', 'estoque.json'], {
      'estoque.json': '[{"sku": "ACU-REF-5KG", "quantity": 1, "price": 1e309}]',
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'estoque.json:1: Property [price] with value [1e309] does not pass validation (price is too large for a number (beyond 1.8e308, it would be Infinity); write the value it should be)\n',
    );
    expect(result.stderr).not.toContain('Infinity]');
  });
});

describe('documents', () => {
  it('a CPF cell with a letter gets a CPF message, not the CNPJ one', async () => {
    const result = await run(['customer', 'create', 'clientes.csv'], {
      'clientes.csv': `${customerHeader}cpf;123.456.789-0x;Maria;maria@email.com.br;11987654321;Senha#1;01310-100;100\r\n`,
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'clientes.csv:2: Property [document] with value [123.456.789-0x] does not pass validation (a CPF has only digits)\n',
    );
    expect(result.stderr).not.toContain('CNPJ letters');
  });
});

describe('text that is not what it should be', () => {
  it('a NUL early in a CSV: its line and byte, not "a binary file"', async () => {
    const result = await run(['customer', 'create', 'clientes.csv'], {
      'clientes.csv': Buffer.from(
        `${customerHeader}cpf;123.456.789-09;Ma\0ria;maria@email.com.br;11987654321;Senha#1;01310-100;100\r\n`,
        'latin1',
      ),
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      `error: clientes.csv:2: a NUL byte (0x00, byte ${customerHeader.length + 'cpf;123.456.789-09;Ma'.length} of the file), which no text holds; the rest reads as text, so the export is probably damaged there. Delete it (or export the data again) and run again.\n`,
    );
  });

  it.each([
    ['a number', '4', 'the file holds a number (4), not records'],
    ['a string', '"clientes"', 'the file holds a string ("clientes"), not records'],
    ['null', 'null', 'the file holds null, not records'],
  ])('JSON whose top level is %s is described in words', async (_name, json, words) => {
    const result = await run(['customer', 'create', 'clientes.json'], { 'clientes.json': json });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      `error: clientes.json:1:1: ${words}: a JSON input is a list of records ([{...}, {...}]) or one record ({...}).\n`,
    );
  });

  it('CSV saved as .json: "this looks like CSV", with its first line', async () => {
    const result = await run(['customer', 'create', 'clientes.json'], { 'clientes.json': customerHeader });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'error: clientes.json:1:1: this looks like CSV, not JSON: its first line reads "documentType;document;name;username;phon…". Rename the file .csv, or pipe it on stdin (-), where the format is read from the content.\n',
    );
  });

  it('a JSON syntax error quotes a few characters where it is', async () => {
    const result = await run(['customer', 'create', 'clientes.json'], {
      'clientes.json': '[\n  {"documentType": "cpf", "document": "123.456.789-09",}\n]',
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'error: clientes.json:2:56: invalid JSON: Expected double-quoted property name (near: ": "123.456.789-09",}).\n',
    );
  });

  it('rows with another delimiter than the header: one error for the file, at the first such row', async () => {
    const result = await run(['stock', 'push', 'estoque.csv'], {
      'estoque.csv': 'sku,quantity,price\nA-1,1,2.00\nA-2;2;3,00\nA-3;3;4,00\nA-4;4;5,00\n',
    });
    expect(result.code).toBe(65);
    const errors = result.stderr.split('\n').filter((line) => line.includes('estoque.csv:'));
    expect(errors).toEqual([
      'error: estoque.csv:3: the row has 2 cells holding ";" where the header has 3 ","-separated columns: the delimiter looks wrong; nothing was sent. Save the file with one delimiter, or pass --delimiter ";" if the rows are right.',
    ]);
  });
});

describe('paths', () => {
  it('a path too long for the system is said in words, shortened, exit 66', async () => {
    const name = `${'clientes-'.repeat(40)}.csv`;
    const result = await run(['customer', 'create', name], {});
    expect(result.code).toBe(66);
    expect(result.stderr).toContain(
      `${name.slice(0, 60)}…${name.slice(-40)} (${name.length} characters): the path is longer than the system allows (a name of more than 255 bytes, or a path of more than 4,096); check the path, or move the file to a shorter one.`,
    );
    expect(result.stderr).not.toContain('ENAMETOOLONG');
  });
});
