import type { AddressInput, CustomerCreateBody, CustomerUpdateBody } from '../domain/customer.js';
import { AmbiguousRequestError, messageOfBody, PlatformError } from '../base/errors.js';
import { documentInPath } from '../domain/documents.js';
import {
  type ListingRecords,
  NotAListingPage,
  notAListingPage,
  readListingPage,
  recognisedListPaths,
  recordsOfListing,
} from './answers/listing.js';
import { otherCustomersDocument, readCustomerRecord } from './answers/customers.js';
import { refusalSignOf } from './answers/refusal-signs.js';
import { type PlatformClient, type PlatformResponse, quotedBodyOf } from './client.js';
import { EncodedSlashRefusedError } from './encoded-slash.js';
import { redactSecrets } from '../lib/secret-values.js';

/** The Customer object the platform returns at the root of create and update answers. */
export interface Customer {
  id: number;
  document: string;
  documentType: 'pf' | 'pj';
  name?: string | null;
  email: string;
  phone: string;
  active: boolean;
  address?: AddressOut[];
  [field: string]: unknown;
}

export type AddressOut = AddressInput & {
  id: number;
  principal: boolean;
  addressType: string;
  dateCreated: string;
  lastUpdated: string;
};

/**
 * A document as the customer routes' paths carry it (the customer.documentInPath setting), and what to say when a
 * server in front of the platform refuses the encoded "/" of a formatted CNPJ there.
 */
function documentRoute(client: PlatformClient, document: string): { document: string; slashAdvice?: string } {
  const spelling = client.session.get('customer.documentInPath');
  if (spelling === 'digits') return { document: documentInPath(document, spelling) };
  return { document, slashAdvice: documentSlashAdvice };
}

/** What sends a document's path without its encoded "/", said when a server in front of the platform refuses it. */
export const documentSlashAdvice =
  'to send the document as its digits and letters only, set customer.documentInPath to digits (b2bctl config set customer.documentInPath digits)';

/** The update route's path for a document: `PUT /v1/customer/:document`. */
function customerUpdatePath(client: PlatformClient, document: string): string {
  return `/v1/customer/${encodeURIComponent(documentRoute(client, document).document)}`;
}

/**
 * Whether a refusal says no customer has the document: a 404, unless a server in front of the platform answered it
 * for the encoded "/" in the path, which says nothing of the record.
 */
export function isUnknownDocument(error: unknown): error is PlatformError & { readonly status: 404 } {
  return error instanceof PlatformError && error.status === 404 && !(error instanceof EncodedSlashRefusedError);
}

/**
 * The platform's words when a 2xx to a customer write shows a refusal (refusalSignOf), or undefined when it shows
 * none. Such a write is not known done, nor known refused: b2bctl never decides on the wording of a message the
 * document does not show, so the caller reports it `unknown`, quoting them. The `secrets` the write sent (a create's
 * password) are masked as in a 4xx's words (the client's redactSecrets, then messageOfBody's hideEchoedSecret): a
 * `200 {"success":false}` quoting the password put it in clear in the cron log and the report (a fresh user test).
 */
export function refusalIn2xx(body: unknown, secrets: readonly (string | undefined)[] = []): string | undefined {
  const sign = refusalSignOf(body);
  return sign === undefined ? undefined : redactSecrets(messageOfBody(body) ?? sign, secrets);
}

/** `POST /v1/customer`: not idempotent, so never repeated blindly after an unclear failure (see createCustomerOnce in the command). */
export async function createCustomer(
  client: PlatformClient,
  body: CustomerCreateBody,
  signal?: AbortSignal,
): Promise<PlatformResponse<Customer | undefined>> {
  // A 2xx is a created customer, whatever its body shows (`undefined` when it has none), with the status it gave.
  return await client.send<Customer | undefined>({
    method: 'POST',
    path: '/v1/customer',
    body,
    safeToRepeat: false,
    effect: 'created the customer',
    signal,
    secrets: [body.password],
  });
}

/** `PUT /v1/customer/:document`: a partial update; `{}` changes nothing and answers the record. */
export async function updateCustomer(
  client: PlatformClient,
  document: string,
  body: Omit<CustomerUpdateBody, 'document'>,
  signal?: AbortSignal,
): Promise<PlatformResponse<Customer | undefined>> {
  return await client.send<Customer | undefined>({
    method: 'PUT',
    path: customerUpdatePath(client, document),
    body,
    changesNothing: Object.keys(body).length === 0,
    effect: 'applied the update',
    signal,
    slashAdvice: documentRoute(client, document).slashAdvice,
  });
}

/** The status route (`paths.customerStatus`): sets the active flag. */
export async function setCustomerStatus(
  client: PlatformClient,
  document: string,
  active: boolean,
  signal?: AbortSignal,
): Promise<PlatformResponse<unknown>> {
  const { document: inPath, slashAdvice } = documentRoute(client, document);
  return await client.send<unknown>({
    method: 'PUT',
    path: client.route('paths.customerStatus', { document: inPath, active }),
    effect: 'applied the change',
    signal,
    slashAdvice,
  });
}

/**
 * The addresses route (`paths.customerAddresses`); a 404 (no such customer, or no such route) is the caller's. Its
 * records are the addresses; entries that are no JSON object (`null`) are counted, for the caller's warning.
 */
export async function customerAddresses(
  client: PlatformClient,
  document: string,
  signal?: AbortSignal,
): Promise<ListingRecords<AddressOut>> {
  const { document: inPath, slashAdvice } = documentRoute(client, document);
  const path = client.route('paths.customerAddresses', { document: inPath });
  const answer = await client.send<unknown>({ method: 'GET', path, signal, slashAdvice });
  const { status, body } = answer;
  const setting = client.session.get('answers.addresses.items');
  const wrapped =
    setting === undefined
      ? ((body as { address?: unknown } | undefined)?.address ??
        (body as { addresses?: unknown } | undefined)?.addresses)
      : undefined;
  // An error answered with 200 (`{"success":false,…}`, `{"totalElements":"2"}`) is not "no addresses".
  const notAPage = Array.isArray(wrapped)
    ? undefined
    : notAListingPage(body, [...recognisedListPaths, 'address', 'addresses'], setting);
  if (notAPage !== undefined)
    throw new NotAListingPage(status, client.http.urlFor(path).toString(), quotedBodyOf(answer), notAPage, 'addresses');
  const addresses = Array.isArray(wrapped) ? wrapped : readListingPage(body, setting);
  // Addresses held where b2bctl does not look are not "no addresses": say which setting points at them.
  if (addresses === undefined)
    throw new PlatformError(
      status,
      { method: 'GET', url: client.http.urlFor(path).toString() },
      'the answer holds no array of addresses b2bctl recognises; set answers.addresses.items to the field that holds it (b2bctl api shows the answer)',
    );
  return recordsOfListing<AddressOut>(addresses);
}

/**
 * Whether a customer is registered under a document, asked with the documented question "update
 * with `{}`", which changes nothing and answers 200 with the record or 404. Undefined for a 404 (isUnknownDocument);
 * otherwise the record as far as the answer shows it (readCustomerRecord: out of an envelope; `{}` when a 200 without
 * a body still means "exists"), and the status. With `changes`, the update itself asks the same question (an upsert).
 */
export async function registeredCustomer(
  client: PlatformClient,
  document: string,
  signal?: AbortSignal,
  changes: Omit<CustomerUpdateBody, 'document'> = {},
): Promise<{ record: Partial<Customer>; status: number } | undefined> {
  try {
    const { status, body } = await updateCustomer(client, document, changes, signal);
    // A 2xx whose body refuses (`"success": false`) says neither "registered" nor "not": a resume took it for a
    // customer that exists. Another customer's record says nothing of this one either (a caching gateway's mix-up).
    // Asked with changes (an upsert), the question is the update itself: its answer is the update's, said so.
    const question = Object.keys(changes).length === 0;
    const asked = question
      ? `asked whether customer ${document} is registered, the platform answered HTTP ${status}`
      : `the update of customer ${document} (--upsert) was answered HTTP ${status}`;
    const refusal = refusalIn2xx(body);
    if (refusal !== undefined)
      throw new AmbiguousRequestError(
        `${asked} with a body that refuses ${question ? 'the question' : 'it'}: ${refusal}`,
        {
          status,
        },
      );
    const record = readCustomerRecord(body) ?? {};
    const other = otherCustomersDocument(record, document);
    if (other !== undefined)
      throw new AmbiguousRequestError(
        `${asked} ${anotherCustomersRecord(other, document)}, which tells nothing of this one`,
        {
          status,
        },
      );
    return { record, status };
  } catch (error) {
    if (isUnknownDocument(error)) return undefined;
    throw error;
  }
}

/** The words for an answer that holds another customer's record, quoting both documents. */
export function anotherCustomersRecord(shown: string, sent: string): string {
  return `with the record of another customer (document ${shown}, not ${sent})`;
}

/**
 * The document of another customer whose record a 2xx to a write of `document` holds (otherCustomersDocument), or
 * undefined: such an answer is no proof of this write (a caching gateway's or a path-normalising proxy's mix-up).
 */
export function otherCustomerIn(body: unknown, document: string): string | undefined {
  return otherCustomersDocument(readCustomerRecord(body), document);
}
