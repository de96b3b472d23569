/**
 * What an upsert's file changes that the update route cannot (docs/bulk-runs.md): a customer updated by `--upsert`
 * keeps its registered e-mail and its delivery address list. Named only where the file differs from the stored
 * record, or where the record does not show it, so the rows that lost an edit stand out in the report.
 */
import type { CustomerCreateBody } from '../../domain/customer.js';
import { isBlank, isObject } from '../../domain/customer-values.js';
import type { Customer } from '../../platform/customers.js';
import { storedEmailOf } from '../../platform/answers/customers.js';

/** A field of the file that an upsert left as the customer had it, by its name in the file. */
export type KeptChange = 'username' | 'addressList';

/** The file's changes the update route could not make, given the stored record the upsert read or got back. */
export function keptChanges(body: CustomerCreateBody, stored: Partial<Customer> | undefined): KeptChange[] {
  const kept: KeptChange[] = [];
  if (body.username !== undefined && !sameEmail(body.username, storedEmailOf(stored))) kept.push('username');
  if (Array.isArray(body.addressList) && !storedHoldsEvery(body.addressList, stored?.address)) kept.push('addressList');
  return kept;
}

/** Whether the stored e-mail is the file's, in any case and spacing; unknown (not shown) counts as differing. */
export function sameEmail(fileEmail: unknown, storedEmail: unknown): boolean {
  return typeof storedEmail === 'string' && storedEmail.toLowerCase() === String(fileEmail).trim().toLowerCase();
}

/**
 * Whether every address of the file's list is among the stored ones (same CEP digits and number, and complement
 * when the file gives one). A list the record does not show counts as differing: nothing says it was kept as asked.
 */
function storedHoldsEvery(fileList: readonly unknown[], storedList: unknown): boolean {
  if (!Array.isArray(storedList)) return false;
  const stored = storedList.filter(isObject);
  return fileList.every((item) => isObject(item) && stored.some((candidate) => sameDeliveryAddress(item, candidate)));
}

const digitsOf = (value: unknown) => String(value ?? '').replace(/\D/g, '');
const textOf = (value: unknown) => String(value ?? '').trim();

function sameDeliveryAddress(file: Record<string, unknown>, stored: Record<string, unknown>): boolean {
  return (
    digitsOf(file.zipcode) === digitsOf(stored.zipcode) &&
    textOf(file.number) === textOf(stored.number) &&
    (isBlank(file.complement) || textOf(file.complement) === textOf(stored.complement))
  );
}

/** What each kept change means to the operator, for the warning and the summary. */
export const keptChangeWords: Record<KeptChange, { kept: string; route: string }> = {
  username: { kept: 'its registered e-mail', route: '--upsert cannot change an e-mail (the update route takes none)' },
  addressList: {
    kept: 'its stored delivery addresses',
    route: '--upsert cannot change the delivery address list, addressList (the update route takes none)',
  },
};

/** The report's message for an upsert that kept some of the file's changes; undefined when it kept none. */
export function keptNote(kept: readonly KeptChange[]): string | undefined {
  if (kept.length === 0) return undefined;
  return `updated without ${kept.join(', ')}: the update route does not take ${kept.length === 1 ? 'it' : 'them'}, so the customer keeps what it had`;
}
