import { type ProxyRoute, redactProxyUrl } from '../net/proxy-route.js';
import { htmlTitle, isHtmlAnswer } from './answers/shapes.js';

/** Statuses that a proxy or gateway answers in the platform's place. */
const intermediaryStatuses = new Set([407, 502, 503, 504]);

/**
 * The rest of a sentence naming who answered, when an answer comes from a proxy or gateway rather than the
 * platform: a 407 always (only a proxy asks for proxy credentials), a 502/503/504 when its body is an HTML page,
 * a 401 HTML page when a proxy is in the way (the platform answers JSON).
 */
export function intermediaryAnswer(
  response: { status: number; headers: Record<string, string | string[] | undefined>; text: string },
  route: ProxyRoute,
): string | undefined {
  const contentType = response.headers['content-type'];
  // Some proxies (tinyproxy) refuse wrong proxy credentials with a 401 page instead of a 407.
  const proxyRefusal = response.status === 401 && route.kind === 'proxy';
  if (!intermediaryStatuses.has(response.status) && !proxyRefusal) return undefined;
  const html = isHtmlAnswer(Array.isArray(contentType) ? contentType[0] : contentType, response.text);
  if (response.status !== 407 && !html) return undefined;
  const title = html ? htmlTitle(response.text) : undefined;
  const page = html ? ` with an HTML page${title ? ` ("${title}")` : ''}` : '';
  const proxy = route.kind === 'proxy' ? `the proxy ${redactProxyUrl(route.proxy)}` : undefined;
  if (response.status === 407 || proxyRefusal)
    return `was answered HTTP ${response.status === 407 ? '407 (Proxy Authentication Required)' : '401'}${page} by ${proxy ?? 'a proxy between b2bctl and the platform'}${route.kind === 'proxy' && route.proxy.username ? ': it refused the credentials given. Check them' : ': it wants credentials. Give them'} in the proxy URL, ${route.kind === 'proxy' ? route.variable : 'HTTPS_PROXY'}=http://user:password@host:port (percent-encode @ : / in them), then try again.`;
  return `was answered HTTP ${response.status}${page} by ${proxy ?? 'a proxy or gateway in front of the platform'}, not by the platform: the ${proxy ? 'proxy' : 'gateway'} could not get an answer from the platform. Try again later; if it persists, check the base URL${proxy ? ', NO_PROXY' : ''} and ask the ${proxy ? "proxy's" : "gateway's"} operator.`;
}
