import { isRecord } from './shapes.js';

/**
 * The answers of the order moves (ready, invoice, ship, cancel), whose bodies the platform document does not show.
 * A move is judged by its status code: any 2xx is accepted. The body is only read for what it may tell (the
 * order's new status); a body of no shape b2bctl knows is accepted all the same, and the command warns once.
 */
export interface MoveAnswer {
  /** The order's status as the answer states it, when it does. */
  status?: string;
  /** False when the body has no shape b2bctl recognises (the command warns once, never fails). */
  recognised: boolean;
}

const envelopes = ['data', 'order', 'result', 'content'] as const;
const acknowledgements = ['success', 'ok', 'accepted'] as const;

/** Reads a 2xx answer of a move: empty, an order (or one in an envelope) with its status, or an acknowledgement. */
export function readMoveAnswer(body: unknown): MoveAnswer {
  if (body === undefined || body === null || body === '') return { recognised: true };
  if (!isRecord(body)) return { recognised: false };
  const status = statusOf(body) ?? envelopes.map((name) => statusOf(body[name])).find((found) => found !== undefined);
  if (status !== undefined) return { status, recognised: true };
  if (acknowledgements.some((name) => body[name] === true)) return { recognised: true };
  return { recognised: false };
}

function statusOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.status === 'string' && value.status !== '' ? value.status : undefined;
}
