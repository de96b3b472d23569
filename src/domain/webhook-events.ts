import { createHash } from 'node:crypto';
import { quotedJson } from '../base/quoted-answer.js';
import { parseWrittenJson, WrittenNumber } from '../lib/written-json.js';
import { entryDigest, stampCoarserThanMillisecond } from './coarse-stamps.js';
import { readUpdateInstant } from './update-instants.js';
import { orderIdAsRoutesTakeIt } from './order-keys.js';

/**
 * The platform's two webhooks (docs/platform.md, "What the document shows"): which fields each payload is documented to carry,
 * how a payload that does not match is described, and the key that recognises a redelivery. Pure rules.
 */
export type WebhookKind = 'customers' | 'orders';
export const webhookKinds: readonly WebhookKind[] = ['customers', 'orders'];

type FieldType = 'integer' | 'string' | 'boolean' | 'array';

const documentedFields: Record<WebhookKind, Readonly<Record<string, FieldType>>> = {
  customers: {
    id: 'integer',
    document: 'string',
    name: 'string',
    tradingName: 'string',
    contactName: 'string',
    documentType: 'string',
    dateCreated: 'string',
    email: 'string',
    phone: 'string',
    address: 'array',
  },
  orders: {
    id: 'integer',
    orderId: 'integer',
    status: 'string',
    approvalWorkflow: 'boolean',
    workflowIsApproved: 'boolean',
    dateCreated: 'string',
    lastUpdated: 'string',
    partnerCompanyName: 'string',
    partnerDocument: 'string',
  },
};

/**
 * What in a payload does not match the document, one short phrase each; empty when it matches. A mismatch never
 * rejects the event (it is stored and flagged): the platform may add fields, send nulls, or a full-order variant.
 */
export function payloadMismatches(kind: WebhookKind, payload: unknown): string[] {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return [
      `payload is ${Array.isArray(payload) ? 'an array' : payload === null ? 'null' : `a ${typeof payload}`}, not an object`,
    ];
  }
  // A full-payload event may wrap its order (`{"data":{…}}`): the documented fields are the order's.
  const record = kind === 'orders' ? orderOfEvent(payload) : (payload as Record<string, unknown>);
  const problems: string[] = [];
  for (const [field, type] of Object.entries(documentedFields[kind])) {
    const value = record[field];
    // A null is how the platform's own answers show an empty text field; only the id must be there.
    if (value === undefined) problems.push(`${field} missing`);
    else if (value !== null && !hasType(value, type)) problems.push(`${field} is not ${articleOf(type)} ${type}`);
    else if (value === null && field === 'id') problems.push('id is null');
  }
  // Typed right but empty: the event is then recognised by its content (deduplicationKey), and the flag says why.
  if (kind === 'orders' && typeof record.lastUpdated === 'string' && record.lastUpdated.trim() === '') {
    problems.push('lastUpdated is blank');
  } else if (kind === 'orders' && typeof record.lastUpdated === 'string' && versionOf(record) === undefined) {
    problems.push(`lastUpdated ${shownStamp(record.lastUpdated)} is no instant b2bctl reads`);
  }
  if (kind === 'orders' && Number.isInteger(record.id) && (record.id as number) <= 0) {
    problems.push(`id ${String(record.id)} names no order`);
  }
  if (kind === 'customers' && typeof record.documentType === 'string' && !['pf', 'pj'].includes(record.documentType)) {
    problems.push(`documentType ${JSON.stringify(record.documentType)} is not pf or pj`);
  }
  return problems;
}

/**
 * The order an orders event is about: the whole order wherever it sits (wholeOrderOf), else an order in an `order` or
 * `data` envelope (a root with no id holding an object that has one: an order whose lines list is empty is still in
 * it), else the event itself.
 */
export function orderOfEvent(payload: unknown): Record<string, unknown> {
  const whole = wholeOrderOf(payload);
  if (whole !== undefined) return whole;
  const record = payload as Record<string, unknown>;
  if (record !== null && typeof record === 'object' && !Array.isArray(record) && record.id === undefined) {
    for (const candidate of [record.order, record.data]) {
      if (candidate === null || typeof candidate !== 'object' || Array.isArray(candidate)) continue;
      if ((candidate as Record<string, unknown>).id !== undefined) return candidate as Record<string, unknown>;
    }
  }
  return record;
}

/** Where a whole order keeps its lines, in the shapes platforms use (`items`, Spring's `orderItems`, `lines`, `itens`). */
const orderLineFields = ['items', 'orderItems', 'lines', 'itens'] as const;

/**
 * The order an orders event carries whole (the full-payload variant of the webhook: its lines, totals and buyer), or
 * undefined for the simplified variant, which carries the summary fields only and is fetched through the API. The
 * order may sit at the root or under `order` or `data`, as platforms wrap a detail. An EMPTY lines list carries no
 * line: a summary serialised with its collection initialised empty (as Java and .NET DTOs often are) is no full
 * order, and taken for one its file had no items, buyer nor totals (a user test); it is fetched as a simplified event.
 */
export function wholeOrderOf(payload: unknown): Record<string, unknown> | undefined {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const record = payload as Record<string, unknown>;
  for (const candidate of [record, record.order, record.data]) {
    if (candidate === null || typeof candidate !== 'object' || Array.isArray(candidate)) continue;
    const order = candidate as Record<string, unknown>;
    if (orderLineFields.some((field) => Array.isArray(order[field]) && (order[field] as unknown[]).length > 0))
      return order;
  }
  return undefined;
}

/**
 * The key under which a redelivery of the same event is recognised: for orders the id and lastUpdated (a new
 * version of an order is a new event), both as the platform means them: the id as the order routes take it
 * (`"00042"` and `42` are order 42), the stamp as its instant where it has a zone (`…T23:00:00.000Z`,
 * `…T23:00:00Z` and `…T20:00:00-03:00` are one version, which a panel's resend may write otherwise than its first
 * send: a user test). A customers event carries no version: the same content twice may be two changes (of a field the
 * event does not carry, or a value changed back), so each is its own event, under this delivery's id (a platform's
 * resend then reaches the ERP twice, which applying the same customer again absorbs; a change dropped as a resend
 * would never reach it). Anything without an id, by a hash of its content.
 */
export function deduplicationKey(kind: WebhookKind, payload: unknown, deliveryId: string, raw?: string): string {
  return keyOf(kind, payload, deliveryId, raw, true);
}

/**
 * The key b2bctl gave the same event before keys read ids and stamps as the platform means them (the texts as
 * written), where it differs from deduplicationKey: an inbox keeps the keys it stored for --dedup-window, so a
 * redelivery of an event stored before the upgrade is recognised by it. Undefined where the two are the same.
 */
export function formerDeduplicationKey(
  kind: WebhookKind,
  payload: unknown,
  deliveryId: string,
  raw?: string,
): string | undefined {
  const former = keyOf(kind, payload, deliveryId, raw, false);
  return former === keyOf(kind, payload, deliveryId, raw, true) ? undefined : former;
}

/** The key, its order id and stamp as the platform means them (`asMeant`) or as written (the former key). */
function keyOf(kind: WebhookKind, payload: unknown, deliveryId: string, raw: string | undefined, asMeant: boolean) {
  const isObject = payload !== null && typeof payload === 'object' && !Array.isArray(payload);
  const record = !isObject
    ? undefined
    : kind === 'orders'
      ? orderOfEvent(payload)
      : (payload as Record<string, unknown>);
  const idText = record === undefined ? undefined : idTextOf(record.id, record === payload ? raw : undefined);
  if (kind === 'orders' && record !== undefined) {
    // An id a serialiser wrote for "unset" ("" or 0) names no order: two different orders sharing it and a stamp
    // would be one event, the second acknowledged and lost. The orderId names the order then, else the content.
    const written = orderIdText(idText) ?? orderIdText(idTextOf(record.orderId, undefined));
    const orderText = written !== undefined && asMeant ? orderIdAsRoutesTakeIt(written) : written;
    const version = versionOf(record);
    if (orderText !== undefined && version !== undefined && !asMeant) return `orders:${orderText}:${version}`;
    if (orderText !== undefined && version !== undefined)
      return `orders:${orderText}:${instantText(version)}${coarseVersionDigest(record, version)}`;
    return `orders:${orderText ?? '-'}:${contentHash(payload)}`;
  }
  if (kind === 'customers' && idText !== undefined) return `customers:${idText}:${deliveryId}`;
  return `${kind}:${idText ?? '-'}:${contentHash(payload)}`;
}

/**
 * What tells two versions of an order under one stamp coarser than a millisecond apart (`…T00:40Z`, `…T00:40:05Z`):
 * a digest of the order's content, as orders poll keeps (domain/coarse-stamps.ts). Keyed by id and stamp alone, an
 * order created and canceled within the minute had its cancellation answered `duplicate` and dropped (a user test).
 * The id, number and stamp are left out of the digest: the key already holds them as meant, and a resend writing
 * them otherwise (`"00042"`, `…00Z` for `…00.000Z`) is still the same version. Empty for a finer stamp. A change of a
 * field under the same stamp is a new event; at worst a resend that changes a field is stored twice, which applying
 * the same order again absorbs. An event stored by an earlier b2bctl under the key without it is still matched by the
 * former key (formerDeduplicationKey), so an order changed twice within the minute of the upgrade may lose the second.
 */
function coarseVersionDigest(order: Record<string, unknown>, version: string): string {
  if (!stampCoarserThanMillisecond(version)) return '';
  const content = Object.fromEntries(Object.entries(order).filter(([field]) => !versionFields.has(field)));
  return `#${entryDigest(content)}`;
}

/** The fields of an orders event that name the order and its version, already in its key as meant. */
const versionFields = new Set(['id', 'orderId', 'lastUpdated']);

/**
 * A stamp as the instant it names, in one form (UTC, milliseconds, and the digits past them where written:
 * `2026-11-30T23:00:00.000Z`, `…00.000123Z`), where it names one wherever it is read: ISO-8601 with a zone, or epoch
 * milliseconds as text. One without a zone is read in this machine's, which may change: kept as written.
 */
function instantText(stamp: string): string {
  const instant = readUpdateInstant(stamp);
  const zoned = /^\s*\d{13}\s*$/.test(stamp) || /(?:Z|[+-]\d{2}(?::?\d{2})?)\s*$/i.test(stamp.trim());
  if (instant === undefined || !zoned) return stamp;
  const iso = new Date(instant.ms).toISOString();
  return instant.nanos === 0 ? iso : `${iso.slice(0, -1)}${String(instant.nanos).padStart(6, '0').replace(/0+$/, '')}Z`;
}

/**
 * An order's version: its `lastUpdated` text, when it is an instant b2bctl reads (update-instants.ts). A blank one
 * ("" or spaces), a placeholder (`0000-00-00 00:00:00`, MySQL's and PHP's unset date; `null`, `undefined`, `0`, how
 * some serialisers write a null date) or any other text that is no instant is no version: every later change of the
 * order would share it and be taken for a redelivery, acknowledged and lost. Keyed by content instead, a change is
 * never lost; at worst a resend of the same event is stored twice, which applying the same order again absorbs.
 */
function versionOf(order: Record<string, unknown>): string | undefined {
  const lastUpdated = order.lastUpdated;
  return typeof lastUpdated === 'string' && readUpdateInstant(lastUpdated) !== undefined ? lastUpdated : undefined;
}

/**
 * A stamp quoted in a flag: as JSON text, at most 40 characters of it (a flag is one short phrase). The cut is
 * quotedJson's, inside the quotes: a cut stamp still reads as one quoted text (`"0000-…"`).
 */
function shownStamp(stamp: string): string {
  return `${quotedJson(JSON.stringify(stamp).slice(0, -1), 41)}"`;
}

/** An id as text: a number (past 2^53 only as written at the root, else none) or a text; undefined for anything else. */
function idTextOf(id: unknown, rootRaw: string | undefined): string | undefined {
  if (typeof id === 'number') {
    if (Number.isSafeInteger(id)) return String(id);
    return rootRaw === undefined ? undefined : rootIdAsWritten(rootRaw);
  }
  return typeof id === 'string' ? id : undefined;
}

/**
 * Whether an orders event's id can name an order (the platform document's ids are integers from 1): not blank, not
 * zero nor negative. `0` and `""` are what many serialisers write for "unset"; fetched, `0` asks `/orders/0`.
 */
export function idNamesAnOrder(id: string | number): boolean {
  return orderIdText(String(id)) !== undefined;
}

/** The id text when it can be an order's: not blank, not zero nor negative (the unset value of many serialisers). */
function orderIdText(idText: string | undefined): string | undefined {
  if (idText === undefined || idText.trim() === '') return undefined;
  return /^\s*(-\d*|0+)\s*$/.test(idText) ? undefined : idText;
}

/**
 * The root `id` of an event's JSON text as written: past 2^53 a parsed number has lost digits, and two orders
 * (9007199254740992 and …993) would share one key, the second dropped as the first's resend. Read as platform
 * answers are (parseWrittenJson). Undefined when the text has no root id past 2^53.
 */
export function rootIdAsWritten(raw: string): string | undefined {
  let root: unknown;
  try {
    root = parseWrittenJson(raw);
  } catch {
    return undefined;
  }
  const id = root !== null && typeof root === 'object' ? (root as { id?: unknown }).id : undefined;
  return id instanceof WrittenNumber ? id.written : undefined;
}

function contentHash(payload: unknown): string {
  return createHash('sha256').update(JSON.stringify(payload)).digest('base64url').slice(0, 22);
}

function hasType(value: unknown, type: FieldType): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'array') return Array.isArray(value);
  return typeof value === type;
}

function articleOf(type: FieldType): string {
  return type === 'integer' || type === 'array' ? 'an' : 'a';
}
