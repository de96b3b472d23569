import { InvalidArgumentError } from 'commander';

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30d`, `12h`, `15m`, `90s`, `500ms` as milliseconds; a bare number is seconds. */
export function duration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(value.trim());
  const amount = match ? Number(match[1]) * (units[match[2] ?? 's'] as number) : Number.NaN;
  if (!(amount > 0)) throw new InvalidArgumentError('expected a duration such as 30d, 12h, 15m or 90s.');
  return amount;
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
