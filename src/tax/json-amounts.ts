/**
 * What only JSON can carry in an item's amounts, refused before the item is read as text: an amount written `1.500`
 * or `1,500` (one and a half, or fifteen hundred), and a number with more digits than a double holds, which
 * JSON.parse has already rounded (`12345678901234567.89` arrives as 12345678901234568): quoting it back would name
 * a value nobody sent. For a callback's cart and a JSON `--items` file of `tax quote` alike.
 */
import { digitsANumberHolds } from '../domain/spreadsheet-numbers.js';

export const amountFields = ['quantity', 'unitPrice', 'discount', 'freight'] as const;

/** Why an amount as JSON gave it cannot be read as sent, or undefined. */
export function jsonAmountProblem(field: (typeof amountFields)[number], value: unknown): string | undefined {
  // JSON.parse reads a number past 1.8e308 (`1E400`) as Infinity: quoting "Infinity" back would name a value the
  // platform never sent.
  if (typeof value === 'number' && !Number.isFinite(value))
    return `${field} is a number too large to be read at all (past 1.8e308, what a JSON number holds)`;
  if (typeof value === 'number' && !holdsExactly(value)) {
    // 0.30000000000000004 is not large: it has more digits than a double carries exactly.
    const what =
      Math.abs(value) >= 10 ** digitsANumberHolds
        ? `too large to be read exactly (more than ${digitsANumberHolds} digits)`
        : `of too many digits to be read exactly (more than ${digitsANumberHolds} significant digits)`;
    return field === 'quantity'
      ? `quantity is a number ${what}; a quantity is computed with at most ${digitsANumberHolds}`
      : `${field} is a number ${what}; send it as text`;
  }
  if (typeof value !== 'string') return undefined;
  // A group never starts with 0: `0.500` is a decimal only.
  const grouped = /^[1-9]\d{0,2}([.,])\d{3}$/.exec(value.trim());
  if (grouped === null) return undefined;
  const whole = value.trim().replace(grouped[1] as string, '');
  const stripped = value
    .trim()
    .replace(',', '.')
    .replace(/\.?0+$/, '');
  // The advice must be taken when followed: `2.125` would be refused again, as three decimals after a point look like
  // a thousands group; a fourth decimal says it is a decimal (`2.1250`), as `tax quote` advises `1.5000`.
  const decimal = /\.\d{3}$/.test(stripped) ? `${stripped}0` : stripped;
  const mark = grouped[1] === '.' ? 'a decimal point' : 'a decimal comma';
  return `${field} ${JSON.stringify(value)} reads as ${stripped} with ${mark} or as ${whole} with its thousands grouped: send ${whole} for that, or ${decimal} for the decimal`;
}

/**
 * Why an item's SKU as JSON gave it cannot be answered back as sent, or undefined: the answer carries the SKU the
 * platform asked for, so an object, a list or true is no SKU, and a number JSON.parse may have rounded would come back
 * another code (`12345678901234567890` as `12345678901234567000`).
 */
export function jsonSkuProblem(value: unknown): string | undefined {
  if (value === undefined || value === null || typeof value === 'string') return undefined;
  if (typeof value === 'number')
    return Number.isFinite(value) && holdsExactly(value)
      ? undefined
      : `sku is a number too large to be read exactly (more than ${digitsANumberHolds} digits); send it as text`;
  return `sku must be text or a number, not ${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : String(value)}`;
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
