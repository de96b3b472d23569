import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../../domain/duration.js';

/** `30d`, `12h`, `15m`, `90s`, `500ms` (the grammar of src/domain/duration.ts) as milliseconds; a bare number is seconds. */
export function duration(value: string): number {
  const milliseconds = parseDuration(value, 's') ?? 0;
  if (milliseconds <= 0) throw new InvalidArgumentError('expected a duration such as 30d, 12h, 15m or 90s.');
  return milliseconds;
}

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
