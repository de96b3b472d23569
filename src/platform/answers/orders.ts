import { quotedJson } from '../../base/quoted-answer.js';
import type { orderAnswerSettings } from '../../config/answer-settings.js';
import { documentLookupKey } from '../../domain/documents.js';
import { sameOrderKey } from '../../domain/order-keys.js';
import { type HeldMoveData, orderStatusOf } from '../../domain/order-stages.js';
import type { StoreStatusWords } from '../../domain/store-status-words.js';
import { WrittenNumber } from '../../lib/written-json.js';
import { candidatePaths, firstAt, instantMs, isArray, isIdLike, isInstant, isRecord, shownEmptyAt } from './shapes.js';
import { valueAtPath } from '../../domain/validation.js';
import { notAListingPage, recognisedListPaths } from './listing.js';
import { refusalSignOf } from './refusal-signs.js';
import { isUnsetStamp, updateStampFields } from '../../domain/update-instants.js';
import { stampSpanMs } from '../../domain/coarse-stamps.js';
import { listedEntryDigests } from './order-digest.js';

/**
 * The order listing's and the order detail's answers. The document names the listing's fields (those of the orders
 * webhook: `id`, `lastUpdated`, …) but shows no body: a platform may wrap pages in an envelope, call the update
 * instant `updatedAt` or `lastModifiedDate`, or wrap the detail in `{"data":{…}}`. The poller needs two facts of each
 * listed order, its id and its update instant; everything else is passed on unchanged.
 */

/** The keys of the order answer settings. */
export type OrderAnswerKey = (typeof orderAnswerSettings)[number]['key'];

export const recognisedOrderListPaths = [...recognisedListPaths, 'orders', 'data.orders'] as const;
/** The names the receiver reads an order's update stamp under too: one list (update-instants.ts). */
export const recognisedLastUpdatedPaths = updateStampFields;
/** Where a listed order holds its creation instant (the document's name first; Spring's auditing, a gateway's). */
export const recognisedDateCreatedPaths = [
  'dateCreated',
  'createdDate',
  'createdAt',
  'created_at',
  'creationDate',
  'dateCreation',
  'createdOn',
] as const;
const recognisedDetailPaths = ['data', 'order', 'result', 'content'] as const;
export const recognisedOrderNumberPaths = ['orderId', 'orderNumber', 'number'] as const;
/** Where an order detail may keep what the moves gave it (the sandbox's names first). */
const recognisedHeldPaths: Readonly<Record<keyof HeldMoveData, readonly string[]>> = {
  erpNumber: ['erpOrderNumber', 'erpNumber', 'integrationOrderNumber', 'externalOrderNumber', 'erp.orderNumber'],
  invoiceKey: [
    'invoice.accessKey',
    'invoice.key',
    'invoice.chNFe',
    'invoiceKey',
    'nfeKey',
    'accessKey',
    'invoices.0.accessKey',
    'invoices.0.key',
  ],
  trackingCode: ['tracking.code', 'tracking.trackingCode', 'trackingCode', 'shipping.trackingCode', 'tracking.number'],
  // Beside the key, the XML as text, its size or a link to it: that the order holds it is all a move is compared by.
  invoiceXml: [
    'invoice.xmlBytes',
    'invoice.xml',
    'invoice.xmlUrl',
    'invoiceXml',
    'nfeXml',
    'invoices.0.xml',
    'invoices.0.xmlUrl',
  ],
  // Only beside the tracking code: an order's `carrier` or `shipping.carrier` may be the freight the buyer chose.
  carrier: ['tracking.carrier', 'tracking.carrierName', 'tracking.company', 'trackingCarrier'],
  trackingUrl: ['tracking.url', 'tracking.trackingUrl', 'tracking.link', 'trackingUrl'],
};

/** Where an order detail may name its buyer's CNPJ or CPF (the document's listing fields and the sandbox's first). */
const recognisedBuyerPaths = [
  'partnerDocument',
  'customer.document',
  'customer.cnpj',
  'customer.cpf',
  'customer.documentNumber',
  'buyer.document',
  'client.document',
  'partner.document',
] as const;

/**
 * Where an order detail may show its total, what its NF-e's vNF is compared with (the sandbox's dialects' names
 * first; the document shows no detail body, so these are guesses, and a detail that shows none skips the comparison).
 */
const recognisedTotalPaths = [
  'totals.total',
  'total',
  'amounts.totals.total',
  'amounts.total',
  'totalAmount',
  'orderTotal',
  'grandTotal',
] as const;

export interface OrderAnswerSettings {
  items?: string;
  id?: string;
  lastUpdated?: string;
  dateCreated?: string;
  number?: string;
  detail?: string;
  status?: string;
  erpNumber?: string;
  invoiceKey?: string;
  trackingCode?: string;
  invoiceXml?: string;
  carrier?: string;
  trackingUrl?: string;
  buyerDocument?: string;
  /** A store's own status words as b2bctl's stages (`answers.order.statusWords`), read before and after a move. */
  statusWords?: StoreStatusWords;
}

/** The settings as a session holds them (undefined when not set). */
export function orderAnswerSettingsFrom(value: (key: OrderAnswerKey) => string | undefined): OrderAnswerSettings {
  return {
    items: value('answers.orders.items'),
    id: value('answers.orders.id'),
    lastUpdated: value('answers.orders.lastUpdated'),
    dateCreated: value('answers.orders.dateCreated'),
    number: value('answers.orders.number'),
    detail: value('answers.order.detail'),
    status: value('answers.order.status'),
    erpNumber: value('answers.order.erpNumber'),
    invoiceKey: value('answers.order.invoiceKey'),
    trackingCode: value('answers.order.trackingCode'),
    invoiceXml: value('answers.order.invoiceXml'),
    carrier: value('answers.order.carrier'),
    trackingUrl: value('answers.order.trackingUrl'),
    buyerDocument: value('answers.order.buyerDocument'),
  };
}

/** What the poller tracks of a listed order: its identity, its version, and the platform's object unchanged. */
export interface ListedOrder {
  id: number | string;
  /** The update instant, normalised to ISO-8601 (UTC, milliseconds). */
  lastUpdated: string;
  /**
   * The order number people use (`orderId`, `orderNumber`, `number`), when the entry shows one: never the id in its
   * place, which is another value an ERP keeping the number would store as one the store never gave.
   */
  orderNumber?: number | string;
  /** The entry as the platform listed it. */
  record: unknown;
  /** The creation instant as the platform wrote it (`dateCreated`, `createdDate`, `createdAt`…), when it shows one. */
  dateCreated?: string | number;
  /** The status the entry shows (`status`, the orders webhook's field), when it shows one as text. */
  status?: string;
  /**
   * Set when the entry's update stamp is shown empty (`"lastUpdated": null`: an order never updated since it was
   * created) and its creation instant stands in for it: the fields read, for the run's note.
   */
  neverUpdated?: { updateField: string; createdField: string };
  /**
   * The instant as the platform wrote it when it names no zone (Spring's LocalDateTime: `2026-11-29T06:08:01.416`):
   * `lastUpdated` is then this machine's reading of it in its own zone, a guess.
   */
  zonelessInstant?: string;
  /** A digest of the entry, when its update stamp is coarser than a millisecond (domain/coarse-stamps.ts). */
  contentDigest?: string;
  /** The digest the entry had before its id was digested as one order is named, where that differs (order-digest.ts). */
  formerContentDigest?: string;
  /** How long that coarse stamp stands for (a second, a minute: stampSpanMs), when it is above a millisecond. */
  stampSpanMs?: number;
}

/** A date and time with no zone after it. */
const zoneless = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?$/;

/**
 * The entries of a listing page; undefined when no recognised place holds an array (the caller reads that as an
 * empty page with a warning: a 2xx is never a failure because of its shape), or when the answer is no page at all
 * (orderListingNotAPage, which the caller checks first to stop on it).
 */
export function readOrderListingPage(body: unknown, settings: OrderAnswerSettings = {}): unknown[] | undefined {
  if (body === undefined || body === null || body === '') return [];
  if (orderListingNotAPage(body, settings) !== undefined) return undefined;
  const found = firstAt(body, candidatePaths(settings.items, recognisedOrderListPaths), isArray)?.value;
  if (found) return found;
  // `{}` or `{"total":0,"items":null}`: an envelope with no records at all is an empty page.
  const holdsRecords =
    isRecord(body) && Object.values(body).some((value) => value !== null && typeof value === 'object');
  return isRecord(body) && !holdsRecords ? [] : undefined;
}

/** Why an order listing answer is no page at all (listing.ts, notAListingPage); undefined when it may be one. */
export function orderListingNotAPage(body: unknown, settings: OrderAnswerSettings = {}): string | undefined {
  return notAListingPage(body, recognisedOrderListPaths, settings.items);
}

/**
 * The id and update instant of a listed entry, or undefined when either cannot be read. An entry whose update stamp
 * is shown empty (`"lastUpdated": null`, `""`) is an order never updated since it was created: its creation instant
 * is its version then (the platform lists it by that instant), and its first update a new version.
 */
export function readListedOrder(entry: unknown, settings: OrderAnswerSettings = {}): ListedOrder | undefined {
  if (!isRecord(entry)) return undefined;
  const idAt = firstAt(entry, candidatePaths(settings.id, ['id']), isIdLike);
  const id = idValue(idAt?.value);
  if (id === undefined || idAt === undefined) return undefined;
  const created = firstAt(entry, candidatePaths(settings.dateCreated, recognisedDateCreatedPaths), isInstant);
  const updatePaths = candidatePaths(settings.lastUpdated, recognisedLastUpdatedPaths);
  const lastUpdated = firstAt(entry, updatePaths, isInstant);
  const emptyUpdate = lastUpdated || !created ? undefined : emptyUpdateStamp(entry, updatePaths);
  const version = lastUpdated ?? (emptyUpdate === undefined ? undefined : created);
  if (!version) return undefined;
  const numberAt = firstAt(entry, candidatePaths(settings.number, recognisedOrderNumberPaths), isIdLike);
  const number = idValue(numberAt?.value);
  const written = version.value;
  const order: ListedOrder = { id, lastUpdated: instantText(written), record: entry };
  if (number !== undefined) order.orderNumber = number;
  if (typeof written === 'string' && zoneless.test(written.trim())) order.zonelessInstant = written;
  const span = stampSpanMs(written);
  const namedAt = numberAt === undefined ? [idAt.path] : [idAt.path, numberAt.path];
  if (span > 1) Object.assign(order, { ...listedEntryDigests(entry, namedAt), stampSpanMs: span });
  if (created) order.dateCreated = created.value;
  if (emptyUpdate !== undefined && created)
    order.neverUpdated = { updateField: emptyUpdate, createdField: created.path };
  const status = readOrderStatus(entry);
  if (status !== undefined) order.status = status;
  return order;
}

/**
 * The update instant of a detail that is an older version than the one named for it (a listing entry, a simplified
 * orders webhook: both carry the document's `id` and `lastUpdated`): a platform replica lagging behind the one that
 * lists or sends webhooks. Written, such a detail would move the ERP's order back (an invoiced order to awaiting
 * payment). Undefined when it is that version or a newer one, or when either instant cannot be read (readListedOrder):
 * an unread instant cannot be compared, and the caller says so or not as it does for any such order. So is a detail
 * whose update stamp is unset (its creation instant standing in) against a version that names an update: a detail
 * route that leaves the stamp null tells nothing of the version (docs/orders-poll.md). One rule for
 * `orders poll --detail` and `webhook listen --fetch-orders`.
 */
export function olderDetailInstant(
  named: ListedOrder,
  detail: unknown,
  settings: OrderAnswerSettings = {},
): string | undefined {
  const read = readListedOrder(detail, settings);
  if (read === undefined || (read.neverUpdated !== undefined && named.neverUpdated === undefined)) return undefined;
  // A stamp with no zone is this machine's guess of the platform's wall clock (a Brasília `21:29:06` read as UTC is
  // three hours off its zoned event): "older" cannot be told, and a detail held for it never catches up (a user test).
  if (read.zonelessInstant !== undefined || named.zonelessInstant !== undefined) return undefined;
  // A stamp to the minute or second stands for its whole span (stampSpanMs): a detail serialised `00:24Z` may be the
  // version of `00:24:43.786Z` (a user test). Older only when the detail's whole span ends before the named instant.
  const detailSpanEnd = Date.parse(read.lastUpdated) + (read.stampSpanMs ?? 1);
  return detailSpanEnd <= Date.parse(named.lastUpdated) ? read.lastUpdated : undefined;
}

/**
 * Where an entry shows its update stamp unset (null, blank, or a placeholder such as `0000-00-00 00:00:00`:
 * isUnsetStamp) and holds no other value at any place a stamp may be: one holding other text b2bctl cannot read is
 * no unset stamp (unreadableUpdateStamp says which).
 */
function emptyUpdateStamp(entry: Record<string, unknown>, paths: readonly string[]): string | undefined {
  const unreadable = unreadableUpdateStamp(entry, paths);
  if (unreadable !== undefined) return isUnsetStamp(unreadable.value) ? unreadable.path : undefined;
  return paths.find((path) => shownEmptyAt(entry, path));
}

/**
 * The first place an entry holds an update stamp that is no instant b2bctl reads (`"30/11/2026 14:22:18"`, a
 * placeholder such as `"0000-00-00 00:00:00"`), with the value as written; undefined when every place holds an
 * instant, nothing or an empty value. What a warning quotes: the field is found, its value is what no setting reads.
 */
export function unreadableUpdateStamp(
  entry: unknown,
  paths: readonly string[],
): { path: string; value: unknown } | undefined {
  for (const path of paths) {
    const value = valueAtPath(entry, path);
    if (value === undefined || shownEmptyAt(entry, path)) continue;
    return isInstant(value) ? undefined : { path, value };
  }
  return undefined;
}

/** Where the entries of a listing keep their update stamp, as the settings say. */
export function updateStampPaths(settings: OrderAnswerSettings = {}): readonly string[] {
  return candidatePaths(settings.lastUpdated, recognisedLastUpdatedPaths);
}

/**
 * The status an order's record shows where the store keeps it (answers.order.status, else `status`), as b2bctl's
 * stage when it names one (`cancelled` is `CANCELED`; a store's own word through answers.order.statusWords). One
 * reading for the detail read before and after a move and for the record a move's own answer carries: the answer
 * read by b2bctl's names alone reported a move the store had not made `accepted`, exit 0 (a user test).
 */
export function orderStatusIn(order: Record<string, unknown>, settings: OrderAnswerSettings = {}): string | undefined {
  const shown = firstAt(order, candidatePaths(settings.status, ['status']), isPresent)?.value;
  return orderStatusOf(shown, settings.statusWords);
}

/** The id an order's record shows where the store keeps it (answers.orders.id, else `id`), as text. */
export function orderIdIn(order: Record<string, unknown>, settings: OrderAnswerSettings = {}): string | undefined {
  const id = idValue(firstAt(order, candidatePaths(settings.id, ['id']), isIdLike)?.value);
  return id === undefined ? undefined : String(id);
}

function isPresent(value: unknown): value is unknown {
  return value !== undefined;
}

/** The status an order (a listing entry or a detail) shows, when it shows one (orderStatusOf: `cancelled` is `CANCELED`). */
export function readOrderStatus(order: unknown): string | undefined {
  return isRecord(order) ? orderStatusOf(order.status) : undefined;
}

/** An id as a key and a path take it: a whole number past 2^53 as its digits. */
function idValue(value: string | number | WrittenNumber | undefined): string | number | undefined {
  return value instanceof WrittenNumber ? value.written : value;
}

/** The number people use (`orderId`, `orderNumber`…) of an order's detail or listing entry, as text; undefined when it shows none. */
export function readOrderNumber(order: unknown, settings: OrderAnswerSettings = {}): string | undefined {
  if (!isRecord(order)) return undefined;
  const number = firstAt(order, candidatePaths(settings.number, recognisedOrderNumberPaths), isIdLike)?.value;
  return number === undefined ? undefined : String(number);
}

function instantText(value: string | number): string {
  return new Date(instantMs(value)).toISOString();
}

/** The order in a detail answer: the body itself when it is the order, else the recognised envelope's content. */
export function readOrderDetail(body: unknown, settings: OrderAnswerSettings = {}): unknown {
  if (settings.detail !== undefined && settings.detail.trim() !== '') {
    const value = valueAtPath(body, settings.detail.trim());
    return value === undefined ? body : value;
  }
  // An order carries an id at its root; an envelope does not, and holds the order under one of these names. A store
  // may wrap twice (`{"order":{"data":{…}}}`, a user test): envelopes are taken off until an order shows, a few deep.
  let order = body;
  for (let depth = 0; depth < maxDetailEnvelopes; depth++) {
    if (!isRecord(order) || isIdLike(order.id)) return order;
    const inner = firstAt(order, recognisedDetailPaths, (value): value is Record<string, unknown> => isRecord(value));
    if (inner === undefined) return depth === 0 ? body : order;
    order = inner.value;
  }
  return order;
}

/** How many recognised envelopes readOrderDetail takes off, one inside another: a bound, not a shape any store has. */
const maxDetailEnvelopes = 4;

/**
 * Why an order detail (out of its envelope) is not the order asked for, as words for a warning; undefined when it may
 * be. An order is an object: JSON `null`, `[]` or `42` holds none. One that shows an id, or a number where the caller
 * knows the order's, must show the order's own; one that shows neither is taken as the order (the document shows no
 * detail body, and a 2xx is not refused for its shape). Ids and numbers are compared leading zeros aside (`"00042"` asked,
 * `42` answered, as a route that reads its id as an integer answers: a user test).
 */
export function detailNotTheOrder(
  order: unknown,
  asked: { id: string | number; number?: string | number },
  settings: OrderAnswerSettings = {},
): string | undefined {
  if (!isRecord(order)) return order === null ? 'JSON null' : `a JSON ${isArray(order) ? 'array' : typeof order}`;
  const id = idValue(firstAt(order, candidatePaths(settings.id, ['id']), isIdLike)?.value);
  if (id !== undefined && !sameOrderKey(id, asked.id)) return `the record of another order (id ${String(id)})`;
  const number = readOrderNumber(order, settings);
  if (asked.number !== undefined && number !== undefined && !sameOrderKey(number, asked.number))
    return `the record of another order (number ${number}, not ${String(asked.number)})`;
  return undefined;
}

/**
 * Why a detail that shows neither an id nor a number (detailNotTheOrder takes such a one as the order) holds none;
 * undefined when it may be the order. An envelope with nothing in it, `{"data":null}`, `{"order":null}`,
 * `{"data":[]}`, `{"content":{}}`, `{"result":"OK"}`, holds no order as the bare `null`, `[]` or `"OK"` does, and an
 * answer that says it failed (refusalSignOf: `{"success":false,"message":…}`) is a gateway's error answered with 200.
 * Written as the order, either is a file with no order in it, and the order itself lost behind the cursor.
 */
export function detailHoldsNoOrder(body: unknown, settings: OrderAnswerSettings = {}): string | undefined {
  const order = readOrderDetail(body, settings);
  if (!isRecord(order) || showsIdOrNumber(order, settings)) return undefined;
  const shown = shownBody(body);
  if (refusalSignOf(body) !== undefined) return `an answer that says it failed (${shown})`;
  if (Object.keys(order).length === 0) return `an empty object (${shown})`;
  const byDefault = settings.detail === undefined || settings.detail.trim() === '';
  const emptyEnvelope =
    byDefault && order === body && recognisedDetailPaths.some((name) => name in order && !isRecord(order[name]));
  return emptyEnvelope ? `an envelope holding no order (${shown})` : undefined;
}

/**
 * Said once a run (orders poll --detail, a receiver's --fetch-orders) of a detail taken as the order though it shows
 * neither an id nor a number where b2bctl looks: a store's own envelope is then written whole.
 */
export function unplacedDetailWarning(id: string | number): string {
  return `warning: order ${String(id)}'s detail shows neither an id nor a number where b2bctl reads them (the answer's root, or a data, order, result or content envelope): written as it came, as every such detail of this run. If the answer holds the order under a field of its own, set answers.order.detail to it (b2bctl orders get ${String(id)} shows the answer).`;
}

/** Whether an order shows an id or a number (`answers.orders.id`, `answers.orders.number` where set). */
export function showsIdOrNumber(order: Record<string, unknown>, settings: OrderAnswerSettings): boolean {
  const id = firstAt(order, candidatePaths(settings.id, ['id']), isIdLike);
  return id !== undefined || readOrderNumber(order, settings) !== undefined;
}

/** An answer's JSON for a warning's line, cut at 120 characters. */
function shownBody(body: unknown): string {
  return quotedJson(JSON.stringify(body) ?? String(body), 120);
}

/**
 * What an order detail shows of the data its moves gave it (ERP number, NF-e key, tracking code, and beside them the
 * NF-e XML, carrier and tracking link): what a move that the order has taken is compared with. A field no recognised
 * place (or setting) holds is left out: unknown; one whose place the detail shows empty (null, '') is '': none.
 */
export function readHeldMoveData(order: unknown, settings: OrderAnswerSettings = {}): HeldMoveData {
  const held: HeldMoveData = {};
  for (const field of Object.keys(recognisedHeldPaths) as (keyof HeldMoveData)[]) {
    const paths = candidatePaths(settings[field], recognisedHeldPaths[field]);
    const found = firstAt(order, paths, isIdLike)?.value;
    if (found !== undefined) held[field] = String(found);
    // Shown, and empty (`"invoice": null`): the order holds none, which an absent field would not say.
    else if (paths.some((path) => shownEmptyAt(order, path))) held[field] = '';
  }
  return held;
}

/**
 * The CNPJ or CPF of the order's buyer as its detail shows it (an NF-e for the order is checked against it);
 * undefined when no recognised place (or setting) holds one.
 */
export function readBuyerDocument(order: unknown, settings: OrderAnswerSettings = {}): string | undefined {
  return buyerDocumentAt(order, settings)?.value;
}

/**
 * The order's total as its detail shows it, as an amount written with a point (`2642.26`); undefined when no
 * recognised place holds a plain amount (a number JavaScript writes without an exponent, or digits with at most one
 * decimal point or pt-BR's decimal comma: amountWithPoint).
 */
export function readOrderTotal(order: unknown): string | undefined {
  const found = firstAt(
    order,
    recognisedTotalPaths,
    // A number as JavaScript writes it: 1e21 or 1e-7 (written with an exponent) is no order's total.
    (value): value is number | string =>
      (typeof value === 'number' && /^-?\d+(?:\.\d+)?$/.test(String(value))) ||
      (typeof value === 'string' && amountWithPoint(value) !== undefined),
  )?.value;
  return found === undefined ? undefined : (amountWithPoint(String(found)) ?? String(found).trim());
}

/**
 * An amount as text, written with a point (`2642.26`): as it came, or from pt-BR's decimal comma with `.` grouping
 * the thousands (`2.642,26`, `2642,26`), which left the NF-e total check silently off (a user test). Digits with
 * points alone (`2.642`) are read as a decimal point, as before; anything else is undefined.
 */
function amountWithPoint(text: string): string | undefined {
  const amount = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(amount)) return amount;
  if (/^(?:\d{1,3}(?:\.\d{3})+|\d+),\d+$/.test(amount)) return amount.replace(/\./g, '').replace(',', '.');
  return undefined;
}

/** The buyer's document and where the order holds it. */
function buyerDocumentAt(order: unknown, settings: OrderAnswerSettings) {
  return firstAt(
    order,
    candidatePaths(settings.buyerDocument, recognisedBuyerPaths),
    // A CPF's 11 digits or a CNPJ's 14 characters, punctuation aside: a name or a code is not taken for one.
    (value): value is string =>
      typeof value === 'string' && /^(?:\d{11}|[0-9A-Z]{12}\d{2})$/i.test(documentLookupKey(value.trim())),
  );
}

/** What `b2bctl doctor` says of an order listing page: where the array is and where its first order's facts are. */
export function locateOrderListing(body: unknown, settings: OrderAnswerSettings = {}): LocatedOrderListing | undefined {
  if (body === undefined || body === null || body === '') return { path: '(empty body)', count: 0 };
  const found = firstAt(body, candidatePaths(settings.items, recognisedOrderListPaths), isArray);
  if (!found) return undefined;
  const first = found.value[0];
  if (!isRecord(first)) return { path: found.path, count: found.value.length };
  const updatePaths = updateStampPaths(settings);
  const neverUpdated = readListedOrder(first, settings)?.neverUpdated;
  return {
    path: found.path,
    count: found.value.length,
    idPath: firstAt(first, candidatePaths(settings.id, ['id']), isIdLike)?.path,
    lastUpdatedPath: firstAt(first, updatePaths, isInstant)?.path ?? neverUpdated?.createdField,
    ...(neverUpdated ? { neverUpdated } : {}),
    unreadableStamp: unreadableUpdateStamp(first, updatePaths),
    buyerPath: buyerDocumentAt(first, settings)?.path,
  };
}

/** Where an order listing holds its orders, and where its first order holds the facts the poller needs. */
export interface LocatedOrderListing {
  path: string;
  count: number;
  idPath?: string;
  lastUpdatedPath?: string;
  /** Set when the first order's update stamp is empty and its creation instant stands in (ListedOrder.neverUpdated). */
  neverUpdated?: { updateField: string; createdField: string };
  /** The first order's update stamp when it is there but no instant b2bctl reads: no setting mends that. */
  unreadableStamp?: { path: string; value: unknown };
  buyerPath?: string;
}
