/** Small readings of HTTP text shared by the client and the receiver. */

/** `application/x-www-form-urlencoded` text decoded (`+` is a space); the text as it is when it is not valid. */
export function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/** A header's value as one text: the first, where a header came more than once. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * An HTTP date's milliseconds (RFC 9110 §5.6.7: IMF-fixdate, RFC 850 or asctime), or undefined when the text is no
 * HTTP date. Only those forms: V8's Date.parse reads "abc 1" as 2001 and a gateway's `01/12/2026 02:24:13` as
 * January 12, and a clock read that way held the orders window 323 days back (a user test).
 */
export function httpDate(text: string): number | undefined {
  const trimmed = text.trim();
  if (
    !/^[A-Za-z]{3,9}, \d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT$|^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/.test(
      trimmed,
    )
  )
    return undefined;
  const date = Date.parse(trimmed.endsWith('GMT') ? trimmed : `${trimmed} GMT`);
  return Number.isNaN(date) ? undefined : date;
}

/** What a `Date` header says: the instant it writes, or its text when it is there but is no HTTP date. */
export type HttpDateHeader = { ms: number } | { unreadable: string };

/** The `Date` header of an answer read strictly (`httpDate`); undefined when the answer has none. */
export function httpDateOf(header: string | string[] | undefined): HttpDateHeader | undefined {
  const text = headerText(header);
  if (text === undefined || text.trim() === '') return undefined;
  const ms = httpDate(text);
  return ms === undefined ? { unreadable: text } : { ms };
}

/**
 * Milliseconds a `Retry-After` header asks for: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when the header is absent or unreadable. A date is the platform's clock, so it is measured from the
 * answer's own `Date` (`answeredAt`) when it has one: a platform 10 minutes ahead asking for 3 s asked for 3 s, not
 * for 603 (records failed as "unavailable"); this machine's clock only when the answer gives no date.
 */
export function parseRetryAfter(header: string | undefined, nowMs: number, answeredAt?: string): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = httpDate(text);
  if (date === undefined) return undefined;
  const platformNow = answeredAt === undefined ? undefined : httpDate(answeredAt);
  return Math.max(0, date - (platformNow ?? nowMs));
}
