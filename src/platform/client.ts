import type { Session } from '../config/session.js';
import { everySetting, type RouteSettingKey } from '../config/settings.js';
import { AuthError, B2bctlError, ExitCode, messageOfBody, PlatformError, UsageError } from '../base/errors.js';
import { httpDateOf } from '../lib/http-text.js';
import { isNestedTooDeep, JsonNestedTooDeep } from '../lib/written-json.js';
import { parseJson } from './auth.js';
import type { HttpClient, HttpMethod, HttpResponse, QueryValue } from './http-client.js';
import { branchInRoute, branchNotLinked, branchPlaceholder, fillBranch } from './branch.js';
import { proxyPageOf } from './answers/shapes.js';
import { encodedSlashRefusal, heldSlashAdvice } from './encoded-slash.js';
import { redactSecrets, shownUrl } from './redact.js';
import { isRedirect, RedirectAnswerError } from './redirect.js';
import { appliedWriteRule, type WriteRequest } from './applied-write.js';
import type { TokenSource } from './token-source.js';

export interface PlatformRequest {
  method: HttpMethod;
  path: string;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  /**
   * The body already serialised as JSON, instead of body: a bulk run spools its records as JSON text
   * and joins them into a request without parsing and serialising each again.
   */
  jsonBody?: string;
  safeToRepeat?: boolean;
  /**
   * A write that changes nothing, the documented empty update that reads a customer: a page answering it in the
   * platform's place (ProxyPageError) applied nothing, as for a read; nor may a 5xx to it have applied anything.
   */
  changesNothing?: boolean;
  /** What the write does, for the line after a 5xx that may have followed it (applied-write.ts). */
  effect?: WriteRequest['effect'];
  /** Whether a 502-504 on every attempt leaves this write unknown too (applied-write.ts). */
  unknownWhenKeptFailing?: boolean;
  signal?: AbortSignal;
  /** The branch code filled into the path, if any: a 403 then means the branch is not linked to the head office. */
  branch?: string;
  /**
   * Secret values the body carries (a customer's password): a refusal may quote them back (`Password X does not
   * meet the policy`), so they are masked in its body before any message, report or errors file quotes it.
   */
  secrets?: readonly string[];
  /**
   * How to send the path's value without a "/" (the setting to change, as a clause), said when a server in front of
   * the platform refuses the encoded "/" the path holds (encoded-slash.ts).
   */
  slashAdvice?: string;
  /**
   * Read the answer keeping every number a double would change as the platform wrote it (0.10000000000000000001,
   * 1e400, not 0.1 and null): for a listing written out as the platform's objects (`sellers list -o json`), as
   * `b2bctl api` writes them. Without it only whole numbers past 2^53 are kept (parseWrittenJson).
   */
  numbersAsWritten?: boolean;
}

/** A request sent as given (`b2bctl api`): its own headers and body text, the answer returned whatever its status. */
export interface RawPlatformRequest {
  method: HttpMethod;
  path: string;
  query?: Readonly<Record<string, QueryValue>>;
  headers?: Readonly<Record<string, string>>;
  body?: string;
  safeToRepeat: boolean;
  branch?: string;
}

export interface PlatformResponse<T> {
  status: number;
  body: T;
  /** The platform's clock when it answered, from its `Date` header (whole seconds); undefined without one. */
  date?: number;
  /**
   * A `Date` header that is no HTTP date (a gateway's `01/12/2026 02:24:13`), as it came: no clock is read from it,
   * and the caller says so once rather than take it for a clock far off.
   */
  unreadableDate?: string;
  /**
   * The body as a message or a report may quote it: read from the answer's text with every secret the request carried
   * masked (maskedAnswer), when asked. A 2xx that is no page, or holds no per-item result, is quoted rather than read,
   * and its quote masks them as an error's does (a user test: `{"message":"… session <token>"}` in a warning).
   */
  quotedBody?: () => unknown;
}

/** What a message or a report quotes of a 2xx answer (PlatformResponse.quotedBody): its body, secrets masked. */
export function quotedBodyOf(response: PlatformResponse<unknown>): unknown {
  return response.quotedBody === undefined ? response.body : response.quotedBody();
}

/** The platform's API as commands see it: Bearer auth, a renewed token on 401, JSON in and out, typed errors. */
export class PlatformClient {
  readonly http: HttpClient;
  readonly session: Session;
  private readonly tokens: TokenSource;
  constructor(http: HttpClient, session: Session, tokens: TokenSource) {
    this.http = http;
    this.session = session;
    this.tokens = tokens;
  }

  /** A route path from a `paths.*` setting, with `:name` parameters filled in and escaped. */
  route(settingKey: RouteSettingKey, parameters: Readonly<Record<string, string | number | boolean>> = {}): string {
    // Never empty: an empty profile value falls back to the table's default, and the parser wants a leading /.
    const setting = this.session.get(settingKey);
    // The branch setting is read only for a template that names {branch}: bulk runs build a route per request.
    const template = setting.includes(branchPlaceholder)
      ? fillBranch(setting, this.session.get('branch'), `The ${settingKey} setting`).path
      : setting;
    return template.replace(/:(\w+)/g, (_, name: string) => {
      const value = parameters[name];
      if (value === undefined) {
        const known = Object.keys(parameters).map((key) => `:${key}`);
        throw new UsageError(
          `The ${settingKey} setting (${template}) names :${name}, which this route does not fill (it fills ${known.join(', ') || 'no parameter'}); correct the setting.`,
        );
      }
      return pathSegment(String(value), `:${name} of the ${settingKey} setting`);
    });
  }

  /**
   * Sends a request and returns the parsed JSON body of a 2xx answer; any other answer (a 3xx too) throws. A write
   * answered 5xx throws MayHaveBeenAppliedError (applied-write.ts): whatever the route, it is no refusal.
   */
  async send<T>(request: PlatformRequest): Promise<PlatformResponse<T>> {
    try {
      return await this.answerOf<T>(request);
    } catch (error) {
      throw appliedWriteRule(request, error);
    }
  }

  /** send() without the rule for writes answered 5xx. */
  private async answerOf<T>(request: PlatformRequest): Promise<PlatformResponse<T>> {
    const { response, token } = await this.withToken(request, (bearer) => this.sendWithToken(request, bearer));
    const sent = [token, ...(request.secrets ?? [])];
    if (response.status === 403) {
      const branch = request.branch ?? this.branchOfRoute(request.path);
      if (branch !== undefined) throw this.branchRefusal(branch, request, response, sent);
    }
    if (response.status >= 400) {
      const { text, body, url } = maskedAnswer(response, sent);
      const info = { method: request.method, url };
      const contentType = response.headers['content-type'];
      const answer = { status: response.status, text, body, contentType: [contentType].flat()[0] };
      throw (
        encodedSlashRefusal(answer, { ...info, path: request.path }, this.slashAdviceFor(request)) ??
        new PlatformError(response.status, info, body)
      );
    }
    // Not followed (the token would go where it points), and no success: what it hides cannot be told (redirect.ts).
    if (isRedirect(response.status)) throw new RedirectAnswerError(request, response);
    // Its title quoted masked, as every quote of an answer is; masked only for such a page, not every answer read.
    if (proxyPageOf(request, response)) throw proxyPageOf(request, { ...response, text: maskedText(response, sent) });
    const parsed = parseJson(response.text, request.numbersAsWritten);
    // Read as text, a body nested too deep would be told as an answer that is no JSON: it is JSON, too deep to use.
    // Looked for only in a body that did not parse (parseJson gives it back as it came), not in every answer.
    if (parsed === response.text && isNestedTooDeep(response.text))
      throw new B2bctlError(
        `${request.method} ${shownUrl(response)} answered HTTP ${response.status} with a body ${new JsonNestedTooDeep().message}; no platform record is (b2bctl api ${request.path} prints it as sent).`,
        ExitCode.unavailable,
      );
    // A 2xx that is text (no JSON, or a JSON string) holds no record: a command only quotes it (a listing that is no
    // page, a batch's words beside no per-item result, a report's message), so it comes back as every quote of an
    // answer does, its secrets masked. A gateway's debug text echoing the token reached a cron log and a report in
    // clear, while the same text answered 400 was masked (a user test).
    const body = typeof parsed === 'string' ? maskedText({ ...response, text: parsed }, sent) : parsed;
    const answer = { status: response.status, body: body as T, quotedBody: () => maskedAnswer(response, sent).body };
    const date = httpDateOf(response.headers.date);
    if (date === undefined) return answer;
    return 'ms' in date ? { ...answer, date: date.ms } : { ...answer, unreadableDate: date.unreadable };
  }

  /**
   * Sends a request as given and returns the answer whatever its status, after the renewal a 401 brings (withToken);
   * a 401 to a fresh token, and a 403 on a branch's path, end here as for every command.
   */
  async exchange(request: RawPlatformRequest): Promise<HttpResponse> {
    const { response, token: sentToken } = await this.withToken(request, (token) =>
      this.http.request({
        method: request.method,
        path: request.path,
        query: request.query,
        headers: { accept: 'application/json', ...request.headers, authorization: `Bearer ${token}` },
        body: request.body,
        safeToRepeat: request.safeToRepeat,
      }),
    );
    if (response.status === 403) {
      const branch = request.branch ?? this.branchOfRoute(request.path);
      if (branch !== undefined) throw this.branchRefusal(branch, request, response, [sentToken]);
    }
    return response;
  }

  /** A 403 on a branch's route, with the platform's own words (its secrets masked): they may say more than "not linked". */
  private branchRefusal(
    branch: string,
    request: { method: string },
    response: HttpResponse,
    secrets: readonly string[],
  ): Error {
    const { body, url } = maskedAnswer(response, secrets);
    return branchNotLinked(branch, request.method, url, messageOfBody(body));
  }

  /**
   * The branch a path written out in full names (`b2bctl api /v1/branches/0099/contracts`), read against every
   * `paths.*` setting that holds `{branch}`: a 403 there is the same refusal as on the path `{branch}` filled.
   */
  private branchOfRoute(path: string): string | undefined {
    for (const { key } of everySetting) {
      if (!key.startsWith('paths.')) continue;
      const branch = branchInRoute(this.session.get(key as RouteSettingKey), path);
      if (branch !== undefined) return branch;
    }
    return undefined;
  }

  /**
   * Sends with the current token, and once more with a new one after a 401. The new one may be the token another run
   * of the profile saved meanwhile: refused too, it is followed by a login and a last replay (TokenSource).
   */
  private async withToken(
    request: { method: string; path: string },
    sendWith: (token: string) => Promise<HttpResponse>,
  ): Promise<{ response: HttpResponse; token: string }> {
    let token = await this.tokens.current(this.http);
    let response = await sendWith(token);
    for (let replays = 0; response.status === 401 && replays < 2; replays++) {
      if (replays > 0 && this.tokens.issuedToThisRun(token)) break;
      token = await this.tokens.renewAfterRejection(token, this.http);
      response = await sendWith(token);
    }
    if (response.status === 401) {
      const which = this.tokens.issuedToThisRun(token)
        ? 'a freshly issued token'
        : 'the token another b2bctl run saved in the profile, and the one before it,';
      throw new AuthError(
        `The platform refused ${which} for profile "${this.session.profileName}" (HTTP 401 on ${request.method} ${request.path}${challengeOf(response.headers)}). Check the integration user's access.`,
      );
    }
    return { response, token };
  }

  /**
   * What to say when a server in front of the platform refuses the encoded "/" of `request`'s path: the route's own
   * advice (a CNPJ's setting, an order id), else the branch code that holds it, else the value in the path.
   */
  private slashAdviceFor(request: PlatformRequest): string {
    if (request.slashAdvice !== undefined) return request.slashAdvice;
    const branch = request.branch ?? this.branchOfRoute(request.path);
    return heldSlashAdvice(branch?.includes('/') ? `the branch code "${branch}"` : 'the value b2bctl put in the path');
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private sendWithToken(request: PlatformRequest, token: string) {
    const text = request.jsonBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    const hasBody = text !== undefined;
    return this.http.request({
      method: request.method,
      path: request.path,
      query: request.query,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      body: text,
      safeToRepeat: request.safeToRepeat,
      signal: request.signal,
    });
  }
}

/** The `WWW-Authenticate` challenge of a 401 without a body: the only explanation such an answer gives. */
function challengeOf(headers: Record<string, string | string[] | undefined>): string {
  const challenge = headers['www-authenticate'];
  const text = Array.isArray(challenge) ? challenge.join(', ') : challenge;
  return text ? `, WWW-Authenticate: ${text.slice(0, 200)}` : '';
}

/**
 * A value as one segment of a route's path, URI-encoded. `.` and `..` are refused: the URL resolves them, also
 * encoded (`%2E%2E`), so an order id `..` sent `PUT /v1/orders/../status` to `PUT /v1/status`; and an empty one,
 * which asks the collection (`GET /v1/orders/` is the order listing, not an order).
 */
export function pathSegment(value: string, where: string): string {
  if (value === '')
    throw new UsageError(
      `An empty value cannot fill ${where}: the request would go to the route's collection instead.`,
    );
  if (value === '.' || value === '..')
    throw new UsageError(
      `"${value}" cannot fill ${where}: as a path segment it would send the request to another route than it names.`,
    );
  return encodeURIComponent(value);
}

/**
 * A refusal as a message may quote it: its text, its body parsed and its URL, with every secret the request carried
 * masked. An error body may echo the Authorization header it was sent and the secrets of its body (`sent`: the
 * token, a customer's password), and what the HTTP client knows the request carried besides (a proxy's credentials:
 * secretsOfProxy); the URL too, as the trace masks it (the profile's token in a query or a path, `?t=<token>`).
 */
function maskedAnswer(response: HttpResponse, sent: readonly string[]): { text: string; body: unknown; url: string } {
  const text = maskedText(response, sent);
  return {
    text,
    body: parseJson(text),
    url: redactSecrets(shownUrl(response), [...sent, ...(response.requestSecrets ?? [])]),
  };
}

/** An answer's text as a message may quote it, every secret the request carried masked (maskedAnswer). */
function maskedText(response: Pick<HttpResponse, 'text' | 'requestSecrets'>, sent: readonly string[]): string {
  return redactSecrets(response.text, [...sent, ...(response.requestSecrets ?? [])]);
}
