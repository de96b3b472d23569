/**
 * An update's registration address keeps the stored parts the file leaves empty. The platform takes the address as
 * one object, and whether it merges it into the stored one is not documented: the sandbox, like a platform that
 * replaces it, clears the complement, name and type an update leaves out. `customer update` promises that fields
 * left empty are not sent and nothing else changes, so the stored record is read first (the documented `PUT {}`)
 * and the parts the file leaves empty are sent with their stored values.
 */
import { InputError } from '../../base/errors.js';
import { normalizeCep } from '../../domain/cep.js';
import { givesNeitherCepNorNumber } from '../../domain/customer.js';
import { isBlank, isObject } from '../../domain/customer-values.js';
import type { PlatformClient } from '../../platform/client.js';
import { type Customer, registeredCustomer, updateCustomer } from '../../platform/customers.js';

/** Parts that belong to the customer whatever the CEP: kept when the file leaves them empty. */
const ownParts = ['complement', 'name', 'addressType', 'farmerStateRegistration'] as const;
/** Parts the CEP decides (the platform's postal lookup): kept only for the same CEP. */
const placeParts = ['street', 'quarter', 'city', 'state'] as const;
/** What an update that gives neither takes from the stored address, before the parts of that CEP. */
const cepAndNumber = ['zipcode', 'number'] as const;

/**
 * An update's registration address without CEP and number, for a customer whose stored record shows no
 * registration address to take them from: not sent, since the platform requires both.
 */
export class NoStoredAddress extends InputError {
  constructor() {
    super(
      "the registration address gives no CEP and number, and the customer's stored record shows no registration address to take them from: give customerRegistrationAddress.zipcode and customerRegistrationAddress.number",
      { field: 'customerRegistrationAddress.zipcode' },
    );
  }
}

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
): Promise<{ customer: Customer | undefined; status: number; note: string | undefined }> {
  const { body, note } = await withKeptAddress(client, document, changes, signal, stored);
  const updated = await updateCustomer(client, document, body, signal);
  return { customer: updated.body, status: updated.status, note };
}

/**
 * The update's body as it is to be sent, its registration address completed as `updateKeepingAddress` says, and
 * the note; throws NoStoredAddress when it gives no CEP and number and the stored record has none.
 */
export async function withKeptAddress<Body extends Record<string, unknown>>(
  client: PlatformClient,
  document: string,
  changes: Body,
  signal: AbortSignal | undefined,
  stored?: Partial<Customer>,
): Promise<{ body: Body; note: string | undefined }> {
  if (!leavesAddressPartsOut(changes)) return { body: changes, note: undefined };
  // Without CEP and number the address cannot go as it is: a customer the read does not find is that 404 itself.
  const record =
    stored ??
    (givesNeitherCepNorNumber(changes.customerRegistrationAddress)
      ? (await updateCustomer(client, document, {}, signal)).body
      : (await registeredCustomer(client, document, signal))?.record) ??
    {};
  return withStoredAddressParts(changes, isObject(record) ? record : {});
}

/** Whether an update body's registration address leaves out a part the stored address may hold. */
export function leavesAddressPartsOut(body: Record<string, unknown>): boolean {
  const address = body.customerRegistrationAddress;
  return isObject(address) && [...cepAndNumber, ...ownParts].some((part) => isBlank(address[part]));
}

/**
 * The body with its registration address completed from `stored` (the record a `PUT {}` answered), and what was
 * kept, for the report. A record whose answer shows no registration address goes as it is, saying so, unless the
 * body's address gives no CEP and number, which only the stored one could give: NoStoredAddress.
 */
export function withStoredAddressParts<Body extends Record<string, unknown>>(
  body: Body,
  stored: Partial<Customer>,
): { body: Body; note: string | undefined } {
  const address = body.customerRegistrationAddress;
  if (!isObject(address)) return { body, note: undefined };
  const storedAddress = stored.customerRegistrationAddress;
  const keepsPlace = givesNeitherCepNorNumber(address);
  if (keepsPlace && !(isObject(storedAddress) && cepAndNumber.every((part) => !isBlank(storedAddress[part]))))
    throw new NoStoredAddress();
  if (!isObject(storedAddress)) {
    const left = ownParts.filter((part) => isBlank(address[part]));
    return {
      body,
      note: `the stored registration address was not in the platform's answer, so the address went without ${left.join(', ')}: the platform may have cleared them`,
    };
  }
  const sameCep = keepsPlace || sameZipcode(address.zipcode, storedAddress.zipcode);
  const completed: Record<string, unknown> = { ...address };
  const kept: string[] = [];
  for (const part of [...(keepsPlace ? cepAndNumber : []), ...ownParts, ...(sameCep ? placeParts : [])]) {
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
