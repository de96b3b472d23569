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

/** The fraction of a second an ISO-8601 time writes, past its seconds: `.000999` in `12:00:00.000999Z`. */
const secondsFraction = /T\d{2}:\d{2}:\d{2}[.,](\d+)/i;

/**
 * The instant of a `lastUpdated` as b2bctl reads instants elsewhere (an order listing's, a token's expiry): ISO-8601
 * text, or a number of epoch milliseconds, or of seconds below 10^11 (as milliseconds a day of 1973), or epoch
 * milliseconds written as a string of 13 digits. Undefined for anything else (`30/11/2026 12:00:00`, which is 11/30 in another country's order, a missing or empty stamp).
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
  const ms = Date.parse(stamp.trim());
  if (Number.isNaN(ms)) return undefined;
  // Date.parse drops the digits past the millisecond; an offset moves whole minutes, so they stay as written.
  const fraction = secondsFraction.exec(stamp)?.[1] ?? '';
  return { ms, nanos: Number(fraction.slice(3, 9).padEnd(6, '0')) };
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
