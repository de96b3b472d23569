/**
 * Instants as people type them on a command line. Pure but for the machine's time zone, which is the point: a time
 * written without `Z` or an offset is the machine's local time (TZ), and a date alone is its local midnight, as git's
 * `--since` and journalctl read them. JavaScript's Date.parse reads a date alone as UTC but a date-time without an
 * offset as local, so `--until 2026-11-21` on a São Paulo machine ended at 21:00 of the 20th while
 * `--until 2026-11-21T00:00` ended at midnight.
 */

/** `2026-11-20`, `2026-11-20T14:30`, `2026-11-20 14:30:05.123`, each with `Z`, `±hh:mm` or nothing. */
const instantPattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** The epoch milliseconds of `text`, or undefined when it is no ISO-8601 date or date-time (or no real one: 02-30). */
export function parseInstant(text: string): number | undefined {
  const match = instantPattern.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Number((match[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const zone = match[8];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const instant =
    zone === undefined
      ? new Date(year, month - 1, day, hour, minute, second, ms)
      : new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes(zone) * 60_000);
  // A day past the month's end (02-30) rolls over into the next month: no date anyone meant.
  const written = zone === undefined ? instant : new Date(Date.UTC(year, month - 1, day));
  const dayOf = zone === undefined ? written.getDate() : written.getUTCDate();
  return dayOf === day ? instant.getTime() : undefined;
}

/** `Z`, `-03:00` or `-0300` as minutes east of UTC. */
function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
}
