/**
 * JSON read without losing a whole number's digits. JSON.parse turns 9007199254740993 into 9007199254740992: an
 * order or customer id past 2^53 (a Java `long`, a snowflake id) would name another order in the next request, two
 * orders would share one poll key, and the record written back out would carry the wrong number, all with exit 0.
 * Such a number is kept as it was written (a WrittenNumber): JSON.stringify writes it back as the same digits, and
 * String() or a template gives them, for a path or a key. Every other value is what JSON.parse gives.
 */

/** A number as the platform wrote it: a whole number past 2^53 (and, for `b2bctl api`, any a double changes). */
export class WrittenNumber {
  readonly written: string;
  constructor(written: string) {
    this.written = written;
  }

  /** Written back as the same number, not as text (JSON.rawJSON: Node 22 and later). */
  toJSON(): unknown {
    return JSON.rawJSON(this.written);
  }

  toString(): string {
    return this.written;
  }

  [Symbol.toPrimitive](): string {
    return this.written;
  }
}

/**
 * Sixteen digits in a row: a whole number past 2^53 has at least 16. Only a text holding such a run is read with a
 * reviver (three to four times JSON.parse's time); a run inside a string (an NF-e key) costs only that slower
 * reading. Written out digit by digit, the expression is scanned ten times faster than `\d{16}` (0.05 ms for a
 * 430 KB page of orders, 2% of its JSON.parse).
 */
const sixteenDigits = /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d/;

/** How deep a JSON text may nest its arrays and objects: far past any record, far below what the engine can write. */
export const deepestNesting = 1000;

/**
 * A JSON text nested deeper than deepestNesting. JSON.parse reads 5,000 levels, but JSON.stringify and every walk
 * of the value then fail with the engine's "Maximum call stack size exceeded", after a CSV header was written
 * (a user test): refused when read, so nothing is written and the line says what is wrong.
 */
export class JsonNestedTooDeep extends Error {
  constructor() {
    super(`nested more than ${deepestNesting.toLocaleString('en-US')} levels deep, deeper than b2bctl reads`);
  }
}

/** Whether `text` opens more than deepestNesting arrays or objects at once (brackets inside strings aside). */
export function isNestedTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepestNesting) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

function refuseDeepNesting(text: string): void {
  if (isNestedTooDeep(text)) throw new JsonNestedTooDeep();
}

/** JSON.parse, keeping each whole number past 2^53 as written. Throws as JSON.parse does, or JsonNestedTooDeep. */
export function parseWrittenJson(text: string): unknown {
  refuseDeepNesting(text);
  if (!sixteenDigits.test(text)) return JSON.parse(text);
  return JSON.parse(text, keepLongWholeNumbers as (key: string, value: unknown) => unknown);
}

function keepLongWholeNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value) || context?.source === undefined) return value;
  // 1e300 and 12345678901234567.5 are numbers a double holds as well as JSON.parse can: only whole digits are kept.
  return /^-?\d+$/.test(context.source) ? new WrittenNumber(context.source) : value;
}

/**
 * A number a double may not hold as written: 16 significant digits or more, or an exponent of three digits. A text
 * without one (the common answer) is read by JSON.parse alone; one with it (a long run of digits in a string too)
 * only costs the slower reading below.
 */
const longOrHugeNumber = /\d{16}|[\d.]{17}|\d[eE][+-]?\d{3}/;

/**
 * JSON.parse, keeping every number whose value JSON.parse would change as written: a whole number past 2^53, a
 * decimal of more digits than a double holds (0.10000000000000000001), one past its range (1e400, which
 * JSON.stringify writes as null). For output that shows the platform's answer as it is (`b2bctl api`), where a
 * `jq` downstream reads the digits the platform sent. A number that only reads differently (12.50, 1E5) is a number
 * as JSON.parse gives it. Throws as JSON.parse does, or JsonNestedTooDeep.
 */
export function parseJsonKeepingNumbers(text: string): unknown {
  refuseDeepNesting(text);
  if (!longOrHugeNumber.test(text)) return JSON.parse(text);
  return JSON.parse(text, keepChangedNumbers as (key: string, value: unknown) => unknown);
}

function keepChangedNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  return sameDecimal(context.source, String(value)) ? value : new WrittenNumber(context.source);
}

/**
 * A number JSON.stringify would write otherwise than it was written though its value is the same: trailing zeros of a
 * fraction (`1.50`), an exponent (`1E2`), a negative zero. Only a text holding one (or a string that looks so) is read
 * with the slower reviver of parseJsonKeepingDigits.
 */
const numberWrittenOtherwise = /\d[eE]|\.\d*0(?!\d)|-0(?![.\d])/;

/**
 * parseJsonKeepingNumbers, and also every number JSON.stringify would write with other digits (`1.50` as `1.5`,
 * `1E2` as `100`, `-0` as `0`): kept as written. For what `b2bctl api` shows of an answer (indented on a terminal,
 * `-o json`, `--paginate`): a price's `1.50` is what an ERP diff sees, and jq 1.7 keeps such a literal too (a user test).
 * Throws as JSON.parse does, or JsonNestedTooDeep.
 */
export function parseJsonKeepingDigits(text: string): unknown {
  refuseDeepNesting(text);
  if (!longOrHugeNumber.test(text) && !numberWrittenOtherwise.test(text)) return JSON.parse(text);
  return JSON.parse(text, keepWrittenDigits as (key: string, value: unknown) => unknown);
}

function keepWrittenDigits(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  return context.source === String(value) ? value : new WrittenNumber(context.source);
}

/** Whether two JSON numbers' texts name the same decimal (12.50 and 12.5; 1E5 and 100000; 0 and -0). */
function sameDecimal(written: string, read: string): boolean {
  const a = decimalOf(written);
  const b = decimalOf(read);
  if (a === undefined || b === undefined) return false;
  if (a.digits === '' && b.digits === '') return true;
  return a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;
}

/** A number's text as sign, significant digits (no leading or trailing zeros) and the power of ten of the last. */
function decimalOf(text: string): { negative: boolean; digits: string; exponent: number } | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined; // Infinity, NaN
  const [, sign = '', whole = '', fraction = '', power = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let exponent = Number(power) - fraction.length;
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  return { negative: sign === '-', digits, exponent };
}
