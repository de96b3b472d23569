/** The one grammar for a length of time, shared by every flag and setting that takes one. Pure. */

const millisecondsPer = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** A unit of the grammar: `ms`, `s`, `m`, `h`, `d` or `w`. */
export type TimeUnit = keyof typeof millisecondsPer;

/**
 * `500ms`, `1.5s`, `15m`, `2h`, `7d`, `1w` (any case, a space allowed before the unit) in whole milliseconds. A
 * bare number counts in `bareUnit` where the caller has one (a setting that always meant seconds keeps its
 * meaning), and is no duration where it has none. Undefined when the text is not a duration.
 */
export function parseDuration(text: string, bareUnit?: TimeUnit): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?$/i.exec(text.trim());
  const unit = (match?.[2]?.toLowerCase() as TimeUnit | undefined) ?? bareUnit;
  if (match === null || unit === undefined) return undefined;
  const milliseconds = Math.round(Number(match[1]) * millisecondsPer[unit]);
  return Number.isSafeInteger(milliseconds) ? milliseconds : undefined;
}

/** Milliseconds in one `unit`. */
export function millisecondsIn(unit: TimeUnit): number {
  return millisecondsPer[unit];
}

/** `0.5 s`, `30 s`, `12 min`, `72 h`, `500 days`: a duration as the logs say it (days from a week on). */
export function spokenDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 6000) / 10} min`;
  if (ms < millisecondsPer.w) return `${Math.round(ms / 360_000) / 10} h`;
  return `${Math.round(ms / 8_640_000) / 10} days`;
}
