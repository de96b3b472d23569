/**
 * The sandbox's customer routes over real HTTP: every rule of the customer sections of
 * docs/platform.md (create, update, status, addresses, errors), plus the /_sandbox routes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import type { Address, Customer, OutboxEmail } from '../../../src/sandbox/customers/store.js';
import type { StoreSettings } from '../../../src/sandbox/customers/settings.js';
import { fetchToken, startTestSandbox } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let token: string;
let seedSettings: StoreSettings;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await fetchToken(sandbox);
  seedSettings = (await (await fetch(`${sandbox.url}/_sandbox/settings`)).json()) as StoreSettings;
});
afterAll(() => sandbox.close());
afterEach(async () => {
  await fetch(`${sandbox.url}/_sandbox/customers`, { method: 'DELETE' });
  await setSettings(seedSettings);
});

interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

async function call<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  options: { raw?: string; auth?: boolean } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.auth !== false) headers.authorization = `Bearer ${token}`;
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: payload });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

const create = (body: unknown) => call<Customer>('POST', '/v1/customer', body);
const update = (document: string, body: unknown) =>
  call<Customer>('PUT', `/v1/customer/${encodeURIComponent(document)}`, body);
const setSettings = (patch: Partial<StoreSettings>) => call('PUT', '/_sandbox/settings', patch);
const outbox = async () => (await call<OutboxEmail[]>('GET', '/_sandbox/outbox')).body;
const stored = async (document: string) => call<Customer>('GET', `/_sandbox/customers/${encodeURIComponent(document)}`);

/** The platform's 422 body, exactly. */
const rejected = (field: string, value = '') => ({
  status: 'UNPROCESSABLE_ENTITY',
  message: `Property [${field}] with value [${value}] does not pass validation`,
});

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const password = 'S3nha-de-primeiro-acesso!';
const paulista = { zipcode: '01310100', number: '1000' };
const individual = {
  documentType: 'cpf',
  document: '52998224725',
  username: 'ana.souza@example.com.br',
  phone: '11987654321',
  password,
  name: 'Ana Souza',
  customerRegistrationAddress: paulista,
};
const company = {
  documentType: 'cnpj',
  document: '12ABC34501DE35',
  username: 'compras@mercadinho.example.com',
  phone: '1133334444',
  password,
  name: 'Mercadinho Exemplo Ltda',
  tradingName: 'Mercadinho',
  customerRegistrationAddress: { zipcode: '22041-001', number: '500', addressType: 'business' },
};

describe('POST /v1/customer: the answer', () => {
  it('is 200 with the Customer at the root, formatted as the document says', async () => {
    const answer = await create(individual);
    expect(answer.status).toBe(200);
    const customer = answer.body;
    expect(customer).toMatchObject({
      document: '529.982.247-25',
      documentType: 'pf',
      name: 'Ana Souza',
      tradingName: null,
      contactName: null,
      email: 'ana.souza@example.com.br',
      phone: '(11) 98765-4321',
      active: true,
      passwordExpired: false,
      stateRegistration: 'isento',
      cnae: null,
      paysIcms: false,
      politicallyExposedPerson: false,
      federalEmployee: false,
      optinTracking: false,
      trackingPhone: null,
      address: [],
      priceRuleTag: null,
      customerTypeList: null,
      customerGroupList: null,
    });
    expect(Number.isInteger(customer.id)).toBe(true);
    expect(customer.dateCreated).toMatch(isoUtc);
    const registration = customer.customerRegistrationAddress;
    expect(registration).toMatchObject({
      zipcode: '01310-100',
      street: 'Avenida Paulista',
      number: '1000',
      quarter: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      addressType: 'RESIDENTIAL',
      attributes: {},
      howToReachLocationDescription: null,
      responsibleContact: null,
    });
    expect(Number.isInteger(registration.id)).toBe(true);
    expect(registration.dateCreated).toMatch(isoUtc);
    expect(registration.lastUpdated).toMatch(isoUtc);
    expect(JSON.stringify(customer)).not.toContain(password);
    expect((await stored('529.982.247-25')).body).toEqual(customer);
  });

  it('accepts an alphanumeric CNPJ and formats it, with documentType pj and a landline', async () => {
    const answer = await create(company);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      document: '12.ABC.345/01DE-35',
      documentType: 'pj',
      phone: '(11) 3333-4444',
      tradingName: 'Mercadinho',
    });
    expect(answer.body.customerRegistrationAddress).toMatchObject({
      street: 'Avenida Atlântica',
      quarter: 'Copacabana',
      addressType: 'BUSINESS',
    });
  });

  it('keeps the optional fields it is sent', async () => {
    const answer = await create({
      ...individual,
      documentType: 'pf',
      contactName: 'Ana',
      stateRegistration: '110.042.490.114',
      cnae: '6201-5/00',
      paysIcms: true,
      politicallyExposedPerson: true,
      federalEmployee: true,
      optinTracking: true,
      trackingPhone: '+55 21 99876-5432',
      passwordExpired: true,
      priceRuleTags: ['Atacado'],
      customerTypeList: ['TIPO-REV'],
      customerGroupList: ['Sul', 'GRP-SUL', 'VIP'],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      contactName: 'Ana',
      stateRegistration: '110.042.490.114',
      cnae: '6201-5/00',
      paysIcms: true,
      politicallyExposedPerson: true,
      federalEmployee: true,
      optinTracking: true,
      trackingPhone: '(21) 99876-5432',
      passwordExpired: true,
      priceRuleTag: [{ id: 1, name: 'Atacado' }],
      customerTypeList: [{ id: 1, name: 'Revenda', externalId: 'TIPO-REV' }],
      // By name and by externalId, linked once each.
      customerGroupList: [
        { id: 2, name: 'Sul', externalId: 'GRP-SUL' },
        { id: 5, name: 'VIP', externalId: 'GRP-VIP' },
      ],
    });
  });

  it('answers stateRegistration isento for ISENTO in any case', async () => {
    expect((await create({ ...individual, stateRegistration: 'Isento' })).body.stateRegistration).toBe('isento');
  });
});

describe('POST /v1/customer: the address combination table', () => {
  it('only customerRegistrationAddress: registration set, delivery list empty', async () => {
    const answer = await create(individual);
    expect(answer.status).toBe(200);
    expect(answer.body.address).toEqual([]);
    expect(answer.body.customerRegistrationAddress.street).toBe('Avenida Paulista');
  });

  it('only addressList with one principal item: deliveries from the list, registration copied from the main item', async () => {
    const answer = await create({
      ...individual,
      customerRegistrationAddress: undefined,
      addressList: [
        { zipcode: '22041-001', number: '10', name: 'Praia' },
        { zipcode: '70100000', number: '1', principal: true, complement: 'Bloco A', name: 'Sede' },
      ],
    });
    expect(answer.status).toBe(200);
    const { address, customerRegistrationAddress } = answer.body;
    expect(address.map((item) => [item.zipcode, item.principal])).toEqual([
      ['22041-001', false],
      ['70100-000', true],
    ]);
    const { id: copyId, ...copy } = customerRegistrationAddress;
    const { id: mainId, ...main } = address[1] as Address;
    expect(copy).toEqual(main);
    expect(copyId).not.toBe(mainId);
    expect(customerRegistrationAddress).toMatchObject({
      street: 'Praça dos Três Poderes',
      quarter: 'Zona Cívico-Administrativa',
      city: 'Brasília',
      state: 'DF',
      complement: 'Bloco A',
      name: 'Sede',
    });
  });

  it('both: deliveries from the list (no principal needed), registration as provided', async () => {
    const answer = await create({
      ...individual,
      addressList: [
        { zipcode: '80010-010', number: '7' },
        { zipcode: '40140-650', number: '8' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.address.map((item) => item.street)).toEqual(['Praça Tiradentes', 'Largo do Farol da Barra']);
    expect(answer.body.customerRegistrationAddress.street).toBe('Avenida Paulista');
  });

  it('only addressList with no principal true item: 422 address', async () => {
    const answer = await create({
      ...individual,
      customerRegistrationAddress: undefined,
      addressList: [{ ...paulista, principal: false }, paulista],
    });
    expect(answer).toMatchObject({ status: 422, body: rejected('address') });
  });

  it('neither: 422 address', async () => {
    const answer = await create({ ...individual, customerRegistrationAddress: undefined });
    expect(answer).toMatchObject({ status: 422, body: rejected('address') });
    expect(answer.body).toEqual(rejected('address'));
  });

  it('two principal items: 422 address (the main address would be ambiguous)', async () => {
    const answer = await create({
      ...individual,
      addressList: [
        { ...paulista, principal: true },
        { ...paulista, principal: true },
      ],
    });
    expect(answer).toMatchObject({ status: 422, body: rejected('address') });
  });
});

describe('POST /v1/customer: the ZIP code lookup rules', () => {
  it('1: the lookup replaces the sent street, quarter, city and state; number and complement are kept', async () => {
    const answer = await create({
      ...individual,
      customerRegistrationAddress: {
        zipcode: '30130-100',
        number: '1212',
        complement: 'sala 3',
        street: 'Rua Errada',
        quarter: 'Bairro Errado',
        city: 'Contagem',
        state: 'SP',
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.customerRegistrationAddress).toMatchObject({
      street: 'Avenida Afonso Pena',
      quarter: 'Centro',
      city: 'Belo Horizonte',
      state: 'MG',
      number: '1212',
      complement: 'sala 3',
    });
  });

  it('2: the sent values fill only what the lookup lacks (a single-CEP town)', async () => {
    const answer = await create({
      ...individual,
      customerRegistrationAddress: {
        zipcode: '95670-000',
        number: '88',
        street: 'Avenida Borges de Medeiros',
        quarter: 'Centro',
        city: 'Canela',
        state: 'SC',
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.customerRegistrationAddress).toMatchObject({
      street: 'Avenida Borges de Medeiros',
      quarter: 'Centro',
      city: 'Gramado',
      state: 'RS',
    });
  });

  it.each([
    { name: 'no street', address: { zipcode: '12460-000', number: '5', quarter: 'Capivari' } },
    { name: 'no quarter', address: { zipcode: '12460-000', number: '5', street: 'Rua Djalma Forjaz' } },
    { name: 'a blank street', address: { zipcode: '12460-000', number: '5', street: '  ', quarter: 'Capivari' } },
  ])('3: street and quarter empty after the merge are rejected: $name', async ({ address }) => {
    expect(await create({ ...individual, customerRegistrationAddress: address })).toMatchObject({
      status: 422,
      body: rejected('address'),
    });
  });

  it('4: a ZIP code not found is rejected', async () => {
    const answer = await create({
      ...individual,
      customerRegistrationAddress: { zipcode: '99999-999', number: '1', street: 'Rua A', quarter: 'Centro' },
    });
    expect(answer).toMatchObject({ status: 422, body: rejected('address') });
    expect(answer.headers.get('x-sandbox-detail')).toBe('ZIP code 99999-999 not found');
  });

  it('4: a ZIP code not found is accepted with the sent values when the store disables ZIP validation', async () => {
    await setSettings({ zipValidation: false });
    const answer = await create({
      ...individual,
      customerRegistrationAddress: {
        zipcode: '99999999',
        number: '1',
        street: 'Rua A',
        quarter: 'Centro',
        city: 'Cidade',
        state: 'RS',
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.customerRegistrationAddress).toMatchObject({
      zipcode: '99999-999',
      street: 'Rua A',
      quarter: 'Centro',
      city: 'Cidade',
      state: 'RS',
    });
    // Rule 3 still holds.
    const withoutStreet = await create({
      ...company,
      customerRegistrationAddress: { zipcode: '99999-999', number: '1', quarter: 'Centro' },
    });
    expect(withoutStreet).toMatchObject({ status: 422, body: rejected('address') });
  });

  it.each([
    { sent: 'BUSINESS', answered: 'BUSINESS' },
    { sent: 'business', answered: 'BUSINESS' },
    { sent: 'Residential', answered: 'RESIDENTIAL' },
    { sent: 'WAREHOUSE', answered: 'RESIDENTIAL' },
    { sent: undefined, answered: 'RESIDENTIAL' },
  ])('5: addressType $sent is answered $answered', async ({ sent, answered }) => {
    const answer = await create({ ...individual, customerRegistrationAddress: { ...paulista, addressType: sent } });
    expect(answer.status).toBe(200);
    expect(answer.body.customerRegistrationAddress.addressType).toBe(answered);
  });

  it.each([
    { name: 'a 7-digit CEP', zipcode: '1310100' },
    { name: 'a malformed CEP', zipcode: '01310-10' },
  ])('rejects $name as address', async ({ zipcode }) => {
    expect(await create({ ...individual, customerRegistrationAddress: { ...paulista, zipcode } })).toMatchObject({
      status: 422,
      body: rejected('address'),
    });
  });

  it('rejects an address without number', async () => {
    expect(await create({ ...individual, addressList: [{ zipcode: '01310-100' }] })).toMatchObject({
      status: 422,
      body: rejected('address'),
    });
  });

  it('accepts lat/lng only when the store has the latitude/longitude feature on', async () => {
    const withCoordinates = {
      ...individual,
      customerRegistrationAddress: { ...paulista, lat: -23.5614, lng: -46.6559 },
    };
    expect(await create(withCoordinates)).toMatchObject({ status: 422, body: rejected('address') });
    await setSettings({ latLngFeature: true });
    const answer = await create(withCoordinates);
    expect(answer.status).toBe(200);
    expect(answer.body.customerRegistrationAddress).toMatchObject({ lat: -23.5614, lng: -46.6559 });
    await setSettings({ latLngFeature: true });
    expect(await create({ ...company, customerRegistrationAddress: { ...paulista, lat: 'north' } })).toMatchObject({
      status: 422,
      body: rejected('address'),
    });
  });
});

describe('POST /v1/customer: 422 for each field the platform names', () => {
  it.each([
    { name: 'documentType missing', change: { documentType: undefined }, field: 'documentType', value: '' },
    { name: 'documentType upper case', change: { documentType: 'CPF' }, field: 'documentType', value: 'CPF' },
    { name: 'documentType unknown', change: { documentType: 'pessoa' }, field: 'documentType', value: 'pessoa' },
    { name: 'username missing', change: { username: undefined }, field: 'username', value: '' },
    { name: 'username not an e-mail', change: { username: 'ana.souza' }, field: 'username', value: 'ana.souza' },
    { name: 'document missing', change: { document: undefined }, field: 'document', value: '' },
    { name: 'CPF check digits', change: { document: '529.982.247-24' }, field: 'document', value: '529.982.247-24' },
    { name: 'repeated digits', change: { document: '111.111.111-11' }, field: 'document', value: '111.111.111-11' },
    {
      name: 'a CNPJ with documentType cpf',
      change: { document: '11.222.333/0001-81' },
      field: 'document',
      value: '11.222.333/0001-81',
    },
    {
      name: 'lower-case CNPJ letters',
      change: { documentType: 'pj', document: '12.abc.345/01de-35' },
      field: 'document',
      value: '12.abc.345/01de-35',
    },
    {
      name: 'CNPJ check digits',
      change: { documentType: 'pj', document: '12.ABC.345/01DE-36' },
      field: 'document',
      value: '12.ABC.345/01DE-36',
    },
    { name: 'phone missing', change: { phone: undefined }, field: 'phone', value: '' },
    { name: 'phone implausible', change: { phone: '1234' }, field: 'phone', value: '1234' },
    { name: 'password missing', change: { password: undefined }, field: 'password', value: '' },
    { name: 'password empty', change: { password: '' }, field: 'password', value: '' },
    { name: 'ssoConfigId unknown to the store', change: { ssoConfigId: 99 }, field: 'ssoConfigId', value: '99' },
    { name: 'ssoConfigId not a number', change: { ssoConfigId: 'main' }, field: 'ssoConfigId', value: 'main' },
  ])('$name', async ({ change, field, value }) => {
    const answer = await create({ ...individual, ...change });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(rejected(field, value));
  });

  it('names the first failing field in the platform order: documentType, username, document, phone, password, ssoConfigId, address', async () => {
    const fixes: [string, Record<string, unknown>][] = [
      ['documentType', { documentType: 'pf' }],
      ['username', { username: individual.username }],
      ['document', { document: individual.document }],
      ['phone', { phone: individual.phone }],
      ['password', { password }],
      ['ssoConfigId', { ssoConfigId: 1 }],
      ['address', { customerRegistrationAddress: paulista }],
    ];
    // Every field wrong, the address list without a principal item.
    let record: Record<string, unknown> = {
      documentType: 'x',
      username: 'x',
      document: 'x',
      phone: 'x',
      password: '',
      ssoConfigId: 99,
      addressList: [paulista],
    };
    for (const [field, fix] of fixes) {
      const answer = await call<{ message: string }>('POST', '/v1/customer', record);
      expect({ field, status: answer.status, message: answer.body.message }).toMatchObject({
        field,
        status: 422,
        message: expect.stringMatching(new RegExp(`^Property \\[${field}\\] with value`)),
      });
      record = { ...record, ...fix };
    }
    expect((await create(record)).status).toBe(200);
  });

  it('accepts an ssoConfigId of the store', async () => {
    expect((await create({ ...individual, ssoConfigId: 2 })).status).toBe(200);
  });

  it.each([
    {
      name: 'an unknown price tag',
      change: { priceRuleTags: ['Atacado', 'Black Friday'] },
      field: 'priceRuleTags',
      value: 'Black Friday',
    },
    {
      name: 'a price tag by externalId (price tags link by name)',
      change: { priceRuleTags: ['GRP-ATACADO'] },
      field: 'priceRuleTags',
      value: 'GRP-ATACADO',
    },
    {
      name: 'an unknown customer type',
      change: { customerTypeList: ['Atacadista'] },
      field: 'customerTypeList',
      value: 'Atacadista',
    },
    {
      name: 'an unknown customer group',
      change: { customerGroupList: ['Sul', 'Norte'] },
      field: 'customerGroupList',
      value: 'Norte',
    },
    {
      name: 'a group name in another case',
      change: { customerGroupList: ['sul'] },
      field: 'customerGroupList',
      value: 'sul',
    },
  ])('rejects $name with 422 naming the list', async ({ change, field, value }) => {
    const answer = await create({ ...individual, ...change });
    expect(answer).toMatchObject({ status: 422, body: rejected(field, value) });
    expect((await call<Customer[]>('GET', '/_sandbox/customers')).body).toEqual([]);
  });
});

describe('POST /v1/customer: 400', () => {
  it.each([
    { name: 'a body that is not JSON', raw: '{"documentType":"pf",' },
    { name: 'a JSON array', raw: '[]' },
    { name: 'a JSON string', raw: '"customer"' },
    { name: 'a boolean field of another type', raw: JSON.stringify({ ...individual, paysIcms: 'maybe' }) },
  ])('for $name', async ({ raw }) => {
    const answer = await call<{ status: string; message: string }>('POST', '/v1/customer', undefined, { raw });
    expect(answer.status).toBe(400);
    expect(answer.body.status).toBe('BAD_REQUEST');
    expect(answer.body.message).toMatch(/^Body cannot be parsed/);
  });

  it('for a document already registered, with or without punctuation', async () => {
    expect((await create(individual)).status).toBe(200);
    const again = await create({ ...individual, document: '529.982.247-25', username: 'other@example.com' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      status: 'BAD_REQUEST',
      message: 'Document 529.982.247-25 is already registered in the store',
    });
  });

  it('for an e-mail already registered, in any case', async () => {
    expect((await create(individual)).status).toBe(200);
    const again = await create({ ...company, username: 'Ana.Souza@Example.com.br' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      status: 'BAD_REQUEST',
      message: 'E-mail Ana.Souza@Example.com.br is already registered in the store',
    });
    expect((await call<Customer[]>('GET', '/_sandbox/customers')).body).toHaveLength(1);
  });

  it('after validation: an invalid record that repeats a document is a 422', async () => {
    await create(individual);
    expect(await create({ ...individual, phone: '1' })).toMatchObject({ status: 422, body: rejected('phone', '1') });
  });
});

describe('PUT /v1/customer/:document', () => {
  it('changes only the fields sent', async () => {
    const created = (await create({ ...individual, contactName: 'Ana', paysIcms: true, customerGroupList: ['Sul'] }))
      .body;
    const answer = await update('52998224725', {
      name: 'Ana Maria Souza',
      phone: '(21) 3333-4444',
      cnae: '4711-3/02',
      stateRegistration: 'ISENTO',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...created,
      name: 'Ana Maria Souza',
      phone: '(21) 3333-4444',
      cnae: '4711-3/02',
      stateRegistration: 'isento',
    });
    expect((await stored('52998224725')).body).toEqual(answer.body);
  });

  it('answers {} with the current record and changes nothing', async () => {
    const created = (await create(company)).body;
    const answer = await update('12ABC34501DE35', {});
    expect(answer).toMatchObject({ status: 200, body: created });
    expect((await stored('12ABC34501DE35')).body).toEqual(created);
  });

  it('finds the document with or without punctuation, and with its slash unencoded', async () => {
    await create(company);
    for (const path of ['12ABC34501DE35', encodeURIComponent('12.ABC.345/01DE-35'), '12.ABC.345/01DE-35']) {
      const answer = await call<Customer>('PUT', `/v1/customer/${path}`, { tradingName: path });
      expect({ path, status: answer.status, tradingName: answer.body.tradingName }).toEqual({
        path,
        status: 200,
        tradingName: path,
      });
    }
  });

  it('answers 404 for a document with no record in the store', async () => {
    await create(individual);
    for (const document of ['111.444.777-35', '11144477735', '11.222.333/0001-81']) {
      const answer = await call<{ status: string }>('PUT', `/v1/customer/${encodeURIComponent(document)}`, {
        name: 'x',
      });
      expect({ document, status: answer.status, body: answer.body.status }).toEqual({
        document,
        status: 404,
        body: 'NOT_FOUND',
      });
    }
  });

  it('replaces the link lists it is sent and keeps the others', async () => {
    await create({
      ...individual,
      priceRuleTags: ['Atacado'],
      customerTypeList: ['Revenda'],
      customerGroupList: ['Sul', 'Sudeste'],
    });
    const replaced = await update('52998224725', { customerGroupList: ['GRP-VIP'] });
    expect(replaced.body.customerGroupList).toEqual([{ id: 5, name: 'VIP', externalId: 'GRP-VIP' }]);
    expect(replaced.body.priceRuleTag).toEqual([{ id: 1, name: 'Atacado' }]);
    expect(replaced.body.customerTypeList).toEqual([{ id: 1, name: 'Revenda', externalId: 'TIPO-REV' }]);
    const emptied = await update('52998224725', {
      priceRuleTags: [],
      customerTypeList: ['TIPO-DIST', 'Consumidor final'],
    });
    expect(emptied.body.priceRuleTag).toBeNull();
    expect(emptied.body.customerTypeList?.map((link) => link.name)).toEqual(['Distribuidor', 'Consumidor final']);
    expect(emptied.body.customerGroupList).toEqual([{ id: 5, name: 'VIP', externalId: 'GRP-VIP' }]);
  });

  it('sets active and passwordExpired', async () => {
    await create(individual);
    expect((await update('52998224725', { active: false, passwordExpired: true })).body).toMatchObject({
      active: false,
      passwordExpired: true,
    });
    expect((await update('52998224725', { active: true })).body).toMatchObject({ active: true, passwordExpired: true });
  });

  it('replaces the registration address through the lookup, keeping its id and creation date', async () => {
    const before = (await create(individual)).body.customerRegistrationAddress;
    const answer = await update('52998224725', {
      customerRegistrationAddress: { zipcode: '69020-060', number: '77', addressType: 'BUSINESS' },
    });
    expect(answer.status).toBe(200);
    const after = answer.body.customerRegistrationAddress;
    expect(after).toMatchObject({
      id: before.id,
      dateCreated: before.dateCreated,
      zipcode: '69020-060',
      street: 'Rua Major Gabriel',
      city: 'Manaus',
      state: 'AM',
      number: '77',
      addressType: 'BUSINESS',
    });
    expect(Date.parse(after.lastUpdated)).toBeGreaterThanOrEqual(Date.parse(before.lastUpdated));
    expect(answer.body.address).toEqual([]);
  });

  it.each([
    { name: 'an implausible phone', body: { phone: '123' }, field: 'phone', value: '123' },
    { name: 'an ssoConfigId the store does not have', body: { ssoConfigId: 3 }, field: 'ssoConfigId', value: '3' },
    {
      name: 'a registration address with an unknown CEP',
      body: { customerRegistrationAddress: { zipcode: '99999-999', number: '1', street: 'A', quarter: 'B' } },
      field: 'address',
      value: '',
    },
    {
      name: 'a registration address without number',
      body: { customerRegistrationAddress: { zipcode: '01310-100' } },
      field: 'address',
      value: '',
    },
    { name: 'an unknown group', body: { customerGroupList: ['Norte'] }, field: 'customerGroupList', value: 'Norte' },
    { name: 'phone before ssoConfigId', body: { ssoConfigId: 3, phone: 'x' }, field: 'phone', value: 'x' },
  ])('answers 422 in the same wording for $name, and changes nothing', async ({ body, field, value }) => {
    const created = (await create(individual)).body;
    expect(await update('52998224725', body)).toMatchObject({ status: 422, body: rejected(field, value) });
    expect((await stored('52998224725')).body).toEqual(created);
  });

  it('answers 400 for a body that is not JSON', async () => {
    await create(individual);
    expect((await call('PUT', '/v1/customer/52998224725', undefined, { raw: '{' })).status).toBe(400);
  });
});

describe('PUT /v1/customer/updateStatus/:document/:active', () => {
  it('sets the active flag, like active in the update', async () => {
    await create(company);
    const inactive = await call<Customer>(
      'PUT',
      `/v1/customer/updateStatus/${encodeURIComponent('12.ABC.345/01DE-35')}/false`,
    );
    expect(inactive).toMatchObject({ status: 200, body: { document: '12.ABC.345/01DE-35', active: false } });
    expect((await stored('12ABC34501DE35')).body.active).toBe(false);
    expect((await call<Customer>('PUT', '/v1/customer/updateStatus/12ABC34501DE35/true')).body.active).toBe(true);
    expect((await call<Customer>('PUT', '/v1/customer/updateStatus/12.ABC.345/01DE-35/false')).body.active).toBe(false);
  });

  it('answers 404 for an unknown document and 400 for an active that is not true or false', async () => {
    await create(individual);
    expect((await call('PUT', '/v1/customer/updateStatus/11144477735/true')).status).toBe(404);
    expect((await call('PUT', '/v1/customer/updateStatus/52998224725/inactive')).status).toBe(400);
  });
});

describe('GET /v1/customer/addresses/:document', () => {
  it('answers the address array, items as in the Customer answer', async () => {
    const created = (
      await create({
        ...company,
        addressList: [
          { zipcode: '50030-320', number: '1', principal: true },
          { zipcode: '90619-900', number: '2' },
        ],
      })
    ).body;
    const answer = await call<Address[]>('GET', `/v1/customer/addresses/${encodeURIComponent('12.ABC.345/01DE-35')}`);
    expect(answer).toMatchObject({ status: 200, body: created.address });
    expect(answer.body.map((address) => address.city)).toEqual(['Recife', 'Porto Alegre']);
    expect((await call('GET', '/v1/customer/addresses/12ABC34501DE35')).body).toEqual(created.address);
  });

  it('answers 404 for an unknown document', async () => {
    expect((await call('GET', '/v1/customer/addresses/52998224725')).status).toBe(404);
  });
});

describe('e-mails', () => {
  it('sends the first-access e-mail on create when asked, never with the password', async () => {
    await create({ ...individual, sendEmailNewCustomer: true, forceChangePassword: true });
    await create({ ...company, sendEmailNewCustomer: false });
    const emails = await outbox();
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      template: 'newCustomer',
      to: 'ana.souza@example.com.br',
      document: '529.982.247-25',
    });
    expect(emails[0]?.text).toContain('choose a new password');
    expect(JSON.stringify(emails)).not.toContain(password);
  });

  it('sends the password reset e-mail on update when asked', async () => {
    await create(individual);
    await update('52998224725', { sendEmailForgotPassword: false });
    expect(await outbox()).toEqual([]);
    await update('52998224725', { sendEmailForgotPassword: true });
    const emails = await outbox();
    expect(emails.map((email) => [email.template, email.to])).toEqual([['forgotPassword', 'ana.souza@example.com.br']]);
    expect(JSON.stringify(emails)).not.toContain(password);
  });
});

describe('authentication and /_sandbox routes', () => {
  it('requires the Bearer token on every customer route', async () => {
    for (const [method, path] of [
      ['POST', '/v1/customer'],
      ['PUT', '/v1/customer/52998224725'],
      ['PUT', '/v1/customer/updateStatus/52998224725/true'],
      ['GET', '/v1/customer/addresses/52998224725'],
    ] as const) {
      const answer = await call(method, path, method === 'GET' ? undefined : individual, { auth: false });
      expect({ path, status: answer.status }).toEqual({ path, status: 401 });
    }
  });

  it('lists, shows and forgets customers', async () => {
    const first = (await create(individual)).body;
    const second = (await create(company)).body;
    expect((await call('GET', '/_sandbox/customers')).body).toEqual([first, second]);
    expect((await stored('529.982.247-25')).body).toEqual(first);
    expect((await stored('11144477735')).status).toBe(404);
    expect((await call('DELETE', '/_sandbox/customers')).body).toEqual({ removed: 2 });
    expect((await call('GET', '/_sandbox/customers')).body).toEqual([]);
  });

  it('reads and merges the store settings, and refuses invalid ones', async () => {
    expect(seedSettings).toMatchObject({ zipValidation: true, latLngFeature: false, ssoConfigIds: [1, 2] });
    const merged = await setSettings({
      ssoConfigIds: [7],
      customerGroups: [{ id: 1, name: 'Norte', externalId: null }],
    });
    expect(merged.body).toMatchObject({
      zipValidation: true,
      ssoConfigIds: [7],
      customerGroups: [{ id: 1, name: 'Norte', externalId: null }],
    });
    expect((await create({ ...individual, ssoConfigId: 7, customerGroupList: ['Norte'] })).status).toBe(200);
    const invalid = await call<{ message: string }>('PUT', '/_sandbox/settings', { zipValidation: 'off' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toContain('zipValidation');
  });

  it('takes the settings of a --settings file over the seed folder', async () => {
    const folder = temporaryFolder('b2bctl-settings-');
    const file = join(folder, 'settings.json');
    writeFileSync(file, JSON.stringify({ zipValidation: false, ssoConfigIds: [42] }));
    const other = await startTestSandbox({ settingsFile: file });
    try {
      const settings = (await (await fetch(`${other.url}/_sandbox/settings`)).json()) as StoreSettings;
      expect(settings).toMatchObject({ zipValidation: false, latLngFeature: false, ssoConfigIds: [42] });
      expect(settings.customerGroups).toEqual(seedSettings.customerGroups);
    } finally {
      await other.close();
    }
  });
});
