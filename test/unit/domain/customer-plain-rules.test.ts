/**
 * validateCustomerCreate/Update and validateAddress check the customer rules with plain code for speed (issue 14);
 * the zod schema of customer-schema.ts is the reference they must follow. Awkward values are put in every field,
 * alone and in combinations, and each record is judged both ways: the verdicts must be equal (the same problems
 * with the same messages in the same order, or the same body with its keys in the same order, as it is sent).
 */
import { describe, expect, it } from 'vitest';
import { validateAddress, validateCustomerCreate, validateCustomerUpdate } from '../../../src/domain/customer.js';
import { judgeAddressBySchema, judgeCustomerBySchema } from '../../../src/domain/customer-schema.js';
import { addressFieldTypes, topFieldTypes } from '../../../src/domain/customer-fields.js';

type Mode = 'create' | 'update';

const plain = (record: unknown, mode: Mode) =>
  mode === 'create' ? validateCustomerCreate(record) : validateCustomerUpdate(record);

let compared = 0;

/** Equal verdicts, and equal bytes of the body to send (toEqual alone ignores the order of keys). */
function expectSameVerdict(record: unknown, mode: Mode): void {
  const expected = judgeCustomerBySchema(record, mode);
  const actual = plain(record, mode);
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  compared++;
}

function expectSameAddressVerdict(address: unknown): void {
  const expected = judgeAddressBySchema(address);
  const actual = validateAddress(address);
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  compared++;
}

/** How many records `compare` judged both ways: a test checks it is as many as it meant (a loop over nothing proves nothing). */
function countJudged(compare: () => void): number {
  compared = 0;
  compare();
  return compared;
}

const sparse: unknown[] = [];
sparse[1] = 'a';

/** Values that have broken a reader or a rule somewhere: blanks, numbers of every kind, text that looks typed. */
const awkward: unknown[] = [
  undefined,
  null,
  '',
  '   ',
  'text',
  '  text  ',
  'Ana\nMaria',
  0,
  -0,
  12,
  -3,
  1.5,
  NaN,
  Infinity,
  -Infinity,
  2 ** 53,
  1e21,
  '12',
  ' 12 ',
  '1e3',
  '1e400',
  '.5',
  '1,5',
  '+7',
  'true',
  ' FALSE ',
  'sim',
  true,
  false,
  [],
  ['a'],
  ['a', ''],
  ['a', 3, null, ' b '],
  [{}],
  sparse,
  {},
  { a: 1 },
  { long: 'x'.repeat(200) },
  '529.982.247-25',
  '52998224725',
  '11222333000181',
  '12.ABC.345/01DE-35',
  '1,12223E+13',
  '1234567890',
  'pf',
  'cnpj',
  'CPF',
  'ana@example.com',
  ' Ana@Example.com ',
  'ana@@example',
  '01310-100',
  '1310100',
  '(11) 98765-4321',
  '1198765',
  'Senha#1',
];

const registration = { zipcode: '01310-100', number: '1000' };
const validCreate: Record<string, unknown> = {
  documentType: 'pf',
  document: '529.982.247-25',
  username: 'ana.souza@example.com.br',
  phone: '(11) 98765-4321',
  password: 'first-access-9',
  customerRegistrationAddress: registration,
};
const validUpdate: Record<string, unknown> = { document: '529.982.247-25', name: 'Ana' };
/** Every optional field filled in, as text the way a CSV reader gives it. */
const fullCreate: Record<string, unknown> = {
  ...validCreate,
  name: 'Ana Souza',
  tradingName: 'Ana',
  contactName: 'Ana',
  stateRegistration: 'ISENTO',
  cnae: '4711-3/02',
  paysIcms: 'true',
  politicallyExposedPerson: false,
  federalEmployee: 'FALSE',
  optinTracking: true,
  trackingPhone: '11987654321',
  passwordExpired: 'false',
  ssoConfigId: '7',
  priceRuleTags: ['atacado', 12],
  customerTypeList: ['loja'],
  customerGroupList: [],
  forceChangePassword: 'true',
  sendEmailNewCustomer: false,
  addressList: [{ zipcode: 22041001, number: 5, principal: 'TRUE', lat: '-22.97', lng: -43.18, name: 'Loja' }],
  customerRegistrationAddress: { ...registration, complement: 'sala 2', state: 'SP', city: 'São Paulo' },
  unknownColumn: 'kept out of the body',
};

describe('the plain customer rules follow the zod schema', () => {
  for (const mode of ['create', 'update'] as const) {
    const bases =
      mode === 'create' ? [validCreate, fullCreate, {}] : [validUpdate, { ...fullCreate, active: 'true' }, {}];

    it(`${mode}: every awkward value in every top field, on a valid, a full and an empty record`, () => {
      const keys = [...Object.keys(topFieldTypes[mode]), 'customerRegistrationAddress', 'addressList'];
      expect(
        countJudged(() => {
          for (const base of bases)
            for (const key of keys) for (const value of awkward) expectSameVerdict({ ...base, [key]: value }, mode);
        }),
      ).toBe(bases.length * keys.length * awkward.length);
    });

    it(`${mode}: every awkward value in every address field, in the registration address and a list item`, () => {
      expect(
        countJudged(() => {
          for (const key of Object.keys(addressFieldTypes))
            for (const value of awkward) {
              const address = { ...registration, principal: true, [key]: value };
              expectSameVerdict({ ...validCreate, customerRegistrationAddress: address }, mode);
              expectSameVerdict(
                { ...validCreate, customerRegistrationAddress: undefined, addressList: [address] },
                mode,
              );
              expectSameVerdict({ ...validCreate, addressList: [registration, address, value] }, mode);
            }
        }),
      ).toBe(Object.keys(addressFieldTypes).length * awkward.length * 3);
    });

    it(`${mode}: records that are not objects, and missing fields`, () => {
      expect(
        countJudged(() => {
          for (const record of [...awkward, Object.create(null) as object]) expectSameVerdict(record, mode);
          for (const key of Object.keys(fullCreate)) {
            const record = { ...fullCreate };
            delete record[key];
            expectSameVerdict(record, mode);
          }
        }),
      ).toBe(awkward.length + 1 + Object.keys(fullCreate).length);
    });
  }

  it('create: combinations of the fields the platform names, and of the two address forms', () => {
    const documentTypes = [undefined, 'pf', 'cnpj', 'x', 3];
    // 78057000103 and 47251420503 are CNPJs that lost three zeros; the second is a valid CPF as well.
    const documents = [
      undefined,
      '529.982.247-25',
      '11222333000181',
      '123',
      'abc',
      1234567890,
      '78057000103',
      78057000103,
      '47251420503',
    ];
    const usernames = [undefined, 'ana@example.com', 'ana', true];
    const phones = [undefined, '(11) 98765-4321', '123'];
    const passwords = [undefined, 'Senha#1', '  ', 7];
    const principal = { ...registration, principal: 'true' };
    const registrations = [undefined, '', registration, { number: '1' }, 'Rua A', []];
    const lists = [undefined, '', 'x', [], [registration], [principal], [principal, principal], [principal, '', 3]];
    const combinations =
      documentTypes.length * documents.length * usernames.length * phones.length * passwords.length +
      registrations.length * lists.length * 2;
    expect(
      countJudged(() => {
        for (const documentType of documentTypes)
          for (const document of documents)
            for (const username of usernames)
              for (const phone of phones)
                for (const password of passwords)
                  expectSameVerdict({ ...validCreate, documentType, document, username, phone, password }, 'create');
        for (const customerRegistrationAddress of registrations)
          for (const addressList of lists) {
            expectSameVerdict({ ...validCreate, customerRegistrationAddress, addressList }, 'create');
            expectSameVerdict({ ...validCreate, customerRegistrationAddress, addressList, document: 'x' }, 'update');
          }
      }),
    ).toBe(combinations);
  });

  it('validateAddress: every awkward address, and every awkward value in each of its fields', () => {
    expect(
      countJudged(() => {
        for (const address of awkward) expectSameAddressVerdict(address);
        for (const key of Object.keys(addressFieldTypes))
          for (const value of awkward) {
            expectSameAddressVerdict({ ...registration, [key]: value });
            expectSameAddressVerdict({ [key]: value });
          }
      }),
    ).toBe(awkward.length * (1 + Object.keys(addressFieldTypes).length * 2));
  });
});
