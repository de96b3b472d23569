import { describe, expect, it } from 'vitest';
import type { SalesRep } from '../../../src/domain/sales-rep.js';
import { salesRepFromSeed, type SalesRepSeed } from '../../../src/sandbox/sellers-seed.js';

const minimal: SalesRepSeed = {
  id: '3f2b8c1e-5d4a-4b7e-9c21-0a1b2c3d4e5f',
  username: 'ana@example.com',
  document: '52998224725',
  createdAt: '2024-03-01T12:00:00.000Z',
};

const allFlagsFalse = {
  restrictedCustomers: false,
  enabledFreight: false,
  enabledInsertFreight: false,
  enabledCustomerRegistration: false,
  enableDiscountItemValue: false,
  enableAddItemValue: false,
  enableDiscountBranch: false,
  enableDiscountFranchise: false,
  enableDiscountSeller: false,
  enableCoupon: false,
  enableChatSupport: false,
  enableRestrictedCustomers: false,
  enableRestrictedGroupsAttendant: false,
};

describe('salesRepFromSeed', () => {
  it('fills the platform defaults of a minimal seed', () => {
    const expected: SalesRep = {
      id: minimal.id,
      username: 'ana@example.com',
      document: '52998224725',
      ...allFlagsFalse,
      attendantCode: '',
      allowedSellersId: [],
      profile: null,
      createdAt: '2024-03-01T12:00:00.000Z',
      updatedAt: '2024-03-01T12:00:00.000Z',
    };
    const rep = salesRepFromSeed(minimal);
    expect(rep).toEqual(expected);
    // The key order is the platform's, so JSON output reads the same.
    expect(Object.keys(rep)).toEqual(Object.keys(expected));
  });

  it.each([
    {
      name: 'franchise without branch is forced off',
      seed: { enableDiscountFranchise: true },
      expected: { enableDiscountBranch: false, enableDiscountFranchise: false },
    },
    {
      name: 'franchise with branch stays on',
      seed: { enableDiscountFranchise: true, enableDiscountBranch: true },
      expected: { enableDiscountBranch: true, enableDiscountFranchise: true },
    },
    {
      name: 'branch alone',
      seed: { enableDiscountBranch: true },
      expected: { enableDiscountBranch: true, enableDiscountFranchise: false },
    },
    {
      name: 'a truthy non-boolean is not true',
      seed: { enableCoupon: 'yes' as unknown as boolean },
      expected: { enableCoupon: false },
    },
    {
      name: 'given flags kept',
      seed: { restrictedCustomers: true, enableChatSupport: true },
      expected: { restrictedCustomers: true, enableChatSupport: true, enableCoupon: false },
    },
    {
      name: 'given code, sellers, updatedAt',
      seed: { attendantCode: 'V01', allowedSellersId: ['a', 'b'], updatedAt: '2024-05-01T08:30:00.123456Z' },
      expected: { attendantCode: 'V01', allowedSellersId: ['a', 'b'], updatedAt: '2024-05-01T08:30:00.123456Z' },
    },
  ])('$name', ({ seed, expected }) => {
    expect(salesRepFromSeed({ ...minimal, ...seed })).toMatchObject(expected);
  });

  it.each([
    {
      name: 'reduced to id, code, name',
      profile: { id: 4, code: 'SUP', name: 'Supervisor', extra: 'dropped' },
      expected: { id: 4, code: 'SUP', name: 'Supervisor' },
    },
    { name: 'null stays null', profile: null, expected: null },
  ])('profile $name', ({ profile, expected }) => {
    expect(salesRepFromSeed({ ...minimal, profile: profile as SalesRep['profile'] }).profile).toStrictEqual(expected);
  });

  it.each([
    {
      name: 'id that is not a UUID',
      seed: { id: '12345' },
      message: 'sales rep ana@example.com: id 12345 is not a UUID',
    },
    {
      name: 'id with a bad variant digit',
      seed: { id: '3f2b8c1e-5d4a-4b7e-1c21-0a1b2c3d4e5f' },
      message: 'is not a UUID',
    },
    {
      name: 'createdAt without fractional seconds',
      seed: { createdAt: '2024-03-01T12:00:00Z' },
      message: 'sales rep ana@example.com: createdAt 2024-03-01T12:00:00Z needs fractional seconds in UTC',
    },
    {
      name: 'updatedAt without fractional seconds',
      seed: { updatedAt: '2024-03-01T12:00:00Z' },
      message: 'updatedAt 2024-03-01T12:00:00Z needs fractional seconds',
    },
    {
      name: 'createdAt with an offset instead of Z',
      seed: { createdAt: '2024-03-01T12:00:00.000-03:00' },
      message: 'needs fractional seconds in UTC',
    },
  ])('rejects $name', ({ seed, message }) => {
    expect(() => salesRepFromSeed({ ...minimal, ...seed })).toThrow(message);
  });

  it('accepts an upper-case UUID', () => {
    expect(salesRepFromSeed({ ...minimal, id: minimal.id.toUpperCase() }).id).toBe(minimal.id.toUpperCase());
  });
});
