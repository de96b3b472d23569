/**
 * Exact integer arithmetic on JavaScript numbers, for the callback's hot path: amounts as whole centavos (or a
 * whole number of 10^-scale), rates as small reduced fractions. Every operation is exact while its result is a safe
 * integer (below 2^53); one that is not yields NaN, which every later operation keeps, so a caller checks once at
 * the end and computes the item again in BigInt fractions (exact.ts). Rounding half to even, as ABNT NBR 5891. Pure.
 */

/** A decimal as a whole number and its scale: `45.90` is 459 at scale 1 (trailing zeros dropped). */
export interface Scaled {
  whole: number;
  scale: number;
}

const safe = (value: number): number => (Number.isSafeInteger(value) ? value : Number.NaN);
const tens = Array.from({ length: 16 }, (_, power) => 10 ** power);

/** a × b, exact, or NaN. A true product above 2^53 rounds to at least 2^53, which is not safe: no false result. */
export const product = (left: number, right: number): number => safe(left * right);
/** a + b, exact, or NaN (the same argument as for the product). */
export const sum = (left: number, right: number): number => safe(left + right);

/** Decimal text (`-1234.50`, `7`, `.5`) as a whole number and scale; NaN as the whole where it has over 15 digits. */
export function scaledOf(text: string): Scaled {
  const negative = text.charCodeAt(0) === 45; // -
  let whole = 0;
  let digits = 0;
  let scale = -1;
  for (let index = negative ? 1 : 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 46 && scale === -1)
      scale = 0; // .
    else if (code >= 48 && code <= 57) {
      whole = whole * 10 + (code - 48);
      digits++;
      if (scale !== -1) scale++;
    } else return { whole: Number.NaN, scale: 0 };
  }
  if (digits === 0 || digits > 15) return { whole: Number.NaN, scale: 0 };
  if (scale === -1) scale = 0;
  while (scale > 0 && whole % 10 === 0) {
    whole /= 10;
    scale--;
  }
  return { whole: negative ? -whole : whole, scale };
}

/** The value at scale 2 (centavos), rounded half to even when it has more decimals. */
export function centavosOf(value: Scaled): number {
  if (value.scale <= 2) return product(value.whole, tens[2 - value.scale] as number);
  return rounded(value.whole, tens[value.scale - 2] ?? Number.NaN);
}

/** The value at a larger scale, exactly. */
export function rescaled(value: Scaled, scale: number): number {
  return product(value.whole, tens[scale - value.scale] ?? Number.NaN);
}

/** numerator / denominator (denominator above 0) rounded to a whole number, half to even, symmetric around 0. */
export function rounded(numerator: number, denominator: number): number {
  const magnitude = Math.abs(numerator);
  // The float quotient may be one off near a whole number; the remainder, exact in integers, corrects it.
  let quotient = Math.floor(magnitude / denominator);
  let remainder = magnitude - quotient * denominator;
  if (remainder < 0) {
    quotient--;
    remainder += denominator;
  } else if (remainder >= denominator) {
    quotient++;
    remainder -= denominator;
  }
  const twice = remainder * 2;
  if (twice > denominator || (twice === denominator && quotient % 2 === 1)) quotient++;
  return numerator < 0 ? -quotient : quotient;
}

/** A rate as a reduced fraction of safe integers, for `amount × numerator / denominator`. */
export interface Ratio {
  numerator: number;
  denominator: number;
}

/** amount × ratio, rounded to a whole number half to even; NaN when an intermediate is not a safe integer. */
export const applied = (amount: number, ratio: Ratio): number =>
  rounded(product(amount, ratio.numerator), ratio.denominator);

/**
 * amount × ratio − less, rounded once to a whole number half to even (a debit less a credit, as the NF-e writes only
 * their difference: ICMS-ST, DIFAL); NaN when an intermediate is not a safe integer.
 */
export const appliedLess = (amount: number, ratio: Ratio, less: number): number =>
  rounded(sum(product(amount, ratio.numerator), -product(less, ratio.denominator)), ratio.denominator);

/** Whole centavos as money text with two decimals (`-0.05`, `1234.50`). */
export function moneyText(centavos: number): string {
  const magnitude = Math.abs(centavos);
  const fraction = magnitude % 100;
  return `${centavos < 0 ? '-' : ''}${(magnitude - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}
