/**
 * The sales rep as the platform's listing returns it (docs/platform.md, "What the document shows") and the one table of its
 * permission flags: the CLI's PERMISSIONS column and the sandbox's seed both read this, so they cannot drift apart.
 */

/** Every boolean permission flag of a sales rep, in the platform's order. */
export const permissionFlags = [
  'restrictedCustomers',
  'enabledFreight',
  'enabledInsertFreight',
  'enabledCustomerRegistration',
  'enableDiscountItemValue',
  'enableAddItemValue',
  'enableDiscountBranch',
  'enableDiscountFranchise',
  'enableDiscountSeller',
  'enableCoupon',
  'enableChatSupport',
  'enableRestrictedCustomers',
  'enableRestrictedGroupsAttendant',
] as const;

export type PermissionFlag = (typeof permissionFlags)[number];

export interface SalesRep extends Record<PermissionFlag, boolean> {
  id: string;
  username: string;
  document: string;
  attendantCode: string;
  allowedSellersId: string[];
  profile: { id: unknown; code: string; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The flags shown in the compact PERMISSIONS column, in its order, with their one-letter codes and meanings.
 * The two "restricted customers" flags are left out: they restrict, they do not permit.
 */
export const permissionCodes: readonly (readonly [PermissionFlag, string, string])[] = [
  ['enabledFreight', 'F', 'change freight'],
  ['enabledInsertFreight', 'I', 'insert freight'],
  ['enabledCustomerRegistration', 'R', 'register customers'],
  ['enableDiscountItemValue', 'D', 'discount on item value'],
  ['enableAddItemValue', 'A', 'add to item value'],
  ['enableDiscountBranch', 'B', 'branch discount'],
  ['enableDiscountFranchise', 'N', 'franchise discount'],
  ['enableDiscountSeller', 'S', 'own discount'],
  ['enableCoupon', 'C', 'coupons'],
  ['enableChatSupport', 'H', 'chat support'],
  ['enableRestrictedGroupsAttendant', 'G', 'restricted customer groups only'],
];

/** `FIR-A------`: one letter per permission the sales rep has, `-` where it lacks it. */
export function permissionSummary(rep: SalesRep): string {
  return permissionCodes.map(([flag, code]) => (rep[flag] === true ? code : '-')).join('');
}

/**
 * Whether a rep's e-mail contains `part`, case-insensitive: what `--email` asks the platform's listing for. Undefined
 * for a rep that shows no e-mail as text: there is nothing to check it against.
 */
export function emailContains(rep: { username?: unknown }, part: string): boolean | undefined {
  if (typeof rep.username !== 'string') return undefined;
  return rep.username.toLowerCase().includes(part.toLowerCase());
}
