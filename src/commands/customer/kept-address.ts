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
import { recognisedCustomerEnvelopes, readCustomerRecord } from '../../platform/answers/customers.js';
import { type Customer, registeredCustomer, updateCustomer } from '../../platform/customers.js';

/** Parts that belong to the customer whatever the CEP: kept when the file leaves them empty. */
const ownParts = ['complement', 'name', 'addressType', 'farmerStateRegistration'] as const;
/** Parts the CEP decides (the platform's postal lookup): kept only for the same CEP. */
const placeParts = ['street', 'quarter', 'city', 'state'] as const;
/** What an update that gives neither takes from the stored address, before the parts of that CEP. */
const cepAndNumber = ['zipcode', 'number'] as const;

/** What the read of the stored record (`PUT {}`) answered: its record (out of any envelope) and the status. */
export interface StoredRead {
  record: Partial<Customer>;
  status?: number;
}

/**
 * An update's registration address that the stored record cannot complete: not sent, since it would go without parts
 * the platform may hold (a platform that replaces the address clears them) or without the CEP and number it requires.
 * Names what the read answered and the columns that make the row complete.
 */
export class NoStoredAddress extends InputError {
  constructor(read: StoredRead, left: readonly string[], keepsPlace: boolean) {
    const columns = left.map((part) => `customerRegistrationAddress.${part}`);
    const given = keepsPlace
      ? 'the registration address gives no CEP and number'
      : `the registration address leaves ${left.join(', ')} empty`;
    const need = keepsPlace ? 'to take them from' : 'to keep them from, and sending it could clear the stored ones';
    super(`${given}, and ${storedReadWords(read)} ${need}: give ${listed(columns)}`, { field: columns[0] });
  }
}

/** What the read of the stored record showed, and where it looked: for the reason of a row it left incomplete. */
function storedReadWords({ record, status }: StoredRead): string {
  const read = `the customer's stored record was read (PUT {}${status === undefined ? '' : `, HTTP ${status}`})`;
  if (Object.keys(record).length === 0) return `${read}, but the answer holds no customer record`;
  return `${read}, but it shows no registration address (customerRegistrationAddress, looked for at the answer's root and under ${recognisedCustomerEnvelopes.join(', ')})`;
}

function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The update, its registration address completed from the stored record first when it leaves parts out: `stored`
 * when the caller has read it already, else asked with `PUT {}`. The note says what was kept, for the report. The
 * answer is the caller's to judge (a refusal, another customer's record).
 */
export async function updateKeepingAddress(
  client: PlatformClient,
  document: string,
  changes: Record<string, unknown>,
  signal: AbortSignal | undefined,
  stored?: StoredRead,
): Promise<{ customer: unknown; status: number; note: string | undefined }> {
  const { body, note } = await withKeptAddress(client, document, changes, signal, stored);
  const updated = await updateCustomer(client, document, body, signal);
  return { customer: updated.body, status: updated.status, note };
}

/**
 * The update's body as it is to be sent, its registration address completed as `updateKeepingAddress` says, and
 * the note; throws NoStoredAddress when the stored record cannot complete it.
 */
export async function withKeptAddress<Body extends Record<string, unknown>>(
  client: PlatformClient,
  document: string,
  changes: Body,
  signal: AbortSignal | undefined,
  stored?: StoredRead,
): Promise<{ body: Body; note: string | undefined }> {
  if (!leavesAddressPartsOut(changes)) return { body: changes, note: undefined };
  const read = stored ?? (await readStoredRecord(client, document, changes, signal));
  // No customer has the document: the update itself is answered 404, which says so.
  if (read === undefined) return { body: changes, note: undefined };
  return withStoredAddressParts(changes, read);
}

/** The stored record, read with `PUT {}`; undefined when no customer has the document and the update can say so. */
async function readStoredRecord(
  client: PlatformClient,
  document: string,
  changes: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<StoredRead | undefined> {
  // Without CEP and number the address cannot go as it is: a customer the read does not find is that 404 itself.
  if (givesNeitherCepNorNumber(changes.customerRegistrationAddress)) {
    const { status, body } = await updateCustomer(client, document, {}, signal);
    return { record: readCustomerRecord(body) ?? {}, status };
  }
  return await registeredCustomer(client, document, signal);
}

/** Whether an update body's registration address leaves out a part the stored address may hold. */
export function leavesAddressPartsOut(body: Record<string, unknown>): boolean {
  const address = body.customerRegistrationAddress;
  return isObject(address) && [...cepAndNumber, ...ownParts].some((part) => leftEmpty(address[part]));
}

/** A part the body leaves out; `""` is a part given empty on purpose (a JSON `"complement": ""`), which is sent. */
function leftEmpty(value: unknown): boolean {
  return value !== '' && isBlank(value);
}

/**
 * The body with its registration address completed from `read` (the record a `PUT {}` answered), and what was kept,
 * for the report. A record that shows no registration address cannot complete it: NoStoredAddress, never sent
 * without parts the platform may hold (a fresh user test lost a complement so, exit 0). One that shows it empty
 * (`null`) holds nothing to lose, so the body goes as it is, unless it gives no CEP and number.
 */
export function withStoredAddressParts<Body extends Record<string, unknown>>(
  body: Body,
  read: StoredRead,
): { body: Body; note: string | undefined } {
  const address = body.customerRegistrationAddress;
  if (!isObject(address)) return { body, note: undefined };
  const storedAddress = read.record.customerRegistrationAddress;
  const keepsPlace = givesNeitherCepNorNumber(address);
  if (keepsPlace && !(isObject(storedAddress) && cepAndNumber.every((part) => !isBlank(storedAddress[part]))))
    throw new NoStoredAddress(read, [...cepAndNumber], true);
  if (!isObject(storedAddress)) {
    const left = ownParts.filter((part) => leftEmpty(address[part]));
    if (storedAddress === null || left.length === 0) return { body, note: undefined };
    throw new NoStoredAddress(read, left, false);
  }
  const sameCep = keepsPlace || sameZipcode(address.zipcode, storedAddress.zipcode);
  // The complement (apartment, suite, block) belongs to the place: at a new CEP or number it is the old place's.
  const moved = !keepsPlace && movedFrom(address, storedAddress);
  const completed: Record<string, unknown> = { ...address };
  const kept: string[] = [];
  for (const part of [...(keepsPlace ? cepAndNumber : []), ...ownParts, ...(sameCep ? placeParts : [])]) {
    if (!leftEmpty(address[part]) || isBlank(storedAddress[part]) || (moved && part === 'complement')) continue;
    completed[part] = storedAddress[part];
    kept.push(part);
  }
  const notes =
    kept.length === 0 ? [] : [`the registration address kept its stored ${kept.join(', ')}, which the file left empty`];
  // Sent empty, so that a platform that merges the address does not keep it either.
  if (moved && leftEmpty(address.complement) && !isBlank(storedAddress.complement)) {
    completed.complement = '';
    notes.push(
      'the stored complement of the registration address was cleared, not kept: the file gives another CEP or number, and the complement belongs to the old place (give customerRegistrationAddress.complement if the new place has one)',
    );
  }
  if (notes.length === 0) return { body, note: undefined };
  return { body: { ...body, customerRegistrationAddress: completed }, note: notes.join('; ') };
}

/** Whether an address gives a CEP or number other than the stored address's: the customer moved. */
function movedFrom(address: Record<string, unknown>, stored: Record<string, unknown>): boolean {
  const newCep = !isBlank(address.zipcode) && !sameZipcode(address.zipcode, stored.zipcode);
  const newNumber = !isBlank(address.number) && spelledNumber(address.number) !== spelledNumber(stored.number);
  return newCep || newNumber;
}

/** A house number as compared: `"45"`, `45` and `" 45 "` are one number, `45a` and `45A` too. */
function spelledNumber(number: unknown): string | undefined {
  return typeof number === 'string' || typeof number === 'number' ? String(number).trim().toLowerCase() : undefined;
}

function sameZipcode(given: unknown, stored: unknown): boolean {
  if (typeof given !== 'string' || typeof stored !== 'string') return false;
  const a = normalizeCep(given);
  const b = normalizeCep(stored);
  return a.ok && b.ok && a.cep === b.cep;
}
