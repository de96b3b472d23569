import { type ProxyRoute, redactProxyText, redactProxyUrl } from './proxy-route.js';
import { probeTls, type TlsProbe } from './tls-probe.js';

/** A failed connection in words: what happened and what to do, shared by doctor and every command. */
export interface NetworkProblem {
  /** Short, for a trace or a retry line: the code, such as `ECONNREFUSED`. */
  code: string;
  /** What happened, naming the host or proxy at fault. */
  what: string;
  /** What to do about it. */
  fix: string;
  /** The server answered, and the connection closed before the answer's end: it was reached. */
  cutShort?: true;
}

const untrustedCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const timeoutCodes = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const resetCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED', 'UND_ERR_CLOSED']);
/** Whether a code says the connection was reset or closed under the request (not refused, not timed out). */
export function isConnectionBreak(code: string | undefined): boolean {
  return code !== undefined && resetCodes.has(code);
}
/** The system or undici code found on an error or on its cause (`ECONNRESET`, `UND_ERR_SOCKET`), if any. */
export function errorCodeOf(error: unknown): string | undefined {
  const withCode = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = withCode?.code ?? withCode?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A failure while an answer's body was read, its status line already come: the server was reached and answered
 * `status`, whatever undici calls the break (`UND_ERR_SOCKET` for a connection closed mid-body, a length mismatch, a
 * chunked body without its end in words only). The code stays the cause's, for the retry policy and the message.
 */
export class CutShortAnswerError extends Error {
  readonly code: string | undefined;
  readonly status: number;
  constructor(status: number, cause: unknown) {
    // The cause's words: a break undici gives no code (a chunked body without its end) is named by them.
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.status = status;

    this.name = 'CutShortAnswerError';
    this.code = errorCodeOf(cause);
  }
}

/**
 * A request written on an open connection whose answer never began: the attempt's time-out ran out, or the connection
 * was cut (a reset). The platform may have received it, and applied it, so a write is not "not sent" (a refused
 * connection is: it never opened). The code and name stay the cause's, for the retry policy and the message.
 */
export class UnansweredRequestError extends Error {
  readonly code: string | undefined;
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'UnansweredRequestError';
    this.code = errorCodeOf(cause);
  }

  /** Whether it was b2bctl's time-out that ended the wait (else the connection was cut). */
  get timedOut(): boolean {
    return (
      (this.cause instanceof Error && this.cause.name === 'TimeoutError') ||
      (this.code !== undefined && timeoutCodes.has(this.code))
    );
  }
}

/**
 * Whether a failure of a request already written on its connection leaves it unanswered rather than refused: a
 * time-out (b2bctl's own or undici's) or a cut connection. Anything else (a certificate, a proxy's refusal) is kept.
 */
export function isUnansweredFailure(error: unknown): boolean {
  // An answer whose status came, cut short after it, is that: answered (CutShortAnswerError).
  if (error instanceof CutShortAnswerError || error instanceof UnansweredRequestError) return false;
  if (error instanceof Error && error.name === 'TimeoutError') return true;
  const code = errorCodeOf(error);
  return code !== undefined && code !== 'UND_ERR_CONNECT_TIMEOUT' && (timeoutCodes.has(code) || resetCodes.has(code));
}

/** The failure as the network gave it: the cause of an UnansweredRequestError, else itself. */
function asGiven(error: unknown): unknown {
  return error instanceof UnansweredRequestError ? error.cause : error;
}

/**
 * Whether the connection closed before the answer's end: a body shorter than its Content-Length, or a chunked one
 * without its last chunk, which undici's parser says in words only (its code is null).
 */
export function isCutShortAnswer(error: unknown): boolean {
  if (error instanceof CutShortAnswerError) return true;
  if (!(error instanceof Error)) return false;
  if (errorCodeOf(error) === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return true;
  return error.name === 'HTTPParserError' && error.message.includes('Invalid EOF state');
}

/** The code of a network error, found on it or on its cause: `ECONNREFUSED`, `CERT_HAS_EXPIRED`, `timed out`. */
export function networkErrorCode(failure: unknown): string {
  const error = asGiven(failure);
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timed out';
    const proxyStatus = proxyStatusOf(error);
    if (proxyStatus !== undefined) return `proxy HTTP ${proxyStatus}`;
  }
  const code = errorCodeOf(error);
  if (code !== undefined) return code;
  return error instanceof Error ? redactProxyText(error.message) : String(error);
}

/** Whether the error is a certificate problem that a second, describing handshake can explain. */
export function isCertificateError(error: unknown): boolean {
  const code = networkErrorCode(error);
  return untrustedCodes.has(code) || code === 'CERT_HAS_EXPIRED' || code === 'ERR_TLS_CERT_ALTNAME_INVALID';
}

/**
 * What to set right before a request the server's certificate refused can go through, as a clause, or undefined for
 * another failure: a certificate is not mended by waiting, as an unavailable server is.
 */
export function certificateRemedy(error: unknown): string | undefined {
  if (!isCertificateError(error)) return undefined;
  const code = networkErrorCode(error);
  if (code === 'CERT_HAS_EXPIRED') return "the server's operator renews it (or this machine's clock is set right)";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'the base URL names a host the certificate is for';
  return "NODE_EXTRA_CA_CERTS points at the certificate of the authority that issued it, in the environment this command runs in (a cron job's or a service's too)";
}

/** The status a proxy answered instead of connecting us (undici words it in its message only). */
function proxyStatusOf(error: Error): number | undefined {
  const status = (error as { status?: unknown }).status;
  if (error.name === 'ProxyConnectError' && typeof status === 'number') return status;
  const match = /Proxy response \((\d{3})\) !== 200|Proxy Authentication Required \((\d{3})\)/.exec(error.message);
  return match ? Number(match[1] ?? match[2]) : undefined;
}

/**
 * What the fix of a failed connection names: the flag or setting the URL came from, and the one that sets the
 * time-out (none when the time-out is fixed). The platform's by default.
 */
export interface UrlSource {
  url: string;
  timeout?: string;
}

const platformUrl: UrlSource = { url: 'the base URL (--base-url or B2BCTL_BASE_URL)', timeout: 'http.timeout' };

/** Describes a failed connection to `url` reached by `route`; `certificate` adds what a TLS probe saw. */
export function describeNetworkProblem(
  error: unknown,
  url: URL,
  route: ProxyRoute,
  certificate?: TlsProbe,
  source: UrlSource = platformUrl,
): NetworkProblem {
  const code = networkErrorCode(error);
  const host = url.host;
  const proxy = route.kind === 'proxy' ? redactProxyUrl(route.proxy) : undefined;
  const proxyStatus = error instanceof Error ? proxyStatusOf(error) : undefined;
  // A CONNECT answered 401 is the proxy's too (tinyproxy answers wrong credentials so).
  if (proxyStatus === 407 || proxyStatus === 401)
    return {
      code,
      what: `the proxy ${proxy} ${route.kind === 'proxy' && route.proxy.username ? 'refused the credentials given' : 'wants credentials'} (HTTP ${proxyStatus === 407 ? '407 Proxy Authentication Required' : '401'})`,
      fix: `give ${route.kind === 'proxy' && route.proxy.username ? 'the right ones' : 'them'} in the proxy URL, ${route.kind === 'proxy' ? route.variable : 'HTTPS_PROXY'}=http://user:password@host:port (percent-encode @ : / in them)`,
    };
  // A 5xx to CONNECT is the proxy failing to reach the host (tinyproxy's 500 "Unable to connect" when the platform is
  // down), not a refusal: said as such, by the status class alone (a user test).
  if (proxyStatus !== undefined && proxyStatus >= 500)
    return {
      code,
      what: `the proxy ${proxy} could not connect to ${host} (HTTP ${proxyStatus} to CONNECT)`,
      fix: `the platform may be down or unreachable from the proxy: check the base URL and ask the proxy's operator, or add ${host} to NO_PROXY if this machine reaches it directly`,
    };
  if (proxyStatus !== undefined)
    return {
      code,
      what: `the proxy ${proxy} refused to connect to ${host} (HTTP ${proxyStatus} to CONNECT)`,
      fix: `ask the proxy's operator to allow ${host}, or add it to NO_PROXY if this machine reaches it directly`,
    };
  if (untrustedCodes.has(code) || code === 'CERT_HAS_EXPIRED' || code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return certificateProblem(code, host, certificate);
  return connectionProblem(
    code,
    url,
    route.kind === 'proxy' ? { shown: proxy ?? '', variable: route.variable } : undefined,
    source,
    isCutShortAnswer(error),
  );
}

function certificateProblem(code: string, host: string, certificate: TlsProbe | undefined): NetworkProblem {
  const names = certificate ? `; issued to ${certificate.subject ?? '?'} by ${certificate.issuer ?? '?'}` : '';
  if (code === 'CERT_HAS_EXPIRED')
    return {
      code,
      what: `the certificate of ${host} has expired (${code}${certificate?.validTo ? `, valid until ${certificate.validTo}` : ''}${names})`,
      fix: "the server's operator must renew it; check this machine's clock too",
    };
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return {
      code,
      what: `the certificate of ${host} is for another host name (${code}${certificate?.altNames ? `: ${certificate.altNames}` : ''})`,
      fix: 'use in the base URL a host name the certificate names',
    };
  return {
    code,
    what: `the certificate of ${host} is not trusted (${code}${names})`,
    fix: "if the server or a proxy uses its own certificate authority, point NODE_EXTRA_CA_CERTS at that authority's certificate file (PEM)",
  };
}

function connectionProblem(
  code: string,
  url: URL,
  through: { shown: string; variable: string } | undefined,
  source: UrlSource,
  cutShort: boolean,
): NetworkProblem {
  // Through a proxy, b2bctl connects to the proxy only: a failure to connect is the proxy's. The variable named is
  // the one the proxy came from (a lower-case http_proxy wins over HTTP_PROXY, as in curl).
  const proxy = through?.shown;
  const where = proxy ? `the proxy ${proxy}` : url.host;
  const check = through ? `check ${through.variable} (or add the host to NO_PROXY)` : `check ${source.url}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return {
      code,
      what: `${proxy ? `the proxy's host name` : url.hostname} does not resolve (${code})`,
      fix: `${check} and this machine's DNS`,
    };
  // The name localhost mapped to another machine (net/dispatcher.ts): plain HTTP would carry credentials there.
  if (code === 'ENOTLOCAL')
    return {
      code,
      what: `${url.hostname} resolves to another machine than this one (${code}), so nothing was sent over plain HTTP`,
      fix: `use http://127.0.0.1:${url.port || '80'} or https:// in ${source.url}, or correct this machine's hosts file`,
    };
  if (code === 'ECONNREFUSED')
    return {
      code,
      what: proxy ? `${where} refused the connection (${code})` : `nothing listens at ${where} (${code})`,
      fix: `${check} and that the server runs`,
    };
  if (timeoutCodes.has(code) || code === 'timed out')
    return {
      code,
      what: `${where} did not answer in time (${code})`,
      fix: `${check}; a firewall may drop the traffic${source.timeout ? `, or raise ${source.timeout}` : ''}`,
    };
  if (cutShort)
    return {
      code,
      what: `${where} answered, but the connection closed before the answer's end (${code})`,
      fix: 'a gateway or proxy in between may be timing out or cutting answers; check it and the network',
      cutShort: true,
    };
  if (resetCodes.has(code))
    return {
      code,
      what: `the connection to ${where} was cut (${code})`,
      fix: 'a firewall or proxy may be closing it; check the network',
    };
  return { code, what: `${where} could not be reached (${code})`, fix: `${check} and the network` };
}

/** describeNetworkProblem, after a describing handshake when the error is about the certificate. */
export async function explainNetworkProblem(
  error: unknown,
  url: URL,
  route: ProxyRoute,
  timeoutMs: number,
  source: UrlSource = platformUrl,
): Promise<NetworkProblem> {
  if (!isCertificateError(error) || url.protocol !== 'https:')
    return describeNetworkProblem(error, url, route, undefined, source);
  const certificate = await probeTls(url, route, timeoutMs).catch(() => undefined);
  return describeNetworkProblem(error, url, route, certificate, source);
}

/** One sentence for a failed request outside the platform client: what happened, then the fix. */
export function networkProblemSentence(problem: NetworkProblem): string {
  return `${problem.what}; ${problem.fix}`;
}
