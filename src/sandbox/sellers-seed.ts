import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { permissionFlags, type SalesRep } from '../domain/sales-rep.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const fractionalTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/;

export type SalesRepSeed = Partial<SalesRep> & Pick<SalesRep, 'id' | 'username' | 'document' | 'createdAt'>;

/**
 * A seed record as the platform would return it: absent flags false, `attendantCode` "" and
 * `allowedSellersId` [] when not provided, `profile` null or {id, code, name}, and the franchise
 * discount only when the branch discount is on.
 */
export function salesRepFromSeed(seed: SalesRepSeed): SalesRep {
  if (!uuidPattern.test(seed.id)) throw new Error(`sales rep ${seed.username}: id ${seed.id} is not a UUID`);
  for (const [name, value] of [
    ['createdAt', seed.createdAt],
    ['updatedAt', seed.updatedAt ?? seed.createdAt],
  ] as const) {
    if (!fractionalTimestamp.test(value))
      throw new Error(`sales rep ${seed.username}: ${name} ${value} needs fractional seconds in UTC`);
  }
  const flags = Object.fromEntries(permissionFlags.map((flag) => [flag, seed[flag] === true])) as Pick<
    SalesRep,
    (typeof permissionFlags)[number]
  >;
  flags.enableDiscountFranchise = flags.enableDiscountFranchise && flags.enableDiscountBranch;
  return {
    id: seed.id,
    username: seed.username,
    document: seed.document,
    ...flags,
    attendantCode: seed.attendantCode ?? '',
    allowedSellersId: seed.allowedSellersId ?? [],
    profile: seed.profile ? { id: seed.profile.id, code: seed.profile.code, name: seed.profile.name } : null,
    createdAt: seed.createdAt,
    updatedAt: seed.updatedAt ?? seed.createdAt,
  };
}

export function loadSalesReps(seedDirectory: string): SalesRep[] {
  const seeds = JSON.parse(readFileSync(join(seedDirectory, 'sellers.json'), 'utf8')) as SalesRepSeed[];
  return seeds.map(salesRepFromSeed);
}
