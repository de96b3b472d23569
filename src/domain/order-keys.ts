/**
 * The one rule for "the same order": an order's id or number written with leading zeros is the order of that number
 * (`"00042"`, `42` and ` 42 ` are one order), as the order routes read an id, as a spreadsheet keeps `0372` as text,
 * and as a platform that reads its ids as integers answers them. Any other text (`A-0042`) is taken as written.
 */

/** An order's id or number as one order is named: digits without their leading zeros, other text as written. */
export function orderKeyOf(value: string | number): string {
  const text = String(value).trim();
  return /^\d+$/.test(text) ? text.replace(/^0+(?=\d)/, '') : text;
}

/** Whether two ids, or two numbers, name one order (orderKeyOf). */
export function sameOrderKey(one: string | number, other: string | number): boolean {
  return orderKeyOf(one) === orderKeyOf(other);
}
