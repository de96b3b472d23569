/**
 * How each dialect answers the order moves, which the platform document does not show: the answer of an accepted
 * move (its status code and body) and of a forbidden one. Kept beside the moves rather than in the Dialect table,
 * so each platform's guess for this resource is read in one place.
 */
import type { ErrorAnswer } from '../dialects/dialect.js';
import { summaryOf } from './store.js';
import type { OrderDetail } from './store.js';
import type { OrderFulfilment } from './moves.js';

export interface MoveAnswer extends ErrorAnswer {
  status: number;
}

/** An accepted move's answer in the dialect `name`. */
export function movedAnswer(name: string, order: OrderDetail & OrderFulfilment): MoveAnswer {
  switch (name) {
    // Spring: 204 No Content.
    case 'spring':
      return { status: 204 };
    // PHP era: 200 {"success": true, "data": {...}} with the id as text.
    case 'legacy':
      return { status: 200, body: { success: true, data: { id: String(order.id), status: order.status } } };
    // Behind a gateway: 202 with a request id only, a shape b2bctl does not know (accepted with a warning).
    case 'gateway':
      return { status: 202, body: { requestId: `req-${order.id}-${Date.parse(order.lastUpdated)}`, queued: 1 } };
    default:
      return { status: 200, body: { ...summaryOf(order), ...fulfilmentOf(order) } };
  }
}

/**
 * A refused move's answer in the dialect `name`: `forbidden` (the order's status does not allow it) or `invalid`
 * (a field the move carries is wrong, or its NF-e is another order's). Each dialect nests the store's words its
 * own way, so a client must read them from every common shape.
 */
export function refusalAnswer(
  name: string,
  refusal: { kind: 'forbidden' | 'invalid'; message: string; field: string },
  path: string,
): MoveAnswer {
  const forbidden = refusal.kind === 'forbidden';
  switch (name) {
    // Spring Boot's RFC 7807 problem details.
    case 'spring':
      return {
        status: forbidden ? 409 : 422,
        contentType: 'application/problem+json',
        body: {
          type: 'about:blank',
          title: forbidden ? 'Conflict' : 'Unprocessable Entity',
          status: forbidden ? 409 : 422,
          detail: refusal.message,
          instance: path,
        },
      };
    // PHP era: an error object with a code and a description.
    case 'legacy':
      return {
        status: 400,
        body: { error: { code: forbidden ? 'TRANSICAO_INVALIDA' : 'CAMPO_INVALIDO', description: refusal.message } },
      };
    // Behind a gateway: a list of errors, each with the field it is about.
    case 'gateway':
      return { status: 422, body: { errors: [{ field: refusal.field, message: refusal.message }] } };
    default:
      return forbidden
        ? { status: 400, body: { status: 'BAD_REQUEST', message: refusal.message } }
        : { status: 422, body: { status: 'UNPROCESSABLE_ENTITY', message: refusal.message } };
  }
}

/** What the moves stored on an order, for the order detail of every dialect. */
export function fulfilmentOf(order: OrderDetail & OrderFulfilment): OrderFulfilment {
  const fulfilment: OrderFulfilment = {};
  if (order.erpOrderNumber !== undefined) fulfilment.erpOrderNumber = order.erpOrderNumber;
  if (order.invoice !== undefined) fulfilment.invoice = { ...order.invoice };
  if (order.tracking !== undefined) fulfilment.tracking = { ...order.tracking };
  if (order.cancellationReason !== undefined) fulfilment.cancellationReason = order.cancellationReason;
  return fulfilment;
}
