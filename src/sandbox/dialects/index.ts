import type { OrderSummary } from '../orders/rules.js';
import type { OrderDetail } from '../orders/store.js';
import type { Dialect } from './dialect.js';
import { fulfilmentOf } from '../orders/move-answers.js';

export type { Dialect } from './dialect.js';

const errorNames: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
};

/** The sandbox's first guess, the one b2bctl's defaults were written against. */
const defaultDialect: Dialect = {
  name: 'default',
  description: 'OAuth-style token JSON, {"status","message"} errors, {"results":[…]} batch answer, bare-array listings',
  tokenPath: '/v1/auth/token',
  tokenStyles: 'any',
  tokenAnswer: (token, ttl) => ({ access_token: token, token_type: 'Bearer', expires_in: ttl }),
  errorAnswer: (status, message) => ({ body: { status: defaultStatusNames[status], message } }),
  loginRefused: { body: { error: 'invalid_grant', message: 'Invalid username or password' } },
  batchAnswer: (results) => ({ results }),
  queueAnswer: (batchId, items) => ({ batchId, status: 'QUEUED', items }),
  listingAnswer: (items) => items,
  orderSummary: (summary) => summary,
  orderDetail: (detail) => detail,
};
const defaultStatusNames: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
};

/** A Spring Boot service: camelCase token, error bodies without a message, pages in `content`. */
const spring: Dialect = {
  name: 'spring',
  description:
    'camelCase token {"accessToken","expiresIn"}, Spring error bodies without "message", bare-array batch answer keyed by SKU with booleans, 202 {"jobId"}, pages in {"content"}, orders with lastModifiedDate and orderItems, fields not yet set shown as null',
  tokenPath: '/v1/auth/token',
  tokenStyles: 'any',
  tokenAnswer: (token, ttl) => ({ accessToken: token, tokenType: 'Bearer', expiresIn: ttl }),
  errorAnswer: (status, _message, path) => ({
    body: { timestamp: new Date().toISOString(), status, error: errorNames[status], path },
  }),
  batchAnswer: (results) =>
    results.map((result) => ({
      sku: result.sku,
      success: result.status === 'APPLIED',
      errorMessage: result.message,
    })),
  queueAnswer: (batchId) => ({ jobId: batchId, state: 'RECEIVED' }),
  listingAnswer: (items, offset) => ({ content: items, numberOfElements: items.length, offset }),
  // Spring Data's auditing names: createdDate and lastModifiedDate; the lines of an order in `orderItems`.
  orderSummary: (summary) => springSummary(summary),
  orderDetail: (detail) => ({
    ...springSummary(detail),
    customer: { ...detail.customer },
    orderItems: detail.items.map((item, index) => ({ lineNumber: index + 1, ...item })),
    totals: { ...detail.totals },
    deliveryAddress: { ...detail.deliveryAddress },
    payment: { ...detail.payment },
    shipping: { ...detail.shipping },
    ...taxesOf(detail),
    // Jackson writes every property, null included: a move the order has not taken shows as `"invoice": null`.
    ...unsetFulfilment,
    ...fulfilmentOf(detail),
  }),
};

const unsetFulfilment = { erpOrderNumber: null, invoice: null, tracking: null, cancellationReason: null };

function springSummary(summary: OrderSummary): Record<string, unknown> {
  const { dateCreated, lastUpdated, ...rest } = summary;
  return { ...rest, createdDate: dateCreated, lastModifiedDate: lastUpdated };
}

/** An older PHP-era platform: a bare `token`, plain-text errors, results keyed by SKU, empty 202. */
const legacy: Dialect = {
  name: 'legacy',
  description:
    'token {"token"} with no lifetime, plain-text 400/401/404 bodies, {"data":{SKU:"OK"|"ERROR"}} batch answer, 202 with no body, pages in {"data"}, order ids as text, the order detail in {"data"} with lines and buyer',
  tokenPath: '/v1/auth/token',
  tokenStyles: 'any',
  tokenAnswer: (token) => ({ token }),
  errorAnswer: (status) => ({ body: legacyTexts[status], contentType: 'text/plain; charset=utf-8' }),
  batchAnswer: (results) => ({
    data: Object.fromEntries(
      results.map((result) => [result.sku ?? String(result.index), result.status === 'APPLIED' ? 'OK' : 'ERROR']),
    ),
  }),
  queueAnswer: () => undefined,
  listingAnswer: (items) => ({ data: items }),
  // Ids as text, as PHP-era JSON often has them; the detail in {"data"}, its lines in `lines`, the buyer in `buyer`,
  // the totals flat beside them.
  orderSummary: (summary) => ({ ...summary, id: String(summary.id) }),
  orderDetail: (detail) => ({
    data: {
      id: String(detail.id),
      orderId: detail.orderId,
      status: detail.status,
      approvalWorkflow: detail.approvalWorkflow,
      workflowIsApproved: detail.workflowIsApproved,
      dateCreated: detail.dateCreated,
      lastUpdated: detail.lastUpdated,
      partnerCompanyName: detail.partnerCompanyName,
      partnerDocument: detail.partnerDocument,
      buyer: { document: detail.customer.document, companyName: detail.customer.name },
      lines: detail.items.map((item) => ({
        sku: item.sku,
        description: item.name,
        qty: item.quantity,
        price: item.unitPrice,
        total: item.total,
      })),
      totalItems: detail.totals.items,
      totalShipping: detail.totals.shipping,
      totalDiscount: detail.totals.discount,
      total: detail.totals.total,
      deliveryAddress: { ...detail.deliveryAddress },
      paymentMethod: detail.payment.method,
      installments: detail.payment.installments,
      shippingMethod: detail.shipping.method,
      deliveryDays: detail.shipping.deadlineDays,
      ...taxesOf(detail),
      ...fulfilmentOf(detail),
    },
  }),
};
const legacyTexts: Record<number, string> = {
  400: 'Requisicao invalida',
  401: 'Nao autorizado',
  403: 'Acesso negado',
  404: 'Registro nao encontrado',
};

/** Behind an API gateway: OAuth form login on its own path, bodiless 401s, batches acknowledged without items. */
const gateway: Dialect = {
  name: 'gateway',
  description:
    'token at POST /oauth/token with a form body, answer {"data":{"token","expiresIn"}}, 401 with WWW-Authenticate and no body, {"errors":[…]} bodies, batch answer {"accepted":true} without items, 202 {"id"}, pages in {"items"}, orders with updatedAt, the order detail in {"order"} with totals under amounts',
  tokenPath: '/oauth/token',
  tokenStyles: 'form',
  tokenAnswer: (token, ttl) => ({ data: { token, expiresIn: ttl } }),
  errorAnswer: (status, message) =>
    status === 401
      ? { headers: { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' } }
      : { body: { errors: [{ code: `E${status}`, title: errorNames[status], detail: message }] } },
  batchAnswer: (results) => ({ accepted: true, count: results.length }),
  queueAnswer: (batchId) => ({ id: batchId }),
  listingAnswer: (items, offset) => ({ items, offset, count: items.length }),
  // `updatedAt`/`createdAt`; the detail under {"order"} beside a request id, totals nested under `amounts`.
  orderSummary: (summary) => gatewaySummary(summary),
  orderDetail: (detail) => ({
    requestId: `req-${detail.id}-${detail.lastUpdated}`,
    order: {
      ...gatewaySummary(detail),
      customer: { ...detail.customer },
      items: detail.items.map((item) => ({ ...item })),
      amounts: { totals: { ...detail.totals }, currency: 'BRL' },
      deliveryAddress: { ...detail.deliveryAddress },
      payment: { ...detail.payment },
      shipping: { ...detail.shipping },
      ...taxesOf(detail),
      ...fulfilmentOf(detail),
    },
  }),
};

function gatewaySummary(summary: OrderSummary): Record<string, unknown> {
  const { dateCreated, lastUpdated, ...rest } = summary;
  return { ...rest, createdAt: dateCreated, updatedAt: lastUpdated };
}

export const dialects: readonly Dialect[] = [defaultDialect, spring, legacy, gateway];

export const dialectNames = dialects.map((dialect) => dialect.name);

export function dialectNamed(name: string | undefined): Dialect | undefined {
  return dialects.find((dialect) => dialect.name === (name ?? 'default'));
}

/** The taxes the callback answered, where the sandbox asked for them (--tax-callback), as the store keeps them. */
function taxesOf(detail: OrderDetail): { taxes?: unknown } {
  return detail.taxes === undefined ? {} : { taxes: detail.taxes };
}
