import { documentLookupKey } from '../../domain/documents.js';
import { quotedAnswer } from '../../base/quoted-answer.js';
import { withoutMarks } from './status-words.js';
import { firstAt, isIdLike, isRecord, isNonEmptyText } from './shapes.js';
import { parseActiveState } from '../../domain/yes-no-words.js';

/**
 * Reading the Customer a create or update answers. The document shows it at the answer's root; a gateway may wrap it
 * in an envelope, as order details are (orders.ts, readOrderDetail): a record that shows no `id` or `document` at its
 * root is looked for under these names, in this order.
 */
export const recognisedCustomerEnvelopes = ['data', 'customer', 'cliente', 'content', 'result'] as const;

/**
 * The customer record in a create's or update's answer: the body when it is the record, else the first recognised
 * envelope holding an object, else the body itself when it is an object (a record that shows neither). Undefined
 * when the answer holds no object at all (no body, a `204`, `[]`, text): nothing of the stored record can be read.
 */
export function readCustomerRecord(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  if (isIdLike(body.id) || isNonEmptyText(body.document)) return body;
  return firstAt(body, recognisedCustomerEnvelopes, isRecord)?.value ?? body;
}

/**
 * What a create's 2xx shows in place of the customer it says it made, or undefined when it shows the record, or shows
 * nothing (no body, `null`, `[]`, `true`: a success without the record, as the document's other routes may answer):
 * - text that is no JSON (`200 text/plain` `Cliente não cadastrado: CPF inválido`): words b2bctl cannot read as a
 *   success nor as a refusal, and never decides on;
 * - a record that names the customer's `id` and gives none (`{"id": null, "message": "Customer already exists"}`):
 *   the platform says no customer was stored under an id.
 * Each was reported `created` with an empty id, exit 0, and nothing stored (a user test): the create is `unknown` instead.
 */
export function noCustomerShown(body: unknown): string | undefined {
  const text = textInsteadOfRecord(body);
  if (text !== undefined) return text;
  const record = readCustomerRecord(body);
  // Only an id given as none (`null`, empty text) says no customer was stored: an id of another shape
  // (`{"value": 77}`) is an id b2bctl does not read, of a record the platform did store.
  if (record === undefined || !Object.hasOwn(record, 'id') || (record.id !== null && record.id !== ''))
    return undefined;
  return `with no customer id (${quotedAnswer(JSON.stringify(record))})`;
}

/**
 * Whether a create's 2xx body is an object that shows no customer at all: no `id`, `document`, `email`, `username`
 * or `name` at its root nor under a recognised envelope (`{}`, `{"message": "Cadastro recebido e será analisado"}`).
 * Such an answer is no record of the customer made, so the create is asked about as after a lost answer; it was
 * reported `created` with an empty id, nothing stored (a user test). No body, `null`, `[]` or `true` is no object.
 */
export function showsNoCustomer(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const places = [body, ...recognisedCustomerEnvelopes.map((name) => body[name]).filter(isRecord)];
  const fields = ['id', 'document', 'email', 'username', 'name'];
  return !places.some((place) => fields.some((field) => isGiven(place[field])));
}

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/**
 * How a write's 2xx answered with text (plain text, or a JSON string such as `"ERRO"`) in place of the customer's
 * record is said, or undefined for any other answer (an empty text is no answer): words b2bctl never decides on, so
 * a create, an update and a status change so answered are `unknown` alike. An update answered `"ERRO"` was reported
 * `updated` where the same create was `unknown` (a user test).
 */
export function textInsteadOfRecord(body: unknown): string | undefined {
  if (typeof body !== 'string' || body.trim() === '') return undefined;
  return `with text instead of the customer's record: ${quotedAnswer(body)}`;
}

/**
 * The login e-mail a stored record shows: under `email`, as the document's Customer object names it, or under
 * `username`, the name a create sends it under and a platform may answer it under too. Read under `email` alone, a
 * resume after a killed run reported its own creates `failed` "already registered (pass --upsert …)" (a user test).
 */
export function storedEmailOf(record: unknown): string | undefined {
  if (!isRecord(record)) return undefined;
  if (isNonEmptyText(record.email)) return record.email;
  return isNonEmptyText(record.username) ? record.username : undefined;
}

/**
 * The fields a create sent that the stored record shows with another value, as `name "shown" (the file: "sent")`:
 * the name (sameStoredName) and the phone (its digits, without the country's 55). A create that made the record
 * stored what it sent, so a customer found after a lost answer that shows other values was there before, though its
 * e-mail is the file's: a corrected name and phone were reported created and never applied (a user test). A field
 * either side does not give tells nothing.
 */
export function sentValuesShownOtherwise(sent: { name?: unknown; phone?: unknown }, record: unknown): string[] {
  if (!isRecord(record)) return [];
  const differing: string[] = [];
  const compared = [
    { field: 'name', same: sameStoredName },
    { field: 'phone', same: (file: string, shown: string) => phoneKey(file) === phoneKey(shown) },
  ] as const;
  for (const { field, same } of compared) {
    const fileValue = sent[field];
    const shown = record[field];
    if (!isNonEmptyText(fileValue) || !isNonEmptyText(shown) || same(fileValue, shown)) continue;
    differing.push(`${field} "${quotedAnswer(shown, 80)}" (the file: "${quotedAnswer(fileValue, 80)}")`);
  }
  return differing;
}

function phoneKey(text: string): string {
  return text.replace(/\D/g, '').replace(/^55(?=\d{10,11}$)/, '');
}

/** A name as written, spacing, case and accents aside. */
function writtenNameKey(text: string): string {
  return withoutMarks(text).replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A name's letters and digits alone, `&` as `e`: `S.A.` as `sa`, `Açúcar & Café` as `acucarecafe`. */
function storedNameKey(text: string): string {
  return withoutMarks(text)
    .toLowerCase()
    .replaceAll('&', 'e')
    .replace(/[^a-z0-9]/g, '');
}

/** The length from which a name the record shows may be the file's cut to its column (a prefix of it). */
const shortestCutName = 20;

/**
 * Whether a record's name is the file's as a platform may store it: spacing, case and accents aside, punctuation
 * dropped (`Ltda.` as `LTDA`, `S.A.` as `SA`), `&` written `E`, or cut to its column's length (a prefix of the
 * file's name, of at least 20 characters). A back-end that keeps names so turned every lost answer into a false
 * "it was there before this create", `failed` (a user test); such a name tells nothing, as a field not given does.
 */
function sameStoredName(file: string, shown: string): boolean {
  const fileKey = storedNameKey(file);
  const shownKey = storedNameKey(shown);
  if (fileKey === shownKey) return true;
  return shown.trim().length >= shortestCutName && shownKey !== '' && fileKey.startsWith(shownKey);
}

/**
 * The report's note of a customer reported created whose record shows the file's name otherwise than spacing, case
 * and accents (sameStoredName): the platform stored it so, which the operator should know; undefined otherwise.
 */
export function nameStoredOtherwise(sent: { name?: unknown }, record: unknown): string | undefined {
  const shown = isRecord(record) ? record.name : undefined;
  if (!isNonEmptyText(sent.name) || !isNonEmptyText(shown)) return undefined;
  if (writtenNameKey(sent.name) === writtenNameKey(shown)) return undefined;
  return `the platform stored the name as "${quotedAnswer(shown, 80)}" (the file: "${quotedAnswer(sent.name, 80)}")`;
}

/**
 * The document shown by a record that is not the customer written, or undefined when it may be: one that shows a
 * document must show the one sent (its digits and letters, whatever the punctuation). A caching gateway or a proxy
 * that normalises paths may answer a write with another customer's record; that answer is no proof of this write.
 */
export function otherCustomersDocument(record: unknown, sent: string): string | undefined {
  const shown = isRecord(record) ? record.document : undefined;
  if (!isNonEmptyText(shown)) return undefined;
  return documentKey(shown) === documentKey(sent) ? undefined : shown;
}

/**
 * The `active` a record shows when it is the opposite of the `active` a write sent (`true` after a deactivation),
 * with the name it shows it under, or undefined when it agrees, shows none, or nothing was sent: such a record is no
 * proof of the write. A record answered to `customer status DOC false` showing `"active": true` was reported "is now
 * inactive", exit 0, and the blocked customer kept buying (a user test). A platform that names its fields in
 * Portuguese shows it as `ativo`; both are read. Only a boolean is read: any other value tells nothing.
 */
export function activeShownOtherwise(
  record: unknown,
  sent: unknown,
): { name: string; shown: boolean | string } | undefined {
  if (typeof sent !== 'boolean' || !isRecord(record)) return undefined;
  for (const name of ['active', 'ativo']) {
    const shown = record[name];
    if (shownActive(shown) === !sent) return { name, shown: shown as boolean | string };
  }
  return undefined;
}

/**
 * A record's `active` or `ativo` as a flag: a boolean, or text in the words an input file's cells take for a state
 * (parseActiveState: `S`/`N`, `sim`/`não`, `Ativo`/`Inativo`), as a platform that names its fields in Portuguese
 * writes it; `{"ativo": "S"}` after a deactivation was reported done (a user test). Anything else tells nothing.
 */
function shownActive(shown: unknown): boolean | undefined {
  if (typeof shown === 'boolean') return shown;
  return typeof shown === 'string' ? parseActiveState(shown) : undefined;
}

/** A document's digits (and a CNPJ's letters), whatever its punctuation or case. */
function documentKey(document: string): string {
  return documentLookupKey(document).toUpperCase();
}

/**
 * The links a create sent (`customerGroupList`, `priceRuleTags`) that the answer's record shows empty: `null`, which
 * the document defines as "no link", or `[]`, under the answer's name (`priceRuleTag` for the tags). A record that
 * does not show the field tells nothing, so it is not named.
 */
export function linksShownEmpty(
  sent: { customerGroupList?: unknown; priceRuleTags?: unknown },
  record: unknown,
): string[] {
  if (!isRecord(record)) return [];
  const links = [
    { sent: 'customerGroupList', given: given(sent.customerGroupList), shown: ['customerGroupList'] },
    { sent: 'priceRuleTags', given: given(sent.priceRuleTags), shown: ['priceRuleTag', 'priceRuleTags'] },
  ];
  return links
    .filter((link) => link.given)
    .filter((link) => link.shown.some((name) => name in record && shownNoLink(record[name])))
    .map((link) => link.sent);
}

function given(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

function shownNoLink(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.length === 0);
}
