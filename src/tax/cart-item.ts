/**
 * An item of a callback's cart, checked as `tax quote` checks an item, with an amount written `1.500` or `1,500`
 * refused first: one and a half, or fifteen hundred (`tax quote` refuses the same text).
 */
import type { TaxItem } from '../domain/tax/terms.js';
import { itemRecord, requestReaders, type TaxShape } from './shape.js';
import { checkTaxItem } from './table-file.js';

const amountFields = ['quantity', 'unitPrice', 'discount', 'freight'] as const;

/** A cart's item as the general path reads it: a TaxItem, or what is wrong with it. */
export function checkCartItem(item: unknown, shape: TaxShape['request']): TaxItem | string {
  const readers = requestReaders(shape);
  for (const field of amountFields) {
    const problem = jsonAmountProblem(field, readers[field](item));
    if (problem !== undefined) return problem;
  }
  return checkTaxItem(itemRecord(item, shape));
}

/** Why an amount as JSON gave it cannot be read as sent, or undefined. */
function jsonAmountProblem(field: (typeof amountFields)[number], value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // A group never starts with 0: `0.500` is a decimal only.
  const grouped = /^[1-9]\d{0,2}([.,])\d{3}$/.exec(value.trim());
  if (grouped === null) return undefined;
  const whole = value.trim().replace(grouped[1] as string, '');
  const decimal = value
    .trim()
    .replace(',', '.')
    .replace(/\.?0+$/, '');
  const mark = grouped[1] === '.' ? 'a decimal point' : 'a decimal comma';
  return `${field} ${JSON.stringify(value)} reads as ${decimal} with ${mark} or as ${whole} with its thousands grouped: send ${whole} for that, or ${decimal} for the decimal`;
}
