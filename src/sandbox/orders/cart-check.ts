/**
 * A cart posted to `POST /_sandbox/orders`, checked before it is priced: a part of the wrong kind is answered 400
 * naming its path and value, as a careful API answers (`Field [items[0].quantity] with value ["abc"] must be …`),
 * never 500 with a JavaScript error's text (`Cannot read properties of null (reading 'replace')`). Every part stays
 * optional; a customer, when given, needs its document, which its buyer's kind and the order's partner come from.
 */
import { quotedJson } from '../../base/quoted-answer.js';
import { isObject } from '../../domain/customer-values.js';

/** What is wrong with the posted cart, or undefined when it can be priced. */
export function cartProblem(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (!isObject(body)) return `The cart must be a JSON object, not ${shown(body)}`;
  const cart = body;
  const customer = customerProblem(cart.customer);
  if (customer !== undefined) return customer;
  if (cart.state !== undefined && typeof cart.state !== 'string')
    return field('state', cart.state, 'a state (UF) such as MG');
  for (const name of ['shipping', 'discount'] as const)
    if (cart[name] !== undefined && !amount(cart[name])) return field(name, cart[name], 'a number of at least 0');
  if (cart.items === undefined) return undefined;
  if (!Array.isArray(cart.items)) return field('items', cart.items, 'a list of items');
  if (cart.items.length === 0)
    return 'The cart has no items: send at least one, or leave "items" out for a random cart';
  for (const [index, item] of cart.items.entries()) {
    const problem = itemProblem(item, `items[${index}]`);
    if (problem !== undefined) return problem;
  }
  return discountProblem(cart.discount, cart.items as readonly { quantity: number; unitPrice: number }[]);
}

/**
 * A cart-level discount above what its items are worth: a checkout refuses such a cart itself, so the sandbox does,
 * before the tax callback is asked (it was sent on and the callback's refusal came back as a 502; a user test).
 * Compared in centavos, each item's value rounded as the order prices it.
 */
function discountProblem(
  discount: unknown,
  items: readonly { quantity: number; unitPrice: number }[],
): string | undefined {
  if (typeof discount !== 'number') return undefined;
  const worth = items.reduce((sum, item) => sum + Math.round(item.quantity * item.unitPrice * 100), 0);
  if (Math.round(discount * 100) <= worth) return undefined;
  return field('discount', discount, `at most the items' value (${(worth / 100).toFixed(2)})`);
}

function customerProblem(customer: unknown): string | undefined {
  if (customer === undefined) return undefined;
  if (!isObject(customer)) return field('customer', customer, 'an object with its "document"');
  const { document, name, paysIcms } = customer;
  if (typeof document !== 'string' || document.trim() === '')
    return field('customer.document', document, 'a CPF or CNPJ as text');
  if (name !== undefined && typeof name !== 'string') return field('customer.name', name, 'text');
  if (paysIcms !== undefined && typeof paysIcms !== 'boolean')
    return field('customer.paysIcms', paysIcms, 'true or false');
  return undefined;
}

function itemProblem(item: unknown, path: string): string | undefined {
  if (!isObject(item)) return field(path, item, 'an object with quantity and unitPrice');
  const { sku, name, ncm, quantity, unitPrice } = item;
  // A numeric code is a SKU too (the tax callback gives it back a number).
  if (sku !== undefined && typeof sku !== 'string' && !(typeof sku === 'number' && Number.isFinite(sku)))
    return field(`${path}.sku`, sku, 'text or a number');
  if (name !== undefined && typeof name !== 'string') return field(`${path}.name`, name, 'text');
  if (ncm !== undefined && typeof ncm !== 'string') return field(`${path}.ncm`, ncm, 'text such as "39269090"');
  if (typeof quantity !== 'number' || !(quantity > 0) || !Number.isFinite(quantity))
    return field(`${path}.quantity`, quantity, 'a number above 0');
  if (!amount(unitPrice)) return field(`${path}.unitPrice`, unitPrice, 'a number of at least 0');
  return undefined;
}

const amount = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function field(path: string, value: unknown, what: string): string {
  return `Field [${path}] with value [${shown(value)}] must be ${what}`;
}

/** A value as the message quotes it: its JSON, cut at 40 characters. */
function shown(value: unknown): string {
  return value === undefined ? 'missing' : quotedJson(JSON.stringify(value), 41);
}
