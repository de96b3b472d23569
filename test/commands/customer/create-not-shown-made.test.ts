/**
 * Creates whose answer does not show the customer made, from a scripted platform over real HTTP (user tests):
 * - a 200 refusing in other words (`{"codigo":400,…}`, `{"retorno":"ERRO",…}`), a record that names the id and gives
 *   none (`{"id":null,…}`), a plain-text 200: each was reported `created` with an empty id, exit 0, nothing stored.
 *   Now `unknown`, sent once, and the update answered so is `unknown` too, never `updated`;
 * - a lost answer (the connection cut) where the customer read back shows the file's e-mail but another name and
 *   phone: reported `created` though none of the file's data was applied. Now `failed` "already registered", naming
 *   what the record shows, the fix `--upsert`, as the same create answered 400 is;
 * - a read-back that names the e-mail `username` (the name the create sends it under): the resume of a killed run
 *   reported the run's own creates `failed` "already registered (pass --upsert …)". Now `created`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyErrorsFile, onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJson, answerJsonText, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInFolder, runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const cell = (name: string) => first?.split(',')[(header ?? '').split(',').indexOf(name)] ?? '';
const document = cell('document');
const email = cell('username');

/** `b2bctl ARGS` in a fresh folder holding FILES, against the scripted platform. */
const b2bctl = (args: readonly string[], files?: Record<string, string>) =>
  runInScriptedWorkspace(platform, args, files);

const createFirst = () => b2bctl(['customer', 'create', 'people.csv'], { 'people.csv': `${header}\n${first}\n` });

/** A route that answers 200 with TEXT as `text/plain`. */
const plainText =
  (text: string): RouteHandler =>
  (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(text);

/** A route whose answer is lost: the connection is cut once the request is read. */
const cut: RouteHandler = (request) => request.socket.destroy();

describe('customer create answered 200 without the customer made', () => {
  it.each([
    ['{"codigo":400,"mensagem":"CPF já cadastrado"}', 'with a body that refuses it: CPF já cadastrado'],
    ['{"retorno":"ERRO","mensagem":"falha"}', 'with a body that refuses it: falha'],
    [
      '{"id":null,"message":"Customer already exists"}',
      'with no customer id ({"id":null,"message":"Customer already exists"})',
    ],
  ])('%s: unknown, sent once, exit 1', async (text, said) => {
    platform.routes['POST /v1/customer'] = answerJsonText(200, text);
    const { result, folder } = await createFirst();
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer']);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        id: '',
        message: `the create was answered HTTP 200 ${said}. Whether customer ${document} was created is not known, so it was not sent again; a resume asks the platform before sending it.`,
      }),
    ]);
    expect(result.stderr).toMatch(/^customer create: 1 unknown; 1 request,/m);
  });

  it('plain text: unknown quoting it, sent once, exit 1', async () => {
    platform.routes['POST /v1/customer'] = plainText('Cliente não cadastrado: CPF inválido');
    const { result, folder } = await createFirst();
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer']);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: expect.stringMatching(
          /^the create was answered HTTP 200 with text instead of the customer's record: Cliente não cadastrado: CPF inválido\. Whether customer/,
        ) as unknown,
      }),
    ]);
  });

  it('a record with its id: created, as before', async () => {
    platform.routes['POST /v1/customer'] = answerJsonText(200, '{"id":41,"codigo":"C-400"}');
    const { result, folder } = await createFirst();
    expect(result.code).toBe(0);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({ outcome: 'created', status: '200', id: '41' }),
    ]);
  });
});

describe('customer update answered 200 refusing in other words', () => {
  it.each([
    ['{"codigo":404,"mensagem":"Cliente não encontrado"}', 'Cliente não encontrado'],
    ['{"retorno":"ERRO","mensagem":"telefone inválido"}', 'telefone inválido'],
  ])('%s: unknown, never updated, exit 1', async (text, words) => {
    platform.routes['PUT /v1/customer/*'] = answerJsonText(200, text);
    const { result, folder } = await b2bctl(['customer', 'update', 'u.csv'], {
      'u.csv': `document,phone\n${document},11 91111-2222\n`,
    });
    expect(result.code).toBe(1);
    expect(readReport(join(folder, onlyReport(folder, 'u')))).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: expect.stringContaining(words) as unknown,
      }),
    ]);
    expect(result.stderr).not.toMatch(/\bupdated\b.*exit 0/);
  });
});

describe('customer create whose answer is lost, the customer found with the file’s e-mail', () => {
  it('its record showing another name and phone: failed, already registered, naming them; sent once', async () => {
    platform.routes['POST /v1/customer'] = cut;
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      answerJson(response, 200, { id: 9, document, email, name: 'Francisca Gonçalves', phone: '(92) 98061-4699' });
    const { result, folder } = await createFirst();
    expect(result.code).toBe(1);
    expect(platform.received.filter((request) => request.startsWith('POST'))).toEqual(['POST /v1/customer']);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        id: '',
        message: `the answer to the create was lost, and document ${document} is already registered (its record shows name "Francisca Gonçalves" (the file: "${cell('name')}") and phone "(92) 98061-4699" (the file: "${cell('phone')}"), so it was there before this create; pass --upsert to update existing customers)`,
      }),
    ]);
    // Fed back with --upsert, the file's values are applied: the errors file holds the row.
    expect(readFileSync(join(folder, onlyErrorsFile(folder, 'people')), 'utf8')).toContain(document);
    expect(result.stderr).not.toMatch(/\b1 created\b/);
  });

  it('its record showing the file’s name and phone, written otherwise: created', async () => {
    platform.routes['POST /v1/customer'] = cut;
    const phone = cell('phone').replace(/^(\d\d)(\d{5})(\d{4})$/, '($1) $2-$3');
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      answerJson(response, 200, { id: 9, document, email, name: ` ${cell('name').toUpperCase()} `, phone });
    const { result, folder } = await createFirst();
    expect(result.code).toBe(0);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({ outcome: 'created', id: '9' }),
    ]);
  });

  it('its record naming the e-mail `username`: created', async () => {
    platform.routes['POST /v1/customer'] = cut;
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      answerJson(response, 200, { id: 9, document, username: email });
    const { result, folder } = await createFirst();
    expect(result.code).toBe(0);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({ outcome: 'created', id: '9' }),
    ]);
  });
});

/** A run that created the customer, its report cut to the header: killed before the row was written. */
async function killedRun() {
  platform.routes['POST /v1/customer'] = (_request, _body, response) =>
    answerJson(response, 200, { id: 1009, document, username: email });
  const { folder } = await createFirst();
  const report = join(folder, onlyReport(folder, 'people'));
  writeFileSync(report, `${readFileSync(report, 'utf8').split('\r\n')[0]}\r\n`);
  platform.received.length = 0;
  platform.routes['POST /v1/customer'] = (_request, _body, response) =>
    answerJson(response, 400, { status: 'BAD_REQUEST', message: 'Document already registered' });
  return { folder, report };
}

describe('customer create --resume of a killed run, its create answered 400 already registered', () => {
  it('the record read back naming the e-mail `username`: created, exit 0, nothing to fix', async () => {
    const { folder, report } = await killedRun();
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      answerJson(response, 200, { id: 1009, document, username: email, name: cell('name') });
    const result = await runInFolder(platform, folder, ['customer', 'create', 'people.csv', '--resume', report]);
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['POST /v1/customer', expect.stringMatching(/^PUT \/v1\/customer\//)]);
    expect(readReport(report)).toEqual([
      expect.objectContaining({
        outcome: 'created',
        id: '1009',
        message: 'already registered with this e-mail: the interrupted run created it before its answer was recorded',
      }),
    ]);
    expect(runFiles(folder, 'people').errors).toEqual([]);
  });
});
