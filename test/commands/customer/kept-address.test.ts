/**
 * An update (or an upsert) whose registration address leaves parts empty keeps those parts as stored: the sandbox,
 * as a platform that replaces the address whole, clears what the body leaves out, and `customer update` promises
 * that fields left empty change nothing. Found by a fresh user test: the complement, the address's name and its
 * type were wiped with exit 0.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, type RunResult, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import {
  createdWithFullAddress,
  fullAddressHeader,
  storedCustomer,
  updateRoute,
  zipcodeAndNumberUpdate,
} from '../../support/customers.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { requestCounts } from '../../support/sandbox.js';
import { loggedInThroughProxy, pathOf, type ScriptedProxy, startScriptedProxy } from '../../support/scripted-proxy.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

function cli(args: readonly string[], cwd: string): Promise<RunResult> {
  return runCommandLine(args, { configDir, cwd });
}

const header = fullAddressHeader;

/** Creates a company whose registration address has a complement, a type and a name; its folder. */
const created = (document: string, email: string) => createdWithFullAddress(sandbox, configDir, document, email);

describe('an update whose registration address leaves parts empty', () => {
  it('keeps the stored complement, name and type (and the street of the same CEP), saying so in the report', async () => {
    const document = '66.392.332/0001-77';
    const folder = await created(document, 'kept1@empresa.com.br');
    const before = await storedCustomer(sandbox, document);
    writeFileSync(
      join(folder, 'endereco.csv'),
      `document;phone;customerRegistrationAddress.zipcode;customerRegistrationAddress.number\r\n${document};(11) 4444-0000;01310100;100\r\n`,
    );
    const result = await cli(['customer', 'update', 'endereco.csv', '--no-input'], folder);
    expect(result.code).toBe(0);
    const after = await storedCustomer(sandbox, document);
    expect(after.phone).toBe('(11) 4444-0000');
    expect(after.customerRegistrationAddress).toMatchObject({
      ...before.customerRegistrationAddress,
      number: '100',
      complement: 'Galpão 3',
      addressType: 'BUSINESS',
      name: 'Matriz',
      lastUpdated: after.customerRegistrationAddress.lastUpdated,
    });
    // One read of the stored record (PUT {}), one update.
    expect(await requestCounts(sandbox)).toEqual({ [updateRoute]: 2 });
    const [row] = readReport(join(folder, onlyReport(folder, 'endereco')));
    expect(row?.outcome).toBe('updated');
    expect(row?.message).toBe(
      'the registration address kept its stored complement, name, addressType, street, quarter, city, state, which the file left empty',
    );
  });

  it('create --upsert of a file without the address parts keeps them too', async () => {
    const document = '60.701.190/0001-04';
    const folder = await created(document, 'kept3@empresa.com.br');
    writeFileSync(
      join(folder, 'reenvio.csv'),
      `${header.split(';').slice(0, 8).join(';')}\r\ncnpj;${document};Empresa Renomeada Ltda;kept3@empresa.com.br;(11) 3333-0000;Senha#1;01310-100;100\r\n`,
    );
    const result = await cli(['customer', 'create', 'reenvio.csv', '--upsert', '--no-input'], folder);
    expect(result.code).toBe(0);
    const after = await storedCustomer(sandbox, document);
    expect(after.name).toBe('Empresa Renomeada Ltda');
    expect(after.customerRegistrationAddress).toMatchObject({
      complement: 'Galpão 3',
      addressType: 'BUSINESS',
      name: 'Matriz',
    });
    const [row] = readReport(join(folder, onlyReport(folder, 'reenvio')));
    expect(row?.outcome).toBe('updated');
    expect(row?.message).toContain('the registration address kept its stored complement, name, addressType');
  });

  it('--document --set keeps them, and says so', async () => {
    const document = '33.000.167/0001-01';
    const folder = await created(document, 'kept4@empresa.com.br');
    const result = await cli(zipcodeAndNumberUpdate(document), folder);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `Customer ${document}: the registration address kept its stored complement, name, addressType, street, quarter, city, state, which the file left empty.`,
    );
    expect((await storedCustomer(sandbox, document)).customerRegistrationAddress).toMatchObject({
      number: '100',
      complement: 'Galpão 3',
      addressType: 'BUSINESS',
      name: 'Matriz',
    });
  });
});

describe('an update whose registration address gives neither CEP nor number', () => {
  let proxy: ScriptedProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  /** A config folder logged in through a proxy that answers the read of the stored record (`PUT {}`) with `record`. */
  async function throughProxyAnsweringRead(record: unknown): Promise<string> {
    proxy = await startScriptedProxy(sandbox.url, (request) =>
      request.method === 'PUT' && request.body === '{}' ? { answer: 200, body: record } : undefined,
    );
    return loggedInThroughProxy(sandbox, proxy);
  }

  it('a complement alone keeps the stored CEP, number and the rest, and the report says so', async () => {
    const document = '47.960.950/0001-21';
    const folder = await created(document, 'kept5@empresa.com.br');
    const before = await storedCustomer(sandbox, document);
    writeFileSync(
      join(folder, 'complemento.csv'),
      `document;customerRegistrationAddress.complement\r\n${document};Galpão 9\r\n`,
    );
    const result = await cli(['customer', 'update', 'complemento.csv', '--no-input'], folder);
    expect(result.code).toBe(0);
    expect((await storedCustomer(sandbox, document)).customerRegistrationAddress).toMatchObject({
      ...before.customerRegistrationAddress,
      complement: 'Galpão 9',
      lastUpdated: expect.any(String),
    });
    expect(await requestCounts(sandbox)).toEqual({ [updateRoute]: 2 });
    const [row] = readReport(join(folder, onlyReport(folder, 'complemento')));
    expect(row?.outcome).toBe('updated');
    expect(row?.message).toBe(
      'the registration address kept its stored zipcode, number, name, addressType, street, quarter, city, state, which the file left empty',
    );
  });

  it('--document --set of the complement alone keeps them too', async () => {
    const document = '04.252.011/0001-10';
    const folder = await created(document, 'kept6@empresa.com.br');
    const result = await cli(
      ['customer', 'update', '--document', document, '--set', 'customerRegistrationAddress.complement=Sala 2'],
      folder,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `Customer ${document}: the registration address kept its stored zipcode, number, name, addressType, street, quarter, city, state, which the file left empty.`,
    );
    expect((await storedCustomer(sandbox, document)).customerRegistrationAddress).toMatchObject({
      zipcode: '01310-100',
      number: '100',
      complement: 'Sala 2',
      name: 'Matriz',
    });
  });

  it('a customer the read does not find is the 404 line, and nothing else is sent', async () => {
    const result = await cli(
      ['customer', 'update', '--document', '529.982.247-25', '--set', 'customerRegistrationAddress.complement=Sala 2'],
      freshWorkDir(),
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'error: No customer has the document 529.982.247-25 in this store (HTTP 404: No customer with document 529.982.247-25 in the store).',
    );
    expect(await requestCounts(sandbox)).toEqual({ [updateRoute]: 1 });
  });

  it('a stored record without a registration address: the row is not sent, and says to give CEP and number', async () => {
    const document = '19.131.243/0001-97';
    const folder = await created(document, 'kept7@empresa.com.br');
    const proxied = await throughProxyAnsweringRead({ id: 1, document });
    writeFileSync(
      join(folder, 'complemento.csv'),
      `document;customerRegistrationAddress.complement\r\n${document};Galpão 9\r\n`,
    );
    const result = await runCommandLine(['customer', 'update', 'complemento.csv', '--no-input'], {
      configDir: proxied,
      cwd: folder,
    });
    expect(result.code).toBe(1);
    const [row] = readReport(join(folder, onlyReport(folder, 'complemento')));
    expect(row).toMatchObject({
      outcome: 'invalid',
      message:
        "not sent: the registration address gives no CEP and number, and the customer's stored record was read (PUT {}, HTTP 200), but it shows no registration address (customerRegistrationAddress, looked for at the answer's root and under data, customer, cliente, content, result) to take them from: give customerRegistrationAddress.zipcode and customerRegistrationAddress.number",
    });
    // A row found invalid while sending gets its why line, as a failed one does (a fresh user test: report alone).
    expect(result.stderr).toContain(`why, 1 customer (line 2): ${row?.message}`);
    // Only the read, which the proxy answered: the update never reached the platform.
    expect(proxy?.requests.filter((request) => pathOf(request).startsWith('/v1/customer')).map((r) => r.body)).toEqual([
      '{}',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('the same by --set ends on one line saying so', async () => {
    const document = '19.131.243/0001-97';
    const folder = await created(document, 'kept8@empresa.com.br');
    const proxied = await throughProxyAnsweringRead({ id: 1, document });
    const result = await runCommandLine(
      ['customer', 'update', '--document', document, '--set', 'customerRegistrationAddress.complement=Sala 2'],
      { configDir: proxied, cwd: folder },
    );
    expect(result.code).toBe(65);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: Customer ${document}: the registration address gives no CEP and number, and the customer's stored record was read (PUT {}, HTTP 200), but it shows no registration address (customerRegistrationAddress, looked for at the answer's root and under data, customer, cliente, content, result) to take them from: give customerRegistrationAddress.zipcode and customerRegistrationAddress.number. Nothing was sent.`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

/**
 * A customer who moved (a user test): the complement (apartment, suite, block) belongs to the old place as much as
 * its street does, so at a new CEP or number it is not carried over; it is sent empty, so that a platform that merges
 * the address does not keep it either. A JSON `"complement": ""` or `null` clears it on purpose.
 */
describe('an update whose registration address gives a new CEP or number', () => {
  let proxy: ScriptedProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  /** A config folder logged in through a proxy that records every request on its way to the sandbox. */
  async function throughRecordingProxy(): Promise<string> {
    proxy = await startScriptedProxy(sandbox.url, () => undefined);
    return loggedInThroughProxy(sandbox, proxy);
  }
  const updateBodies = () =>
    (proxy?.requests ?? [])
      .filter((request) => request.method === 'PUT' && pathOf(request).startsWith('/v1/customer/'))
      .map((request) => JSON.parse(request.body) as Record<string, unknown>);
  const cleared =
    'the stored complement of the registration address was cleared, not kept: the file gives another CEP or number, and the complement belongs to the old place (give customerRegistrationAddress.complement if the new place has one)';

  it.each([
    ['a new CEP and number', '40140-650', '7'],
    ['a new number at the same CEP', '01310-100', '45'],
  ])('%s: the stored complement is sent empty, name and type kept, and the report says so', async (_, cep, number) => {
    const document = '11.222.333/0001-81';
    const folder = await created(document, 'moved1@empresa.com.br');
    const proxied = await throughRecordingProxy();
    writeFileSync(
      join(folder, 'mudou.csv'),
      `document;customerRegistrationAddress.zipcode;customerRegistrationAddress.number\r\n${document};${cep};${number}\r\n`,
    );
    const result = await runCommandLine(['customer', 'update', 'mudou.csv', '--no-input'], {
      configDir: proxied,
      cwd: folder,
    });
    expect(result.code).toBe(0);
    const sent = updateBodies();
    expect(sent[0]).toEqual({});
    expect(sent[1]?.customerRegistrationAddress).toMatchObject({
      zipcode: cep,
      number,
      complement: '',
      name: 'Matriz',
    });
    const stored = (await storedCustomer(sandbox, document)).customerRegistrationAddress;
    expect(stored).toMatchObject({ number, addressType: 'BUSINESS', name: 'Matriz' });
    expect(stored.complement ?? '').toBe('');
    const [row] = readReport(join(folder, onlyReport(folder, 'mudou')));
    expect(row?.outcome).toBe('updated');
    expect(row?.message).toContain(cleared);
  });

  it('create --upsert of the weekly export at a new place: the complement is not carried over either', async () => {
    const document = '60.701.190/0001-04';
    const folder = await created(document, 'moved2@empresa.com.br');
    const proxied = await throughRecordingProxy();
    writeFileSync(
      join(folder, 'semanal.csv'),
      `${header.split(';').slice(0, 8).join(';')}\r\ncnpj;${document};Empresa Ltda;moved2@empresa.com.br;(11) 3333-0000;Senha#1;40140-650;45\r\n`,
    );
    const result = await runCommandLine(['customer', 'create', 'semanal.csv', '--upsert', '--no-input'], {
      configDir: proxied,
      cwd: folder,
    });
    expect(result.code).toBe(0);
    expect(updateBodies().at(-1)?.customerRegistrationAddress).toMatchObject({
      zipcode: '40140-650',
      number: '45',
      complement: '',
    });
    const [row] = readReport(join(folder, onlyReport(folder, 'semanal')));
    expect([row?.outcome, row?.message?.includes(cleared)]).toEqual(['updated', true]);
  });

  it.each([
    ['""', '""'],
    ['null', 'null'],
  ])('a JSON "complement": %s at the same place clears it, the rest of the place kept', async (_, written) => {
    const document = '33.000.167/0001-01';
    const folder = await created(document, 'moved3@empresa.com.br');
    const proxied = await throughRecordingProxy();
    writeFileSync(
      join(folder, 'limpa.json'),
      `[{"document":"${document}","customerRegistrationAddress":{"zipcode":"01310-100","number":"100","complement":${written}}}]`,
    );
    const result = await runCommandLine(['customer', 'update', 'limpa.json', '--no-input'], {
      configDir: proxied,
      cwd: folder,
    });
    expect(result.code).toBe(0);
    expect(updateBodies().at(-1)?.customerRegistrationAddress).toMatchObject({
      zipcode: '01310-100',
      number: '100',
      complement: '',
      name: 'Matriz',
      addressType: 'BUSINESS',
    });
    const stored = (await storedCustomer(sandbox, document)).customerRegistrationAddress;
    expect(stored.complement ?? '').toBe('');
    expect(stored).toMatchObject({ name: 'Matriz', addressType: 'BUSINESS' });
  });
});
