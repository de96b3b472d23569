import { sameOrderKey } from '../../domain/order-keys.js';
import { valueAtPath } from '../../domain/validation.js';
import { type OrderAnswerSettings, orderIdIn, orderStatusIn } from './orders.js';
import { refusalSignOf } from './refusal-signs.js';
import { isRecord } from './shapes.js';
import { wordVerdict } from './status-words.js';

/**
 * The answers of the order moves (ready, invoice, ship, cancel), whose bodies the platform document does not show.
 * A 2xx is read for what it may tell: the order's new status, a sign that it refuses the move, or another order's
 * record. Which of those proves the move made is the caller's to judge (MoveSender): a 200 `{"status":"ERROR"}` or
 * `{"success":false}` was reported done, the refusing word even shown as the order's new status (a user test).
 */
export interface MoveAnswer {
  /** The order's status as the answer states it (orderStatusOf), when it does. */
  status?: string;
  /** False when the body has no shape b2bctl recognises (the command warns once). */
  recognised: boolean;
  /** The body as shown when it holds a sign of refusal (refusalSignOf): `"success": false`, an `errors` list… */
  refusal?: string;
  /** The id the answer's record shows when it is not the order moved (a gateway's mix-up): no proof of the move. */
  otherOrder?: string;
  /**
   * The request's own result where an order's status would be (`"status": "OK"`, a 202's `PROCESSING`): a word
   * that says applied or pending (status-words.ts), never the order's status. Such an answer is `accepted` as `{}`
   * is: read as the order's status, every move of a store that answers `OK` and applies it a moment later was
   * `unknown`, "the answer shows the order OK" (a user test).
   */
  requestResult?: string;
  /**
   * True when the 2xx has no body (or JSON `null`): it says nothing of the order, so the order is read back
   * (MoveSender). Taken as done unread, a store's 200 with nothing in it was reported `applied` of a move it had
   * not made (a user test).
   */
  empty?: boolean;
}

const envelopes = ['data', 'order', 'result', 'content'] as const;
const acknowledgements = ['success', 'ok', 'accepted'] as const;

/**
 * Reads a 2xx answer of a move of order `id`: empty, an order (or one in an envelope) with its status, or an
 * acknowledgement; with any sign of refusal it holds. The order is read as the store's detail is
 * (`answers.order.detail`, `answers.order.status`, `answers.orders.id`, its status words `answers.order.statusWords`):
 * read by b2bctl's names alone, a store's record in its own shape was no order at all, and a move it had not made
 * `accepted`, exit 0 (a user test).
 */
export function readMoveAnswer(body: unknown, id?: string, settings: OrderAnswerSettings = {}): MoveAnswer {
  if (body === undefined || body === null || (typeof body === 'string' && body.trim() === ''))
    return { recognised: true, empty: true };
  const refusal = refusalSignOf(body);
  if (!isRecord(body)) return refusal === undefined ? { recognised: false } : { recognised: false, refusal };
  const record = orderRecordIn(body, settings);
  const answer: MoveAnswer = { recognised: record !== undefined };
  if (refusal !== undefined) answer.refusal = refusal;
  if (record === undefined) {
    answer.recognised = refusal === undefined && acknowledgements.some((name) => body[name] === true);
    return answer;
  }
  const status = orderStatusIn(record, settings);
  if (status !== undefined && isRequestResult(status)) {
    answer.recognised = false;
    answer.requestResult = status;
  } else answer.status = status;
  const shownId = orderIdIn(record, settings);
  // One order whatever its leading zeros (`"000040"` is order 40): "another order's record" sent an operator hunting
  // for a mix-up that did not happen, and read the order again for nothing (a user test).
  if (id !== undefined && shownId !== undefined && !sameOrderKey(shownId, id)) answer.otherOrder = shownId;
  return answer;
}

/**
 * The order record a move's 2xx body holds, with a status where the store keeps it, or undefined: where
 * `answers.order.detail` says (else the body itself, as the detail is read), or by default at the body's root or in
 * an envelope.
 */
export function orderRecordIn(body: unknown, settings: OrderAnswerSettings = {}): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  const detail = settings.detail?.trim() ?? '';
  const places = detail === '' ? [body, ...envelopes.map((name) => body[name])] : [valueAtPath(body, detail), body];
  return places.find(
    (value): value is Record<string, unknown> => isRecord(value) && orderStatusIn(value, settings) !== undefined,
  );
}

/**
 * Whether a status word is the request's result rather than an order's: one that says applied (`OK`, `SUCCESS`) or
 * pending (`PROCESSING`, `QUEUED`, `ACCEPTED`) as a stock result's status does. No order status of the platform's is
 * one of them; a refusing word (`ERROR`) is refusalSignOf's, and a word b2bctl does not know stays the order's.
 */
function isRequestResult(status: string): boolean {
  const { verdict } = wordVerdict(status);
  return verdict === 'applied' || verdict === 'unsettled';
}
