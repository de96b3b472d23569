/**
 * An update's registration address keeps the stored parts the file leaves empty. The platform takes the address as
 * one object, and whether it merges it into the stored one is not documented: the sandbox, like a platform that
 * replaces it, clears the complement, name and type an update leaves out. `customer update` promises that fields
 * left empty are not sent and nothing else changes, so the stored record is read first (the documented `PUT {}`)
 * and the parts the file leaves empty are sent with their stored values.
 */
import { normalizeCep } from '../../domain/cep.js';
import { isBlank, isObject } from '../../domain/customer-values.js';
import type { PlatformClient } from '../../platform/client.js';
import { type Customer, registeredCustomer, updateCustomer } from '../../platform/customers.js';

/** Parts that belong to the customer whatever the CEP: kept when the file leaves them empty. */
const ownParts = ['complement', 'name', 'addressType', 'farmerStateRegistration'] as const;
/** Parts the CEP decides (the platform's postal lookup): kept only for the same CEP. */
const placeParts = ['street', 'quarter', 'city', 'state'] as const;

/**
 * The update, its registration address completed from the stored record first when it leaves parts out: `stored`
 * when the caller has read it already, else asked with `PUT {}`. The note says what was kept, for the report.
 */
export async function updateKeepingAddress(
  client: PlatformClient,
  document: string,
  changes: Record<string, unknown>,
  signal: AbortSignal | undefined,
  stored?: Partial<Customer>,
): Promise<{ customer: Customer | undefined; note: string | undefined }> {
  if (!leavesAddressPartsOut(changes))
    return { customer: await updateCustomer(client, document, changes, signal), note: undefined };
  // No customer with the document: the update itself then answers 404, as without an address.
  const record = stored ?? (await registeredCustomer(client, document, signal))?.record ?? {};
  const { body, note } = withStoredAddressParts(changes, record);
  return { customer: await updateCustomer(client, document, body, signal), note };
}

/** Whether an update body's registration address leaves out a part the stored address may hold. */
export function leavesAddressPartsOut(body: Record<string, unknown>): boolean {
  const address = body.customerRegistrationAddress;
  return isObject(address) && ownParts.some((part) => isBlank(address[part]));
}

/**
 * The body with its registration address completed from `stored` (the record a `PUT {}` answered), and what was
 * kept, for the report. A record whose answer shows no registration address goes as it is, saying so.
 */
export function withStoredAddressParts<Body extends Record<string, unknown>>(
  body: Body,
  stored: Partial<Customer>,
): { body: Body; note: string | undefined } {
  const address = body.customerRegistrationAddress;
  if (!isObject(address)) return { body, note: undefined };
  const storedAddress = stored.customerRegistrationAddress;
  if (!isObject(storedAddress)) {
    const left = ownParts.filter((part) => isBlank(address[part]));
    return {
      body,
      note: `the stored registration address was not in the platform's answer, so the address went without ${left.join(', ')}: the platform may have cleared them`,
    };
  }
  const sameCep = sameZipcode(address.zipcode, storedAddress.zipcode);
  const completed: Record<string, unknown> = { ...address };
  const kept: string[] = [];
  for (const part of [...ownParts, ...(sameCep ? placeParts : [])]) {
    if (!isBlank(address[part]) || isBlank(storedAddress[part])) continue;
    completed[part] = storedAddress[part];
    kept.push(part);
  }
  if (kept.length === 0) return { body, note: undefined };
  return {
    body: { ...body, customerRegistrationAddress: completed },
    note: `the registration address kept its stored ${kept.join(', ')}, which the file left empty`,
  };
}

function sameZipcode(given: unknown, stored: unknown): boolean {
  if (typeof given !== 'string' || typeof stored !== 'string') return false;
  const a = normalizeCep(given);
  const b = normalizeCep(stored);
  return a.ok && b.ok && a.cep === b.cep;
}
