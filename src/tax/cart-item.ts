/**
 * An item of a callback's cart, checked as `tax quote` checks an item, with the two things only JSON can carry
 * refused first: an amount written `1.500` or `1,500` (one and a half, or fifteen hundred: `tax quote` refuses the
 * same text), and a JSON number with more digits than a double holds, which JSON.parse has already rounded
 * (`12345678901234567.89` arrives as 12345678901234568): quoting it back would name a value the platform did not send.
 */
import { digitsANumberHolds } from '../domain/spreadsheet-numbers.js';
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
  if (typeof value === 'number' && Number.isFinite(value) && !holdsExactly(value))
    return field === 'quantity'
      ? `quantity is a number too large to be read exactly (more than ${digitsANumberHolds} digits); a quantity is computed with at most ${digitsANumberHolds}`
      : `${field} is a number too large to be read exactly (more than ${digitsANumberHolds} digits); send it as text`;
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

/**
 * Whether a JSON number is surely the one the platform wrote: under 10^15, and written by JavaScript in at most 15
 * significant digits (a double holds every decimal of 15 digits apart; one of more came rounded or may have).
 */
function holdsExactly(value: number): boolean {
  if (Math.abs(value) >= 10 ** digitsANumberHolds) return false;
  const mantissa = String(value).split('e')[0] as string;
  return mantissa.replace(/\D/g, '').replace(/^0+/, '').length <= digitsANumberHolds;
}
