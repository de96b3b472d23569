/**
 * A CPF or CNPJ written with the spaces a web page, a spreadsheet's number format or a PDF puts between digits
 * (no-break U+00A0, narrow no-break U+202F, figure U+2007, a tab) is valid, as with a plain space: the no-break one
 * was accepted with no test to keep it so, and the narrow no-break and figure spaces were refused as "only digits,
 * upper-case letters and the punctuation . - /". Such a document is sent without its spaces and punctuation: it
 * was sent as written, no-break spaces and all, into the customer's key and the update's path.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { expectLines, timed } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

/** The header and the first customer of samples/customers.csv, whose CPF is 100.007.919-89. */
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');

describe('customer validate: a document with a space of another kind between its digits', () => {
  it.each([
    ['a no-break space', '100.007.919\u00A089'],
    ['a narrow no-break space', '100\u202F007\u202F919-89'],
    ['a figure space', '100.007.919\u200789'],
    ['a tab', '100.007.919\t89'],
  ])('%s: valid, exit 0', async (_, document) => {
    expect(first).toContain(',100.007.919-89,');
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'spaced.csv'), `${header}\n${first?.replace('100.007.919-89', document)}\n`);
    const result = await runCommandLine(['customer', 'validate', 'spaced.csv'], {
      configDir: freshConfigDir(),
      cwd: folder,
    });
    expect(result.code).toBe(0);
    expectLines(result.stderr, [timed('spaced.csv: 1 record, 1 valid, 0 invalid (0 problems) in {s} s.')]);
  });
});

describe('a document with spaces is sent as read, without spaces or punctuation', () => {
  const platform = useScriptedPlatform();
  const sent: { key: string; body: string }[] = [];

  function run(args: string[], folder: string) {
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    return runCommandLine(args, { configDir: freshConfigDir(), env, cwd: folder });
  }

  it.each([
    ['a no-break space', '100.007.919\u00A089'],
    ['plain spaces', '100 007 919 89'],
  ])(
    'customer create, %s: the body carries 10000791989; a document without spaces goes as written',
    async (_, document) => {
      sent.length = 0;
      platform.routes['POST /v1/customer'] = (request, body, response) => {
        sent.push({ key: `${request.method} ${request.url}`, body });
        response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
      };
      const folder = freshWorkDir();
      const second = first?.replace('100.007.919-89', '529.982.247-25').replace(/[\w.]+@[\w.]+/, 'other@example.com');
      writeFileSync(
        join(folder, 'spaced.csv'),
        `${header}\n${first?.replace('100.007.919-89', document)}\n${second}\n`,
      );
      const result = await run(['customer', 'create', 'spaced.csv', '--concurrency', '1'], folder);
      expect(result.code).toBe(0);
      expect(sent.map((request) => JSON.parse(request.body).document)).toEqual(['10000791989', '529.982.247-25']);
    },
  );

  it('customer status and customer addresses: the path carries 10000791989', async () => {
    sent.length = 0;
    const answer = (body: string) => (request: IncomingMessage, _body: string, response: ServerResponse) => {
      sent.push({ key: `${request.method} ${request.url}`, body: '' });
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    };
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer('{}');
    platform.routes['GET /v1/customer/addresses/*'] = answer('[]');
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'status.csv'), 'document,active\n100 007 919 89,false\n');
    expect((await run(['customer', 'status', '100.007.919\u00A089', 'inactive'], folder)).code).toBe(0);
    expect((await run(['customer', 'status', 'status.csv'], folder)).code).toBe(0);
    expect((await run(['customer', 'addresses', '100 007 919\u00A089', '-o', 'json'], folder)).code).toBe(0);
    expect(sent.map((request) => request.key)).toEqual([
      'PUT /v1/customer/updateStatus/10000791989/false',
      'PUT /v1/customer/updateStatus/10000791989/false',
      'GET /v1/customer/addresses/10000791989',
    ]);
  });

  it('customer update: the path and nothing else carries 10000791989', async () => {
    sent.length = 0;
    platform.routes['PUT /v1/customer/*'] = (request, body, response) => {
      sent.push({ key: `${request.method} ${request.url}`, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1}');
    };
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'update.csv'), 'document,name\n"100\u202F007\u202F919-89",Ana Souza\n');
    const result = await run(['customer', 'update', 'update.csv'], folder);
    expect(result.code).toBe(0);
    expect(sent).toEqual([{ key: 'PUT /v1/customer/10000791989', body: '{"name":"Ana Souza"}' }]);
  });
});
