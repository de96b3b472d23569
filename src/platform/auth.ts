import { AuthError, messageOfBody, PlatformError, UnavailableError, UsageError } from '../base/errors.js';
import { unsendableTokenCharacter } from '../domain/bearer-token.js';
import { readTokenAnswer, type TokenAnswer, type TokenAnswerSettings } from './answers/token.js';
import { isHtmlAnswer, ProxyPageError } from './answers/shapes.js';
import type { HttpClient } from './http-client.js';
import { redactSecrets } from './redact.js';
import { isRedirect, RedirectAnswerError } from './redirect.js';
import { parseJsonKeepingNumbers, parseWrittenJson } from '../lib/written-json.js';

export type TokenRouteStyle = 'json' | 'form' | 'basic';

/** A token and what its answer says of its end, as read (src/domain/token-expiry.ts decides what to believe). */
export type IssuedToken = TokenAnswer;

/** Where and how the token is asked for. */
export interface TokenRoute {
  path: string;
  style: TokenRouteStyle;
  answers?: TokenAnswerSettings;
  /**
   * The path is b2bctl's default, not one the user set: the platform document does not show the token route, so a
   * refusal there may be the route's and not the password's.
   */
  guessed?: boolean;
}

/** Exchanges the integration user's credentials for an access token at the token route. */
export async function requestToken(
  http: HttpClient,
  route: TokenRoute,
  credentials: { username: string; password: string },
): Promise<IssuedToken> {
  return (await exchangeToken(http, route, credentials)).issued;
}

/** A token the token route issued, with the answer it came in (its body, passwords masked), for doctor to say where. */
export interface TokenExchange {
  issued: IssuedToken;
  status: number;
  body: unknown;
}

/**
 * The one login: the token request, and what its answer means, for `login`, the token source and `doctor` alike.
 * Throws a typed error for each answer that gives no token b2bctl can send: LoginRefusedError (400, 401, 403),
 * NoTokenRouteError (404, 405), PlatformError (another error status), RedirectAnswerError, ProxyPageError,
 * NoTokenInAnswerError (a 2xx without a token where b2bctl looks) and UnsendableTokenError.
 */
export async function exchangeToken(
  http: HttpClient,
  route: TokenRoute,
  credentials: { username: string; password: string },
): Promise<TokenExchange> {
  const request = tokenRequest(route.style, credentials);
  const response = await http.request({
    method: 'POST',
    path: route.path,
    ...request,
    safeToRepeat: true,
    // Asks for a token: unanswered, nothing to check at the platform before asking again.
    changesNothing: true,
    secretsInAnswer: issuedTokenOf(route.answers),
  });
  const url = http.urlFor(route.path).toString();
  // A token route's error may echo the credentials it was sent (a form's password, a Basic credential's base64):
  // never let them into a message.
  const body = parseJson(redactSecrets(response.text, [credentials.password, ...(response.requestSecrets ?? [])]));
  const refusingRoute = { style: route.style, url, guessedPath: route.guessed === true ? route.path : undefined };
  if (response.status === 400 || response.status === 401 || response.status === 403)
    throw new LoginRefusedError(response.status, body, refusingRoute, credentials.username);
  if (response.status === 404 || response.status === 405)
    throw new NoTokenRouteError(refusingRoute, response.status, body);
  if (response.status >= 400) throw new PlatformError(response.status, { method: 'POST', url }, body);
  if (isRedirect(response.status)) throw new RedirectAnswerError({ method: 'POST', changesNothing: true }, response);
  const contentType = response.headers['content-type'];
  if (isHtmlAnswer(Array.isArray(contentType) ? contentType[0] : contentType, response.text))
    throw new ProxyPageError({ method: 'POST', url }, response.status, response.text);
  const answer = readTokenAnswer(body, route.answers);
  if (!answer) throw new NoTokenInAnswerError(url, response.status, body);
  const unsendable = unsendableTokenCharacter(answer.accessToken);
  if (unsendable !== undefined) throw new UnsendableTokenError(url, unsendable, { status: response.status, body });
  return { issued: answer, status: response.status, body };
}

/**
 * The route a token request was refused at: its style, its URL, and its path when that is b2bctl's default guess
 * rather than a paths.token the user set.
 */
export interface RefusingTokenRoute {
  style: TokenRouteStyle;
  url: string;
  guessedPath: string | undefined;
}

/**
 * Where a refusal at a guessed token route sends the user besides the credentials: the store's token route may be
 * elsewhere, as the platform document does not show it (a user test lost minutes re-typing a right password).
 */
function guessedRouteWords(guessedPath: string): string {
  return `POST ${guessedPath} is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic)`;
}

/** `HTTP 401`, or `HTTP 401: ` and the platform's own words (masked and cut as every quoted answer) when it gave some. */
function answerWords(status: number, body: unknown): string {
  const said = messageOfBody(body);
  return `HTTP ${status}${said === undefined ? '' : `: ${said}`}`;
}

/** No token route at the path (HTTP 404 or 405): exit 2, the paths.token setting to check. */
export class NoTokenRouteError extends UsageError {
  readonly status: number;
  constructor(route: RefusingTokenRoute, status: number, body: unknown) {
    const answer = answerWords(status, body);
    super(
      route.guessedPath === undefined
        ? `The token route POST ${route.url} does not exist (${answer}). Check the paths.token setting (b2bctl config get paths.token).`
        : `The token route POST ${route.url} does not exist (${answer}): ${guessedRouteWords(route.guessedPath)}.`,
    );
    this.status = status;
  }
}

/**
 * The token route answered 2xx without a token where b2bctl looks: exit 1, as another answer the platform gave and
 * b2bctl cannot use. `body` is the answer as read, passwords masked (doctor names its fields).
 */
export class NoTokenInAnswerError extends PlatformError {
  constructor(url: string, status: number, body: unknown) {
    super(
      status,
      { method: 'POST', url },
      body,
      'the token route answered without a token b2bctl recognises (access_token, accessToken, token); set answers.token.accessToken to the field that holds it, or check paths.token and auth.style',
    );
  }
}

/**
 * The token route answered a token that holds a character no HTTP header can carry (a line break inside it, another
 * control character): exit 69, as for another answer b2bctl cannot use. Refused at login, so it is never stored and
 * every later command does not fail to send it as if the network were down; the token itself is never shown.
 */
export class UnsendableTokenError extends UnavailableError {
  readonly character: string;
  readonly answer: { status: number; body: unknown };
  /**
   * `character`: the one found, described (`a carriage return (CR)`); `answer`: the status and body it came in
   * (passwords masked), for doctor to say where the answer holds it.
   */
  constructor(url: string, character: string, answer: { status: number; body: unknown }) {
    super(
      `POST ${url} answered a token that holds ${character}, which no HTTP header can carry, so b2bctl cannot send it; nothing was stored. The token route's answer is malformed: check paths.token and answers.token.accessToken, or ask the platform's support (b2bctl --verbose login shows the answer, the token masked).`,
    );
    this.character = character;
    this.answer = answer;
  }
}

/**
 * The token route refused a login (HTTP 400, 401 or 403): exit 77. Its message is `b2bctl login`'s; an automatic
 * login (src/platform/token-source.ts) says more with the same parts: who was refused where, the answer, and the
 * first thing to check.
 */
export class LoginRefusedError extends AuthError {
  /** `HTTP 401`, or `HTTP 401: ` and the platform's own words when its body has some. */
  readonly answer: string;
  /**
   * A 400 refuses the request, and a request of the wrong style (json, form, basic) or at the wrong route is
   * refused so whatever the password: what to check before the credentials. An OAuth server answers a wrong
   * password with 400 too (RFC 6749, invalid_grant), so the credentials stay the last check, not ruled out.
   */
  readonly checkFirst: string | undefined;
  /**
   * A 401 or 403 at a token route b2bctl guessed (paths.token not set): the other thing to check, after the
   * credentials. A 400's `checkFirst` names the route already.
   */
  readonly routeElsewhere: string | undefined;
  readonly status: number;
  private readonly route: RefusingTokenRoute;
  readonly username: string;
  constructor(status: number, body: unknown, route: RefusingTokenRoute, username: string) {
    const answer = answerWords(status, body);
    const routeElsewhere =
      status !== 400 && route.guessedPath !== undefined
        ? `the token route may be elsewhere: ${guessedRouteWords(route.guessedPath)}`
        : undefined;
    const checkFirst =
      status === 400
        ? `a 400 is most often the request's shape rather than the password. Check auth.style, the style of the request (json, form or basic; this one was ${route.style}), and paths.token; if both are right,`
        : undefined;
    super(refusalWords({ username, answer, checkFirst, routeElsewhere, url: route.url }, 'password'));
    this.status = status;
    this.route = route;
    this.username = username;

    this.answer = answer;
    this.checkFirst = checkFirst;
    this.routeElsewhere = routeElsewhere;
  }

  /** The message, naming where the password came from (`B2BCTL_PASSWORD`), as `doctor` tells its user what to check. */
  withPasswordFrom(source: string): string {
    const { username, answer, checkFirst, routeElsewhere } = this;
    return refusalWords({ username, answer, checkFirst, routeElsewhere, url: this.route.url }, source);
  }
}

function refusalWords(
  refusal: {
    username: string;
    answer: string;
    checkFirst: string | undefined;
    routeElsewhere: string | undefined;
    url: string;
  },
  password: string,
): string {
  const { username, answer, checkFirst, routeElsewhere, url } = refusal;
  if (checkFirst !== undefined)
    return `The token route POST ${url} refused the login request for ${username} (${answer}): ${checkFirst} the username and ${password}.`;
  const credentials = `check the username and ${password}`;
  return `Login refused for ${username} at ${new URL(url).origin} (${answer}): ${routeElsewhere === undefined ? credentials : `${credentials}, or ${routeElsewhere}`}.`;
}

/**
 * The token a token route's answer holds, wherever b2bctl reads it from: a secret of the `--verbose` trace. An answer
 * whose token b2bctl does not find (a field of the platform's own name, `{"data":{"sessao":"…"}}`) still holds one:
 * `login --verbose` is where an operator looks for that field's name, and the trace went into tickets with a live
 * 12-hour token (a fresh user test). Every text of a 2xx answer that could be a token is kept out then; the names
 * stay. A refusal issues none: its words (`"status":"UNAUTHORIZED"`, `invalid_grant`) stay readable (a user test).
 */
export function issuedTokenOf(
  answers: TokenAnswerSettings | undefined,
): (text: string, status: number) => readonly string[] {
  return (text, status) => {
    const answer = parseJson(text);
    const token = readTokenAnswer(answer, answers)?.accessToken;
    if (token !== undefined) return [token];
    if (status < 200 || status >= 300) return [];
    return typeof answer === 'string' ? possibleTokens([answer.trim()]) : possibleTokens(textsIn(answer));
  };
}

/** The shortest text taken for a possible token: no platform issues a shorter one, and `Bearer`, `pt-BR` stay shown. */
const shortestPossibleToken = 8;

/** Texts of one word, long enough to be a token: a sentence (a message) or a short word (a token type) is none. */
function possibleTokens(texts: readonly string[]): string[] {
  return texts.filter((text) => text.length >= shortestPossibleToken && !/\s/.test(text));
}

/** Every text in a JSON value, at any depth. */
function textsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(textsIn);
  return [];
}

export function tokenRequest(
  style: TokenRouteStyle,
  credentials: { username: string; password: string },
): { headers: Record<string, string>; body: string } {
  switch (style) {
    case 'json':
      return {
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ username: credentials.username, password: credentials.password }),
      };
    case 'form':
      return {
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'password',
          username: credentials.username,
          password: credentials.password,
        }).toString(),
      };
    case 'basic':
      return {
        headers: {
          authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
      };
  }
}

/**
 * A platform answer's JSON (whole numbers past 2^53 kept as written, or with `numbersAsWritten` every number a double
 * would change); the text itself when it is not JSON.
 */
export function parseJson(text: string, numbersAsWritten = false): unknown {
  if (text === '') return undefined;
  try {
    return numbersAsWritten ? parseJsonKeepingNumbers(text) : parseWrittenJson(text);
  } catch {
    return text;
  }
}
