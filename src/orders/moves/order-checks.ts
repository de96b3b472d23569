import { recipientMismatch, sameTotalToTheCentavo } from '../../domain/nfe-document.js';
import { sameOrderKey } from '../../domain/order-keys.js';
import type { OrderState } from '../../platform/order-moves.js';
import type { MoveFieldsGivenAs, PreparedMove } from './move-input.js';

/**
 * What a move must agree with in its order's detail, read before it is sent: the NF-e's recipient and total, and the
 * order number a row gives beside its id; and the number the detail gives a move that named its order by id.
 */

/** A move refused for what its order's detail shows: not sent, `invalid` in the report (a MoveResult). */
export interface MoveRefusal {
  outcome: 'invalid';
  id: string | undefined;
  message: string;
}

/**
 * An invoice whose NF-e is made out to someone other than the order's buyer, as its detail names the buyer: not
 * sent, since it would hand another customer's invoice to this one. Undefined when either side is unknown (a key
 * alone names no recipient; a detail may name no buyer), or they agree.
 */
export function recipientRefusal(move: PreparedMove, before: OrderState | undefined, id: string | undefined) {
  if (move.action !== 'invoice' || move.recipient === undefined || before?.buyer === undefined) return undefined;
  const mismatch = recipientMismatch(move.recipient, before.buyer);
  if (mismatch === undefined) return undefined;
  const result: MoveRefusal = {
    outcome: 'invalid',
    id,
    message: `not sent: ${mismatch}. Check that this is the order's NF-e; if it is, --no-status-check sends it without reading the order`,
  };
  return result;
}

/**
 * An invoice whose NF-e total (vNF) is not the order's total as its detail shows it: a warning, never a refusal
 * (freight billed apart, ICMS-ST or a partial invoice make them differ), since an ERP that swapped the NF-e files of
 * one buyer's two orders passes every other check. Undefined for other moves, a key alone (no vNF), a detail that
 * shows no total, or totals equal to the centavo (sameTotalToTheCentavo).
 */
export function totalMismatch(
  move: PreparedMove,
  before: OrderState | undefined,
  place: string | undefined,
): string | undefined {
  if (move.action !== 'invoice' || move.invoiceTotal === undefined || before?.total === undefined) return undefined;
  if (sameTotalToTheCentavo(move.invoiceTotal, before.total)) return undefined;
  return `warning: ${place === undefined ? '' : `${place}: `}order ${move.order}: the NF-e's total (vNF) is ${move.invoiceTotal} and the order's total is ${before.total}; sent all the same (freight, ICMS-ST or a partial invoice may explain it): check that this is the order's NF-e`;
}

/**
 * A move whose order number (the orderId column, --order-id) is not the number of the order its id names: a row
 * whose two columns disagree, as a sorted or shifted column makes them. Not sent: with `{orderId}` in the route it
 * would move another order than the one checked, and with `{id}` it names two orders. Undefined when the detail
 * shows no number, the move gives none, or they agree.
 */
export function numberRefusal(
  move: PreparedMove,
  before: OrderState | undefined,
  id: string | undefined,
  givenAs: MoveFieldsGivenAs = 'columns',
) {
  const given = move.values.orderId?.trim();
  if (given === undefined || given === '' || before?.number === undefined) return undefined;
  if (sameOrderKey(given, before.number)) return undefined;
  const check = givenAs === 'flags' ? 'ORDER and --order-id name' : 'the order and orderId columns name';
  const result: MoveRefusal = {
    outcome: 'invalid',
    id,
    message: `not sent: ${givenAs === 'flags' ? '--order-id' : 'orderId'} ${given} is not this order's number (${before.number}); check ${check} the same order`,
  };
  return result;
}

/**
 * The move with the number its order's detail shows as `{orderId}`, when the move gives none: the order is named
 * by its id or its number, and the route may want the other (docs/orders.md: every order command takes either).
 */
export function numbered(move: PreparedMove, before: OrderState | undefined): PreparedMove {
  if (move.values.orderId || before?.number === undefined) return move;
  return { ...move, values: { ...move.values, orderId: before.number } };
}
