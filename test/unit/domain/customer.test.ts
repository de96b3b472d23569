import { describe, expect, it } from 'vitest';
import {
  customerAdvisories,
  customerEmailKey,
  customerKey,
  isPlausibleEmail,
  platformFieldOf,
  validateAddress,
  validateCustomerCreate,
  validateCustomerUpdate,
} from '../../../src/domain/customer.js';
import { validationMessage } from '../../../src/domain/validation.js';

const registration = { zipcode: '01310-100', number: '1000' };
const base = {
  documentType: 'pf',
  document: '529.982.247-25',
  username: 'ana.souza@example.com.br',
  phone: '(11) 98765-4321',
  password: 'first-access-9',
  customerRegistrationAddress: registration,
};

/** `field: message detail` of every problem, in order. */
function problemsOf(record: unknown, mode: 'create' | 'update' = 'create'): string[] {
  const result = mode === 'create' ? validateCustomerCreate(record) : validateCustomerUpdate(record);
  return result.ok ? [] : result.problems.map((problem) => problem.message);
}

const message = (field: string, value: string, detail: string) =>
  `Property [${field}] with value [${value}] does not pass validation (${detail})`;

describe('validateCustomerCreate: valid records', () => {
  it.each([
    { name: 'only a registration address', record: base },
    {
      name: 'only addressList with one principal item',
      record: {
        ...base,
        customerRegistrationAddress: undefined,
        addressList: [
          { ...registration, principal: true },
          { zipcode: '22041001', number: '5' },
        ],
      },
    },
    {
      name: 'both, the list without a principal item',
      record: { ...base, addressList: [{ zipcode: '22041-001', number: '5' }] },
    },
    { name: 'both, an empty list', record: { ...base, addressList: [] } },
    { name: 'cpf as documentType', record: { ...base, documentType: 'cpf' } },
    { name: 'an alphanumeric CNPJ with pj', record: { ...base, documentType: 'pj', document: '12.ABC.345/01DE-35' } },
    { name: 'a CNPJ with cnpj, no punctuation', record: { ...base, documentType: 'cnpj', document: '11222333000181' } },
    { name: 'the CPF cpf-cnpj-validator blocklists', record: { ...base, document: '123.456.789-09' } },
    {
      name: 'any addressType (falls back on the platform)',
      record: { ...base, customerRegistrationAddress: { ...registration, addressType: 'warehouse' } },
    },
    {
      name: 'lat/lng numbers, and numeric text',
      record: { ...base, customerRegistrationAddress: { ...registration, lat: -23.56, lng: '-46.65' } },
    },
    {
      name: 'optional fields of every type',
      record: {
        ...base,
        name: 'Ana',
        paysIcms: false,
        ssoConfigId: 2,
        customerGroupList: ['Atacado', 'Sul'],
        priceRuleTags: [],
        stateRegistration: 'whatever',
        cnae: '62',
      },
    },
    { name: 'booleans as "true"/"false" text', record: { ...base, paysIcms: 'TRUE', optinTracking: 'false' } },
    { name: 'blank optional fields are absent', record: { ...base, tradingName: '', cnae: '   ', ssoConfigId: null } },
    {
      name: 'an e-mail with plus, apostrophe and accents',
      record: { ...base, username: "joão.o'neil+loja@exemplo.com.br" },
    },
    { name: 'unknown fields are not errors', record: { ...base, somethingElse: 1 } },
  ])('$name', ({ record }) => {
    expect(problemsOf(record)).toEqual([]);
  });

  it('answers the body to send: numbers as text where the platform wants text, booleans from text, blanks dropped', () => {
    const result = validateCustomerCreate({
      ...base,
      phone: 11987654321,
      tradingName: '',
      paysIcms: 'true',
      ssoConfigId: '2',
      customerRegistrationAddress: { zipcode: '01310100', number: 1000, lat: '-23.5' },
    });
    expect(result).toEqual({
      ok: true,
      value: {
        ...base,
        phone: '11987654321',
        paysIcms: true,
        ssoConfigId: 2,
        customerRegistrationAddress: { zipcode: '01310100', number: '1000', lat: -23.5 },
      },
    });
  });
});

describe('validateCustomerCreate: each rule, in the platform wording', () => {
  it.each([
    {
      name: 'documentType missing',
      change: { documentType: undefined },
      problems: [message('documentType', '', 'required')],
    },
    {
      name: 'documentType in upper case',
      change: { documentType: 'CPF' },
      problems: [message('documentType', 'CPF', 'write it in lower case, cpf: the platform takes no other spelling')],
    },
    {
      name: 'documentType unknown',
      change: { documentType: 'individual' },
      problems: [message('documentType', 'individual', 'use cpf or pf for an individual, cnpj or pj for a company')],
    },
    { name: 'document missing', change: { document: '' }, problems: [message('document', '', 'required')] },
    {
      name: 'CPF check digits',
      change: { document: '529.982.247-24' },
      problems: [message('document', '529.982.247-24', 'CPF check digits do not match')],
    },
    {
      name: 'CNPJ check digits',
      change: { documentType: 'pj', document: '12.ABC.345/01DE-36' },
      problems: [message('document', '12.ABC.345/01DE-36', 'CNPJ check digits do not match')],
    },
    {
      name: 'lower-case CNPJ',
      change: { documentType: 'pj', document: '12.abc.345/01de-35' },
      problems: [message('document', '12.abc.345/01de-35', 'CNPJ letters must be upper case')],
    },
    {
      name: 'repeated digits',
      change: { document: '111.111.111-11' },
      problems: [message('document', '111.111.111-11', 'repeated digits are not a valid CPF')],
    },
    {
      name: 'a CNPJ with pf',
      change: { document: '11.222.333/0001-81' },
      problems: [message('document', '11.222.333/0001-81', 'documentType pf needs a CPF, and this is a CNPJ')],
    },
    {
      name: 'a CPF with cnpj',
      change: { documentType: 'cnpj' },
      problems: [message('document', '529.982.247-25', 'documentType cnpj needs a CNPJ, and this is a CPF')],
    },
    {
      name: 'a CNPJ that lost three zeros in a spreadsheet, with cnpj: not read as a CPF',
      change: { documentType: 'cnpj', document: '78057000103' },
      problems: [
        message(
          'document',
          '78057000103',
          'a CNPJ has 14 characters; a leading zero was probably lost in a spreadsheet: 00.078.057/0001-03 would be valid',
        ),
      ],
    },
    {
      name: 'the same as a number cell, with pj',
      change: { documentType: 'pj', document: 78057000103 },
      problems: [
        message(
          'document',
          '78057000103',
          'a CNPJ has 14 characters; a leading zero was probably lost in a spreadsheet: 00.078.057/0001-03 would be valid',
        ),
      ],
    },
    {
      name: 'a CNPJ that lost five zeros, with cnpj: the CNPJ named, not the CPF the digits also make',
      change: { documentType: 'cnpj', document: '123456797' },
      problems: [
        message(
          'document',
          '123456797',
          'a CNPJ has 14 characters; a leading zero was probably lost in a spreadsheet: 00.000.123/4567-97 would be valid',
        ),
      ],
    },
    {
      name: 'a CNPJ that lost three zeros and reads as a valid CPF, with cnpj',
      change: { documentType: 'cnpj', document: '47251420503' },
      problems: [
        message(
          'document',
          '47251420503',
          'documentType cnpj needs a CNPJ, and this is a CPF; a leading zero was probably lost in a spreadsheet: 00.047.251/4205-03 would be valid',
        ),
      ],
    },
    {
      name: 'a CPF that lost a zero, with cpf: the hint as for any document',
      change: { documentType: 'cpf', document: '1234567890' },
      problems: [
        message(
          'document',
          '1234567890',
          'a CPF has 11 digits and a CNPJ 14 characters; a leading zero was probably lost in a spreadsheet: 012.345.678-90 would be valid',
        ),
      ],
    },
    {
      name: 'the 11 digits of a CNPJ that lost its zeros, with pf: a CPF whose check digits fail',
      change: { documentType: 'pf', document: '78057000103' },
      problems: [message('document', '78057000103', 'CPF check digits do not match')],
    },
    { name: 'username missing', change: { username: undefined }, problems: [message('username', '', 'required')] },
    {
      name: 'username without a domain',
      change: { username: 'ana@example' },
      problems: [message('username', 'ana@example', 'not a valid e-mail address')],
    },
    { name: 'phone missing', change: { phone: null }, problems: [message('phone', '', 'required')] },
    {
      name: 'phone without DDD',
      change: { phone: '98765-4321' },
      problems: [message('phone', '98765-4321', 'a phone has 10 or 11 digits with the area code (DDD)')],
    },
    { name: 'password missing', change: { password: undefined }, problems: [message('password', '', 'required')] },
    {
      name: 'password of a wrong type is not echoed',
      change: { password: { secret: 'x' } },
      problems: [message('password', '***', 'expected text')],
    },
    {
      name: 'ssoConfigId not whole',
      change: { ssoConfigId: 1.5 },
      problems: [message('ssoConfigId', '1.5', 'expected a whole number')],
    },
    {
      name: 'ssoConfigId text',
      change: { ssoConfigId: 'main' },
      problems: [message('ssoConfigId', 'main', 'expected a whole number')],
    },
    {
      name: 'neither address',
      change: { customerRegistrationAddress: undefined },
      problems: [
        message('address', '', 'send customerRegistrationAddress, or addressList with one item marked principal'),
      ],
    },
    {
      name: 'only addressList, no principal',
      change: {
        customerRegistrationAddress: undefined,
        addressList: [registration, { ...registration, principal: false }],
      },
      problems: [
        message(
          'address',
          '',
          'addressList has no item with principal true; mark the main address or send customerRegistrationAddress',
        ),
      ],
    },
    {
      name: 'two principal items',
      change: {
        addressList: [
          { ...registration, principal: true },
          { ...registration, principal: 'true' },
        ],
      },
      problems: [message('address', '', 'addressList has 2 items with principal true; mark only one')],
    },
    {
      name: 'zipcode with 7 digits',
      change: { customerRegistrationAddress: { ...registration, zipcode: '1310100' } },
      problems: [
        message(
          'customerRegistrationAddress.zipcode',
          '1310100',
          '7 digits: a leading zero was probably lost in a spreadsheet; store the column as text',
        ),
      ],
    },
    {
      name: 'zipcode as a number that lost its zero',
      change: { customerRegistrationAddress: { ...registration, zipcode: 1310100 } },
      problems: [
        message(
          'customerRegistrationAddress.zipcode',
          '1310100',
          '7 digits: a leading zero was probably lost in a spreadsheet; store the column as text',
        ),
      ],
    },
    {
      name: 'zipcode malformed',
      change: { customerRegistrationAddress: { ...registration, zipcode: '01310-1000' } },
      problems: [
        message(
          'customerRegistrationAddress.zipcode',
          '01310-1000',
          'a CEP has 8 digits, written NNNNN-NNN or NNNNNNNN',
        ),
      ],
    },
    {
      name: 'zipcode missing',
      change: { customerRegistrationAddress: { number: '1' } },
      problems: [message('customerRegistrationAddress.zipcode', '', 'required')],
    },
    {
      name: 'number missing in a list item',
      change: { addressList: [{ zipcode: '01310-100', principal: true }] },
      problems: [message('addressList.0.number', '', 'required')],
    },
    {
      name: 'lat not a number',
      change: { addressList: [{ ...registration, lat: 'north' }] },
      problems: [message('addressList.0.lat', 'north', 'expected a number')],
    },
    {
      name: 'principal not a boolean',
      change: { addressList: [{ ...registration, principal: 'maybe' }] },
      problems: [
        message(
          'addressList.0.principal',
          'maybe',
          'expected true or false; a cell also takes sim/não, s/n, 1/0, verdadeiro/falso',
        ),
      ],
    },
    {
      name: 'address not an object',
      change: { customerRegistrationAddress: 'Rua A, 1' },
      problems: [message('customerRegistrationAddress', 'Rua A, 1', 'expected an address object')],
    },
    {
      name: 'addressList not a list',
      change: { addressList: { zipcode: '01310-100' } },
      problems: [message('addressList', '{"zipcode":"01310-100"}', 'expected a list of addresses')],
    },
    {
      name: 'a boolean field with other text',
      change: { paysIcms: 'sim?' },
      problems: [
        message('paysIcms', 'sim?', 'expected true or false; a cell also takes sim/não, s/n, 1/0, verdadeiro/falso'),
      ],
    },
    {
      name: 'a link list that is text',
      change: { customerGroupList: 'Atacado|Sul' },
      problems: [message('customerGroupList', 'Atacado|Sul', 'expected a list of names')],
    },
    {
      name: 'an empty name in a link list',
      change: { customerGroupList: ['Atacado', ''] },
      problems: [message('customerGroupList.1', '', 'expected a name')],
    },
    {
      name: 'text as an object',
      change: { name: { first: 'Ana' } },
      problems: [message('name', '{"first":"Ana"}', 'expected text')],
    },
  ])('$name', ({ change, problems }) => {
    expect(problemsOf({ ...base, ...change })).toEqual(problems);
  });

  it('reports every problem of the record, platform-named fields first in the platform order', () => {
    const result = validateCustomerCreate({
      paysIcms: 'x',
      addressList: [{ zipcode: '123', principal: false }],
      password: '',
      phone: '1',
      document: '529.982.247-24',
      username: 'nobody',
      documentType: 'xx',
      ssoConfigId: 'a',
    });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems.map((problem) => problem.field)).toEqual([
      'documentType',
      'username',
      'document',
      'phone',
      'password',
      'ssoConfigId',
      'addressList.0.zipcode',
      'addressList.0.number',
      'address',
      'paysIcms',
    ]);
  });

  it('answers a record that is not an object', () => {
    expect(problemsOf(['a'])).toEqual([message('record', '["a"]', 'expected an object of customer fields')]);
    expect(problemsOf(null)).toEqual([message('record', '', 'expected an object of customer fields')]);
  });

  it('gives each problem its field and value apart from the message', () => {
    const result = validateCustomerCreate({ ...base, document: '123' });
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          field: 'document',
          value: '123',
          message: message('document', '123', 'a CPF has 11 digits and a CNPJ 14 characters'),
        },
      ],
    });
  });
});

describe('validateCustomerUpdate', () => {
  it.each([
    { name: 'only the key', record: { document: '52998224725' }, problems: [] },
    {
      name: 'some fields',
      record: { document: '529.982.247-25', active: false, passwordExpired: 'true', customerGroupList: [] },
      problems: [],
    },
    {
      name: 'a registration address',
      record: { document: '52998224725', customerRegistrationAddress: registration },
      problems: [],
    },
    {
      name: 'create-only fields are not checked (and not sent)',
      record: { document: '52998224725', username: 'not an e-mail', addressList: 'x' },
      problems: [],
    },
    { name: 'no key', record: { active: true }, problems: [message('document', '', 'required')] },
    {
      name: 'an invalid key',
      record: { document: '529.982.247-24' },
      problems: [message('document', '529.982.247-24', 'CPF check digits do not match')],
    },
    {
      name: 'an invalid phone',
      record: { document: '52998224725', phone: '123' },
      problems: [message('phone', '123', 'a phone has 10 or 11 digits with the area code (DDD)')],
    },
    { name: 'a blank phone is absent', record: { document: '52998224725', phone: ' ' }, problems: [] },
    {
      name: 'an address without number',
      record: { document: '52998224725', customerRegistrationAddress: { zipcode: '01310100' } },
      problems: [message('customerRegistrationAddress.number', '', 'required')],
    },
    {
      name: 'an address of a complement alone: the CEP and number are kept as stored',
      record: { document: '52998224725', customerRegistrationAddress: { complement: 'Sala 2', zipcode: ' ' } },
      problems: [],
    },
    {
      name: 'an address of a number alone still needs its CEP',
      record: { document: '52998224725', customerRegistrationAddress: { number: '12', complement: 'Sala 2' } },
      problems: [message('customerRegistrationAddress.zipcode', '', 'required')],
    },
    {
      name: 'active not a boolean',
      record: { document: '52998224725', active: 'inactive' },
      problems: [
        message(
          'active',
          'inactive',
          'expected true or false; a cell also takes active/inactive, ativo/inativo, liberado/bloqueado, sim/não, s/n, 1/0, verdadeiro/falso',
        ),
      ],
    },
  ])('$name', ({ record, problems }) => {
    expect(problemsOf(record, 'update')).toEqual(problems);
  });

  it('answers the record without the fields the update does not take', () => {
    expect(validateCustomerUpdate({ document: '52998224725', username: 'x', name: 'Ana', active: 'false' })).toEqual({
      ok: true,
      value: { document: '52998224725', name: 'Ana', active: false },
    });
  });
});

describe('validateAddress', () => {
  it('checks one address on its own', () => {
    expect(validateAddress({ zipcode: '01310100', number: 7 })).toEqual({
      ok: true,
      value: { zipcode: '01310100', number: '7' },
    });
    expect(validateAddress({ number: '7' })).toEqual({
      ok: false,
      problems: [{ field: 'zipcode', value: '', message: message('zipcode', '', 'required') }],
    });
  });
});

describe('keys for duplicates and resume', () => {
  it.each([
    { record: { document: '529.982.247-25' }, key: '52998224725' },
    { record: { document: '52998224725' }, key: '52998224725' },
    { record: { document: '12.ABC.345/01DE-35' }, key: '12ABC34501DE35' },
    { record: { document: 52998224725 }, key: '52998224725' },
    { record: { document: '529.982.247-24' }, key: '52998224724' },
    { record: { document: '' }, key: undefined },
    { record: {}, key: undefined },
    { record: { document: { x: 1 } }, key: undefined },
  ])('customerKey($record) = $key', ({ record, key }) => {
    expect(customerKey(record)).toBe(key);
  });

  it.each([
    { record: { username: ' Ana@Example.COM ' }, key: 'ana@example.com' },
    { record: { username: '' }, key: undefined },
    { record: {}, key: undefined },
  ])('customerEmailKey($record) = $key', ({ record, key }) => {
    expect(customerEmailKey(record)).toBe(key);
  });
});

describe('isPlausibleEmail', () => {
  it.each([
    { text: 'ana@example.com', expected: true },
    { text: 'ana.souza+loja@sub.example.com.br', expected: true },
    { text: 'joão@exemplo.com.br', expected: true },
    { text: 'ana@xn--exemplo-9za.com', expected: true },
    { text: 'ana@example', expected: false },
    { text: 'ana@@example.com', expected: false },
    { text: '@example.com', expected: false },
    { text: 'ana@', expected: false },
    { text: 'ana souza@example.com', expected: false },
    { text: 'ana..souza@example.com', expected: false },
    { text: '.ana@example.com', expected: false },
    { text: 'ana@-example.com', expected: false },
    { text: 'ana@example.c', expected: false },
    { text: 'ana@example.com.', expected: false },
  ])('$text -> $expected', ({ text, expected }) => {
    expect(isPlausibleEmail(text)).toBe(expected);
  });
});

describe('platform wording', () => {
  it('is the platform message, with the local reason in parentheses', () => {
    expect(validationMessage('address', '')).toBe('Property [address] with value [] does not pass validation');
    expect(validationMessage('document', '123', 'too short')).toBe(
      'Property [document] with value [123] does not pass validation (too short)',
    );
  });

  it.each([
    { path: 'document', field: 'document' },
    { path: 'customerRegistrationAddress.zipcode', field: 'address' },
    { path: 'addressList.2.number', field: 'address' },
    { path: 'address', field: 'address' },
    { path: 'customerGroupList.1', field: 'customerGroupList' },
  ])('$path is reported by the platform as $field', ({ path, field }) => {
    expect(platformFieldOf(path)).toBe(field);
  });
});

describe('customerAdvisories', () => {
  it('warns about formats the platform does not check, without making them errors', () => {
    const record = {
      ...base,
      stateRegistration: '1',
      cnae: '62',
      trackingPhone: '123',
      addressList: [{ ...registration, state: 'São Paulo' }],
    };
    expect(problemsOf(record)).toEqual([]);
    expect(customerAdvisories(record).map((warning) => warning.field)).toEqual([
      'stateRegistration',
      'cnae',
      'trackingPhone',
      'addressList.0.state',
    ]);
    expect(customerAdvisories(record)[1]?.message).toBe(
      'Property [cnae] with value [62] may be wrong (a CNAE subclass has 7 digits, written NNNN-N/NN); the platform does not check it',
    );
  });

  it('is quiet for good values', () => {
    expect(
      customerAdvisories({
        ...base,
        stateRegistration: 'ISENTO',
        cnae: '6201-5/00',
        trackingPhone: '11987654321',
        customerRegistrationAddress: { ...registration, state: 'SP' },
      }),
    ).toEqual([]);
  });
});
