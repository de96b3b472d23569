import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dispatcher } from 'undici';
import type { Clock } from '../base/clock.js';
import {
  AmbiguousRequestError,
  InterruptedAfterSendingError,
  InterruptedError,
  KeptFailingError,
  NothingSentError,
  ThrottledTooLongError,
  UnavailableError,
} from '../base/errors.js';
import { settingDefinition } from '../config/settings.js';
import { dispatcherFor } from '../net/dispatcher.js';
import {
  CutShortAnswerError,
  errorCodeOf,
  explainNetworkProblem,
  isUnansweredFailure,
  networkErrorCode,
  UnansweredRequestError,
} from '../net/network-error.js';
import { describeRoute, type ProxyEnvironment, type ProxyRoute } from '../net/proxy-route.js';
import { intermediaryAnswer } from './intermediary.js';
import type { BackoffSettings } from '../lib/backoff.js';
import { decideRetry, defaultBackoff, isRetryableStatus, maxRetryAfterMs, mayHaveBeenApplied } from './retry-policy.js';
import { isSecretHeader, redactBody, redactHeaders, redactSecrets, shownUrl } from './redact.js';
import {
  type UnreadableBody,
  acceptedEncodings,
  answerBody,
  largestAnswerBytes,
  tooLargeAnswer,
} from './answer-body.js';
import { formDecode, headerText } from '../lib/http-text.js';
import { timerDelay } from '../lib/timer-delay.js';
import { isCredentialParameter, isSecretName, secretsOfAuthorization } from '../lib/secret-values.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface HttpRequest {
  method: HttpMethod;
  /** Route path such as `/sellerModule/listSellers`, joined to the base URL's own path. */
  path: string;
  query?: Readonly<Record<string, QueryValue>>;
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /** Whether repeating the request after an unclear network failure is harmless. Default: not for POST. */
  safeToRepeat?: boolean;
  /**
   * A POST that asks and changes nothing at the platform (the token route's): unanswered, it is no write that "may
   * have been applied", only a request to try again.
   */
  changesNothing?: boolean;
  signal?: AbortSignal;
  /**
   * The secrets an answer holds where no secret-looking name says so (a token under `answers.token.accessToken`),
   * from its text and status: kept out of the `--verbose` trace as the request's own credentials are.
   */
  secretsInAnswer?: (text: string, status: number) => readonly string[];
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  url: string;
  attempts: number;
  /**
   * The credentials the request carried (secretsOf): what a message quoting this answer masks, as an answer may
   * echo them (`invalid header Bearer …`, `Bad request: grant_type=password&password=…`).
   */
  requestSecrets?: readonly string[];
}

export interface HttpClientOptions {
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  connections?: number;
  clock: Clock;
  random?: () => number;
  /** Called with each line of a `--verbose` trace, secrets already redacted. */
  trace?: (line: string) => void;
  /** Aborts every request that does not bring its own signal (Ctrl-C in a simple command). */
  signal?: AbortSignal;
  /**
   * Once aborted, a request whose first attempt has not started is not sent: NothingSentError. A bulk run's requests
   * bring a signal that Ctrl-C does not abort (what went out finishes and is reported); this keeps the others,
   * waiting for their turn under --rate, from going out after it.
   */
  stopStarting?: AbortSignal;
  /** Paces every attempt, retries included, and learns from 429s (src/platform/pacer.ts). */
  pace?: RequestPace;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (src/net/proxy-route.ts); the process's by default. */
  env?: ProxyEnvironment;
  /** The largest answer read, as sent and once decoded; `largestAnswerBytes` (256 MiB) by default. */
  largestAnswerBytes?: number;
  /**
   * The charset of an answer that declares none or UTF-8 and is not UTF-8 (`answers.charset`); without it such an
   * answer is refused.
   */
  undeclaredCharset?: string;
  /** The waits between retries after a failure (a 429's keep the default); `defaultBackoff` when absent. */
  backoff?: BackoffSettings;
  /**
   * Whether the command takes `--timeout` (api and the bulk commands): a time-out's advice names it there, and only
   * the setting (B2BCTL_TIMEOUT, `config set http.timeout`) where the flag would be refused.
   */
  timeoutFlag?: boolean;
  /** Told of each retry, for summaries and adaptive pacing. */
  onRetry?: (event: { status?: number; error?: unknown; delayMs: number; attempt: number }) => void;
}

export interface RequestPace {
  /** Resolves when the request may start; may say when that was, for succeeded(). */
  take(signal?: AbortSignal): Promise<number | void>;
  /** An answer that was not a 429; `startedAt` is what take() resolved to, if anything. */
  succeeded(startedAt?: number): void;
  /**
   * A 429 to a request that started at `startedAt` (take's answer, if anything). Once the platform has refused
   * everything for too long, take() rejects with ThrottledTooLongError (src/platform/pacer.ts). `asked`: whether the
   * 429 said how long to wait (Retry-After), else `retryAfterMs` is b2bctl's own back-off.
   */
  throttled(retryAfterMs: number, startedAt?: number, asked?: boolean): void;
}

/** Counts for a run's summary line. */
export interface HttpStats {
  requests: number;
  retries: number;
  throttled: number;
}

/**
 * 429s a paced request waits out before they count as failures (each wait is the platform's Retry-After): the bound
 * that ends a run against a store that answers 429 for ever, as its requests then fail and stop it as unavailable.
 */
const maxPacedThrottles = 50;

export { AmbiguousRequestError };

/** An answer (a 502, a 504) that may come after the platform applied the write: the answer itself, for who shows it. */
export class AmbiguousAnswerError extends AmbiguousRequestError {
  readonly response: HttpResponse;
  constructor(message: string, response: HttpResponse) {
    super(message, { status: response.status });
    this.response = response;
  }
}

/** The single HTTP client of b2bctl: keep-alive pool, per-request timeout, retries with back-off. */
export class HttpClient {
  readonly baseUrl: URL;
  readonly stats: HttpStats = { requests: 0, retries: 0, throttled: 0 };
  /** Whether requests go through a proxy, and which (doctor shows it). */
  readonly route: ProxyRoute;
  private readonly dispatcher: Dispatcher;
  private readonly options: HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.baseUrl = new URL(options.baseUrl);
    const { dispatcher, route } = dispatcherFor(this.baseUrl, {
      connections: options.connections ?? 8,
      connectTimeoutMs: Math.min(options.timeoutMs, 10_000),
      env: options.env,
    });
    this.dispatcher = dispatcher.compose(noteWrittenRequests);
    this.route = route;
    if (route.kind !== 'direct') options.trace?.(`* ${this.baseUrl.origin}: ${describeRoute(route)}`);
  }

  /**
   * The last route without a query and its URL: a bulk run sends thousands of requests to one route, and parsing
   * a URL for each shows in a large push's profile. Only read, never handed out: a URL is mutable.
   */
  private lastRoute: { path: string; url: URL } | undefined;

  /** The absolute URL of a route, for requests and messages. */
  urlFor(path: string, query?: Readonly<Record<string, QueryValue>>): URL {
    const prefix = this.baseUrl.pathname.replace(/\/+$/, '');
    // Joined as text after the origin, not resolved against it: `//host/x` (or `/\host/x`) would resolve to another
    // host, which the messages and traces would name while the request itself goes to the base URL.
    const url = new URL(`${this.baseUrl.origin}${prefix}${path.startsWith('/') ? path : `/${path}`}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    return url;
  }

  /** Sends a request, retrying passing failures; returns the final answer whatever its status. */
  async request(request: HttpRequest): Promise<HttpResponse> {
    const signal = request.signal ?? this.options.signal;
    const sent: SentWrites = { written: false };
    try {
      return await this.requestWithRetries({ ...request, signal }, sent);
    } catch (error) {
      if (!signal?.aborted) throw error;
      const during = `Interrupted (${String(signal.reason ?? 'aborted')}) during ${request.method} ${shownUrl({ url: this.urlFor(request.path) })}`;
      // Written before the stop came, its answer never read: the platform may have applied it (as after a 502).
      if (sent.written)
        throw new InterruptedAfterSendingError(
          `${during}, after the request was sent`,
          isSafeToRepeat(request) ? 'sending it again does no harm (it is safe to repeat)' : undefined,
        );
      throw new InterruptedError(`${during}.`);
    }
  }

  /**
   * Waits for the attempt's turn (the pacer's, if any); what take() said of when it started. An attempt is not made
   * once stopStarting is aborted, before or during its wait, while nothing may have been applied: the first, and one
   * after 429s alone (the platform refused those, and a Retry-After may be minutes: a stop must not wait it out).
   */
  private async turnFor(request: HttpRequest, spent: SpentAttempts): Promise<number | undefined> {
    const stop = spent.failures === 0 ? this.options.stopStarting : undefined;
    const notStarted = () =>
      new NothingSentError(
        spent.pacedThrottles === 0
          ? `Interrupted before ${request.method} ${shownUrl({ url: this.urlFor(request.path) })} was sent.`
          : `Interrupted while ${request.method} ${shownUrl({ url: this.urlFor(request.path) })} waited to be sent again after HTTP 429 (the platform applied none of it).`,
      );
    if (stop?.aborted) throw notStarted();
    if (this.options.pace === undefined) return undefined;
    const signal =
      stop === undefined ? request.signal : AbortSignal.any([stop, ...(request.signal ? [request.signal] : [])]);
    try {
      const startedAt = (await this.options.pace.take(signal)) ?? undefined;
      if (stop?.aborted) throw notStarted();
      return startedAt;
    } catch (error) {
      if (stop?.aborted && !request.signal?.aborted) throw notStarted();
      // A bulk run's request that never went out when the pacer gave up on a platform refusing everything: not sent
      // (a resume sends it), while the requests the platform refused are failed with the pacer's why.
      if (
        error instanceof ThrottledTooLongError &&
        this.options.stopStarting &&
        spent.failures + spent.pacedThrottles === 0
      )
        throw new NothingSentError(
          `${request.method} ${shownUrl({ url: this.urlFor(request.path) })} was not sent: ${error.message}`,
        );
      throw error;
    }
  }

  /** urlFor, parsed once per route for requests without a query. */
  private requestUrl(request: HttpRequest): URL {
    if (request.query !== undefined) return this.urlFor(request.path, request.query);
    if (this.lastRoute?.path !== request.path) this.lastRoute = { path: request.path, url: this.urlFor(request.path) };
    return this.lastRoute.url;
  }

  /** `sent` is told when an attempt that may have been applied was written (not one the platform refused: a 429). */
  private async requestWithRetries(request: HttpRequest, sent: SentWrites): Promise<HttpResponse> {
    const url = this.requestUrl(request);
    const safeToRepeat = isSafeToRepeat(request);
    const random = this.options.random ?? Math.random;
    const spent: SpentAttempts = { failures: 0, pacedThrottles: 0 };
    for (;;) {
      const attempt = spent.failures + 1;
      let response: HttpResponse | undefined;
      let failure: unknown;
      const startedAt = await this.turnFor(request, spent);
      // A write's attempt, once written, is noted where the caller of a bulk run's batch looks (notingSentWrites).
      const written: WrittenNote = { written: false, also: isWrite(request) ? sentWritesOf.getStore() : undefined };
      try {
        this.stats.requests++;
        response = await this.once(request, url, attempt + spent.pacedThrottles, written);
      } catch (error) {
        failure = error;
      }
      if (written.written && isWrite(request) && response?.status !== 429) sent.written = true;
      if (failure !== undefined && request.signal?.aborted) throw failure;
      const waitOutThrottle =
        response?.status === 429 && this.options.pace !== undefined && spent.pacedThrottles < maxPacedThrottles;
      const decision = decideRetry(
        {
          // A 429 waited out spends no retry: no budget is checked (not even --retries 0's), its back-off the first.
          attempt: waitOutThrottle ? 1 : attempt,
          maxRetries: waitOutThrottle ? Number.POSITIVE_INFINITY : this.options.maxRetries,
          status: response?.status,
          retryAfter: headerText(response?.headers['retry-after']),
          answeredAt: headerText(response?.headers.date),
          error: failure,
          safeToRepeat,
        },
        this.options.clock.now(),
        random,
        response?.status === 429 ? defaultBackoff : (this.options.backoff ?? defaultBackoff),
      );
      if (response?.status === 429) {
        this.stats.throttled++;
        const asked = headerText(response.headers['retry-after']) !== undefined;
        this.options.pace?.throttled(decision.retry ? decision.delayMs : 1000, startedAt, asked);
      } else if (response && response.status < 500) {
        this.options.pace?.succeeded(startedAt);
      }
      if (response && (response.status < 400 || !decision.retry))
        return this.finalAnswer(request, response, decision, attempt + spent.pacedThrottles);
      if (!decision.retry) {
        throw await this.networkFailure(request, url, failure, attempt + spent.pacedThrottles, decision.reason);
      }
      // The summary's retries are the failures tried again; a 429 waited out is counted as throttled alone.
      if (waitOutThrottle) spent.pacedThrottles++;
      else {
        spent.failures++;
        this.stats.retries++;
      }
      this.options.onRetry?.({
        status: response?.status,
        error: failure,
        delayMs: decision.delayMs,
        attempt: spent.failures,
      });
      this.options.trace?.(
        waitOutThrottle
          ? `* HTTP 429 waited out: ${decision.delayMs} ms, no retry spent`
          : `* retry ${spent.failures}/${this.options.maxRetries} in ${decision.delayMs} ms (${response ? `HTTP ${response.status}` : retriedFailure(failure)})`,
      );
      // With a pacer, a 429's wait is the pacer's pause, which holds back every request, not just this one.
      if (!(this.options.pace && response?.status === 429))
        await this.options.clock.sleep(decision.delayMs, request.signal);
    }
  }

  /** The answer that ends the retries, or the error it stands for. */
  private finalAnswer(
    request: HttpRequest,
    response: HttpResponse,
    decision: ReturnType<typeof decideRetry>,
    attempt: number,
  ): HttpResponse {
    if (!decision.retry && decision.reason === mayHaveBeenApplied) {
      throw new AmbiguousAnswerError(
        `${request.method} ${shownUrl(response)} answered HTTP ${response.status}, which may come after the platform applied the request.`,
        response,
      );
    }
    const intermediary = intermediaryAnswer(response, this.route);
    // Its page's title may quote what the proxy refused (`Proxy-Authorization: Basic …`): masked as a body is.
    if (intermediary) {
      const said = `${request.method} ${shownUrl(response)} ${redactSecrets(intermediary, response.requestSecrets ?? [])}`;
      // A proxy's 5xx may come after it passed a write on (its answer lost on the way back): never "not sent". Its
      // 502-504 on every attempt is the platform failing behind it, as the platform's own would be: the status is
      // what was answered (answeredStatus), not an answer of the platform's, so a bulk run counts it unavailable.
      if (isWrite(request) && response.status >= 500)
        throw new AmbiguousRequestError(
          `${said} The request may have reached the platform: check whether it was applied before sending it again.`,
          isRetryableStatus(response.status) ? { answeredStatus: response.status } : { status: response.status },
        );
      throw new UnavailableError(said);
    }
    if (!decision.retry && decision.retryAfterMs !== undefined) {
      // Said as what happened: one answer asked for longer than b2bctl waits, not a request that "kept failing".
      const until = new Date(this.options.clock.now() + decision.retryAfterMs).toISOString();
      throw new UnavailableError(
        `${request.method} ${shownUrl(response)} answered HTTP ${response.status} asking to wait ${Math.round(decision.retryAfterMs / 1000)} s (Retry-After), longer than the ${maxRetryAfterMs / 60_000} minutes b2bctl waits; try again after ${until}.`,
        { answeredStatus: response.status },
      );
    }
    if (!decision.retry && isRetryableStatus(response.status)) {
      const why =
        decision.reason === 'retries exhausted'
          ? `after ${attempt} attempt${attempt === 1 ? '' : 's'}`
          : `(${decision.reason})`;
      // A 429 on every attempt is the platform throttling these requests, not an outage: said as such.
      const said =
        response.status === 429
          ? `kept answering HTTP 429 (too many requests) ${why}; the platform is throttling b2bctl's requests, try again later.`
          : `kept failing with HTTP ${response.status} ${why}; the platform is unavailable, try again later.`;
      throw new KeptFailingError(`${request.method} ${shownUrl(response)} ${said}`, response.status);
    }
    return response;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async once(request: HttpRequest, url: URL, attempt: number, written: WrittenNote): Promise<HttpResponse> {
    const headers: Record<string, string> = { 'user-agent': `b2bctl/${B2BCTL_VERSION}`, ...request.headers };
    // Named unless the caller names its own (`api -H`): without one a server may use any coding (RFC 9110 §12.5.3).
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'accept-encoding'))
      headers['accept-encoding'] = acceptedEncodings;
    const rawTrace = this.options.trace;
    // Whatever the answer echoes, the credentials this request carried never reach the trace, nor a message. Found
    // when first asked (a trace, a message quoting the answer), not on every request of a bulk run.
    let secrets: string[] | undefined;
    const secretsOfRequest = () =>
      (secrets ??= [...secretsOf(headers, request.body, url.search), ...secretsOfProxy(this.route)]);
    const trace = rawTrace
      ? (line: string) => rawTrace(continuationsMarked(redactSecrets(line, secretsOfRequest())))
      : undefined;
    if (trace) {
      trace(`> ${request.method} ${shownUrl({ url })}`);
      for (const [name, value] of Object.entries(redactHeaders(headers))) trace(`> ${name}: ${value}`);
      if (request.body) trace(`> ${truncate(redactBody(request.body))}`);
    }
    const started = this.options.clock.now();
    const { signal, settled } = attemptSignal(request.signal, this.options.timeoutMs);
    let answer: Dispatcher.ResponseData;
    let bytes: Buffer | undefined;
    const largest = this.options.largestAnswerBytes ?? largestAnswerBytes;
    try {
      answer = await this.dispatcher.request({
        origin: url.origin,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        body: request.body,
        signal,
        [writtenNote]: written,
      } as Dispatcher.RequestOptions);
      try {
        bytes = await bodyBytes(answer.body, largest);
      } catch (error) {
        throw cutShort(request, url, answer.statusCode, error);
      }
    } catch (error) {
      // Written on its connection, then a time-out or a cut: it may have reached the platform (networkFailure).
      if (written.written && !request.signal?.aborted && isUnansweredFailure(error))
        throw new UnansweredRequestError(error);
      throw error;
    } finally {
      settled();
    }
    const body =
      bytes === undefined
        ? tooLargeAnswer(largest)
        : await answerBody(bytes, answer.headers, {
            largest,
            undeclaredCharset: this.options.undeclaredCharset,
            statusDecides: answer.statusCode >= 300,
          });
    const text = 'text' in body ? body.text : '';
    const response: HttpResponse = {
      status: answer.statusCode,
      headers: answer.headers,
      text,
      url: url.toString(),
      attempts: attempt,
      get requestSecrets() {
        return secretsOfRequest();
      },
    };
    if (trace) {
      // Named: with requests in flight side by side (a bulk run's concurrency), the answer under a login's request
      // may be another request's.
      trace(
        `< ${response.status} (${this.options.clock.now() - started} ms) to ${request.method} ${shownUrl({ url })}`,
      );
      for (const [name, value] of Object.entries(redactHeaders(answer.headers))) trace(`< ${name}: ${value}`);
      const answerSecrets = text && request.secretsInAnswer ? request.secretsInAnswer(text, response.status) : [];
      if (text) trace(`< ${truncate(redactSecrets(redactBody(text), answerSecrets))}`);
    }
    if ('unreadable' in body) throw unreadableAnswer(request, url, response.status, body);
    return response;
  }

  private async networkFailure(
    request: HttpRequest,
    url: URL,
    failure: unknown,
    attempts: number,
    reason: string,
  ): Promise<Error> {
    if (reason === 'error is not retried' && !(failure instanceof Error && 'code' in failure)) {
      return failure instanceof Error ? failure : new Error(String(failure));
    }
    const problem = await explainNetworkProblem(failure, url, this.route, Math.min(this.options.timeoutMs, 10_000));
    // Answered, then cut (a 200 whose body ended early): it reached the platform, which "may have reached" hid (a user test).
    if (reason === mayHaveBeenApplied && problem.cutShort) {
      const status = failure instanceof CutShortAnswerError ? failure.status : undefined;
      return new AmbiguousRequestError(
        `${request.method} ${shownUrl({ url })} answered${status === undefined ? '' : ` HTTP ${status}`}, but the connection closed before the answer's end (${problem.code}); not sent again: it reached the platform and may have been applied. Check whether it was before sending it again.`,
        { cause: failure, status },
      );
    }
    if (reason === mayHaveBeenApplied) {
      return new AmbiguousRequestError(
        `${request.method} ${shownUrl({ url })} failed (${problem.code}) after the request may have reached the platform.`,
        { cause: failure },
      );
    }
    const after = `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    // A write safe to repeat (a stock batch) answered, its words cut off each time: most likely applied. undici
    // rejects some such answers before their status is handed on (a body shorter than its Content-Length).
    if (problem.cutShort && isWrite(request)) {
      const status = failure instanceof CutShortAnswerError ? failure.status : undefined;
      return new AmbiguousRequestError(
        `${request.method} ${shownUrl({ url })} answered${status === undefined ? '' : ` HTTP ${status}`}, but the connection closed before the answer's end (${problem.code}), ${after}: the request may have been applied. ${capitalised(problem.fix)}.`,
        { cause: failure, status },
      );
    }
    if (failure instanceof UnansweredRequestError) return this.unanswered(request, url, failure, after);
    return new UnavailableError(
      `${problem.cutShort ? 'No whole answer from' : 'Cannot reach'} ${url.origin} ${after}: ${problem.what}. ${capitalised(problem.fix)}, then try again.`,
      {
        cause: failure,
      },
    );
  }

  /**
   * A request the platform was sent and never answered (`after` its attempts): slower than the time-out, or its
   * connection cut. Said as such, never "Cannot reach … check the base URL": the platform was reached. A write may
   * have been applied, so it is ambiguous (a stock batch's items `unknown`, which a resume sends again), not failed.
   */
  private unanswered(request: HttpRequest, url: URL, failure: UnansweredRequestError, after: string): Error {
    const seconds = `${+(this.options.timeoutMs / 1000).toFixed(3)} s`;
    const what = failure.timedOut
      ? `${url.host} did not answer within the ${seconds} time-out (${networkErrorCode(failure)})`
      : `the connection to ${url.host} was cut before an answer came (${networkErrorCode(failure)})`;
    const fix = failure.timedOut
      ? `If the platform is this slow, raise the time-out (${this.longerTimeout()})`
      : 'A firewall, proxy or gateway in between may be closing it; check the network';
    const timedOutAfterMs = failure.timedOut ? this.options.timeoutMs : undefined;
    if (isWrite(request))
      return new AmbiguousRequestError(
        `${request.method} ${shownUrl({ url })} was sent, and ${what}, ${after}: the request may have been applied. ${fix}.`,
        { cause: failure, timedOutAfterMs },
      );
    return new UnavailableError(`No answer from ${url.origin} ${after}: ${what}. ${fix}, then try again.`, {
      cause: failure,
      timedOutAfterMs,
    });
  }

  /**
   * The ways to give this command a longer time-out (longerTimeoutThan): `--timeout` only where the command takes it (a
   * login, a listing or an orders poll refuses it, exit 2), the setting everywhere.
   */
  private longerTimeout(): string {
    const longer = longerTimeoutThan(this.options.timeoutMs);
    const setting = `B2BCTL_TIMEOUT=${longer}, or b2bctl config set http.timeout ${longer}`;
    return this.options.timeoutFlag === true ? `--timeout ${longer}, ${setting}` : setting;
  }
}

/**
 * The time-out to advise after `timeoutMs` went unanswered, in whole seconds: twice it, or the setting's default when
 * that is longer. One value wherever it is advised: the time-out's line and the resume command after it said 2 s and
 * 30 s in one line (a fresh user test), and 2 s, as told, met the same stop.
 */
export function longerTimeoutThan(timeoutMs: number): string {
  const settingDefault = Number(settingDefinition('http.timeout')?.defaultValue ?? 0);
  return `${Math.max(1, Math.ceil(Math.max(2 * timeoutMs, settingDefault) / 1000))}s`;
}

/**
 * An answer whose body b2bctl cannot decode: never read as text. A write the platform answered below 400 may have
 * been applied, so it is ambiguous (unknown: a resume asks about it, or sends it again), never "not sent": a write safe to repeat
 * (a stock batch's absolute values) too, since the answer came and only its words are lost. A read is not sent again
 * either way, and fails as the platform's being unusable.
 */
function unreadableAnswer(request: HttpRequest, url: URL, status: number, body: UnreadableBody): UnavailableError {
  const remedy =
    body.tooLarge === true
      ? 'b2bctl reads no larger answer (ask for smaller pages, or check the proxy or gateway in between)'
      : body.notUtf8 === true
        ? "if the platform writes another charset, name it (b2bctl config set answers.charset windows-1252), or ask the platform's operator to declare the charset it writes in the Content-Type"
        : "ask the platform's operator to answer in UTF-8 without a content coding, or with one b2bctl decodes";
  const target = `${request.method} ${shownUrl({ url })}`;
  const why = `with ${body.unreadable}; ${remedy}`;
  return status < 400 && isWrite(request)
    ? new UnreadableWriteAnswerError(target, status, why)
    : new UnavailableError(`${target} answered HTTP ${status} ${why}.`);
}

/**
 * A write answered below 400 with a body b2bctl cannot decode (a broken gzip): ambiguous to every command that reads
 * the answer for its result (a bulk run's `unknown`); `b2bctl api`, which reads none, says the status was answered and
 * the request done (docs/api.md), from `target` (the method and URL) and `why` (what could not be read, and the fix).
 */
export class UnreadableWriteAnswerError extends AmbiguousRequestError {
  readonly target: string;
  readonly why: string;

  constructor(target: string, status: number, why: string) {
    super(`${target} answered HTTP ${status} ${why}.`, { status });
    this.target = target;
    this.why = why;
  }
}

/** Whether the request asks the platform to change something: any method but a read's, or a POST that asks only. */
function isWrite(request: HttpRequest): boolean {
  return request.method !== 'GET' && request.method !== 'HEAD' && request.changesNothing !== true;
}

/**
 * A failure while an answer's body was read, its status line already come. A write the platform answered below 400
 * was received, and most likely applied: ambiguous (looked up, never sent again blindly), not "cannot reach". A
 * read, or a write safe to repeat, is tried again as after a reset, and said as answered, never "cannot reach"
 * (networkFailure); a write answered 4xx or 5xx fails as the connection did; Ctrl-C and time-outs pass as they are.
 */
function cutShort(request: HttpRequest, url: URL, status: number, error: unknown): unknown {
  if (request.signal?.aborted || status >= 400) return error;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return error;
  if (isSafeToRepeat(request)) return new CutShortAnswerError(status, error);
  const code = errorCodeOf(error);
  return new AmbiguousRequestError(
    `${request.method} ${shownUrl({ url })} answered HTTP ${status}, but its body was cut short${code === undefined ? '' : ` (${code})`}: the request may have been applied.`,
    { cause: error, status },
  );
}

/** Whether repeating the request after an unclear failure is harmless: as it says, else not for a POST. */
function isSafeToRepeat(request: HttpRequest): boolean {
  return request.safeToRepeat ?? request.method !== 'POST';
}

/**
 * An answer's bytes as sent, or undefined past the largest answer b2bctl reads: the rest is not read, and the
 * connection is dropped rather than drained.
 */
async function bodyBytes(body: Dispatcher.ResponseData['body'], largest: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > largest) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The signal of one attempt: aborted by the caller's signal or after timeoutMs, with the reason
 * AbortSignal.any([signal, AbortSignal.timeout(ms)]) would give. Built by hand because any() keeps a weak reference
 * per request on the run's long-lived signal; settled() stops the timer once the answer is read.
 */
function attemptSignal(outer: AbortSignal | undefined, timeoutMs: number): { signal: AbortSignal; settled(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    // A timer takes at most 2^31 − 1 ms (24.8 days); past it, node fires it at once and every request "times out".
    timerDelay(timeoutMs),
  );
  // Like AbortSignal.timeout's, the timer alone does not keep the process alive.
  timer.unref();
  if (outer === undefined) return { signal: controller.signal, settled: () => clearTimeout(timer) };
  const forward = () => controller.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    settled: () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', forward);
    },
  };
}

/** Where a request's options carry the note that undici wrote it on a connection (noteWrittenRequests). */
const writtenNote = Symbol('b2bctl.written');

interface WrittenNote {
  written: boolean;
  /** Told too, at once: the note of the bulk run's batch this request is sent for. */
  also?: SentWrites;
}

/** Whether some write was written on a connection and may have been applied, its answer not read (or a 5xx). */
export interface SentWrites {
  written: boolean;
}

/** The note of the piece of work (a bulk run's batch) whose requests are sent within notingSentWrites. */
const sentWritesOf = new AsyncLocalStorage<SentWrites>();

/**
 * Runs `work`, noting in `sent` as soon as one of its writes is written: a bulk run stopped at once (a second Ctrl-C)
 * tells the batches that may have been applied, their answers never read, from those still waiting for their turn.
 */
export function notingSentWrites<T>(sent: SentWrites, work: () => Promise<T>): Promise<T> {
  return sentWritesOf.run(sent, work);
}

/**
 * Notes, for a request that carries a WrittenNote, that undici wrote it on an open connection: its handler's
 * onRequestStart runs only then. A time-out or a reset before that left nothing at the platform (a connection that
 * never opened); after it, the request may have been received and applied.
 */
function noteWrittenRequests(dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch {
  return (options, handler) => {
    const note = (options as { [writtenNote]?: WrittenNote })[writtenNote];
    if (note === undefined) return dispatch(options, handler);
    const noting = new Proxy(handler, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        if (key !== 'onRequestStart') return method.bind(target);
        return (...args: unknown[]) => {
          note.written = true;
          if (note.also) note.also.written = true;
          return method.apply(target, args);
        };
      },
    });
    return dispatch(options, noting);
  };
}

/**
 * What one request has spent of its retries. A paced run waits out 429s with the pacer, so a 429 waited out costs
 * no retry: only failures count against --retries, while every send counts in the attempt the trace shows.
 */
interface SpentAttempts {
  failures: number;
  pacedThrottles: number;
}

/**
 * The credentials a request carries, whatever an answer or a message quoting it does with them: the `Authorization`
 * credential (and a Basic one's password), the value of every header the trace masks (isSecretHeader: `X-Gateway-Key`,
 * a `Cookie` and each of its values), of every body field whose name says it is a secret (isSecretName: `privateKey`,
 * `password`) in a JSON body, and of every query or form parameter that carries a credential (isCredentialParameter:
 * `api_key=`, `senha=`, `sig=`, a `-f` field sent in the query, a key in a `paths.*` setting). A printed URL masks
 * these parameters; an answer echoing the request (a validation error quoting its path) showed them in clear on the
 * same line (a user test). redactSecrets masks each in every form a quote may take (secretForms).
 */
function secretsOf(headers: Readonly<Record<string, string>>, body: string | undefined, search: string): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (/^(proxy-)?authorization$/i.test(name)) secrets.push(...secretsOfAuthorization(value));
    else if (isSecretHeader(name)) secrets.push(value, ...cookieValuesOf(name, value));
  }
  secrets.push(...credentialValuesOf(search.replace(/^\?/, '')));
  if (body) {
    for (const match of body.matchAll(/"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)"/g))
      if (match[2] && isSecretName(match[1] ?? '')) secrets.push(match[2], jsonStringText(match[2]));
    secrets.push(...credentialValuesOf(body));
  }
  return secrets.filter((secret) => !nfeAccessKey.test(secret));
}

/**
 * The values of a query's or a form's parameters that carry a credential (isCredentialParameter, the rule a printed URL
 * and the plain-HTTP guard follow), as written and decoded.
 */
function credentialValuesOf(pairs: string): string[] {
  const values: string[] = [];
  for (const match of pairs.matchAll(/(?:^|&)([^&=]+)=([^&]*)/g))
    if (match[2] && isCredentialParameter(match[1] ?? '', match[2])) values.push(match[2], formDecode(match[2]));
  return values;
}

/** Each value of a `Cookie` header (`sid=…; theme=…`): an answer may quote one alone. None for another header. */
function cookieValuesOf(name: string, value: string): string[] {
  if (!/^cookie$/i.test(name)) return [];
  return value
    .split(';')
    .map((pair) => pair.slice(pair.indexOf('=') + 1).trim())
    .filter((cookie) => cookie !== '');
}

/**
 * An NF-e's access key (44 digits), sent as an invoice's `accessKey`: named like a credential, but printed on every
 * DANFE, and the store's refusal of it (`NF-e 3526 1012 … is another order's`) is what the operator must read: once
 * masking read a secret split by spaces, that refusal said `[redacted]`.
 */
const nfeAccessKey = /^\d{44}$/;

/**
 * The credentials of the proxy a request goes through (`HTTP_PROXY=http://svc:password@proxy:3128`): undici sends
 * them as `Proxy-Authorization: Basic …`, which the request's own headers do not show, and a proxy's refusal may quote
 * that header or the password (`proxy user svc password '…' refused`). Its base64 and the password it holds.
 */
export function secretsOfProxy(route: ProxyRoute): string[] {
  if (route.kind !== 'proxy' || route.proxy.password === '') return [];
  // As undici writes the header: the user and password of the URL, decoded (parseProxyUrl made sure they decode).
  const pair = `${decodeURIComponent(route.proxy.username)}:${decodeURIComponent(route.proxy.password)}`;
  return secretsOfAuthorization(`Basic ${Buffer.from(pair).toString('base64')}`);
}

/** A JSON string's text with its escapes read (`a\\"b` is `a"b`), or as written when they do not read. */
function jsonStringText(escaped: string): string {
  try {
    return JSON.parse(`"${escaped}"`) as string;
  } catch {
    return escaped;
  }
}

/**
 * A trace line (`< ` or `> ` and its text) whose text holds line breaks (a body's), each further line starting with
 * the same marker, as curl -v marks every line it traces: a line break in an answer cannot start a line of the log
 * that reads as b2bctl's own (`error: …`). Marked after masking, which finds a secret a line break splits.
 */
function continuationsMarked(line: string): string {
  return line.includes('\n') ? line.replace(/\r?\n/g, `\n${line.slice(0, 2)}`) : line;
}

function truncate(text: string, limit = 2000): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} bytes)` : text;
}

/**
 * The failure a retry line names: its code, and for a name that did not resolve that it is retried as a DNS blip
 * (a resolver failing over answers "no such name" for a few seconds), so a log shows why a typo takes seconds.
 */
function retriedFailure(failure: unknown): string {
  const code = networkErrorCode(failure);
  return code === 'ENOTFOUND' || code === 'EAI_AGAIN'
    ? `${code}: the name did not resolve, retried as a DNS blip`
    : code;
}
