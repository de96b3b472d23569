/**
 * The `answers.*` settings, for what the platform document does not show: the charset of an answer that declares
 * none, and where an answer holds what b2bctl reads, as a dot path. Declared here, beside the settings table, so
 * the table needs nothing of src/platform/; the readers of those answers (src/platform/answers/, the HTTP client)
 * take the values by key.
 */
import type { SettingDefinition } from './setting-definition.js';
import { charsetName, dotPath, storeStatusWords } from './setting-parsers.js';

/**
 * A setting naming where an answer holds something, as a dot path (`data.items`, `0.id`; empty for the body
 * itself): the shape of every `answers.*` setting, parsed by `config set` and on every read like any other.
 */
export function answerPathSetting<const Key extends string>(key: Key, description: string) {
  return { key, parser: dotPath, description };
}

/**
 * The charset of an answer whose Content-Type declares none, or declares UTF-8, and whose bytes are not UTF-8. JSON is
 * UTF-8 (RFC 8259), so such bytes are refused; an older platform or ERP gateway writing Windows-1252 without saying
 * so, or under a UTF-8 label it copied from a template, is read right once this names it.
 */
export const answerTextSettings = [
  {
    key: 'answers.charset',
    parser: charsetName,
    description:
      'The charset of an answer whose bytes are not UTF-8 though its Content-Type declares none or UTF-8, such as windows-1252 (default: none, and such an answer is an error); UTF-8 is read as UTF-8, and another charset the answer declares wins',
  },
] as const satisfies readonly SettingDefinition[];

export const tokenAnswerSettings = [
  answerPathSetting(
    'answers.token.accessToken',
    'Where the token route answer holds the token (default: access_token, accessToken, token, data.token, …)',
  ),
  answerPathSetting(
    'answers.token.expiresIn',
    'Where the token route answer holds its lifetime in seconds, milliseconds from 43200000 on (default: expires_in, expiresIn, …; absent means 12 hours)',
  ),
  answerPathSetting(
    'answers.token.expiresAt',
    'Where the token route answer holds the instant the token expires, ISO-8601 or epoch seconds or milliseconds (default: expires_at, expiresAt, expiration, expiry, …; the earlier of it and the lifetime wins)',
  ),
] as const satisfies readonly SettingDefinition[];

export const listingAnswerSettings = [
  answerPathSetting(
    'answers.sellers.items',
    'Where a sales rep listing page holds its array (default: the body itself, data, items, content, results, …)',
  ),
  answerPathSetting(
    'answers.addresses.items',
    'Where the customer addresses answer holds its array (default: the body itself, address, addresses, data, items, …)',
  ),
] as const satisfies readonly SettingDefinition[];

export const stockAnswerSettings = [
  answerPathSetting(
    'answers.stockBatch.results',
    'Where the stock batch answer holds its per-item results, an array or an object keyed by SKU or index (default: the body itself, results, items, data, …)',
  ),
  answerPathSetting(
    'answers.stockBatch.status',
    'The per-item field saying applied (OK, APPLIED, SUCCESS, true, a 2xx code), rejected (ERROR, REJECTED, ERRO, SKU_NOT_FOUND, false, a 4xx code) or pending (PENDING, QUEUED); any other word, and a 5xx code, is unknown (default: status, statusCode, result, success, applied, ok, …)',
  ),
  answerPathSetting(
    'answers.stockQueue.id',
    "Where the stock queue route's 202 holds the batch id (default: batchId, id, jobId, queueId, …)",
  ),
] as const satisfies readonly SettingDefinition[];

export const orderAnswerSettings = [
  answerPathSetting(
    'answers.orders.items',
    'Where an order listing page holds its array (dot path; default: the body itself, data, items, …)',
  ),
  answerPathSetting(
    'answers.orders.id',
    'The listed order field holding the id the detail route takes (dot path; default: id)',
  ),
  answerPathSetting(
    'answers.orders.lastUpdated',
    'The listed order field holding its update instant (dot path; default: lastUpdated, updatedAt, lastModifiedDate, …)',
  ),
  answerPathSetting(
    'answers.orders.dateCreated',
    'The listed order field holding its creation instant, the dateCreated column of orders poll -o csv (dot path; default: dateCreated, createdDate, createdAt, …)',
  ),
  answerPathSetting(
    'answers.orders.number',
    'The listed order field holding the order number people use (dot path; default: orderId, orderNumber, number)',
  ),
  answerPathSetting(
    'answers.order.detail',
    "Where the order detail answer holds the order, and a move's answer the order it carries (dot path; default: the body, or data, order, …)",
  ),
  answerPathSetting(
    'answers.order.status',
    "The order detail field holding its status, read before a move, in the order a move's answer carries, and after a move's unclear answer (dot path; default: status)",
  ),
  answerPathSetting(
    'answers.order.erpNumber',
    'The order detail field holding the ERP number its ready move gave (dot path; default: erpOrderNumber, erpNumber, …)',
  ),
  answerPathSetting(
    'answers.order.invoiceKey',
    'The order detail field holding its NF-e access key (dot path; default: invoice.accessKey, invoiceKey, …)',
  ),
  answerPathSetting(
    'answers.order.trackingCode',
    'The order detail field holding its tracking code (dot path; default: tracking.code, trackingCode, …)',
  ),
  answerPathSetting(
    'answers.order.invoiceXml',
    'The order detail field showing it holds its NF-e XML (the XML, its size or a link; dot path; default: invoice.xmlBytes, invoice.xml, invoice.xmlUrl, …)',
  ),
  answerPathSetting(
    'answers.order.carrier',
    'The order detail field holding the carrier its ship move gave (dot path; default: tracking.carrier, tracking.carrierName, …)',
  ),
  answerPathSetting(
    'answers.order.trackingUrl',
    'The order detail field holding the tracking link its ship move gave (dot path; default: tracking.url, tracking.trackingUrl, …)',
  ),
  answerPathSetting(
    'answers.order.buyerDocument',
    "The order detail field holding its buyer's CNPJ or CPF, which an NF-e's recipient is checked against (dot path; default: partnerDocument, customer.document, …)",
  ),
] as const satisfies readonly SettingDefinition[];

/** A store's own status words, as the stages b2bctl reads them as (domain/store-status-words.ts). */
export const orderStatusWordSettings = [
  {
    key: 'answers.order.statusWords',
    parser: storeStatusWords,
    description:
      "A store's own order status words as b2bctl's stages, THEIRS=OURS separated by commas, such as PRONTO_PARA_ENVIO=READY_TO_SHIP,FATURADO=INVOICED,ENVIADO=SHIPPED,CANCELADO=CANCELED; OURS is one of AWAITING_PAYMENT, READY_TO_SHIP, INVOICED, SHIPPED, DELIVERED or CANCELED, both read whatever their case (default: none, and a word b2bctl does not know leaves a move's check unknown)",
  },
] as const satisfies readonly SettingDefinition[];
