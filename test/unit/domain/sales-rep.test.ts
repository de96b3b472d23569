import { describe, expect, it } from 'vitest';
import { emailContains, permissionCodes, permissionSummary } from '../../../src/domain/sales-rep.js';
import type { SalesRep } from '../../../src/domain/sales-rep.js';

const noPermissions: SalesRep = {
  id: '3f2b8c1e-5d4a-4b7e-9c21-0a1b2c3d4e5f',
  username: 'ana@example.com',
  document: '52998224725',
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
  attendantCode: '',
  allowedSellersId: [],
  profile: null,
  createdAt: '2024-03-01T12:00:00.000Z',
  updatedAt: '2024-03-01T12:00:00.000Z',
};

describe('permissionSummary', () => {
  it.each<{ name: string; flags: Partial<SalesRep>; expected: string }>([
    { name: 'none', flags: {}, expected: '-----------' },
    {
      name: 'the doc comment example',
      flags: {
        enabledFreight: true,
        enabledInsertFreight: true,
        enabledCustomerRegistration: true,
        enableAddItemValue: true,
      },
      expected: 'FIR-A------',
    },
    { name: 'only the last', flags: { enableRestrictedGroupsAttendant: true }, expected: '----------G' },
    {
      name: 'discounts',
      flags: {
        enableDiscountItemValue: true,
        enableDiscountBranch: true,
        enableDiscountFranchise: true,
        enableDiscountSeller: true,
      },
      expected: '---D-BNS---',
    },
    { name: 'coupons and chat', flags: { enableCoupon: true, enableChatSupport: true }, expected: '--------CH-' },
    {
      name: 'restricted customers have their own column',
      flags: { restrictedCustomers: true, enableRestrictedCustomers: true },
      expected: '-----------',
    },
    {
      name: 'a truthy non-boolean is not a permission',
      flags: { enableCoupon: 'true' as unknown as boolean },
      expected: '-----------',
    },
  ])('$name -> $expected', ({ flags, expected }) => {
    expect(permissionSummary({ ...noPermissions, ...flags })).toBe(expected);
  });

  it('shows every letter when every flag is on, each code once', () => {
    const everything = Object.fromEntries(permissionCodes.map(([flag]) => [flag, true]));
    expect(permissionSummary({ ...noPermissions, ...everything })).toBe('FIRDABNSCHG');
    expect(new Set(permissionCodes.map(([, code]) => code)).size).toBe(permissionCodes.length);
  });
});

describe('emailContains', () => {
  it.each<{ username: unknown; part: string; expected: boolean | undefined }>([
    { username: 'Eduarda.Silva@B2B.example.com', part: 'silva', expected: true },
    { username: 'eduarda.silva@b2b.example.com', part: 'SILVA', expected: true },
    { username: 'rafael.araujo@atacadao-norte.com.br', part: 'silva', expected: false },
    { username: undefined, part: 'silva', expected: undefined },
    { username: 42, part: '42', expected: undefined },
  ])('$username contains $part: $expected', ({ username, part, expected }) => {
    expect(emailContains({ username }, part)).toBe(expected);
  });
});
