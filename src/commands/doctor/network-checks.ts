import { lookup } from 'node:dns/promises';
import { ExitCode, UnavailableError } from '../../base/errors.js';
import { describeNetworkProblem, explainNetworkProblem } from '../../net/network-error.js';
import { isLoopbackHost } from '../../net/plain-http.js';
import { describeRoute, type ProxyRoute, redactProxyUrl } from '../../net/proxy-route.js';
import { openConnection, probeTls, reachProxy } from '../../net/tls-probe.js';
import type { HttpClient } from '../../platform/http-client.js';
import { httpDateOf } from '../../lib/http-text.js';
import { printable } from '../../lib/printable.js';
import type { Finding } from './findings.js';

/** Skew beyond which tokens issued by the platform look expired or not yet valid here. */
const warnSkewMs = 60_000;
const failSkewMs = 5 * 60_000;

/** Whether the base URL's host name resolves; through a proxy, the proxy's (the proxy resolves the rest). */
export async function checkDns(url: URL, route: ProxyRoute): Promise<Finding> {
  const host = (route.kind === 'proxy' ? route.proxy : url).hostname.replace(/^\[|\]$/g, '');
  const whose = route.kind === 'proxy' ? 'the proxy ' : '';
  try {
    const addresses = await lookup(host, { all: true });
    return {
      check: 'DNS',
      result: 'ok',
      detail: `${whose}${host} → ${addresses.map((entry) => entry.address).join(', ')}`,
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return {
      check: 'DNS',
      result: 'fail',
      detail: `${whose}${host} does not resolve (${code}); check the host name in ${route.kind === 'proxy' ? route.variable : 'the base URL'}`,
      setting: route.kind === 'proxy' ? undefined : 'baseUrl',
      exitCode: ExitCode.unavailable,
    };
  }
}

/** Which proxy the base URL goes through (or that NO_PROXY bypasses it), and whether the proxy tunnels to it. */
export async function checkProxy(url: URL, route: ProxyRoute, timeoutMs: number): Promise<Finding> {
  // ALL_PROXY set and not read: a warning, as the operator may believe the requests go through it (a user test).
  if (route.kind !== 'proxy')
    return {
      check: 'proxy',
      result: route.kind === 'direct' && route.unread !== undefined ? 'warn' : 'ok',
      detail: describeRoute(route),
    };
  try {
    // Plain http is asked of the proxy by URL, without CONNECT: the check is that the proxy answers at all.
    if (url.protocol !== 'https:') {
      await reachProxy(route.proxy, timeoutMs);
      return {
        check: 'proxy',
        result: 'ok',
        detail: `${describeRoute(route)}: the proxy answers; plain http is asked of it by URL, without CONNECT`,
      };
    }
    const socket = await openConnection(url, route, timeoutMs);
    socket?.destroy();
    return { check: 'proxy', result: 'ok', detail: `${describeRoute(route)}: CONNECT to ${url.host} succeeded` };
  } catch (error) {
    const problem = describeNetworkProblem(error, url, route);
    const asked =
      url.protocol === 'https:'
        ? `CONNECT to ${url.host} through ${redactProxyUrl(route.proxy)}`
        : `Reaching ${redactProxyUrl(route.proxy)}`;
    return {
      check: 'proxy',
      result: 'fail',
      detail: `${asked} failed: ${problem.what}; ${problem.fix}`,
      exitCode: ExitCode.unavailable,
    };
  }
}

/** The TLS handshake of an https base URL: certificate trusted, for this host, and its expiry. */
export async function checkTls(url: URL, route: ProxyRoute, timeoutMs: number): Promise<Finding> {
  if (url.protocol !== 'https:') {
    const loopback = isLoopbackHost(url.hostname);
    return {
      check: 'TLS',
      result: loopback ? 'ok' : 'warn',
      // Not called the sandbox: an SSH tunnel or a local proxy to a real store is on this machine too (a user test).
      detail: loopback
        ? 'plain HTTP on this machine'
        : 'plain HTTP: the token and the data travel unencrypted; use the https:// address of the store',
      setting: loopback ? undefined : 'baseUrl',
    };
  }
  try {
    // Not rejected during the handshake, so that an untrusted certificate can be described; nothing is sent on it.
    const probe = await probeTls(url, route, timeoutMs);
    if (probe.authorized)
      return {
        check: 'TLS',
        result: 'ok',
        detail: `${probe.protocol ?? 'TLS'}, certificate valid until ${probe.validTo}`,
      };
    const problem = describeNetworkProblem({ code: probe.problem }, url, route, probe);
    return { check: 'TLS', result: 'fail', detail: `${problem.what}: ${problem.fix}`, exitCode: ExitCode.unavailable };
  } catch (error) {
    const problem = await explainNetworkProblem(error, url, route, timeoutMs);
    return { check: 'TLS', result: 'fail', detail: `${problem.what}: ${problem.fix}`, exitCode: ExitCode.unavailable };
  }
}

/**
 * Whether anything answers at the base URL (any status will do), and the platform's clock from that
 * answer's `Date` header. Undefined reachability ends the other checks.
 */
export async function checkReachable(
  http: HttpClient,
  nowMs: () => number,
): Promise<{ reachable: Finding; clock: Finding | undefined }> {
  const sentAt = nowMs();
  try {
    const response = await http.request({ method: 'GET', path: '/', headers: { accept: 'application/json' } });
    const midpoint = (sentAt + nowMs()) / 2;
    const reachable: Finding = {
      check: `GET ${http.baseUrl.origin}`,
      result: 'ok',
      status: response.status,
      detail: 'reachable (any answer will do)',
    };
    const date = httpDateOf(response.headers.date);
    if (date === undefined) return { reachable, clock: noDateHeader() };
    return {
      reachable,
      clock: 'ms' in date ? clockFinding(date.ms - midpoint) : unreadableDateHeader(date.unreadable),
    };
  } catch (error) {
    return {
      reachable: {
        check: `GET ${http.baseUrl.origin}`,
        result: 'fail',
        detail: (error as Error).message,
        // Answered too slowly for the profile's time-out: the setting to change is that, not the address.
        setting: error instanceof UnavailableError && error.timedOutAfterMs !== undefined ? 'http.timeout' : 'baseUrl',
        exitCode: ExitCode.unavailable,
      },
      clock: undefined,
    };
  }
}

/** The `Date` header has a resolution of one second, so skews below two are noise. */
export function clockFinding(skewMs: number): Finding {
  const seconds = Math.round(skewMs / 1000);
  const words =
    Math.abs(seconds) < 2
      ? 'in step with this machine'
      : `${Math.abs(seconds)} s ${seconds > 0 ? 'ahead of' : 'behind'} this machine`;
  const off = Math.abs(skewMs);
  if (off < warnSkewMs) return { check: 'clock', result: 'ok', detail: `platform clock ${words}` };
  return {
    check: 'clock',
    result: off >= failSkewMs ? 'fail' : 'warn',
    detail: `platform clock ${words}: token expiry and order time windows will be off; set this machine's clock by NTP (or ask the platform's operator)`,
    exitCode: off >= failSkewMs ? ExitCode.someRecordsFailed : undefined,
  };
}

function noDateHeader(): Finding {
  return { check: 'clock', result: 'skip', detail: 'the answer had no Date header' };
}

/**
 * A `Date` header that is no HTTP date (a gateway's `01/12/2026 02:24:13`) tells no clock: read loosely, it failed
 * the check and sent the operator to set clocks that were right (a user test). Skipped, the header quoted.
 */
function unreadableDateHeader(text: string): Finding {
  return {
    check: 'clock',
    result: 'skip',
    detail: `the answer's Date header (${JSON.stringify(printable(text.slice(0, 80)))}) is no HTTP date, so the platform's clock is not known; whatever writes it (a gateway or proxy before the platform) should write one such as Tue, 01 Dec 2026 02:24:13 GMT`,
  };
}
