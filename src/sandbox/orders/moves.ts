/**
 * The order state machine the integration drives: ready to ship, invoiced, shipped, canceled. A forbidden move
 * (shipped back to ready, anything after canceled) is refused; each accepted move stores what it carries on the
 * order, stamps `lastUpdated` and publishes the orders webhook through the store's listeners (the outbox).
 */
import type { BodyPlaceholder } from '../../domain/order-routes.js';
import { checkNfeAccessKey } from '../../domain/nfe-key.js';
import { checkNfeDocument } from '../../domain/nfe-document.js';
import { forbiddenMove, type OrderAction, reachedStage, statusAfter } from '../../domain/order-stages.js';
import { fieldProblem, type FieldProblem } from '../../domain/validation.js';
import { nextStamp, type OrderDetail, type OrderStore } from './store.js';

/** What the integration's moves store on an order; shown by the order detail. */
export interface OrderFulfilment {
  erpOrderNumber?: string;
  invoice?: { accessKey: string; series: string; number: string; xmlBytes?: number };
  tracking?: { code: string; carrier?: string; url?: string };
  cancellationReason?: string;
}

/** One move the sandbox accepted, for tests that check nothing was sent twice. */
export interface AcceptedMove {
  id: number;
  action: OrderAction;
  at: string;
  /** A correction of what the order held (a replace route), not a move on. */
  replaced?: true;
}

export type MoveOutcome =
  | { kind: 'moved'; order: OrderDetail & OrderFulfilment }
  | { kind: 'unknown' }
  | { kind: 'invalid'; message: string; field: string }
  | { kind: 'forbidden'; message: string; field: string };

/** Every accepted move of each store, in order. */
const acceptedMoves = new WeakMap<OrderStore, AcceptedMove[]>();

export function movesOf(store: OrderStore): AcceptedMove[] {
  let moves = acceptedMoves.get(store);
  if (!moves) acceptedMoves.set(store, (moves = []));
  return moves;
}

/** The order a path names: by `id`, else by `orderId` (the number the store shows its buyers). */
export function findOrder(
  store: OrderStore,
  values: Partial<Record<BodyPlaceholder, string>>,
): OrderDetail | undefined {
  if (values.id !== undefined) return /^\d+$/.test(values.id) ? store.orders.get(Number(values.id)) : undefined;
  const orderId = Number(values.orderId);
  for (const order of store.orders.values()) if (order.orderId === orderId) return order;
  return undefined;
}

/** Applies one move to one order at `nowMs`; with `replace`, corrects the data of a move the order took instead. */
export function applyMove(
  store: OrderStore,
  order: OrderDetail,
  action: OrderAction,
  values: Partial<Record<BodyPlaceholder, string>>,
  nowMs: number,
  replace = false,
): MoveOutcome {
  const fields = fieldsOf(action, values, nowMs);
  if ('message' in fields) return { kind: 'invalid', ...fields };
  const forbidden = replace ? replaceForbidden(order, action) : forbiddenMove(order.status, action);
  if (forbidden) return { kind: 'forbidden', message: `Order [${order.id}]: ${forbidden}`, field: 'status' };
  const reused = fields.invoice ? orderHoldingKey(store, fields.invoice.accessKey, order.id) : undefined;
  if (reused && fields.invoice)
    return {
      kind: 'invalid',
      field: 'accessKey',
      message: `NF-e key ${fields.invoice.accessKey} is already the invoice of order ${reused.orderId} (id ${reused.id})`,
    };
  const moved = Object.assign(order, fields) as OrderDetail & OrderFulfilment;
  if (!replace) moved.status = statusAfter[action];
  moved.lastUpdated = nextStamp(moved, nowMs - store.lastUpdatedSkewMs);
  movesOf(store).push({ id: order.id, action, at: moved.lastUpdated, ...(replace ? { replaced: true as const } : {}) });
  store.notify(moved, 'updated');
  return { kind: 'moved', order: moved };
}

/** A correction goes to an order that took the move and can still change: not a canceled or delivered one. */
function replaceForbidden(order: OrderDetail, action: OrderAction): string | undefined {
  if (order.status === 'CANCELED' || order.status === 'DELIVERED')
    return `the order is ${order.status}: its data is no longer corrected`;
  return reachedStage(order.status, action)
    ? undefined
    : `the order is ${order.status}: it has no ${action} to replace`;
}

/** The other order whose invoice has this access key: an NF-e belongs to one order. */
function orderHoldingKey(store: OrderStore, key: string, id: number): OrderDetail | undefined {
  for (const other of store.orders.values())
    if (other.id !== id && (other as OrderFulfilment).invoice?.accessKey === key) return other;
  return undefined;
}

/** The fields a move stores, or the platform-style problem of what is missing or wrong. */
function fieldsOf(
  action: OrderAction,
  values: Partial<Record<BodyPlaceholder, string>>,
  nowMs: number,
): OrderFulfilment | FieldProblem {
  const present = (name: BodyPlaceholder) => (values[name]?.trim() ? values[name] : undefined);
  switch (action) {
    case 'ready': {
      const erpOrderNumber = present('erpNumber');
      return erpOrderNumber ? { erpOrderNumber } : fieldProblem('erpOrderNumber', '', 'required');
    }
    case 'ship': {
      const code = present('trackingCode');
      if (!code) return fieldProblem('trackingCode', '', 'required');
      return { tracking: { code, carrier: present('carrier'), url: present('trackingUrl') } };
    }
    case 'cancel': {
      const reason = present('reason');
      return reason ? { cancellationReason: reason } : fieldProblem('cancellationReason', '', 'required');
    }
    case 'invoice':
      return invoiceOf(values, nowMs);
  }
}

/** The invoice of a move: its key (given, or read from the XML, as text or base64), checked as the tax authority would. */
function invoiceOf(values: Partial<Record<BodyPlaceholder, string>>, nowMs: number): OrderFulfilment | FieldProblem {
  const xml =
    values.invoiceXml ?? (values.invoiceXmlBase64 ? Buffer.from(values.invoiceXmlBase64, 'base64').toString() : '');
  if (xml) {
    const document = checkNfeDocument(Buffer.from(xml), nowMs);
    if (!document.ok) return fieldProblem('xml', '', document.reason);
    if (values.invoiceKey && values.invoiceKey !== document.key.key)
      return fieldProblem('accessKey', values.invoiceKey, 'not the key of the XML');
    const { key, series, number } = document.key;
    return { invoice: { accessKey: key, series, number, xmlBytes: Buffer.byteLength(xml) } };
  }
  const key = checkNfeAccessKey(values.invoiceKey ?? '', nowMs);
  if (!key.ok) return fieldProblem('accessKey', values.invoiceKey ?? '', key.reason);
  return { invoice: { accessKey: key.key.key, series: key.key.series, number: key.key.number } };
}
