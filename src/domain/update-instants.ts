/**
 * Which of two versions of an order is the newer, by the `lastUpdated` stamps they carry. Read at the stamp's full
 * precision: platforms on Java or PostgreSQL stamp in microseconds, and two changes within one millisecond
 * (`.000999Z`, then `.000001Z`) are read as one instant by Date.parse, which keeps milliseconds only, so the older
 * one that came later replaced the newer one.
 */

/** An update instant: milliseconds since the epoch, and the nanoseconds past that millisecond the stamp wrote. */
export interface UpdateInstant {
  ms: number;
  nanos: number;
}

/**
 * An ISO-8601 date and time as platforms write it: `T` or a space between them (RFC 3339 allows the space; PostgreSQL
 * writes a timestamptz as text so, `2026-11-30 12:00:00.780308+00`), the fraction after a point or a comma (ISO
 * 8601's preferred sign), and `Z`, an offset in hours (`+00`, PostgreSQL's), in hours and minutes (`-0300`,
 * `+00:00`), or no zone (read in this machine's, as Date.parse reads it).
 */
const isoStamp = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?\s?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant of a `lastUpdated` as b2bctl reads instants elsewhere (an order listing's, a token's expiry): ISO-8601
 * text, or a number of epoch milliseconds, or of seconds below 10^11 (as milliseconds a day of 1973), or epoch
 * milliseconds written as a string of 13 digits. Undefined for
 * anything else (`30/11/2026 12:00:00`, which is 11/30 in another country's order, a missing or empty stamp), and for
 * an instant not after 1970 began: the placeholders serialisers write for an unset date (`0000-00-00 00:00:00`,
 * .NET's `0001-01-01T00:00:00`, epoch 0) are no instant an order was updated at.
 */
export function readUpdateInstant(stamp: unknown): UpdateInstant | undefined {
  if (typeof stamp === 'number') {
    if (!Number.isFinite(stamp) || stamp <= 0) return undefined;
    const ms = stamp < 1e11 ? stamp * 1000 : stamp;
    const whole = Math.floor(ms);
    return { ms: whole, nanos: Math.round((ms - whole) * 1e6) };
  }
  // Epoch milliseconds as a JSON string of digits: what Java and protobuf serialisers write for a 64-bit number. Only
  // 13 digits (2001 to 2286): a shorter string of digits is as likely an id or a day (`20261130`) as an instant.
  if (typeof stamp === 'string' && /^\s*\d{13}\s*$/.test(stamp)) return readUpdateInstant(Number(stamp));
  if (typeof stamp !== 'string' || !/^\s*\d{4}-\d{2}-\d{2}/.test(stamp)) return undefined;
  const written = isoStamp.exec(stamp.trim());
  const instant = written ? isoInstant(written) : { ms: Date.parse(stamp.trim()), nanos: 0 };
  return Number.isNaN(instant.ms) || instant.ms <= 0 ? undefined : instant;
}

/**
 * An ISO-8601 stamp's instant, read at its full precision: Date.parse keeps milliseconds only, and reads neither the
 * comma nor an offset in hours after a `T`, so the stamp is handed to it in the one form it reads (`T`, a point, at
 * most three digits, `±hh:mm`), and the digits past the millisecond are kept beside it (an offset moves whole
 * minutes, so they stay as written).
 */
function isoInstant([, date, time, fraction = '', zone = '']: RegExpExecArray): UpdateInstant {
  const milliseconds = fraction === '' ? '' : `.${fraction.slice(0, 3).padEnd(3, '0')}`;
  const offset = /^[+-]\d{2}$/.test(zone) ? `${zone}:00` : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  return {
    ms: Date.parse(`${date}T${time}${milliseconds}${offset.toUpperCase()}`),
    nanos: Number(fraction.slice(3, 9).padEnd(6, '0')),
  };
}

/**
 * Whether a stamp is what a serialiser writes for a date never set: `null` or blank, MySQL's and PHP's zero date
 * (`0000-00-00 00:00:00`), .NET's default (`0001-01-01T00:00:00`), epoch 0, or the words `null` and `undefined`.
 * An order's update stamp so written says it was never updated, not when.
 */
export function isUnsetStamp(stamp: unknown): boolean {
  if (stamp === null || stamp === 0) return true;
  if (typeof stamp !== 'string') return false;
  const text = stamp.trim();
  return (
    text === '' ||
    text === '0' ||
    /^(?:null|undefined)$/i.test(text) ||
    /^(?:0000-00-00|0001-01-01|1970-01-01)(?:[T ]00:00(?::00(?:[.,]0+)?)?\s*(?:Z|[+-]00(?::?00)?)?)?$/i.test(text)
  );
}

/** Epoch milliseconds of an instant as readUpdateInstant reads it; undefined when it reads none. */
export function readInstantMs(value: unknown): number | undefined {
  return readUpdateInstant(value)?.ms;
}

/** Negative when `left` is the earlier instant, positive when the later, 0 when they are the same instant. */
export function compareUpdateInstants(left: UpdateInstant, right: UpdateInstant): number {
  return left.ms - right.ms || left.nanos - right.nanos;
}

/** Where an order writes its update instant: the document's name first, then the names other platforms use. */
export const updateStampFields = [
  'lastUpdated',
  'updatedAt',
  'updated_at',
  'lastModified',
  'lastModifiedDate',
  'lastModifiedAt',
  'dateUpdated',
  'modifiedAt',
  'dateModified',
] as const;

/**
 * The update stamp of an order as written (a webhook's, an API detail's, or the order wrapped in `order`/`data`),
 * undefined when it shows none. `places` are the records to look in, the order itself first.
 */
export function updateStampOf(places: readonly unknown[]): unknown {
  for (const place of places) {
    if (place === null || typeof place !== 'object' || Array.isArray(place)) continue;
    const record = place as Record<string, unknown>;
    for (const field of updateStampFields)
      if (record[field] !== undefined && record[field] !== null) return record[field];
  }
  return undefined;
}
