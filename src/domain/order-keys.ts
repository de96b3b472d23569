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

/**
 * An order's id or number as the order routes take it: a text of digits is sent as its key (`"00042"` and `" 42"` ask
 * order 42, as `b2bctl orders get 0372` asks 372); any other value is sent as written, its spaces kept: the key is for
 * comparing, and a store that names its orders `A-0042 ` wants them as it wrote them.
 */
export function orderIdAsRoutesTakeIt<T extends string | number>(id: T): T | string {
  if (typeof id !== 'string') return id;
  const key = orderKeyOf(id);
  return /^\d+$/.test(key) ? key : id;
}

/** An order's id or number as a whole number (orderKeyOf's digits), or undefined when it is not digits. */
export function orderNumberValueOf(value: string | number): bigint | undefined {
  const key = orderKeyOf(value);
  // Past 30 digits no store counts its orders: such a text is taken as a name, not bisected.
  return /^\d{1,30}$/.test(key) ? BigInt(key) : undefined;
}

/** Whether two ids, or two numbers, name one order (orderKeyOf). */
export function sameOrderKey(one: string | number, other: string | number): boolean {
  return orderKeyOf(one) === orderKeyOf(other);
}
