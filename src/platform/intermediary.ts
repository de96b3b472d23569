import { type ProxyRoute, redactProxyUrl } from '../net/proxy-route.js';
import { headerText } from '../lib/http-text.js';
import { htmlTitle, isHtmlAnswer } from './answers/shapes.js';

/** Statuses that a proxy or gateway answers in the platform's place. */
const intermediaryStatuses = new Set([407, 502, 503, 504]);

type AnswerHeaders = Record<string, string | string[] | undefined>;

/**
 * The rest of a sentence naming who answered, when an answer comes from a proxy or gateway rather than the
 * platform: a 407 always (only a proxy asks for proxy credentials), a 502/503/504 when its body is an HTML page,
 * a 401 HTML page when a proxy is in the way (the platform answers JSON), and any error the proxy that plain http
 * is asked of by URL marks as its own (proxyOwnAnswerMark).
 */
export function intermediaryAnswer(
  response: { status: number; headers: AnswerHeaders; text: string; url: string },
  route: ProxyRoute,
): string | undefined {
  const contentType = response.headers['content-type'];
  // Some proxies (tinyproxy) refuse wrong proxy credentials with a 401 page instead of a 407.
  const html = isHtmlAnswer(Array.isArray(contentType) ? contentType[0] : contentType, response.text);
  const proxyRefusal = response.status === 401 && route.kind === 'proxy' && html;
  const title = html ? htmlTitle(response.text) : undefined;
  const page = html ? ` with an HTML page${title ? ` ("${title}")` : ''}` : '';
  const proxy = route.kind === 'proxy' ? `the proxy ${redactProxyUrl(route.proxy)}` : undefined;
  if (response.status === 407 || proxyRefusal)
    return `was answered HTTP ${response.status === 407 ? '407 (Proxy Authentication Required)' : '401'}${page} by ${proxy ?? 'a proxy between b2bctl and the platform'}${route.kind === 'proxy' && route.proxy.username ? ': it refused the credentials given. Check them' : ': it wants credentials. Give them'} in the proxy URL, ${route.kind === 'proxy' ? route.variable : 'HTTPS_PROXY'}=http://user:password@host:port (percent-encode @ : / in them), then try again.`;
  const own = proxyOwnError(response, route);
  if (own !== undefined) {
    const host = new URL(response.url).host;
    const by = `by ${proxy} (${own.variable}) itself (${own.mark}), not by the platform`;
    return response.status >= 500
      ? `was answered HTTP ${response.status}${page} ${by}: the proxy could not get an answer from ${host}. Try again later; if it persists, check the base URL and ${own.variable} (or add the host to NO_PROXY if this machine reaches it directly), and ask the proxy's operator.`
      : `was answered HTTP ${response.status}${page} ${by}: the proxy refused to pass the request on to ${host}. Ask the proxy's operator to allow ${host}, or add it to NO_PROXY if this machine reaches it directly.`;
  }
  if (!intermediaryStatuses.has(response.status) || !html) return undefined;
  return `was answered HTTP ${response.status}${page} by ${proxy ?? 'a proxy or gateway in front of the platform'}, not by the platform: the ${proxy ? 'proxy' : 'gateway'} could not get an answer from the platform. Try again later; if it persists, check the base URL${proxy ? ', NO_PROXY' : ''} and ask the ${proxy ? "proxy's" : "gateway's"} operator.`;
}

/**
 * An error status (4xx, 5xx) that the proxy a plain-http request is asked of by URL (no CONNECT tunnel, so the proxy
 * writes the answer the client reads) answered itself, with what marks it so; undefined for an answer it relayed, and
 * for any request through a tunnel, where only the platform can answer inside it.
 */
function proxyOwnError(
  response: { status: number; headers: AnswerHeaders; url: string },
  route: ProxyRoute,
): { mark: string; variable: string } | undefined {
  if (route.kind !== 'proxy' || response.status < 400 || !response.url.startsWith('http:')) return undefined;
  const mark = proxyOwnAnswerMark(response.headers);
  return mark === undefined ? undefined : { mark, variable: route.variable };
}

/** Forwarding proxies that name themselves in the `Server` header of the pages they write (`tinyproxy/1.11.1`). */
const forwardingProxyProducts = new Set(['tinyproxy', 'squid', 'privoxy']);

/**
 * What marks an answer as written by the proxy it came through rather than relayed from the platform: an
 * `X-Squid-Error` header (Squid puts it on the pages it writes, only), or a `Server` header naming a forwarding proxy
 * (tinyproxy's "500 Unable to connect" page carries `Server: tinyproxy/1.11.1`, and a page tinyproxy relays keeps the
 * platform's), or naming the hop the last `Via` entry names (`Via: 1.1 cache (squid/6.1)` beside `Server: squid/6.1`).
 * Decided by where the answer came from, never by the words of its page (a user test: tinyproxy's page was taken for
 * the platform's own 500). The header as shown in the message, or undefined.
 */
export function proxyOwnAnswerMark(headers: AnswerHeaders): string | undefined {
  const squidError = headerText(headers['x-squid-error']);
  if (squidError !== undefined) return `X-Squid-Error: ${squidError}`;
  const server = headerText(headers.server)?.trim();
  if (!server) return undefined;
  const product = (/^[^\s/]+/.exec(server)?.[0] ?? '').toLowerCase();
  const lastHop = [headers.via ?? []].flat().join(',').split(',').at(-1)?.trim();
  // `1.1 cache (squid/6.1)`: the hop's comment names its software, as its Server header does on its own pages.
  const hopSoftware = lastHop === undefined ? undefined : /\(([^)]*)\)\s*$/.exec(lastHop)?.[1]?.trim();
  if (forwardingProxyProducts.has(product) || (hopSoftware !== undefined && hopSoftware === server))
    return `Server: ${server}`;
  return undefined;
}
