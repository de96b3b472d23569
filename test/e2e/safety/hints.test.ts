/**
 * Hints where the value tells the story (issue 9): each bad input is one line saying what probably happened and
 * the fix, and nothing reaches the platform (the sandbox counts every request).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxDefaults } from '../../../src/sandbox/options.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runBuiltCli } from '../../support/cli.js';
import { temporaryFolder } from '../../support/temporary.js';
import { useFileSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
useFileSandbox((started) => (sandbox = started));
beforeEach(async () => {
  await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
});

async function requestsReceived(): Promise<Record<string, number>> {
  return (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Record<string, number>;
}

const credentials = () => ({
  B2BCTL_BASE_URL: sandbox.url,
  B2BCTL_USERNAME: sandboxDefaults.username,
  B2BCTL_PASSWORD: sandboxDefaults.password,
});

/** Runs the CLI in a folder holding `files`; returns exit code and stderr. */
async function withFiles(files: Record<string, string>, args: string[], env: Record<string, string> = credentials()) {
  const folder = temporaryFolder();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return runBuiltCli(args, { cwd: folder, env });
}

describe('input hints', () => {
  it('JSON saved as .csv: says it is JSON and how to read it, exit 65, nothing sent', async () => {
    const result = await withFiles({ 'estoque.csv': '[{"sku":"A-1","quantity":3}]\n' }, [
      'stock',
      'push',
      'estoque.csv',
    ]);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'error: estoque.csv: holds JSON (it starts with "["), not CSV, though its name says CSV. Rename it to .json, or pipe it on stdin (-), where the format is read from the content.',
    );
    expect(result.code).toBe(65);
    expect(await requestsReceived()).toEqual({});
  });

  it('--delimiter that contradicts the file: names the delimiter the header has, exit 65, nothing sent', async () => {
    const result = await withFiles({ 'estoque.csv': 'sku;quantity;price\r\nA-1;3;2,50\r\n' }, [
      'stock',
      'push',
      'estoque.csv',
      '--delimiter',
      ',',
    ]);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'error: estoque.csv:1: the header has no "," (--delimiter) but has ";": the file is probably ";"-separated. Drop --delimiter (b2bctl finds it) or pass --delimiter ";".',
    );
    expect(result.code).toBe(65);
    expect(await requestsReceived()).toEqual({});
  });

  it('a "CNPJ" column where "document" is required: names it and the --map entry, exit 65, nothing sent', async () => {
    const result = await withFiles(
      { 'clientes.csv': 'Nome,CNPJ,E-mail,cep\r\nLoja,11.222.333/0001-81,a@b.com.br,01310-100\r\n' },
      ['customer', 'create', 'clientes.csv'],
    );
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'error: clientes.csv:1: 4 columns are named as an ERP names them (listed above); nothing was sent. Run again with --write-map map.json to save the map and read the file with it, or pass --map with a file holding {"Nome":"name","CNPJ":"document","E-mail":"username","cep":"customerRegistrationAddress.zipcode"}.',
    );
    expect(result.code).toBe(65);
    expect(await requestsReceived()).toEqual({});
  });

  it('"E-mail" and "cep" columns beside the real ones: each named with its field, exit 65 rather than drop them', async () => {
    const result = await withFiles(
      { 'clientes.csv': 'document,E-mail,cep\r\n529.982.247-25,a@b.com.br,01310-100\r\n' },
      ['customer', 'validate', 'clientes.csv'],
    );
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings).toEqual([
      'warning: clientes.csv:1: column "E-mail" reads as username',
      'warning: clientes.csv:1: column "cep" reads as customerRegistrationAddress.zipcode',
    ]);
    expect(result.code).toBe(65);
  });
});

describe('login hints', () => {
  it('a base URL without a scheme: suggests https://, exit 2, nothing sent', async () => {
    const result = await runBuiltCli(
      ['login', '--base-url', 'store.example.com', '--username', 'erp@store.example.com', '--password-stdin'],
      { stdin: 'secret\n' },
    );
    expect(result.stderr).toBe(
      'error: Setting "baseUrl" must be an absolute URL such as https://store.example.com, not "store.example.com" (from the --base-url flag). It has no scheme: did you mean https://store.example.com?\n',
    );
    expect(result.code).toBe(2);
  });

  it('a username with a space: says so before the password is sent, exit 2', async () => {
    const result = await runBuiltCli(
      ['login', '--base-url', sandbox.url, '--username', 'erp @store.example.com', '--password-stdin'],
      { stdin: `${sandboxDefaults.password}\n` },
    );
    expect(result.stderr).toBe(
      'error: The username "erp @store.example.com" (from --username) has a space in it; the integration user is an e-mail address such as erp@mystore.com.br. Remove the space.\n',
    );
    expect(result.code).toBe(2);
    expect(await requestsReceived()).toEqual({});
  });
});
