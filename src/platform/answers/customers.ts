import { documentLookupKey } from '../../domain/documents.js';
import { firstAt, isIdLike, isRecord, isNonEmptyText } from './shapes.js';

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
 * inactive", exit 0, and the blocked customer kept buying (a user test, t7-6). A platform that names its fields in
 * Portuguese shows it as `ativo`; both are read. Only a boolean is read: any other value tells nothing.
 */
export function activeShownOtherwise(record: unknown, sent: unknown): { name: string; shown: boolean } | undefined {
  if (typeof sent !== 'boolean' || !isRecord(record)) return undefined;
  for (const name of ['active', 'ativo']) {
    const shown = record[name];
    if (typeof shown === 'boolean' && shown !== sent) return { name, shown };
  }
  return undefined;
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
