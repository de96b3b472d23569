/**
 * A create whose answer was lost, read back with the file's e-mail and the name as many back-ends store it (upper
 * case, accents and punctuation dropped, `&` as `E`, cut to its column's length), from a scripted platform over real
 * HTTP (a user test): reported `failed`, "so it was there before this create", though this run created it, and sent
 * to the errors file with --upsert. Now `created`, the report noting how the platform stored the name; a record with
 * another e-mail, or a name that is no such form of the file's, is still `failed`. Same on the resume of a killed run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { answerJson, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInFolder, runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const document = '37.759.458/0001-39';
const email = 'silva@email.com.br';
const header =
  'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number';

/** A one-customer create file naming the customer NAME. */
const oneCustomer = (name: string) => ({
  'one.csv': `${header}\ncnpj,${document},${name},${email},(11) 98765-4300,Senha#1,01310-100,5\n`,
});

/** A route whose answer is lost: the connection is cut once the request is read. */
const cut: RouteHandler = (request) => request.socket.destroy();

/** The read-back answering the customer's record with NAME and E-MAIL as stored. */
const storedAs =
  (name: string, storedEmail = email.toUpperCase()): RouteHandler =>
  (_request, _body, response) =>
    answerJson(response, 200, { id: 108, document: '37759458000139', email: storedEmail, name });

const posts = () => platform.received.filter((request) => request.startsWith('POST'));

describe('customer create whose answer was lost, the name read back as the platform stores it', () => {
  it.each([
    ['Comercial Silva Ltda.', 'COMERCIAL SILVA LTDA'],
    ['Açúcar & Café São João Ltda.', 'ACUCAR E CAFE SAO JOAO LTDA'],
    ['Banco do Brasil S.A.', 'BANCO DO BRASIL SA'],
    ['Distribuidora de Alimentos e Bebidas Ribeirão Preto Ltda', 'DISTRIBUIDORA DE ALIMENTOS E BEBIDAS RIB'],
  ])('%s stored %s: created, noting the name, exit 0, sent once', async (name, stored) => {
    platform.routes['POST /v1/customer'] = cut;
    platform.routes['PUT /v1/customer/*'] = storedAs(stored);
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'one.csv'],
      oneCustomer(name),
    );
    expect(result.code).toBe(0);
    expect(readReport(join(folder, onlyReport(folder, 'one')))).toEqual([
      expect.objectContaining({
        outcome: 'created',
        status: '200',
        id: '108',
        message: `the answer to the create was lost; the customer exists, so it was not sent again; the platform stored the name as "${stored}" (the file: "${name}")`,
      }),
    ]);
    expect(runFiles(folder, 'one').errors).toEqual([]);
    expect(result.stderr).toMatch(/^customer create: 1 created; 2 requests,/m);
    expect(posts()).toEqual(['POST /v1/customer']);
  });

  it('the name as written, case and accents aside: created without a note, as before', async () => {
    platform.routes['POST /v1/customer'] = cut;
    platform.routes['PUT /v1/customer/*'] = storedAs('MARIA DA CONCEICAO');
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'one.csv'],
      oneCustomer('Maria da Conceição'),
    );
    expect(result.code).toBe(0);
    expect(readReport(join(folder, onlyReport(folder, 'one')))).toEqual([
      expect.objectContaining({
        outcome: 'created',
        message: 'the answer to the create was lost; the customer exists, so it was not sent again',
      }),
    ]);
  });

  it.each([
    [
      'another e-mail',
      'COMERCIAL SILVA LTDA',
      'existente@loja.com.br',
      /registered with the e-mail existente@loja\.com\.br/,
    ],
    ['another name', 'CLIENTE ANTIGO', email, /its record shows name "CLIENTE ANTIGO"/],
    ['a prefix shorter than 20 characters', 'COMERCIAL', email, /its record shows name "COMERCIAL"/],
  ])('%s: still failed, registered before, --upsert advised', async (_case, stored, storedEmail, said) => {
    platform.routes['POST /v1/customer'] = cut;
    platform.routes['PUT /v1/customer/*'] = storedAs(stored, storedEmail);
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'one.csv'],
      oneCustomer('Comercial Silva Ltda.'),
    );
    expect(result.code).toBe(1);
    expect(readReport(join(folder, onlyReport(folder, 'one')))).toEqual([
      expect.objectContaining({ outcome: 'failed', message: expect.stringMatching(said) as unknown }),
    ]);
    expect(result.stderr).toContain('--upsert');
    expect(posts()).toEqual(['POST /v1/customer']);
  });
});

describe('customer create --resume of a killed run, the name read back as the platform stores it', () => {
  it('its create answered 400 already registered: created, noting the name, exit 0', async () => {
    const name = 'Mercearia Bom Preço Ltda.';
    platform.routes['POST /v1/customer'] = storedAs('MERCEARIA BOM PRECO LTDA');
    const { folder } = await runInScriptedWorkspace(platform, ['customer', 'create', 'one.csv'], oneCustomer(name));
    // Killed before its row was written: the report holds its header alone.
    const report = join(folder, onlyReport(folder, 'one'));
    writeFileSync(report, `${readFileSync(report, 'utf8').split('\r\n')[0]}\r\n`);
    platform.received.length = 0;
    platform.routes['POST /v1/customer'] = (_request, _body, response) =>
      answerJson(response, 400, { message: 'CPF/CNPJ ja cadastrado na loja' });
    platform.routes['PUT /v1/customer/*'] = storedAs('MERCEARIA BOM PRECO LTDA');
    const result = await runInFolder(platform, folder, ['customer', 'create', 'one.csv', '--resume', report]);
    expect(result.code).toBe(0);
    expect(readReport(report)).toEqual([
      expect.objectContaining({
        outcome: 'created',
        id: '108',
        message: `already registered with this e-mail: the interrupted run created it before its answer was recorded; the platform stored the name as "MERCEARIA BOM PRECO LTDA" (the file: "${name}")`,
      }),
    ]);
    expect(platform.received).toEqual(['POST /v1/customer', expect.stringMatching(/^PUT \/v1\/customer\//)]);
  });
});
