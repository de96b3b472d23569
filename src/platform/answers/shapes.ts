import { B2bctlError, ExitCode } from '../../base/errors.js';
import { looksLikeHtml } from '../../base/quoted-answer.js';
import { WrittenNumber } from '../../lib/written-json.js';
import { readInstantMs } from '../../domain/update-instants.js';
import { valueAtPath } from '../../domain/validation.js';
import { shownUrl } from '../redact.js';

/**
 * Reading answers the platform document does not show. The rule (docs/platform.md, "Where the document is silent"): decide on status
 * codes and on what the document shows, never on an undocumented message's wording, and never turn
 * a 2xx into a failure because its body is not the shape we guessed.
 */

/**
 * Whether the body shows the place at `path` and shows it empty: the value, or a step on the way to it, present as
 * null or '' (`"invoice": null` for `invoice.accessKey`), or an empty list (`"invoices": []` for `invoices.0.key`).
 * An absent key tells nothing: a platform whose detail does not show the place is not read as saying it is empty.
 */
export function shownEmptyAt(body: unknown, path: string): boolean {
  let value = body;
  for (const step of path.split('.').filter((part) => part !== '')) {
    if (value === null || value === '') return true;
    if (Array.isArray(value) && value.length === 0) return true;
    if (typeof value !== 'object') return false;
    if (!(step in value)) return false;
    value = (value as Record<string, unknown>)[step];
  }
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** The first of several candidate paths that holds a value accepted by `accept`. */
export function firstAt<T>(
  body: unknown,
  paths: readonly string[],
  accept: (value: unknown) => value is T,
): { path: string; value: T } | undefined {
  for (const path of paths) {
    const value = path === '' ? body : valueAtPath(body, path);
    if (accept(value)) return { path, value };
  }
  return undefined;
}

export const isArray = (value: unknown): value is unknown[] => Array.isArray(value);
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
export const isNonEmptyText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
/** An id: text, a number, or a whole number past 2^53 kept as written (String() gives its digits). */
export const isIdLike = (value: unknown): value is string | number | WrittenNumber =>
  isNonEmptyText(value) || (typeof value === 'number' && Number.isFinite(value)) || value instanceof WrittenNumber;

/**
 * An instant: ISO-8601 text (read as an order's update stamp is, update-instants.ts: a space or a `T`, `+00`, a
 * decimal comma), or a number of epoch seconds or milliseconds (told apart by `instantMs`).
 */
export function isInstant(value: unknown): value is string | number {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0;
  return typeof value === 'string' && readInstantMs(value) !== undefined;
}

/**
 * An instant's epoch milliseconds. A number below 10^11 is seconds: as milliseconds it would be a day of 1973, and as
 * seconds 10^11 is the year 5138, so no instant an answer states is read in the wrong unit.
 */
export function instantMs(value: string | number): number {
  return typeof value === 'number' ? (value < 1e11 ? value * 1000 : value) : (readInstantMs(value) ?? Number.NaN);
}

/** A setting's candidate paths: the setting's own value first when set, else the recognised ones. */
export function candidatePaths(setting: string | undefined, recognised: readonly string[]): readonly string[] {
  return setting !== undefined && setting.trim() !== '' ? [setting.trim()] : recognised;
}

/**
 * An HTML page where JSON was expected: a proxy's or a captive portal's login page, a gateway's error page. Decided
 * by the body: one that parses as JSON is the platform's JSON whatever its label (a Java platform may label its
 * JSON `text/html`), and a page that starts as HTML is one whatever its label.
 */
export function isHtmlAnswer(contentType: string | undefined, text: string): boolean {
  if (looksLikeHtml(text)) return true;
  return contentType !== undefined && /\btext\/html\b/i.test(contentType) && !isJson(text);
}

function isJson(text: string): boolean {
  // Only a body that starts as JSON's objects and lists do is parsed: a page of text is not read whole for nothing.
  if (!/^\s*[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A 2xx that is an HTML page (a proxy's or captive portal's login page): the error that says so; else undefined. */
export function proxyPageOf(
  request: { method: string; changesNothing?: boolean },
  response: {
    status: number;
    url: string;
    text: string;
    headers: Readonly<Record<string, string | string[] | undefined>>;
  },
): ProxyPageError | undefined {
  const contentType = response.headers['content-type'];
  return isHtmlAnswer(Array.isArray(contentType) ? contentType[0] : contentType, response.text)
    ? new ProxyPageError(
        { method: request.method, url: shownUrl(response), changesNothing: request.changesNothing },
        response.status,
        response.text,
      )
    : undefined;
}

/** The page title of an HTML answer, for the one line that names it. */
export function htmlTitle(text: string): string | undefined {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
  return title ? title.slice(0, 80) : undefined;
}

/**
 * A 2xx answered by something in front of the platform (a proxy or gateway login page). Nothing the
 * platform said can be read from it; the operator has a network or proxy problem to solve.
 */
export class ProxyPageError extends B2bctlError {
  /**
   * What the report row of a record whose write this page answered says, or undefined for a read. An answer came, so
   * the request was written on its connection, and what answered may have passed it on: a WAF or edge proxy that
   * rewrites the platform's answer, not only a captive portal that kept it. A bulk run's record is then `unknown`,
   * never `not sent` (docs/bulk-runs.md). A read, or a write that changes nothing (the empty update that asks about a
   * customer), applied nothing whoever answered.
   */
  readonly unknownOutcome: string | undefined;

  readonly status: number;
  constructor(request: { method: string; url: string; changesNothing?: boolean }, status: number, text: string) {
    const title = htmlTitle(text);
    const page = `${request.method} ${request.url} answered HTTP ${status} with an HTML page${title ? ` ("${title}")` : ''}`;
    super(
      `${page} instead of the platform's JSON: a proxy, firewall or captive portal is answering in the platform's place. Check the base URL and the proxy settings (HTTPS_PROXY), or log in to the network, then try again.`,
      ExitCode.unavailable,
    );
    this.status = status;

    this.unknownOutcome =
      request.method === 'GET' || request.method === 'HEAD' || request.changesNothing === true
        ? undefined
        : `${page}, not the platform's answer: the request was sent, and may have been applied (a proxy or firewall in front of the platform may have passed it on, then rewritten its answer).`;
  }
}

/**
 * A count as the platform wrote it: a whole number 0 or more, as a number or as digits in text (`"falhas": "0"`: a
 * Java or .NET gateway writes its longs as strings); undefined for anything else. `"0"` read as text was a refusal,
 * and a night of 3000 applied items ended 3000 `unknown` (a fresh user test).
 */
export function countAsWritten(value: unknown): number | undefined {
  const written = typeof value === 'string' || value instanceof WrittenNumber ? String(value).trim() : undefined;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  return written !== undefined && /^\d{1,15}$/.test(written) ? Number(written) : undefined;
}
