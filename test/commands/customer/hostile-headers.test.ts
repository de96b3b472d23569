/**
 * Hostile and unlucky headers (issue 10, items 7, 10, 11): a header named after JavaScript's object
 * machinery, a list index of millions, and a --map file saved as ANSI. Each one fails at the header
 * with exit 65 and one line (or imports correctly), and nothing reaches the platform.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { storedCustomer, storedCustomers } from '../../support/customers.js';
import { requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

function workspace(files: Record<string, string | Buffer>) {
  const dir = freshWorkDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return { dir, run: (args: string[]) => runCommandLine(args, { configDir, cwd: dir }) };
}

const validRow = 'cpf;012.345.678-90;Ana;ana@example.com;11987654321;Senha#2001;01310-100;100';
const header =
  'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number';

async function expectNothingSent(): Promise<void> {
  expect(await requestCounts(sandbox)).toEqual({});
  expect(await storedCustomers(sandbox)).toEqual([]);
}

describe('headers that would reach into the object machinery', () => {
  for (const name of ['__proto__', 'constructor', 'prototype', 'addressList.0.__proto__']) {
    it(`"${name}": exit 65 at the header with one line, no internal error text, nothing sent`, async () => {
      const { run } = workspace({ 'in.csv': `${header};${name}\r\n${validRow};x\r\n` });
      for (const verb of ['validate', 'create']) {
        const result = await run(['customer', verb, 'in.csv']);
        const segment = name.split('.').at(-1);
        expect(result.stderr).toContain(
          `error: in.csv:1: column 9 "${name}": "${segment}" is not a field name b2bctl can read; rename it.\n`,
        );
        expect(result.stderr).not.toMatch(/TypeError|is not a function|\n\s+at /);
        expect(result.code).toBe(65);
      }
      await expectNothingSent();
    });
  }

  it('"toString" and "hasOwnProperty" are ordinary unknown columns: refused as such, the file imports once they are left out', async () => {
    const { run } = workspace({ 'in.csv': `${header};toString;hasOwnProperty\r\n${validRow};x;y\r\n` });
    const refused = await run(['customer', 'create', 'in.csv']);
    expect(refused.stderr).toContain(
      '"toString" holds "x" on line 2 ({"toString":"FIELD"}, or --ignore-column toString)',
    );
    expect(refused.code).toBe(65);
    const result = await run([
      'customer',
      'create',
      'in.csv',
      '--ignore-column',
      'toString',
      '--ignore-column',
      'hasOwnProperty',
    ]);
    expect(result.stderr).not.toContain('TypeError');
    expect(result.code).toBe(0);
    expect((await storedCustomer(sandbox, '012.345.678-90')).name).toBe('Ana');
  });

  it('a JSON "constructor" key with --map: exit 65 naming the key, nothing sent', async () => {
    const record = { documentType: 'cpf', document: '012.345.678-90', Nome: 'Ana', constructor: 'x' };
    const { run } = workspace({ 'in.json': JSON.stringify([record]), 'map.json': '{"Nome":"name"}' });
    const result = await run(['customer', 'create', 'in.json', '--map', 'map.json']);
    expect(result.stderr).toContain(
      'error: in.json:1: key "constructor": "constructor" is not a field name b2bctl can read; rename it.\n',
    );
    expect(result.stderr).not.toContain('is not a function');
    expect(result.code).toBe(65);
    await expectNothingSent();
  });

  it('a --map file mapping "__proto__" or "constructor" maps only what it says', async () => {
    const { run } = workspace({
      'in.csv': `${header.replace(';name;', ';constructor;')}\r\n${validRow}\r\n`,
      'map.json': '{"constructor":"name","__proto__":"document"}',
    });
    const result = await run(['customer', 'create', 'in.csv', '--map', 'map.json']);
    expect(result.code).toBe(0);
    expect((await storedCustomer(sandbox, '012.345.678-90')).name).toBe('Ana');
  });
});

describe('list indexes beyond the cap (input.maxListIndex, 300)', () => {
  it('addressList.99999999.zipcode fails at the header at once, reported once, nothing sent', async () => {
    const rows = Array.from({ length: 1000 }, () => `${validRow};01310-100`).join('\r\n');
    const { run } = workspace({ 'in.csv': `${header};addressList.99999999.zipcode\r\n${rows}\r\n` });
    const result = await run(['customer', 'create', 'in.csv']);
    expect(result.stderr).toBe(
      'customer create: validating in.csv\nerror: in.csv:1: column 9 "addressList.99999999.zipcode": list index 99999999 is above 300 (the input.maxListIndex setting); number the items from 0.\n',
    );
    expect(result.code).toBe(65);
    await expectNothingSent();
  });

  it('the cap is a setting: config set input.maxListIndex raises it', async () => {
    const { run } = workspace({ 'in.csv': `${header};addressList.301.zipcode\r\n${validRow};01310-100\r\n` });
    const refused = await run(['customer', 'validate', 'in.csv']);
    expect(refused.stderr).toContain('list index 301 is above 300 (the input.maxListIndex setting)');
    expect(refused.code).toBe(65);
    expect((await run(['config', 'set', 'input.maxListIndex', '400'])).code).toBe(0);
    const accepted = await run(['customer', 'validate', 'in.csv']);
    expect(accepted.stderr).not.toContain('input.maxListIndex');
    expect((await run(['config', 'set', 'input.maxListIndex', ''])).code).toBe(0);
    await expectNothingSent();
  });
});

describe('a --map file saved as ANSI (Windows-1252)', () => {
  it('its accented keys match the headers of a Windows-1252 export', async () => {
    const csv = Buffer.from(
      `${header.replace(';name;', ';Razão social;')}\r\n${validRow.replace(';Ana;', ';João;')}\r\n`,
      'latin1',
    );
    const map = Buffer.from('{"Razão social":"name"}', 'latin1');
    const { run } = workspace({ 'in.csv': csv, 'map.json': map });
    const result = await run(['customer', 'create', 'in.csv', '--map', 'map.json']);
    expect(result.stderr).not.toContain('unknown column');
    expect(result.code).toBe(0);
    expect((await storedCustomer(sandbox, '012.345.678-90')).name).toBe('João');
  });
});
