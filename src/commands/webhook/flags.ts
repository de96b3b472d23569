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
