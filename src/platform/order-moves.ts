import { type BodyPlaceholder, type OrderRoute, renderBody, routePathFor } from '../domain/order-routes.js';
import { UsageError } from '../base/errors.js';
import { type MoveAnswer, orderRecordIn, readMoveAnswer } from './answers/order-moves.js';
import type { PlatformClient } from './client.js';
import { heldSlashAdvice } from './encoded-slash.js';
import { getOrder, orderAnswers } from './orders.js';
import {
  type OrderAnswerSettings,
  orderIdIn,
  orderStatusIn,
  readBuyerDocument,
  readHeldMoveData,
  readOrderNumber,
  readOrderTotal,
} from './answers/orders.js';
import type { HeldMoveData } from '../domain/order-stages.js';
import { isRecord } from './answers/shapes.js';

export type MoveValues = Partial<Record<BodyPlaceholder, string>>;

/**
 * Sends one move of one order through its route (from the order routes file). A move writes: it is not repeated
 * after an answer that may have come after the platform applied it, a 5xx among them (AmbiguousRequestError; the
 * caller checks the order's status), only after a refusal (429) and connections that never opened.
 */
export async function sendOrderMove(
  client: PlatformClient,
  route: OrderRoute,
  values: MoveValues,
  signal?: AbortSignal,
): Promise<{ status: number; answer: MoveAnswer; held?: HeldMoveData }> {
  const path = routePathFor(route, values);
  if (path === undefined)
    throw new UsageError(
      `The order route ${route.method} ${route.path} needs ${missingPlaceholders(route, values).join(', ')}; give ${missingPlaceholders(route, values).includes('{branch}') ? '--branch (or a branch column)' : '--order-id (or an orderId column)'}.`,
    );
  // Read before the send: a setting that cannot be read stops the move before it is sent, not after.
  const settings = orderAnswers(client);
  const { status, body } = await client.send<unknown>({
    method: route.method,
    path,
    body: renderBody(route.body, values),
    safeToRepeat: false,
    effect: 'applied the move',
    signal,
    slashAdvice: slashAdviceOf(route, values),
  });
  // What the order record in the answer holds, when it is one: a correction's proof is its value, not its status.
  // Read through the store's answer settings, as its detail is: the record is in the store's shape.
  const record = orderRecordIn(body, settings);
  const held = record === undefined ? undefined : readHeldMoveData(record, settings);
  const answer = readMoveAnswer(body, values.id, settings);
  return { status, answer, ...(held === undefined ? {} : { held }) };
}

/** The values of the route's path holding a "/" (`the branch code "SP/01"`), said when a server refuses it encoded. */
function slashAdviceOf(route: OrderRoute, values: MoveValues): string | undefined {
  const slashed = Object.entries(values).filter(
    ([name, value]) => route.path.includes(`{${name}}`) && typeof value === 'string' && value.includes('/'),
  );
  if (slashed.length === 0) return undefined;
  const named: Readonly<Record<string, string>> = { branch: 'the branch code', orderId: 'the order id' };
  return heldSlashAdvice(
    slashed.map(([name, value]) => `${named[name] ?? `{${name}}`} "${String(value)}"`).join(' and '),
  );
}

function missingPlaceholders(route: OrderRoute, values: MoveValues): string[] {
  return (route.path.match(/\{[A-Za-z][A-Za-z0-9]*\}/g) ?? []).filter(
    (name) => !values[name.slice(1, -1) as BodyPlaceholder],
  );
}

/** What an order's detail says of its progress: its status, and the data its moves gave it. */
export interface OrderState {
  status?: string;
  held: HeldMoveData;
  /** The buyer's CNPJ or CPF, when the detail shows it. */
  buyer?: string;
  /** The order's number (`orderId`), when the detail shows it. */
  number?: string;
  /** The order's total (`2642.26`), when the detail shows it: an invoice's NF-e total is compared with it. */
  total?: string;
  /**
   * True when the detail shows neither a status nor an id where b2bctl reads them (an envelope it does not know,
   * `{"pedido":{…}}`): nothing of the order was read, so no check of what it has taken can run.
   */
  unread?: boolean;
}

/** The state in an order detail (as getOrder returns it): its status when it states one, and what it holds. */
export function orderStateOf(order: unknown, settings: OrderAnswerSettings): OrderState {
  if (!isRecord(order)) return { held: {}, unread: true };
  const state: OrderState = {
    // A store may keep it under its own name (`situacao`): the setting names it.
    status: orderStatusIn(order, settings),
    held: readHeldMoveData(order, settings),
    buyer: readBuyerDocument(order, settings),
    number: readOrderNumber(order, settings),
    total: readOrderTotal(order),
  };
  if (state.status === undefined && orderIdIn(order, settings) === undefined) state.unread = true;
  return state;
}

/** The order's current state, read from its detail (the `orders get` route). */
export async function orderState(client: PlatformClient, id: string, signal?: AbortSignal): Promise<OrderState> {
  const settings = orderAnswers(client);
  return orderStateOf(await getOrder(client, id, signal, settings), settings);
}
