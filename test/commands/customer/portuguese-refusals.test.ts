/**
 * A 4xx whose words come under Portuguese names (`mensagem`, `erro`, `erros: [{campo, mensagem}]`), from a scripted
 * platform over real HTTP. They were dropped, and b2bctl's guess put in their place: "the e-mail … is registered to
 * another customer" for a 400 that said the password was weak, "customer groups sent: Sul" for a 422 about the phone,
 * nothing for a 409 (a fresh user test). Only a 400 without words of its own gets the documented guess.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyReport, readReport } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
// The first sample customer sends the group `Sul`.
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const maria = '100.007.919-89';
/** What the question after a refused create established, beside the platform's words: no customer has the document. */
const notRegistered = `; document ${maria} is not registered on the store, so the refusal is about another field, such as the e-mail`;

const answer = answerJsonText;

/** `b2bctl ARGS` in a fresh folder holding FILES, against the scripted platform. */
const b2bctl = (args: readonly string[], files?: Record<string, string>) =>
  runInScriptedWorkspace(platform, args, files);

async function create(status: number, text: string) {
  platform.routes['POST /v1/customer'] = answer(status, text);
  const { result, folder } = await b2bctl(['customer', 'create', 'people.csv'], {
    'people.csv': `${header}\n${first}\n`,
  });
  return { result, rows: readReport(join(folder, onlyReport(folder, 'people'))) };
}

describe('customer create refused in Portuguese keys: the platform’s words, no guess in their place', () => {
  it.each([
    ['{"mensagem":"Senha fraca"}', 'Senha fraca'],
    ['{"erro":"Senha fraca"}', 'Senha fraca'],
    // The wording a store gives both duplicates: the document's part is settled by the question (a user test).
    ['{"erro":"Cliente já cadastrado"}', 'Cliente já cadastrado'],
    ['{"erros":[{"campo":"password","mensagem":"Senha fraca"}]}', 'password: Senha fraca'],
  ])(
    '400 %s: failed with its words; the documented question asked, the e-mail guess never made',
    async (text, words) => {
      const { result, rows } = await create(400, text);
      expect(result.code).toBe(1);
      // The documented question (update with `{}`) follows a 400; the scripted platform knows no such customer (404).
      expect(platform.received).toEqual(['POST /v1/customer', `PUT /v1/customer/${maria}`]);
      // Beside its words, what the question established: no customer has the document.
      expect(rows).toEqual([
        expect.objectContaining({ outcome: 'failed', status: '400', message: `${words}${notRegistered}` }),
      ]);
      expect(result.stderr).toContain(`why, 1 customer (line 2): ${words}`);
      expect(result.stderr).not.toMatch(/registered to another customer/);
    },
  );

  it('a 400 without words of its own still gets the documented guess', async () => {
    const { rows } = await create(400, '{"codigo":"E1"}');
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        message: expect.stringContaining('is registered to another customer') as unknown,
      }),
    ]);
  });

  it('422 erros naming the phone: its words, never the customer groups sent', async () => {
    const { result, rows } = await create(422, '{"erros":[{"campo":"phone","mensagem":"inválido"}]}');
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer']);
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        status: '422',
        message: 'phone: inválido',
      }),
    ]);
    expect(result.stderr).not.toMatch(/customer groups sent/);
  });

  it.each([
    [
      '{"status":"UNPROCESSABLE_ENTITY","message":"Telefone inválido para o cadastro"}',
      'Telefone inválido para o cadastro',
    ],
    ['{"errors":[{"campo":"cep","mensagem":"CEP não encontrado"}]}', 'cep: CEP não encontrado'],
  ])('422 %s, naming no field the way the document does: its words alone, not the groups sent', async (text, words) => {
    const { result, rows } = await create(422, text);
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer']);
    expect(rows).toEqual([expect.objectContaining({ outcome: 'failed', status: '422', message: words })]);
    expect(result.stderr).toContain(`why, 1 customer (line 2): ${words}`);
    expect(result.stderr).not.toMatch(/customer groups sent/);
  });

  it('422 errors naming customerGroupList: the groups sent and where the store lists its own', async () => {
    const { rows } = await create(422, '{"errors":[{"campo":"customerGroupList","mensagem":"Grupo inexistente"}]}');
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        message:
          "customerGroupList: Grupo inexistente; customer groups sent: Sul (`b2bctl api /v1/customer-groups --paginate` lists the store's groups)",
      }),
    ]);
  });

  it('422 the document body with mensagem: its words lead the row', async () => {
    const { rows } = await create(422, '{"status":"UNPROCESSABLE_ENTITY","mensagem":"Propriedade [phone] inválida"}');
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        message: expect.stringMatching(/^Propriedade \[phone\] inválida/) as unknown,
      }),
    ]);
  });

  it('409 mensagem: the reason kept', async () => {
    const { result, rows } = await create(409, '{"mensagem":"Documento já cadastrado"}');
    expect(result.code).toBe(1);
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        status: '409',
        message: `Documento já cadastrado${notRegistered}`,
      }),
    ]);
  });
});

describe('customer update --document answered 404 in Portuguese', () => {
  it('the platform’s words are the reason on the error line', async () => {
    platform.routes['PUT /v1/customer/*'] = answer(404, '{"mensagem":"Cliente não encontrado"}');
    const { result } = await b2bctl(['customer', 'update', '--document', '111.444.777-35', '--set', 'name=Jo']);
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['PUT /v1/customer/111.444.777-35']);
    expect(result.stderr).toContain(
      'error: No customer has the document 111.444.777-35 in this store (HTTP 404: Cliente não encontrado).',
    );
  });
});
