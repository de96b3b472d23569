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

/** A forbidden move's answer (a move the order's status does not allow) in the dialect `name`. */
export function forbiddenAnswer(name: string, message: string, path: string): MoveAnswer {
  switch (name) {
    case 'spring':
      return {
        status: 409,
        body: { timestamp: new Date().toISOString(), status: 409, error: 'Conflict', path },
      };
    case 'legacy':
      return { status: 400, body: 'Status invalido', contentType: 'text/plain; charset=utf-8' };
    case 'gateway':
      return { status: 422, body: { errors: [{ code: 'E422', title: 'Unprocessable Entity', detail: message }] } };
    default:
      return { status: 400, body: { status: 'BAD_REQUEST', message } };
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
