import { InputError } from '../base/errors.js';
import { countOf } from '../lib/plural.js';

/**
 * `--min-records N`: a nightly export that came out empty or cut short is an error (exit 65) before anything is
 * sent, not a quiet "nothing to send" that cron reports as success.
 */
export function checkMinimumRecords(records: number, minimum: number | undefined, shownName: string): void {
  if (minimum === undefined || records >= minimum) return;
  throw new InputError(
    `${shownName} has ${countOf(records, 'records')}, fewer than --min-records ${minimum} (an empty or cut-short export?); nothing was sent.`,
    { file: shownName },
  );
}
