import { AmbiguousRequestError, B2bctlError, ExitCode, NotFoundError, PlatformError } from '../../base/errors.js';
import type { MayHaveBeenAppliedError } from '../../platform/applied-write.js';
import { asClause } from '../../lib/clause.js';
import { type AddressInput, type AddressPartsInput } from '../../domain/customer.js';
import type { PlatformClient } from '../../platform/client.js';
import { anotherCustomersRecord, isUnknownDocument, otherCustomerIn, refusalIn2xx } from '../../platform/customers.js';
import { activeShownOtherwise, readCustomerRecord, textInsteadOfRecord } from '../../platform/answers/customers.js';
import { isBlank } from '../../domain/customer-values.js';

/**
 * "no customer has the document ... in this store (HTTP 404: what the platform said)": one wording for the run's
 * report and its error line. The platform's own words stay: a 404 of a route the store does not have says so there.
 */
function noCustomerWith(document: string, error: PlatformError | undefined): string {
  const said = error?.platformMessage;
  return `no customer has the document ${document} in this store (HTTP 404${said === undefined ? '' : `: ${said}`})`;
}

/**
 * A file's row answered 404 on a route a setting names (`paths.customerStatus`): also what a store answers on a path
 * it does not have, so every row of a run on the wrong route said "no customer has the document" and to fix the
 * rows (a user test). Says the route and the setting as the single form does, ahead of the platform's words, so the
 * closing `why` line, which cuts a long message on a terminal, says it once for all of them.
 */
function noCustomerOrRoute(document: string, error: PlatformError, routeSetting: string): string {
  const said = error.platformMessage;
  return `no customer has the document ${document} in this store, or this store's route is not ${error.request.method} ${error.request.url}: if the customer is registered, set ${routeSetting} (HTTP 404${said === undefined ? '' : `: ${said}`})`;
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
 * A single update's or status change's server failure (MayHaveBeenAppliedError: the client's rule for a write
 * answered 5xx), as a line saying it may have been applied and that sending it again is harmless (exit 69).
 */
export function mayHaveBeenAppliedError(document: string, error: MayHaveBeenAppliedError): AmbiguousRequestError {
  return new AmbiguousRequestError(`Customer ${document}: ${asClause(error.message)}; sending it again is harmless.`, {
    status: error.status,
    cause: error.failure,
  });
}

/**
 * How `customer update` and `customer status` record a refused request: the platform's own message in the report,
 * or the 404 sentence. Anything else ends the run: not a platform answer, a lost login (exit 77), or a server
 * failure (a 5xx kept failing: the platform unavailable; one that may have been applied is the caller's).
 */
export function customerFailureMessage(
  error: unknown,
  document: string,
  refused?: RefusedWrite,
  routeSetting?: string,
): { status: number; message: string } {
  if (!(error instanceof PlatformError) || error.exitCode === ExitCode.authFailed || error.status >= 500) throw error;
  const message = isUnknownDocument(error)
    ? routeSetting === undefined
      ? noCustomerWith(document, error)
      : noCustomerOrRoute(document, error, routeSetting)
    : refused === undefined
      ? (error.platformMessage ?? error.message)
      : refusalMessage(error, refused);
  return { status: error.status, message };
}

/** What a create or update body sent that a store checks against what it knows: the addresses and the groups. */
export interface SentFields {
  customerRegistrationAddress?: AddressInput | AddressPartsInput;
  addressList?: readonly AddressInput[];
  customerGroupList?: readonly string[];
}

/** A refused write's body, and the route (as `b2bctl api` takes it) that lists the store's customer groups. */
export interface RefusedWrite {
  sent: SentFields;
  groupsRoute: string;
}

/** The refused write of `sent` through `client`: the groups route is the profile's `paths.customerGroups`. */
export function refusedWrite(client: PlatformClient, sent: SentFields): RefusedWrite {
  return { sent, groupsRoute: client.session.get('paths.customerGroups') };
}

/**
 * A refused write in the platform's own words, then what was sent that it may be about. When its 422 names the
 * field `address` (the documented `Property [address] with value [] does not pass validation`, which names neither
 * part nor value), the CEP and number that were sent: the parts a store checks against what it knows, such as a
 * CEP missing from its base; and the lat/lng sent, which a store takes only with its latitude/longitude feature on.
 * When a 422 names the groups, or names no field and the body sent nothing else the refusal could be about, those
 * groups and where the store lists its own (groupsHint).
 */
export function refusalMessage(error: PlatformError, refused: RefusedWrite): string {
  return `${error.platformMessage ?? error.message}${refusalHint(error, refused)}`;
}

/**
 * The error of a single-customer write (`update --set`) the platform refused: its own line, with the hint a file
 * run's report row gives (refusalMessage); the platform's error itself when there is none.
 */
export function explainedRefusal(error: PlatformError, refused: RefusedWrite): B2bctlError {
  const hint = refusalHint(error, refused);
  return hint === '' ? error : new B2bctlError(`${error.message}${hint}.`, error.exitCode, { cause: error });
}

/** What refusalMessage adds after the platform's words, starting with "; "; '' when it has nothing to add. */
function refusalHint(error: PlatformError, { sent, groupsRoute }: RefusedWrite): string {
  if (error.status !== 422) return '';
  if (error.field === 'address') return addressHint(sent);
  const groups = sent.customerGroupList ?? [];
  if (groups.length === 0 || !aboutTheGroups(error.field, sent)) return '';
  return `; customer groups sent: ${groups.join(', ')} (\`b2bctl api ${groupsRoute} --paginate\` lists the store's groups)`;
}

/**
 * Whether a 422 is about the groups sent: it names them (the documented `Property [customerGroupList]`, or an
 * `errors` list's `field`/`campo`, `customerGroupList.0` too), or it names no field and the body sent nothing but
 * the groups (an update of the groups alone). A refusal in the platform's own words (`Telefone inválido`, `campo:
 * cep`) of a body that sent more is about what b2bctl cannot tell from words it does not read: pointing at the
 * groups would send the operator to fix what was not refused (a fresh user test).
 */
function aboutTheGroups(field: string | undefined, sent: SentFields): boolean {
  if (field !== undefined) return field === 'customerGroupList' || field.startsWith('customerGroupList.');
  return Object.entries(sent).every(([name, value]) => name === 'customerGroupList' || value === undefined);
}

/** The CEP and number of each address sent, for a 422 that names `address`. */
function addressHint(sent: SentFields): string {
  // An update's address given without CEP and number is sent completed from the stored one; before, it names neither.
  const addresses = [
    { path: 'customerRegistrationAddress', address: sent.customerRegistrationAddress },
    ...(sent.addressList ?? []).map((address, index) => ({ path: `addressList.${index}`, address })),
  ].filter(
    (sentAddress): sentAddress is { path: string; address: AddressInput } => sentAddress.address?.zipcode !== undefined,
  );
  const only = addresses.length === 1 ? addresses[0]?.address : undefined;
  const town = wholeTownHint(addresses);
  const coordinates = coordinatesHint(addresses);
  if (only)
    return `; the platform refused the address: check its CEP ${only.zipcode} and number ${only.number}${coordinates}${town}`;
  if (addresses.length === 0) return '';
  const each = addresses.map(({ address }) => `CEP ${address.zipcode}, number ${address.number}`).join('; ');
  return `; the platform refused an address: check the CEP and number of each (${each})${coordinates}${town}`;
}

/**
 * The lat/lng sent in the addresses, by path: the platform takes them only when the store has its latitude/longitude
 * feature on (platform.md), so a store without it refuses an address whose CEP and number are right (a fresh user
 * test). '' when none was sent.
 */
function coordinatesHint(addresses: readonly { path: string; address: AddressInput }[]): string {
  const located = addresses.filter(({ address }) => address.lat !== undefined || address.lng !== undefined);
  if (located.length === 0) return '';
  const each = located.map(({ path, address }) => `${path}.lat/lng ${String(address.lat)}, ${String(address.lng)}`);
  return `, and the ${each.join('; ')} sent: the platform takes lat/lng only when the store has its latitude/longitude feature on, so leave them out if it has not`;
}

/**
 * A town with a single CEP (ending -000, such as 12460-000) has no street or quarter in the postal lookup, and the
 * platform refuses an address it cannot complete: where one was sent without them, the usual fix, named by path.
 */
function wholeTownHint(addresses: readonly { path: string; address: AddressInput }[]): string {
  const lacking = addresses.filter(
    ({ address }) =>
      String(address.zipcode).replace(/\D/g, '').endsWith('000') &&
      (isBlank(address.street) || isBlank(address.quarter)),
  );
  const first = lacking[0];
  if (first === undefined) return '';
  const paths = lacking.map(({ path }) => `${path}.street and .quarter`).join(', ');
  return `; if ${lacking.length === 1 ? `CEP ${first.address.zipcode} is` : 'a CEP ending -000 is'} a whole town's (a single-CEP town), its lookup gives no street or quarter: give ${paths} too`;
}

/**
 * A 2xx to an update or a status change whose body refuses it, said for the report and the error line: `unknown`,
 * never done; sending it again is harmless (an update sets the same values).
 */
export function refusedIn2xx(status: number, refusal: string): string {
  return `the platform answered HTTP ${status} with a body that refuses the change: ${refusal}; whether it was applied is not known (sending it again is harmless)`;
}

/**
 * Why a 2xx to an update (an upsert's too) or a status change does not show it done, or undefined when it may: a
 * body that refuses it, text in place of a record, the record of another customer, or a record showing `active` the
 * opposite of the `active` the write sent (`sent`). Each is `unknown`, quoting the answer; sending it again is harmless.
 */
export function doubtfulUpdate(
  status: number,
  body: unknown,
  document: string,
  sent: { active?: unknown } = {},
): string | undefined {
  const refusal = refusalIn2xx(body);
  if (refusal !== undefined) return refusedIn2xx(status, refusal);
  const notKnown = 'whether it was applied is not known (sending it again is harmless)';
  // Text in place of a record: words b2bctl never decides on, as for a create (`"ERRO"` was reported updated).
  const text = textInsteadOfRecord(body);
  if (text !== undefined) return `the platform answered HTTP ${status} ${text}; ${notKnown}`;
  const other = otherCustomerIn(body, document);
  if (other !== undefined)
    return `the platform answered HTTP ${status} ${anotherCustomersRecord(other, document)}; ${notKnown}`;
  const active = activeShownOtherwise(readCustomerRecord(body), sent.active);
  return active === undefined
    ? undefined
    : `the platform answered HTTP ${status} with the customer's record showing "${active.name}": ${JSON.stringify(active.shown)}, though ${sent.active} was sent; ${notKnown}`;
}
