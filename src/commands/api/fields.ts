import { UsageError } from '../../base/errors.js';
import { digitsANumberHolds } from '../../domain/spreadsheet-numbers.js';

/** One `-f key=value` (a string) or `-F key=value` (typed), in command-line order. */
export interface FieldFlag {
  typed: boolean;
  text: string;
}

export type FieldValue = string | number | boolean | null;

/** A field with its key split into steps: `address[0][zipcode]` → address, 0, zipcode; `tags[]` ends with ''. */
export interface ParsedField {
  key: string;
  steps: string[];
  value: FieldValue;
}

const jsonNumber = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Reads `-f`/`-F` as gh does: `-F` turns true, false, null and numbers into JSON values and `@file` (`@-` for
 * stdin) into that file's text; a number with a leading zero (a CEP) stays text, and so does one that a JSON
 * reader would not get back digit for digit (`warn` says so): most hold numbers as doubles, so the 44 digits of an
 * NF-e key sent as a number arrive as 3.5240611222333e+43. gh keeps text an integer its 64 bits cannot hold.
 */
export function parseField(
  flag: FieldFlag,
  readText: (source: string) => string,
  warn: (message: string) => void = () => undefined,
): ParsedField {
  const equals = flag.text.indexOf('=');
  const option = flag.typed ? '-F' : '-f';
  if (equals <= 0) throw new UsageError(`${option} "${flag.text}": a field is key=value, such as ${option} name=Acme.`);
  const key = flag.text.slice(0, equals);
  const raw = flag.text.slice(equals + 1);
  if (flag.typed && jsonNumber.test(raw) && !heldExactly(raw))
    warn(
      // 1e400 and 1e-400 have few digits: they are past the range a double holds (a user test).
      `-F ${key}: ${raw} ${outOfRange(raw) ? 'is beyond the range of numbers most JSON readers hold (doubles)' : 'has more digits than a JSON number holds exactly'}; it is sent as text (-f says so without this note).`,
    );
  return { key, steps: keySteps(key, option), value: flag.typed ? typedValue(raw, readText) : raw };
}

/** Whether a number's text is past a double's range: too large (Infinity) or too small (read as 0). */
function outOfRange(text: string): boolean {
  const value = Number(text);
  return !Number.isFinite(value) || (value === 0 && /[1-9]/.test(text.replace(/[eE].*$/, '')));
}

function typedValue(raw: string, readText: (source: string) => string): FieldValue {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (jsonNumber.test(raw) && heldExactly(raw)) return Number(raw);
  if (raw.startsWith('@')) return readText(raw.slice(1));
  return raw;
}

/**
 * Whether a number's text comes back from a double with the same value: an integer up to 2^53, or at most 15
 * significant digits (every such decimal survives the round trip) within a double's range.
 */
function heldExactly(text: string): boolean {
  const value = Number(text);
  if (!Number.isFinite(value)) return false;
  if (/^-?\d+$/.test(text)) return Number.isSafeInteger(value);
  const mantissa = text.replace(/[eE].*$/, '').replace(/[-.]/g, '');
  const significant = mantissa.replace(/^0+/, '').replace(/0+$/, '');
  if (significant === '') return true;
  return significant.length <= digitsANumberHolds && value !== 0 && Math.abs(value) >= Number.MIN_VALUE * 2 ** 52;
}

/** `a[0][b]` → ['a', '0', 'b']; `a[]` → ['a', '']; a malformed key is a usage error. */
function keySteps(key: string, option: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match?.[1])
    throw new UsageError(
      `${option} key "${key}" is not a field name: use name, name[sub], name[0][sub] or name[] (to append).`,
    );
  const rest = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((step) => step[1] ?? '');
  return [match[1], ...rest];
}

type Container = Record<string, unknown> | unknown[];

/** The JSON body the fields build: nested objects for `[name]`, arrays for `[0]` and `[]`. */
export function bodyOfFields(fields: readonly ParsedField[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) place(body, field);
  return body;
}

function place(body: Record<string, unknown>, field: ParsedField): void {
  let container: Container = body;
  for (let index = 0; index < field.steps.length; index++) {
    const step = field.steps[index] as string;
    const last = index === field.steps.length - 1;
    const next = field.steps[index + 1];
    const slot = slotIn(container, step, field.key);
    if (last) {
      // A value where an earlier field built an object or a list (`a[b]=1` then `a=2`) would drop that field
      // unsaid: the clash the other order (`a=2` then `a[b]=1`) is refused for.
      const earlier = Object.hasOwn(container, slot)
        ? (container as Record<string | number, unknown>)[slot]
        : undefined;
      if (earlier !== null && typeof earlier === 'object') throw clash(field);
      // A second value for one key (`a=1` then `a=2`, `c[]=1` then `c[0]=2`) dropped the first unsaid: a body holds
      // one value a key, so it is the same kind of clash (a user test). A GET's query keeps both, as the URL can.
      if (Object.hasOwn(container, slot))
        throw new UsageError(
          `Field "${field.key}" sets a value an earlier field set already; give it once, or use ${field.steps[0]}[] for a list.`,
        );
      assign(container, slot, field.value);
      return;
    }
    // gh's rule for a list of objects (`items[][sku]=A items[][qty]=1 items[][sku]=B`): `[]` then a name goes on
    // filling the list's last object until that name comes again, which starts the next one.
    const lastItem: unknown = Array.isArray(container) && step === '' ? container.at(-1) : undefined;
    const nextIsName = next !== undefined && next !== '' && !/^\d+$/.test(next);
    if (nextIsName && isPlainObject(lastItem) && !Object.hasOwn(lastItem, next)) {
      container = lastItem;
      continue;
    }
    const existing = Object.hasOwn(container, slot) ? (container as Record<string | number, unknown>)[slot] : undefined;
    const wantsArray = next === '' || /^\d+$/.test(next ?? '');
    if (existing === undefined) {
      const created: Container = wantsArray ? [] : {};
      assign(container, slot, created);
      container = created;
    } else if (existing !== null && typeof existing === 'object' && Array.isArray(existing) === wantsArray) {
      container = existing as Container;
    } else {
      throw clash(field);
    }
  }
}

function clash(field: ParsedField): UsageError {
  return new UsageError(`Field "${field.key}" clashes with an earlier field that set ${field.steps[0]} otherwise.`);
}

/** Where a step lands: an index (`''` appends) in an array, a name in an object. */
function slotIn(container: Container, step: string, key: string): string | number {
  if (!Array.isArray(container)) return step;
  if (step === '') return container.length;
  if (!/^\d+$/.test(step)) throw new UsageError(`Field "${key}": [${step}] names a key inside a list; use a number.`);
  const position = Number(step);
  if (position > container.length)
    throw new UsageError(`Field "${key}": index ${position} skips ${container.length}; number list items from 0.`);
  return position;
}

/** Sets an own property, `__proto__` and `constructor` included (as JSON writes them), never the object's prototype. */
function assign(container: Container, slot: string | number, value: unknown): void {
  Object.defineProperty(container, slot, { value, enumerable: true, writable: true, configurable: true });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The fields as query parameters (a GET's): each key as written, null as an empty value. */
export function queryOfFields(fields: readonly ParsedField[]): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const field of fields) (query[field.key] ??= []).push(field.value === null ? '' : String(field.value));
  return query;
}
