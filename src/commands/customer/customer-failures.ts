import { B2bctlError, ExitCode, NotFoundError, PlatformError } from '../../base/errors.js';
import type { AddressInput, AddressPartsInput } from '../../domain/customer.js';

/**
 * "no customer has the document ... in this store (HTTP 404: what the platform said)": one wording for the run's
 * report and its error line. The platform's own words stay: a 404 of a route the store does not have says so there.
 */
function noCustomerWith(document: string, error: PlatformError | undefined): string {
  const said = error?.platformMessage;
  return `no customer has the document ${document} in this store (HTTP 404${said === undefined ? '' : `: ${said}`})`;
}

/**
 * The error of a single-customer command (`update --set`, `status`, `addresses`) when the document is unknown.
 * With the route's setting: a 404 is also what a store answers on a path it does not have, so the line names the
 * path asked and the setting that changes it.
 */
export function customerNotFound(document: string, error: PlatformError, routeSetting?: string): NotFoundError {
  const sentence = noCustomerWith(document, error);
  const route =
    routeSetting === undefined
      ? ''
      : ` If the customer is registered, this store's route is not ${error.request.method} ${error.request.url}: set ${routeSetting}.`;
  return new NotFoundError(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.${route}`);
}

/**
 * How `customer update` and `customer status` record a refused request: the platform's own message in the report,
 * or the 404 sentence. Anything else ends the run: not a platform answer, a lost login (exit 77), or a server
 * failure (5xx, already retried).
 */
export function customerFailureMessage(
  error: unknown,
  document: string,
  sent: SentAddresses = {},
): { status: number; message: string } {
  if (!(error instanceof PlatformError) || error.exitCode === ExitCode.authFailed || error.status >= 500) throw error;
  const message = error.status === 404 ? noCustomerWith(document, error) : refusalMessage(error, sent);
  return { status: error.status, message };
}

/** The addresses of a create or update body: what a refusal of `address` is about. */
export interface SentAddresses {
  customerRegistrationAddress?: AddressInput | AddressPartsInput;
  addressList?: readonly AddressInput[];
}

/**
 * A refused write in the platform's own words, then, when its 422 names the field `address` (the documented
 * `Property [address] with value [] does not pass validation`, which names neither part nor value), the CEP and
 * number that were sent: the parts a store checks against what it knows, such as a CEP missing from its base.
 */
export function refusalMessage(error: PlatformError, sent: SentAddresses): string {
  return `${error.platformMessage ?? error.message}${refusalHint(error, sent)}`;
}

/**
 * The error of a single-customer write (`update --set`) the platform refused: its own line, with the hint a file
 * run's report row gives (refusalMessage); the platform's error itself when there is none.
 */
export function explainedRefusal(error: PlatformError, sent: SentAddresses): B2bctlError {
  const hint = refusalHint(error, sent);
  return hint === '' ? error : new B2bctlError(`${error.message}${hint}.`, error.exitCode, { cause: error });
}

/** What refusalMessage adds after the platform's words, starting with "; "; '' when it has nothing to add. */
function refusalHint(error: PlatformError, sent: SentAddresses): string {
  if (error.status !== 422 || error.field !== 'address') return '';
  // An update's address given without CEP and number is sent completed from the stored one; before, it names neither.
  const addresses = [sent.customerRegistrationAddress, ...(sent.addressList ?? [])].filter(
    (address): address is AddressInput => address?.zipcode !== undefined,
  );
  const only = addresses.length === 1 ? addresses[0] : undefined;
  if (only) return `; the platform refused the address: check its CEP ${only.zipcode} and number ${only.number}`;
  if (addresses.length === 0) return '';
  const each = addresses.map((address) => `CEP ${address.zipcode}, number ${address.number}`).join('; ');
  return `; the platform refused an address: check the CEP and number of each (${each})`;
}
