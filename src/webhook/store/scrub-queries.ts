/**
 * The SQL that masks a forward credential in kept dead letters, with `?` placeholders, for both stores (tables:
 * *-migrations.ts, step 4; why: dead-letter-scrub.ts).
 */

export const scrubKeyQuery = 'SELECT key FROM scrub_key WHERE id = 1';
export const scrubKeyInsert = 'INSERT INTO scrub_key (id, key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING';
export const scrubbedQuery = 'SELECT fingerprint FROM scrubbed_secrets';
export const scrubbedInsert =
  'INSERT INTO scrubbed_secrets (fingerprint, scrubbed_at) VALUES (?, ?) ON CONFLICT (fingerprint) DO NOTHING';

/**
 * One UPDATE over the dead letters: every form replaced by `mask`, in the order given (the longest first, as
 * redactSecrets does), in the rows whose error holds one. `replace()` and `<>` read the same in SQLite and
 * PostgreSQL. Parameters: deadLetterMaskValues.
 */
export function deadLetterMaskStatement(formCount: number): string {
  let masked = 'error';
  for (let index = 0; index < formCount; index += 1) masked = `replace(${masked}, ?, ?)`;
  return `UPDATE dead SET error = ${masked} WHERE ${masked} <> error`;
}

export function deadLetterMaskValues(forms: readonly string[], mask: string): string[] {
  const pairs = forms.flatMap((form) => [form, mask]);
  return [...pairs, ...pairs];
}
