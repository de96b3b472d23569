import { sameOrderKey } from '../../domain/order-keys.js';
import { orderStatusOf } from '../../domain/order-stages.js';
import type { StoreStatusWords } from '../../domain/store-status-words.js';
import { refusalSignOf } from './refusal-signs.js';
import { isIdLike, isRecord } from './shapes.js';
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
}

const envelopes = ['data', 'order', 'result', 'content'] as const;
const acknowledgements = ['success', 'ok', 'accepted'] as const;

/**
 * Reads a 2xx answer of a move of order `id`: empty, an order (or one in an envelope) with its status (a store's own
 * word as the stage `storeWords` names), or an acknowledgement; with any sign of refusal it holds.
 */
export function readMoveAnswer(body: unknown, id?: string, storeWords?: StoreStatusWords): MoveAnswer {
  if (body === undefined || body === null || body === '') return { recognised: true };
  const refusal = refusalSignOf(body);
  if (!isRecord(body)) return refusal === undefined ? { recognised: false } : { recognised: false, refusal };
  const record = orderRecordIn(body);
  const answer: MoveAnswer = { recognised: record !== undefined };
  if (refusal !== undefined) answer.refusal = refusal;
  if (record === undefined) {
    answer.recognised = refusal === undefined && acknowledgements.some((name) => body[name] === true);
    return answer;
  }
  const status = orderStatusOf(record.status, storeWords);
  if (status !== undefined && isRequestResult(status)) {
    answer.recognised = false;
    answer.requestResult = status;
  } else answer.status = status;
  const shownId = isIdLike(record.id) ? String(record.id) : undefined;
  // One order whatever its leading zeros (`"000040"` is order 40): "another order's record" sent an operator hunting
  // for a mix-up that did not happen, and read the order again for nothing (a user test).
  if (id !== undefined && shownId !== undefined && !sameOrderKey(shownId, id)) answer.otherOrder = shownId;
  return answer;
}

/** The order record a move's 2xx body holds (at its root or in an envelope, with a status), or undefined. */
export function orderRecordIn(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  return [body, ...envelopes.map((name) => body[name])].find(
    (value) => isRecord(value) && orderStatusOf(value.status) !== undefined,
  ) as Record<string, unknown> | undefined;
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
