import type { DeadLetterMasking } from './types.js';

/**
 * The SQL that masks a forward credential in kept dead letters, with `?` placeholders, for both stores (tables:
 * *-migrations.ts, step 4; why: dead-letter-scrub.ts).
 */

export const scrubKeyQuery = 'SELECT key FROM scrub_key WHERE id = 1';
export const scrubKeyInsert = 'INSERT INTO scrub_key (id, key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING';
export const scrubbedQuery = 'SELECT fingerprint, scrubbed_at FROM scrubbed_secrets';
/** A form's fingerprint and when the dead letters were last scanned for it: the next scan starts there. */
export const scrubbedUpsert = `INSERT INTO scrubbed_secrets (fingerprint, scrubbed_at) VALUES (?, ?)
  ON CONFLICT (fingerprint) DO UPDATE SET scrubbed_at = excluded.scrubbed_at`;

/**
 * How far before the last scan the next one starts: a dead letter stamped a little before that scan may have been
 * committed after it read the table (a transaction in flight on another receiver), or stamped by a receiver whose
 * clock is behind. An hour of letters costs little to read again; what falls outside is never scanned again.
 */
const deadLetterScanOverlapMs = 3_600_000;

/** What a scan masks: the forms, and from which died_at on (undefined: every dead letter). */
export interface DeadLetterScan {
  forms: string[];
  since?: number;
  /** How many forms were new to the store (their letters scanned whole). */
  fresh: number;
}

/**
 * The scan a store makes (both stores; why: dead-letter-scrub.ts). A form new to the store is looked for in every
 * dead letter. Every form known is looked for again in the letters that died since its last scan (less the overlap):
 * a scan once per credential left a letter in clear that an older receiver on a shared store wrote after it (a
 * rolling upgrade), for good (a user test). `recorded`: the store's fingerprints and when each was last scanned for.
 */
export function deadLetterScan(
  masking: DeadLetterMasking,
  key: string,
  recorded: ReadonlyMap<string, number>,
): DeadLetterScan {
  const lastScans = masking.forms.map((form) => recorded.get(masking.fingerprint(key, form)));
  const fresh = lastScans.filter((at) => at === undefined).length;
  const known = lastScans.filter((at): at is number => at !== undefined);
  const since = fresh > 0 ? undefined : Math.min(...known) - deadLetterScanOverlapMs;
  return { forms: [...masking.forms], since, fresh };
}

/**
 * One UPDATE over the dead letters (those that died at `since` or later when given): every form replaced by `mask`,
 * in the order given (the longest first, as redactSecrets does), in the rows whose error holds one. `replace()` and
 * `<>` read the same in SQLite and PostgreSQL. Parameters: deadLetterMaskValues.
 */
export function deadLetterMaskStatement(scan: DeadLetterScan): string {
  let masked = 'error';
  for (let index = 0; index < scan.forms.length; index += 1) masked = `replace(${masked}, ?, ?)`;
  const recent = scan.since === undefined ? '' : 'died_at >= ? AND ';
  return `UPDATE dead SET error = ${masked} WHERE ${recent}${masked} <> error`;
}

export function deadLetterMaskValues(scan: DeadLetterScan, mask: string): (string | number)[] {
  const pairs = scan.forms.flatMap((form) => [form, mask]);
  return [...pairs, ...(scan.since === undefined ? [] : [scan.since]), ...pairs];
}
