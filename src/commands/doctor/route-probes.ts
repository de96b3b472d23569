import type { Session } from '../../config/session.js';
import { believedTokenExpiry, millisecondLifetimeFrom, tokenNeedsRenewal } from '../../domain/token-expiry.js';
import { B2bctlError, ExitCode, PlatformError, UnavailableError } from '../../base/errors.js';
import { documentInPath, type DocumentInPath } from '../../domain/documents.js';
import { bearerTokenText, unsendableTokenCharacter } from '../../domain/bearer-token.js';
import { isPlainHttpOffMachine } from '../../net/plain-http.js';
import { locateListingPage } from '../../platform/answers/listing.js';
import { locateOrderListing, type OrderAnswerSettings } from '../../platform/answers/orders.js';
import { valueAtPath as valueAt } from '../../domain/validation.js';
import { htmlTitle, isHtmlAnswer, isRecord, ProxyPageError } from '../../platform/answers/shapes.js';
import { locateTokenAnswer, type TokenAnswerSettings } from '../../platform/answers/token.js';
import {
  exchangeToken,
  LoginRefusedError,
  NoTokenInAnswerError,
  NoTokenRouteError,
  parseJson,
  type TokenExchange,
  UnsendableTokenError,
} from '../../platform/auth.js';
import type { HttpClient, HttpResponse } from '../../platform/http-client.js';
import { redactSecrets, redactUrl } from '../../platform/redact.js';
import { isRedirect, RedirectAnswerError, redirectWords } from '../../platform/redirect.js';
import { documentSlashAdvice } from '../../platform/customers.js';
import { encodedSlashRefusal } from '../../platform/encoded-slash.js';
import { tokenRoute } from '../../platform/token-source.js';
import type { Finding } from './findings.js';
import { quotedAnswer } from '../../base/quoted-answer.js';

/** The password is not sent where a login would refuse to send it (src/net/plain-http.ts). */
function plainHttpRefusal(
  session: Session,
  check: string,
  env: Readonly<Record<string, string | undefined>>,
  credential: 'the password' | 'the token',
): Finding | undefined {
  if (!isPlainHttpOffMachine(new URL(session.requireBaseUrl()), env) || session.get('http.allowPlain') === 'true')
    return undefined;
  return {
    check,
    result: 'fail',
    detail: `not tried: ${credential} would cross the network in plain HTTP; use the https:// address, or set http.allowPlain (B2BCTL_ALLOW_HTTP=true) if that network is trusted`,
    setting: 'baseUrl',
    exitCode: ExitCode.usage,
  };
}

/** The password doctor logs in with, and where it came from, as a refusal names it. */
export interface DoctorPassword {
  value: string;
  source: string;
}

/**
 * The token: a fresh one from the token route when a password is given (showing where the answer holds it), else
 * the cached one and its expiry. The token itself is never shown. The login is the commands' own (exchangeToken):
 * a second copy here had drifted from it (a CR-ended password refused, a 5xx read as a token-less answer).
 */
export async function probeToken(
  http: HttpClient,
  session: Session,
  env: Readonly<Record<string, string | undefined>>,
  nowMs: number,
  password: DoctorPassword | undefined,
): Promise<{ finding: Finding; token: string | undefined }> {
  const route = tokenRoute(session);
  const username = session.get('username');
  const check = `POST ${route.path} (${route.style})`;
  if (!username || !password) {
    // The routes are probed with the cached token: by the rule every command keeps, never in clear past this machine.
    const token = cachedTokenValue(session, nowMs);
    const refused = token === undefined ? undefined : plainHttpRefusal(session, 'token (cached)', env, 'the token');
    return refused ? failed(refused) : { finding: cachedToken(session, nowMs, password?.source), token };
  }
  const refused = plainHttpRefusal(session, check, env, 'the password');
  if (refused) return failed(refused);
  let exchange: TokenExchange;
  try {
    exchange = await exchangeToken(http, route, { username, password: password.value });
  } catch (error) {
    return failed({ check, ...noTokenFinding(error, password.source, route.answers) });
  }
  return tokenAnswerFinding({ check, status: exchange.status }, exchange, route.answers, username, nowMs);
}

/**
 * What the login's typed refusal means as a finding: its words (the refusal naming where the password came from,
 * a token-less answer its fields), the setting to look at, and the exit code the login would have ended with.
 */
function noTokenFinding(error: unknown, passwordSource: string, answers: TokenAnswerSettings): Omit<Finding, 'check'> {
  const failure = { result: 'fail' as const, detail: (error as Error).message };
  if (error instanceof LoginRefusedError)
    return {
      ...failure,
      status: error.status,
      detail: error.withPasswordFrom(passwordSource),
      setting:
        error.checkFirst !== undefined ? 'auth.style' : error.routeElsewhere !== undefined ? 'paths.token' : undefined,
      exitCode: error.exitCode,
    };
  if (error instanceof NoTokenRouteError)
    return { ...failure, status: error.status, setting: 'paths.token', exitCode: error.exitCode };
  if (error instanceof NoTokenInAnswerError)
    return {
      ...failure,
      status: error.status,
      detail: `answered ${error.status} without a token b2bctl recognises (fields: ${fieldsOf(error.body)})`,
      setting: 'answers.token.accessToken',
      exitCode: error.exitCode,
    };
  if (error instanceof UnsendableTokenError) {
    const { status, body } = error.answer;
    const where = locateTokenAnswer(body, answers).tokenPath;
    return {
      ...failure,
      status,
      detail: `answered ${status} with a token${where === undefined ? '' : ` in "${where}"`} that holds ${error.character}, which no HTTP header can carry: b2bctl cannot send it, and login refuses it`,
      setting: 'answers.token.accessToken',
      exitCode: error.exitCode,
    };
  }
  const status =
    error instanceof PlatformError || error instanceof RedirectAnswerError || error instanceof ProxyPageError
      ? error.status
      : error instanceof UnavailableError
        ? error.answeredStatus
        : undefined;
  // Any other failure (no answer, a timeout) is the route being unreachable, as every command would find it.
  const exitCode = error instanceof B2bctlError ? error.exitCode : ExitCode.unavailable;
  return { ...failure, ...(status === undefined ? {} : { status }), exitCode };
}

/** The token check of a token the route issued: where its answer holds the token and its lifetime, and what of them. */
function tokenAnswerFinding(
  base: { check: string; status: number },
  exchange: TokenExchange,
  answers: TokenAnswerSettings,
  username: string,
  nowMs: number,
): { finding: Finding; token: string | undefined } {
  const { body, issued } = exchange;
  const located = locateTokenAnswer(body, answers);
  const token = issued.accessToken;
  const said = lifetimeSaid(body, located);
  // What a login would warn of this answer's lifetime (read as milliseconds, past a week, already past…).
  const { warning } = believedTokenExpiry(issued, nowMs);
  return {
    finding: {
      ...base,
      result: warning ? 'warn' : 'ok',
      detail: `token obtained for ${username}: token ${located.tokenPath === undefined ? 'where b2bctl reads it' : `in "${located.tokenPath}"`}, ${said ?? "no lifetime given: the document's 12 hours assumed"}${warning ? `; ${warning.replace(/^warning: /, '')}` : ''}`,
      setting: said ? undefined : 'answers.token.expiresIn',
    },
    token,
  };
}

/** Where the answer states the token's lifetime and its expiry instant, and what; undefined when it states neither. */
function lifetimeSaid(
  body: unknown,
  located: { lifetimePath: string | undefined; expiryPath: string | undefined },
): string | undefined {
  const said = [
    located.lifetimePath &&
      `lifetime in "${located.lifetimePath}" (${lifetimeText(valueAt(body, located.lifetimePath))})`,
    located.expiryPath && `expiry in "${located.expiryPath}" (${String(valueAt(body, located.expiryPath))})`,
  ].filter(Boolean);
  return said.length > 0 ? said.join(', ') : undefined;
}

/** A stated lifetime with its unit as b2bctl reads it (src/domain/token-expiry.ts). */
function lifetimeText(value: unknown): string {
  return Number(value) >= millisecondLifetimeFrom ? `${String(value)} ms` : `${String(value)} s`;
}

/** A token check that gave no token. */
function failed(finding: Finding): { finding: Finding; token: undefined } {
  return { finding, token: undefined };
}

/**
 * The cached token's check. `passwordWithoutUser`: where a password came from that doctor could not log in with, for
 * want of a username; the line names the username then, not the password the user already gave (a user test).
 */
function cachedToken(session: Session, nowMs: number, passwordWithoutUser?: string): Finding {
  const check = 'token (cached)';
  const profile = session.profile;
  const expiresAt = profile.tokenExpiresAt;
  if (!session.get('token'))
    return {
      check,
      result: 'fail',
      detail:
        passwordWithoutUser === undefined
          ? `no token for profile "${session.profileName}": run ${session.commandLine(`login --profile ${session.profileName}`)}, or set B2BCTL_PASSWORD to let doctor log in`
          : `no token for profile "${session.profileName}", and ${passwordWithoutUser} cannot log in without a username, which profile "${session.profileName}" does not name: set B2BCTL_USERNAME, or run ${session.commandLine(`login --profile ${session.profileName}`)} --username USER (the profile keeps it)`,
      setting: passwordWithoutUser === undefined ? undefined : 'username',
      exitCode: ExitCode.authFailed,
    };
  const unsendable = unsendableTokenCharacter(bearerTokenText(session.get('token') ?? ''));
  if (unsendable !== undefined)
    return {
      check,
      result: 'fail',
      detail: `the token holds ${unsendable}, which no HTTP header can carry, so it cannot be sent: run ${session.commandLine(`login --profile ${session.profileName}`)}${session.setting('token').source === 'profile' ? '' : ', or give the token alone with --token or B2BCTL_TOKEN'}`,
      exitCode: ExitCode.authFailed,
    };
  // A token from the environment or a flag is what the probes send: the profile's cached times describe another
  // token, which was not used (a user test), so its line names where it came from, as whoami's tokenSource does.
  const given = { env: 'the token in B2BCTL_TOKEN', flag: 'the token given with --token' }[
    session.setting('token').source as string
  ];
  if (given !== undefined)
    return {
      check,
      result: 'ok',
      detail: `${given} (expiry unknown)${profile.token ? `; the token cached in profile "${session.profileName}" is not used` : ''}`,
    };
  if (!expiresAt) return { check, result: 'ok', detail: `cached in profile "${session.profileName}" (expiry unknown)` };
  const expired = tokenNeedsRenewal(
    { obtainedAtMs: Date.parse(profile.tokenObtainedAt ?? ''), expiresAtMs: Date.parse(expiresAt) },
    nowMs,
  );
  return expired
    ? {
        check,
        result: 'fail',
        detail: `expired at ${expiresAt}: run ${session.commandLine(`login --profile ${session.profileName}`)}`,
        exitCode: ExitCode.authFailed,
      }
    : { check, result: 'ok', detail: `cached, obtained ${profile.tokenObtainedAt ?? '?'}, valid until ${expiresAt}` };
}

function cachedTokenValue(session: Session, nowMs: number): string | undefined {
  const token = session.get('token');
  return cachedToken(session, nowMs).result === 'ok' && token !== undefined ? bearerTokenText(token) : undefined;
}

export interface ListingProbe {
  path: string;
  query: Record<string, string | number>;
  /** The setting that points at the array when the answer wraps it. */
  itemsSetting?: string;
  /** The setting holding the route's path. */
  pathSetting: string;
}

/**
 * A probe's line as its request was sent: a route setting's own query joined to the probe's (`/x?apikey=K` and
 * limit=1 are `/x?apikey=K&limit=1`), and credentials in it masked as --verbose masks them (redactUrl). It showed the
 * key in clear, after a second `?` (a user test).
 */
function sentRouteLabel(
  http: HttpClient,
  method: string,
  path: string,
  query: Readonly<Record<string, string | number>>,
): string {
  const sent = http.urlFor(path, query);
  return `${method} ${redactUrl(`${path.split('?')[0] ?? path}${sent.search}`)}`;
}

/** A read-only listing with limit=1: status, and where the answer holds its records. */
export async function probeListing(
  http: HttpClient,
  token: string,
  probe: ListingProbe,
  itemsPath?: string,
): Promise<Finding> {
  const check = sentRouteLabel(http, 'GET', probe.path, probe.query);
  return answerFinding(
    check,
    probe.pathSetting,
    await ask(http, token, { method: 'GET', path: probe.path, query: probe.query }),
    (body) => {
      const located = locateListingPage(body, itemsPath);
      if (!located)
        return {
          result: 'warn',
          detail: `no array of records b2bctl recognises (fields: ${fieldsOf(body)})`,
          setting: probe.itemsSetting,
        };
      const where = whereTheArrayIs(located.path, 'records');
      return { result: 'ok', detail: `${where}, ${located.count} record${located.count === 1 ? '' : 's'}` };
    },
  );
}

/**
 * The order listing with limit=1: where the page holds its orders, and where the first order holds the two facts the
 * poller needs (its id and update instant). With no order to look at, only the array is shown.
 */
export async function probeOrderListing(
  http: HttpClient,
  token: string,
  path: string,
  settings: OrderAnswerSettings,
): Promise<Finding> {
  const check = sentRouteLabel(http, 'GET', path, { limit: 1 });
  return answerFinding(
    check,
    'paths.orders',
    await ask(http, token, { method: 'GET', path, query: { limit: 1 } }),
    (body) => {
      const located = locateOrderListing(body, settings);
      if (!located)
        return {
          result: 'warn',
          detail: `no array of orders b2bctl recognises (fields: ${fieldsOf(body)})`,
          setting: 'answers.orders.items',
        };
      const where = whereTheArrayIs(located.path, 'orders');
      if (located.count === 0)
        return { result: 'ok', detail: `${where}, no order to look at (the fields are checked on the first one)` };
      const stamp = located.unreadableStamp;
      if (located.idPath !== undefined && located.lastUpdatedPath === undefined && stamp !== undefined)
        return {
          result: 'warn',
          detail: `${where}, but its first order's "${stamp.path}" holds ${JSON.stringify(stamp.value)}, which is no instant b2bctl reads (ISO-8601, or epoch seconds or milliseconds): orders poll would emit no order stamped so, and no setting reads it; the platform must write ISO-8601`,
        };
      if (located.idPath === undefined || located.lastUpdatedPath === undefined) {
        const missing = located.idPath === undefined ? 'id' : 'lastUpdated';
        return {
          result: 'warn',
          detail: `${where}, but its first order has no ${missing === 'id' ? 'id' : 'update instant'} b2bctl recognises: orders poll would skip every order`,
          setting: `answers.orders.${missing}`,
        };
      }
      // An order never updated shows its update stamp unset (null, `0000-00-00 00:00:00`): its creation instant is its version (orders-poll.md).
      const never = located.neverUpdated;
      const instant = never
        ? `"${never.createdField}" (its "${never.updateField}" is unset: never updated since created)`
        : `"${located.lastUpdatedPath}"`;
      const fields = `${where}; id in "${located.idPath}", update instant in ${instant}`;
      // The buyer an NF-e is checked against: without it, orders invoice sends any NF-e to any order.
      if (located.buyerPath === undefined)
        return {
          result: 'warn',
          detail: `${fields}, but no buyer's CNPJ or CPF b2bctl recognises: an NF-e's recipient cannot be checked against the order's buyer`,
          setting: 'answers.order.buyerDocument',
        };
      return { result: 'ok', detail: `${fields}, buyer's document in "${located.buyerPath}"` };
    },
  );
}

/**
 * The update route with `{}`: the document's no-op, answering the record (200) or 404. The document goes into the
 * path as the customer commands send it (the customer.documentInPath setting).
 */
export async function probeCustomer(
  http: HttpClient,
  token: string,
  document: string,
  spelling: DocumentInPath,
): Promise<Finding> {
  const path = `/v1/customer/${encodeURIComponent(documentInPath(document, spelling))}`;
  const outcome = await ask(http, token, { method: 'PUT', path, body: '{}' });
  // A server in front of the platform that refuses the CNPJ's encoded "/" fails every customer command on this store.
  const refusal = outcome instanceof Error ? undefined : slashRefusalOf(outcome, path);
  if (refusal) return { check: `PUT ${path} {}`, ...refusal };
  if (!(outcome instanceof Error) && outcome.status === 404)
    return {
      check: `PUT ${path} {}`,
      result: 'ok',
      status: 404,
      // The 404's body is not documented; showing its shape explains why b2bctl decides on the status alone.
      detail: `no customer has document ${document} (the documented 404; its body: ${describeBody(outcome.text)})`,
    };
  return answerFinding(`PUT ${path} {}`, undefined, outcome, (body) =>
    isRecord(body) && typeof body.email === 'string'
      ? {
          result: 'ok',
          detail: `the customer record (id ${String(body.id ?? '?')}, e-mail present): duplicates on create are recognised`,
        }
      : {
          result: 'warn',
          detail: `answered without the customer record (fields: ${fieldsOf(body)}); --upsert and --resume cannot tell duplicates apart`,
        },
  );
}

/** The finding of an answer that reads as a refusal of the encoded "/" in the path, naming the setting to change. */
function slashRefusalOf(response: HttpResponse, path: string): Omit<Finding, 'check'> | undefined {
  const contentType = [response.headers['content-type']].flat()[0];
  const answer = { status: response.status, text: response.text, contentType, body: parseJson(response.text) };
  const refusal = encodedSlashRefusal(answer, { method: 'PUT', url: path, path }, documentSlashAdvice);
  if (refusal === undefined) return undefined;
  return {
    status: response.status,
    result: 'fail',
    detail: refusal.platformMessage ?? refusal.message,
    setting: 'customer.documentInPath',
    exitCode: ExitCode.someRecordsFailed,
  };
}

async function ask(
  http: HttpClient,
  token: string,
  request: { method: 'GET' | 'PUT'; path: string; query?: Record<string, string | number>; body?: string },
): Promise<HttpResponse | Error> {
  try {
    return await http.request({
      ...request,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(request.body ? { 'content-type': 'application/json' } : {}),
      },
      safeToRepeat: true,
    });
  } catch (error) {
    return error as Error;
  }
}

function answerFinding(
  check: string,
  pathSetting: string | undefined,
  outcome: HttpResponse | Error,
  recognise: (body: unknown) => Pick<Finding, 'result' | 'detail' | 'setting'>,
): Finding {
  if (outcome instanceof Error)
    return { check, result: 'fail', detail: outcome.message, exitCode: ExitCode.unavailable };
  const status = outcome.status;
  if (status === 401 || status === 403)
    return {
      check,
      status,
      result: 'fail',
      detail: `token refused${challenge(outcome)}`,
      exitCode: ExitCode.authFailed,
    };
  // Only the commands using this route are affected; the setting says where the store has it.
  if (status === 404 || status === 405)
    return {
      check,
      status,
      result: 'warn',
      detail: 'no such route at this path: the commands using it will fail',
      setting: pathSetting,
    };
  if (status >= 400)
    return {
      check,
      status,
      result: 'fail',
      // Masked before it is cut short: a token cut at the 120th character no longer reads as the token.
      detail: `answered ${status}: ${quotedAnswer(redactSecrets(outcome.text, outcome.requestSecrets ?? []), 120)}`,
      exitCode: ExitCode.someRecordsFailed,
    };
  const unreadable = unreadableAnswer(outcome);
  if (unreadable) return { check, status, ...unreadable };
  return { check, status, ...recognise(parseJson(outcome.text)) };
}

/** A redirect, or an HTML page instead of JSON: the route did not answer, as every command would find. */
function unreadableAnswer(response: HttpResponse): Pick<Finding, 'result' | 'detail' | 'exitCode'> | undefined {
  if (isRedirect(response.status))
    return { result: 'fail', detail: redirectWords(response), exitCode: ExitCode.unavailable };
  const contentType = response.headers['content-type'];
  if (!isHtmlAnswer(Array.isArray(contentType) ? contentType[0] : contentType, response.text)) return undefined;
  const title = htmlTitle(response.text);
  return {
    result: 'fail',
    detail: `an HTML page${title ? ` ("${title}")` : ''}: a proxy or captive portal answers in the platform's place`,
    exitCode: ExitCode.unavailable,
  };
}

function challenge(response: HttpResponse): string {
  const header = response.headers['www-authenticate'];
  const text = Array.isArray(header) ? header.join(', ') : header;
  return text ? ` (WWW-Authenticate: ${text.slice(0, 120)})` : '';
}

/** An error body in a few words: JSON and its fields, plain text, or none. */
function describeBody(text: string): string {
  if (text.trim() === '') return 'none';
  const body = parseJson(text);
  return typeof body === 'string' ? 'plain text' : `JSON with ${fieldsOf(body)}`;
}

/** The top-level field names of an answer, to say what it had instead. */
function fieldsOf(body: unknown): string {
  if (body === undefined) return 'empty body';
  if (typeof body === 'string') return 'plain text';
  if (Array.isArray(body)) return 'an array';
  return isRecord(body) ? Object.keys(body).slice(0, 8).join(', ') || 'none' : typeof body;
}

/** Where a listing answer keeps its array, as doctor says it: `path` as the listing readers locate it. */
function whereTheArrayIs(path: string, what: 'records' | 'orders'): string {
  if (path === '') return 'a bare array';
  if (path === '(empty body)') return `an empty body (read as no ${what})`;
  return `an array in "${path}"`;
}
