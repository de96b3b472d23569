/**
 * Whether the ERP's 2xx JSON (`tax serve --forward-to`) can be the cart's taxes: read on the answer already parsed,
 * a few top-level keys and one list's length, so the forwarded path stays as fast as it was.
 */
import { quotedJson } from '../base/quoted-answer.js';
import { isObject } from '../domain/customer-values.js';
import { refusalSignOf } from '../platform/answers/refusal-signs.js';
import { valueAtPath } from '../domain/validation.js';
import type { TaxShape } from './shape.js';

/** Why an answer is no tax answer: `why` for the platform's 503 and the log, `shown` (the answer quoted) for the log. */
export interface NoTaxAnswer {
  why: string;
  shown?: string;
}

/**
 * Why the ERP's JSON cannot be the cart's taxes, or undefined when it may be:
 * - JSON that is no object, or an empty one (`"ok"`, `[1,2,3]`, `null`, `{}`), in any shape;
 * - an answer that says it failed, read for the signs a customer write's or a stock batch's 2xx answer is read for
 *   (refusalSignOf: `{"success":false,"message":"Erro interno…"}`, `"status": "ERROR"`, an `errors` list holding
 *   entries): an ERP that could not compute says so in a 200, and passed on, it closed a real order untaxed (a user test);
 * - a list of items (`answer.items` of the shape) with fewer entries than the cart has items (`{"items":[]}` for a
 *   cart of one): the items it leaves out would be closed without their taxes; or something else than a list there
 *   (`{"items":{"A":{}}}`);
 * - an entry of that list that is no object, or an empty one (`[null]`, `[1]`, `["ok"]`, `[{}]`): that item would
 *   be closed untaxed just the same;
 * - no list where the shape names it, nor any other list of as many entries as the cart has items at its top level
 *   or one level in (`{"totals":{…}}`, a framework's `{"message":"Internal Server Error"}` or a gateway's
 *   `{"fault":{…}}` served with a 200, a user test): the platform asks the ERP for taxes per item, and such an answer
 *   holds none.
 * Its other keys are its own: the ERP answers in the platform's shape, which the shape file may not describe, so an
 * answer whose per-item list sits under another name (`{"impostos":[…]}`, `{"data":{"itens":[…]}}`) is passed on.
 */
export function noTaxAnswerIn(json: unknown, cartItems: number | undefined, shape: TaxShape): NoTaxAnswer | undefined {
  if (!isObject(json)) {
    if (json === null) return { why: 'answered null, which cannot be a tax answer' };
    const what = Array.isArray(json) ? 'a list' : `a ${typeof json}`;
    return { why: `answered ${what}, not an object, which cannot be a tax answer` };
  }
  if (Object.keys(json).length === 0) return { why: 'answered an empty object, which cannot be a tax answer' };
  const refusal = refusalSignOf(json);
  if (refusal !== undefined) return { why: 'answered that it failed, which cannot be a tax answer', shown: refusal };
  if (cartItems === undefined) return undefined;
  const items = valueAtPath(json, shape.answer.items);
  if (items === undefined) {
    if (holdsListOf(json, cartItems, 2)) return undefined;
    return {
      why: `answered no list of the cart's ${cartItems} items (none at "${shape.answer.items}", nor under another name), which cannot be its tax answer`,
      // Quoted as a refusal is: what it holds instead (a gateway's fault, a framework's message) says what failed.
      shown: quotedJson(JSON.stringify(json), 300),
    };
  }
  if (items !== null && !Array.isArray(items)) {
    const what = isObject(items) ? 'an object' : `a ${typeof items}`;
    return {
      why: `answered "${shape.answer.items}" as ${what}, not a list of the cart's items, which cannot be its tax answer`,
    };
  }
  const answered = items === null ? 0 : items.length;
  if (answered < cartItems)
    return {
      why: `answered the taxes of ${answered} of the cart's ${cartItems} items ("${shape.answer.items}"), which cannot be its tax answer`,
    };
  const entry = firstNotTaxesIn(items as unknown[]);
  if (entry === undefined) return undefined;
  return {
    why: `answered "${shape.answer.items}" entry ${entry.index + 1} as ${entry.what}, not an item's taxes, which cannot be its tax answer`,
  };
}

/**
 * The first entry of a list of items that cannot be an item's taxes (`null`, `1`, `"ok"`, a list, `{}`): the
 * platform would close that item untaxed, as one left out (a user test). An entry's keys are the ERP's own (it
 * answers in the platform's shape): any object holding one passes, whatever it is named.
 */
function firstNotTaxesIn(items: readonly unknown[]): { index: number; what: string } | undefined {
  for (let index = 0; index < items.length; index++) {
    const entry = items[index];
    if (isObject(entry) && holdsAKey(entry)) continue;
    if (entry === null) return { index, what: 'null' };
    if (Array.isArray(entry)) return { index, what: 'a list' };
    return { index, what: isObject(entry) ? 'an empty object' : `a ${typeof entry}` };
  }
  return undefined;
}

/** Whether an object holds a key, without a list of its keys: read for each item of every forwarded answer. */
function holdsAKey(value: Record<string, unknown>): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/** Whether `json` holds a list of at least `entries` entries among its values, looking `levels` deep into objects. */
function holdsListOf(json: Record<string, unknown>, entries: number, levels: number): boolean {
  for (const value of Object.values(json)) {
    if (Array.isArray(value) && value.length >= entries && firstNotTaxesIn(value) === undefined) return true;
    if (levels > 1 && isObject(value) && holdsListOf(value, entries, levels - 1)) return true;
  }
  return false;
}
