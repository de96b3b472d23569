/**
 * Creates answered 2xx with the record of the customer already registered, or with no customer at all, from a
 * scripted platform over real HTTP (a user test): a record of the same document with another e-mail (at the root or
 * under `data`), `{"message": "Cadastro recebido e será analisado"}` and `{}` were each reported `created`, exit 0,
 * with the other customer's id or none, and nothing of the file stored. Now the record with another e-mail is `failed`
 * "already registered", with the --upsert advice, as the same record found after a lost answer is; a body showing no
 * customer is asked about in the same run (the empty update), as a lost answer is: `created` when found with the
 * file's e-mail, `unknown` when not found. No body, `null` and `[]` stay `created`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJson, answerJsonText, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const cell = (name: string) => first?.split(',')[(header ?? '').split(',').indexOf(name)] ?? '';
const document = cell('document');
const email = cell('username');

const createFirst = () =>
  runInScriptedWorkspace(platform, ['customer', 'create', 'people.csv'], { 'people.csv': `${header}\n${first}\n` });

const rowOf = (folder: string) => readReport(join(folder, onlyReport(folder, 'people')));

const registeredBefore = { id: 108, document, email: 'Existente@Loja.com.br', name: 'Cliente Antigo' };

const askedAbout = (record: unknown): RouteHandler =>
  record === undefined
    ? (_request, _body, response) => response.writeHead(404).end()
    : (_r, _b, response) => answerJson(response, 200, record);

describe('customer create answered 200 with the record of a customer with another e-mail', () => {
  it.each([
    ['at the root', registeredBefore],
    ['under data', { data: { ...registeredBefore, id: 999 } }],
  ])('%s: failed, registered before, --upsert advised, sent once, no question', async (_case, body) => {
    platform.routes['POST /v1/customer'] = answerJsonText(200, JSON.stringify(body));
    const { result, folder } = await createFirst();
    expect(result.code).toBe(1);
    expect(rowOf(folder)).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        status: '200',
        id: '',
        message: `the create was answered HTTP 200 with a customer's record showing another e-mail, and document ${document} is already registered (registered with the e-mail Existente@Loja.com.br; its record shows name "Cliente Antigo" (the file: "${cell('name')}"), so it was there before this create; pass --upsert to update existing customers)`,
      }),
    ]);
    expect(runFiles(folder, 'people').errors).toHaveLength(1);
    expect(result.stderr).toMatch(/^customer create: 1 failed; 1 request,/m);
    expect(result.stderr).toContain('--upsert');
    expect(platform.received).toEqual(['POST /v1/customer']);
  });

  it('the file’s e-mail in another case: created, as before', async () => {
    platform.routes['POST /v1/customer'] = answerJsonText(
      200,
      JSON.stringify({ id: 41, document, email: email.toUpperCase() }),
    );
    const { result, folder } = await createFirst();
    expect(result.code).toBe(0);
    expect(rowOf(folder)).toEqual([expect.objectContaining({ outcome: 'created', id: '41' })]);
  });
});

describe('customer create answered 200 with no customer in its body', () => {
  it.each(['{"message":"Cadastro recebido e será analisado"}', '{}'])(
    '%s, the customer not found when asked: unknown, sent once, exit 1',
    async (text) => {
      platform.routes['POST /v1/customer'] = answerJsonText(200, text);
      platform.routes['PUT /v1/customer/*'] = askedAbout(undefined);
      const { result, folder } = await createFirst();
      expect(result.code).toBe(1);
      expect(rowOf(folder)).toEqual([
        expect.objectContaining({
          outcome: 'unknown',
          status: '200',
          id: '',
          message: `the create was answered HTTP 200 without the customer's record (${text}). No customer had document ${document} when asked, but the platform may still be creating it, so it was not sent again; a resume asks again before sending it.`,
        }),
      ]);
      expect(runFiles(folder, 'people').errors).toEqual([]);
      expect(platform.received).toEqual(['POST /v1/customer', expect.stringMatching(/^PUT \/v1\/customer\//)]);
    },
  );

  it('{"message": …}, found with the file’s e-mail when asked: created with its id, exit 0', async () => {
    platform.routes['POST /v1/customer'] = answerJsonText(200, '{"message":"Cadastro recebido"}');
    platform.routes['PUT /v1/customer/*'] = askedAbout({ id: 77, document, email });
    const { result, folder } = await createFirst();
    expect(result.code).toBe(0);
    expect(rowOf(folder)).toEqual([
      expect.objectContaining({
        outcome: 'created',
        id: '77',
        message:
          "the create was answered HTTP 200 without the customer's record; the customer exists, so it was not sent again",
      }),
    ]);
    expect(platform.received.filter((request) => request.startsWith('POST'))).toEqual(['POST /v1/customer']);
  });

  it('{}, found with another e-mail when asked: failed, registered before', async () => {
    platform.routes['POST /v1/customer'] = answerJsonText(200, '{}');
    platform.routes['PUT /v1/customer/*'] = askedAbout(registeredBefore);
    const { result, folder } = await createFirst();
    expect(result.code).toBe(1);
    expect(rowOf(folder)).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        message: expect.stringContaining('registered with the e-mail Existente@Loja.com.br') as unknown,
      }),
    ]);
  });

  it.each([undefined, 'null', '[]'])('a body of %s: created without asking, as before', async (text) => {
    platform.routes['POST /v1/customer'] = answerJsonText(200, text);
    const { result, folder } = await createFirst();
    expect(result.code).toBe(0);
    expect(rowOf(folder)).toEqual([expect.objectContaining({ outcome: 'created' })]);
    expect(platform.received).toEqual(['POST /v1/customer']);
  });
});
