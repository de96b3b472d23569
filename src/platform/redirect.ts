import { B2bctlError, ExitCode } from '../base/errors.js';
import { shownUrl } from './redact.js';
import { redacted, redactSecrets } from '../lib/secret-values.js';

/** An answer b2bctl reads as a redirect: never followed, never a success. */
export interface RedirectAnswer {
  status: number;
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The credentials the request carried (HttpResponse's): a Location may hold one anywhere, its path too. */
  requestSecrets?: readonly string[];
}

/**
 * Whether an answer is a redirect (3xx). Never followed: it would take the token to wherever it points, and a
 * platform that moved is one base URL to change. Never a success either: b2bctl cannot tell what the redirect hides.
 */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/**
 * What a redirect is and what to do, in the words every command and `b2bctl api` use: `a redirect to …, not
 * followed: …`. A permanent redirect (301, 308) to another path on the same host and port is a route that moved
 * (`/v2/…`), which the route's `paths.*` setting mends, or for `b2bctl api` (`pathGiven`) the path the user types; the
 * same path under a prefix may also be every route moved, which the base URL mends. A temporary one (302, 303, 307)
 * to the same host is more often a maintenance or login page.
 */
export function redirectWords(response: RedirectAnswer, pathGiven = false): string {
  return `a redirect${locationOf(response)}, not followed: ${whatToDo(response, pathGiven)}`;
}

function whatToDo(response: RedirectAnswer, pathGiven: boolean): string {
  const moved = routeMovedOnSameHost(response);
  if (moved === undefined)
    return 'the token goes to the base URL only; if the platform moved (http to https, another host), set the base URL there';
  if (pathGiven) return 'the route moved on this host; call the path it names';
  const everyRoute =
    moved.prefix === '' ? '' : `if every route moved under ${moved.prefix}, add it to the base URL; else `;
  return `the route moved on this host; ${everyRoute}set that route's paths.* setting to the path it names (b2bctl config list shows the routes)`;
}

/** A permanent redirect to another path of the same origin, and the prefix it put before the path asked (or ''). */
function routeMovedOnSameHost(response: RedirectAnswer): { prefix: string } | undefined {
  const text = firstLocation(response);
  if (!text || (response.status !== 301 && response.status !== 308)) return undefined;
  try {
    const from = new URL(response.url);
    const to = new URL(text, response.url);
    if (to.origin !== from.origin || to.pathname === from.pathname) return undefined;
    return { prefix: to.pathname.endsWith(from.pathname) ? to.pathname.slice(0, -from.pathname.length) : '' };
  } catch {
    return undefined;
  }
}

function firstLocation(response: Pick<RedirectAnswer, 'headers'>): string | undefined {
  const location = response.headers.location;
  return (Array.isArray(location) ? location[0] : location)?.trim();
}

/**
 * A redirect answered in the platform's place: exit 69 as for any answer that did not come from the platform's route
 * (an HTML login page, a gateway's 502 page). A bulk run stops at it; the records whose write it answered are
 * `unknown` (unknownOutcome), those no request carried stay `not sent` for the resume.
 */
export class RedirectAnswerError extends B2bctlError {
  /**
   * What the report row of a record whose write this redirect answered says, or undefined for a read (and for a
   * write that changes nothing, the empty update that asks about a customer). The request went out whole before the
   * answer came, and a 3xx does not say the write was not applied: a 303 says it was (see other, for its result), a
   * server may store a POST and then redirect (302 after a form), and a proxy in front may have passed it on before
   * its own 301/308 (http to https). So a bulk run's record is `unknown`, never `not sent` (docs/networks.md).
   */
  readonly unknownOutcome: string | undefined;

  readonly response: RedirectAnswer;
  constructor(request: { method: string; changesNothing?: boolean }, response: RedirectAnswer) {
    const answered = `${request.method} ${shownUrl(response)} answered HTTP ${response.status} (${redirectWords(response)})`;
    const changesNothing = request.method === 'GET' || request.method === 'HEAD' || request.changesNothing === true;
    const unknownOutcome = changesNothing
      ? undefined
      : `${answered}: the request was sent, and ${mayHaveBeenApplied(response.status)}.`;
    // A write's line says so too: `orders ready 4` has no report row to say it in.
    super(unknownOutcome ?? `${answered}.`, ExitCode.unavailable);
    this.response = response;

    this.unknownOutcome = unknownOutcome;
    this.movedTo = movedOrigin(response);
  }

  /**
   * The origin (`https://api.example.com.br`) the Location names when it is another than the request's (http to
   * https, another host): a bulk run stopped here keeps it in its run record, and its resume may then send there.
   */
  readonly movedTo: string | undefined;

  get status(): number {
    return this.response.status;
  }
}

function movedOrigin(response: Pick<RedirectAnswer, 'headers' | 'url'>): string | undefined {
  const text = firstLocation(response);
  if (!text) return undefined;
  try {
    const from = new URL(response.url).origin;
    const to = new URL(text, response.url).origin;
    return to !== from && /^https?:/.test(to) ? to : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a write answered by this redirect was applied, as far as its status tells. */
function mayHaveBeenApplied(status: number): string {
  return status === 303
    ? 'a 303 (see other) says it was handled, its result elsewhere'
    : 'may have been applied before the redirect';
}

/**
 * The Location a redirect names, shown safely: no user-info and no query value (an SSO redirect carries a session
 * code or a signed request there, under any name), no fragment, and no credential the request carried wherever it
 * stands (a gateway sending an expired session to `/login/<the token>/`), on one line. A relative Location is shown
 * as sent (`/maintenance`: the same host).
 */
function locationOf(response: Pick<RedirectAnswer, 'headers' | 'requestSecrets'>): string {
  const text = firstLocation(response);
  if (text === undefined || text === '') return '';
  const [address = '', query] = text.replace(/#.*$/s, '').split(/\?(.*)/s);
  const withoutUserInfo = address.replace(/^([a-z][\w+.-]*:\/\/)[^/]*@/i, `$1${redacted}@`);
  const names = query?.split('&').map((pair) => (pair.includes('=') ? `${pair.split('=')[0]}=${redacted}` : pair));
  const shown = redactSecrets(
    names === undefined ? withoutUserInfo : `${withoutUserInfo}?${names.join('&')}`,
    response.requestSecrets ?? [],
  );
  // Node's HTTP parser refuses CR and LF in a header, but a tab or another control character may be there.
  return ` to ${[...shown].map((character) => (isControl(character) ? encodeURIComponent(character) : character)).join('')}`;
}

function isControl(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f;
}
