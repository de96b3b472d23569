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
