import { describe, expect, it } from 'vitest';
import { customerFieldPaths, customerFieldType } from '../../../src/domain/customer.js';

describe('customerFieldType', () => {
  it.each([
    { path: 'document', mode: 'create', type: 'string' },
    { path: 'customerRegistrationAddress.zipcode', mode: 'create', type: 'string' },
    { path: 'customerRegistrationAddress.principal', mode: 'update', type: 'boolean' },
    { path: 'addressList.0.principal', mode: 'create', type: 'boolean' },
    { path: 'addressList.3.lat', mode: 'create', type: 'number' },
    { path: 'addressList.12.number', mode: 'create', type: 'string' },
    { path: 'customerGroupList', mode: 'create', type: 'list' },
    { path: 'priceRuleTags', mode: 'update', type: 'list' },
    { path: 'ssoConfigId', mode: 'create', type: 'integer' },
    { path: 'paysIcms', mode: 'create', type: 'boolean' },
    { path: 'sendEmailNewCustomer', mode: 'create', type: 'boolean' },
    { path: 'sendEmailForgotPassword', mode: 'update', type: 'boolean' },
    { path: 'active', mode: 'update', type: 'boolean' },
    { path: 'password', mode: 'create', type: 'string' },
    // Not in the update body.
    { path: 'password', mode: 'update', type: undefined },
    { path: 'username', mode: 'update', type: undefined },
    { path: 'addressList.0.zipcode', mode: 'update', type: undefined },
    { path: 'active', mode: 'create', type: undefined },
    // Unknown or incomplete paths.
    { path: 'addressList', mode: 'create', type: undefined },
    { path: 'addressList.x.zipcode', mode: 'create', type: undefined },
    // `*` is not an index: accepting it made every row fail as a non-list addressList (issue 8).
    { path: 'addressList.*.zipcode', mode: 'create', type: undefined },
    { path: 'addressList.0', mode: 'create', type: undefined },
    { path: 'customerRegistrationAddress', mode: 'create', type: undefined },
    { path: 'customerRegistrationAddress.cep', mode: 'create', type: undefined },
    { path: 'cep', mode: 'create', type: undefined },
    { path: 'constructor', mode: 'create', type: undefined },
    { path: 'customerRegistrationAddress.toString', mode: 'create', type: undefined },
  ] as const)('$path ($mode) -> $type', ({ path, mode, type }) => {
    expect(customerFieldType(path, mode)).toBe(type);
  });
});

describe('customerFieldPaths', () => {
  it('lists every create path, list items written as the first item, never *', () => {
    expect(customerFieldPaths.create).toContain('documentType');
    expect(customerFieldPaths.create).toContain('customerRegistrationAddress.zipcode');
    expect(customerFieldPaths.create).toContain('addressList.0.principal');
    expect(customerFieldPaths.create.filter((path) => path.includes('*'))).toEqual([]);
    expect(customerFieldPaths.create).not.toContain('active');
    expect(customerFieldPaths.create).toHaveLength(22 + 13 + 13);
  });

  it.each(['create', 'update'] as const)(
    'every path it may suggest (%s) is one the reader accepts, so following a hint cannot fail every row',
    (mode) => {
      for (const path of customerFieldPaths[mode])
        expect([path, customerFieldType(path, mode)]).not.toContainEqual(undefined);
    },
  );

  it('lists every update path, with the document key and no create-only field', () => {
    expect(customerFieldPaths.update).toEqual(
      expect.arrayContaining(['document', 'active', 'sendEmailForgotPassword', 'customerRegistrationAddress.number']),
    );
    expect(
      customerFieldPaths.update.some(
        (path) =>
          path.startsWith('addressList') || path === 'password' || path === 'username' || path === 'documentType',
      ),
    ).toBe(false);
  });

  it('has a type for every path it lists', () => {
    for (const mode of ['create', 'update'] as const) {
      expect(customerFieldPaths[mode].filter((path) => customerFieldType(path, mode) === undefined)).toEqual([]);
    }
  });
});
