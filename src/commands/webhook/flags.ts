import { InvalidArgumentError } from 'commander';

/** A `postgres://` or `postgresql://` URL. */
export function postgresUrl(value: string): string {
  if (/^postgres(?:ql)?:\/\//.test(value)) return value;
  throw new InvalidArgumentError('expected a PostgreSQL URL such as postgres://user@db.internal/webhooks.');
}

/** One or more event ids. */
export function eventId(value: string, previous: number[] = []): number[] {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected an event id (a whole number, see webhook inbox).');
  return [...previous, Number(value)];
}

/**
 * `--forward-batch`: events a POST carries, 1 to 32. No more than a hand-off reads ahead at once, which bounds what
 * it holds in memory (each event may be as large as --body-limit).
 */
export function forwardBatch(value: string): number {
  const count = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (count >= 1 && count <= 32) return count;
  throw new InvalidArgumentError('expected a number of events from 1 to 32.');
}
