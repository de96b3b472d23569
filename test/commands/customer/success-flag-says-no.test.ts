/**
 * Writes answered 2xx with a success flag saying no in the words b2bctl reads in an input file's cells, or with text,
 * from a scripted platform over real HTTP (a user test): `{"sucesso": "não"}`, `{"ok": "N"}`, `{"success": "nao"}`
 * were reported created and updated, exit 0, nothing stored; an update or status change answered with the JSON string
 * `"ERRO"` was `updated` where the same create was `unknown`; a status change answered `{"ativo": "S"}` after sending
 * false was done, where `{"active": true}` was `unknown`; and `customer update --document --set` so answered said
 * "Updated customer", exit 0. Each is now `unknown`, sent once (exit 1 for a file, 69 for one customer).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const document = first?.split(',')[1] ?? '';

const sayingNo = [
  '{"sucesso": "não", "mensagem": "Telefone inválido"}',
  '{"sucesso": "nao"}',
  '{"sucesso": "N"}',
  '{"sucesso": "n"}',
  '{"ok": "N", "msg": "cliente bloqueado"}',
  '{"success": "nao"}',
];

const onlyRowOf = (folder: string, base: string) => readReport(join(folder, onlyReport(folder, base)));

describe('customer create answered 200 with a success flag saying no', () => {
  it.each(sayingNo)('%s: unknown, sent once, exit 1', async (text) => {
    platform.routes['POST /v1/customer'] = answerJsonText(200, text);
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'create', 'people.csv'], {
      'people.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(1);
    expect(onlyRowOf(folder, 'people')).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: expect.stringMatching(/^the create was answered HTTP 200 with a body that refuses it: /) as unknown,
      }),
    ]);
    expect(result.stderr).toMatch(/^customer create: 1 unknown; 1 request,/m);
    expect(platform.received).toEqual(['POST /v1/customer']);
  });
});

describe('customer update answered 200 with a success flag saying no, or with text', () => {
  it.each([...sayingNo, '"ERRO"'])('%s: unknown, sent once, exit 1', async (text) => {
    platform.routes['PUT /v1/customer/*'] = answerJsonText(200, text);
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'update', 'u.csv'], {
      'u.csv': `document,phone\n${document},11 91111-2222\n`,
    });
    expect(result.code).toBe(1);
    expect(onlyRowOf(folder, 'u')).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: expect.stringMatching(
          /^the platform answered HTTP 200 with (a body that refuses the change: .+|text instead of the customer's record: ERRO); whether it was applied is not known/,
        ) as unknown,
      }),
    ]);
    expect(result.stderr).toMatch(/^customer update: 1 unknown; 1 request,/m);
    expect(platform.received).toHaveLength(1);
  });

  it('plain text: unknown, quoting it', async () => {
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Cliente não encontrado');
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'update', 'u.csv'], {
      'u.csv': `document,phone\n${document},11 91111-2222\n`,
    });
    expect(result.code).toBe(1);
    expect(onlyRowOf(folder, 'u')).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        message: expect.stringContaining(
          "with text instead of the customer's record: Cliente não encontrado",
        ) as unknown,
      }),
    ]);
  });

  it('a flag saying yes ({"ok": "S"}): updated, exit 0, as before', async () => {
    platform.routes['PUT /v1/customer/*'] = answerJsonText(200, '{"ok": "S"}');
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'update', 'u.csv'], {
      'u.csv': `document,phone\n${document},11 91111-2222\n`,
    });
    expect(result.code).toBe(0);
    expect(onlyRowOf(folder, 'u')).toEqual([expect.objectContaining({ outcome: 'updated' })]);
  });

  it('--document --set answered {"sucesso": "não"}: exit 69, never "Updated customer"', async () => {
    platform.routes['PUT /v1/customer/*'] = answerJsonText(
      200,
      '{"sucesso": "não", "mensagem": "Cliente não encontrado"}',
    );
    const { result } = await runInScriptedWorkspace(platform, [
      'customer',
      'update',
      '--document',
      document,
      '--set',
      'phone=(11) 91234-5678',
    ]);
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(
      `Customer ${document}: the platform answered HTTP 200 with a body that refuses the change: Cliente não encontrado;`,
    );
    expect(result.stderr).not.toContain('Updated customer');
    expect(platform.received).toHaveLength(1);
  });
});

describe('customer status answered 200 with a flag saying no, text, or the record still active', () => {
  it.each([
    ['{"sucesso": "não"}', 'with a body that refuses the change: {"sucesso":"não"}'],
    ['"ERRO"', "with text instead of the customer's record: ERRO"],
    ['{"ativo": "S"}', `with the customer's record showing "ativo": "S", though false was sent`],
    ['{"ativo": "Ativo"}', `with the customer's record showing "ativo": "Ativo", though false was sent`],
  ])('%s after sending inactive: unknown, exit 1', async (text, said) => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answerJsonText(200, text);
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'status', 'st.csv'], {
      'st.csv': `document;active\r\n${document};inativo\r\n`,
    });
    expect(result.code).toBe(1);
    expect(onlyRowOf(folder, 'st')).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: `the platform answered HTTP 200 ${said}; whether it was applied is not known (sending it again is harmless)`,
      }),
    ]);
    expect(runFiles(folder, 'st').reports).toHaveLength(1);
    expect(platform.received).toHaveLength(1);
  });

  it('{"ativo": "N"} after sending inactive: updated, exit 0', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answerJsonText(200, '{"ativo": "N"}');
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'status', 'st.csv'], {
      'st.csv': `document;active\r\n${document};inativo\r\n`,
    });
    expect(result.code).toBe(0);
    expect(onlyRowOf(folder, 'st')).toEqual([expect.objectContaining({ outcome: 'updated' })]);
  });
});
