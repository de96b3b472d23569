import { entryDigest } from '../../domain/coarse-stamps.js';
import { orderKeyOf } from '../../domain/order-keys.js';
import { WrittenNumber } from '../../lib/written-json.js';
import { isRecord } from './shapes.js';

/**
 * The digest that tells two versions of a listed order under one coarse stamp apart (domain/coarse-stamps.ts), with
 * the fields that name the order (its id, its number) read as one order is named: a store that lists `"id": 7` in one
 * answer and `"id": "000007"` in the next lists one version, not two (a user test). A name of digits is digested as
 * the number it is, as the platform document writes ids, so the digests of a store writing numbers stay as they were;
 * `former` is the entry's digest as written, set only where it differs, for the versions an older b2bctl remembered.
 */
export function listedEntryDigests(
  entry: unknown,
  namedAt: readonly string[],
): { contentDigest: string; formerContentDigest?: string } {
  let named = entry;
  for (const path of namedAt) named = withValueAt(named, path.split('.'), asNamed);
  const contentDigest = entryDigest(named);
  const former = named === entry ? contentDigest : entryDigest(entry);
  return former === contentDigest ? { contentDigest } : { contentDigest, formerContentDigest: former };
}

/** An id or number of digits as the number it names (past 2^53 as its digits, as a parsed answer keeps them). */
function asNamed(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof WrittenNumber)) return value;
  const key = orderKeyOf(String(value));
  if (!/^\d+$/.test(key)) return value;
  return Number.isSafeInteger(Number(key)) ? Number(key) : new WrittenNumber(key);
}

/** `value` with what `change` makes of the value at `steps`, copied along the way; itself when nothing changes. */
function withValueAt(value: unknown, steps: readonly string[], change: (value: unknown) => unknown): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return change(value);
  if (Array.isArray(value)) {
    const index = Number(step);
    if (!Number.isInteger(index) || index < 0 || index >= value.length) return value;
    const changed = withValueAt(value[index], rest, change);
    return changed === value[index] ? value : value.with(index, changed);
  }
  if (!isRecord(value) || !(step in value)) return value;
  const changed = withValueAt(value[step], rest, change);
  return changed === value[step] ? value : { ...value, [step]: changed };
}
