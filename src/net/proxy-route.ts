import { BlockList, isIP } from 'node:net';
import { UsageError } from '../base/errors.js';

/** Which proxy, if any, a URL goes through, read from the environment as curl and npm read it. Pure. */

export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

export type ProxyRoute =
  /**
   * `unused`: the https variable that is set, for an http:// URL it does not apply to; `unread`: ALL_PROXY or
   * all_proxy, set, which b2bctl does not read (doctor says both).
   */
  | { kind: 'direct'; unused?: string; unread?: string }
  /** NO_PROXY names this host: `entry` is the NO_PROXY entry that matched. */
  | { kind: 'bypassed'; entry: string; proxy: URL }
  | { kind: 'proxy'; proxy: URL; variable: string };

const defaultPorts: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * The route of a request to `url`: HTTPS_PROXY for https, HTTP_PROXY for http (https falls back to HTTP_PROXY),
 * NO_PROXY as host, domain suffix (`.example.com` or `example.com`), `host:port`, a network in CIDR
 * (`10.0.0.0/8`), or `*`. The lower-case variable wins over the upper-case one, as in curl; these are the rules of
 * undici's EnvHttpProxyAgent, with curl's CIDR entries, which it does not read.
 */
export function proxyRouteFor(url: URL, env: ProxyEnvironment): ProxyRoute {
  // `??` as undici reads it: a lower-case variable that is set, even empty, hides the upper-case one.
  const pick = (lower: string, upper: string) =>
    env[lower] !== undefined ? { name: lower, value: env[lower] } : { name: upper, value: env[upper] };
  const http = pick('http_proxy', 'HTTP_PROXY');
  const https = pick('https_proxy', 'HTTPS_PROXY');
  const chosen = url.protocol === 'https:' && https.value ? https : http;
  if (!chosen.value?.trim()) {
    // curl falls back to ALL_PROXY; b2bctl does not, as npm and undici do not: it is where a SOCKS proxy for every
    // other tool is commonly set, which b2bctl would refuse (parseProxyUrl) and so fail every command that went direct.
    const all = pick('all_proxy', 'ALL_PROXY');
    const unread = all.value?.trim() ? { unread: all.name } : {};
    return url.protocol === 'http:' && https.value?.trim()
      ? { kind: 'direct', unused: https.name, ...unread }
      : { kind: 'direct', ...unread };
  }
  const variable = chosen.name;
  const proxy = parseProxyUrl(chosen.value, variable);
  const entry = noProxyMatch(url, noProxyVariableOf(env).value ?? '');
  return entry === undefined ? { kind: 'proxy', proxy, variable } : { kind: 'bypassed', entry, proxy };
}

/**
 * The no-proxy variable a request reads, and its value: `no_proxy` when it is set, even empty, else `NO_PROXY`, as
 * undici reads them; the one to name where b2bctl says how to go direct.
 */
export function noProxyVariableOf(env: ProxyEnvironment): { name: 'no_proxy' | 'NO_PROXY'; value?: string } {
  return env.no_proxy === undefined
    ? { name: 'NO_PROXY', value: env.NO_PROXY }
    : { name: 'no_proxy', value: env.no_proxy };
}

/** A proxy variable's value as a URL; `proxy:3128` without a scheme means http://, as curl reads it; http:// only. */
export function parseProxyUrl(value: string, variable: string): URL {
  const text = value.trim();
  const refused = () =>
    new ProxySettingError(
      `${variable} is not a proxy address (${maskUserInfo(text)}); write it as http://host:port or http://user:password@host:port, with a / : @ or % in the password written %2F %3A %40 %25.`,
    );
  let proxy: URL;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw refused();
  }
  // undici takes https:// (TLS to the proxy) and socks5:// (its own "experimental", warning on stderr), and fails every
  // request of another scheme with "Invalid URL protocol", naming no variable (a user test). b2bctl speaks plain HTTP
  // to its proxy, as doctor's probes do; the platform's https:// traffic is TLS end to end in the CONNECT tunnel.
  if (proxy.protocol !== 'http:')
    throw new ProxySettingError(
      `${variable} is not an http:// proxy address (${maskUserInfo(text)}): b2bctl reaches a proxy by http:// only, not ${proxy.protocol}//; write it as http://host:port (the proxy's plain-HTTP port), or unset it.`,
    );
  // `http://user:12/3@proxy` parses as the host `user`, port 12 and the path `/3@proxy`: a password split by a `/`.
  // Any other path, query or fragment is no part of a proxy's address either: undici refuses it ("invalid url").
  if (!['', '/'].includes(proxy.pathname) || proxy.search !== '' || proxy.hash !== '') throw refused();
  // A `%` not followed by two hex digits (`100%-off`): the URL keeps it, and reading the credentials fails
  // ("URI malformed") when the first request is made, naming no variable.
  if (!decodes(proxy.username) || !decodes(proxy.password)) throw refused();
  return proxy;
}

/** Whether percent-encoded text decodes: each `%` followed by two hex digits, making UTF-8. */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A proxy variable's text that did not parse, as it may be printed: everything between the scheme (if any) and the
 * last `@` but the user name is masked, whatever characters the password holds (`/`, `:`, `@`).
 */
export function maskUserInfo(text: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  const rest = text.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  if (at < 0) return text;
  const userInfo = rest.slice(0, at);
  const colon = userInfo.indexOf(':');
  const user = colon < 0 ? userInfo : userInfo.slice(0, colon);
  return `${scheme}${/[/?#]/.test(user) ? '[redacted]' : user}${colon < 0 ? '' : ':[redacted]'}@${rest.slice(at + 1)}`;
}

/** A proxy variable that cannot be read: a usage error, found before anything is sent. */
export class ProxySettingError extends UsageError {}

/**
 * The NO_PROXY entry that exempts `url`, if any: `*`; a network in CIDR (`10.0.0.0/8`, `fd00::/8`), holding a host
 * written as an IP address (curl since 7.86; a name is never resolved to match one, as curl does not); a host, or a
 * domain and its subdomains, with a port or not; an IP address (`::1` or `[::1]` alike).
 */
export function noProxyMatch(url: URL, noProxy: string): string | undefined {
  const entries = noProxy.split(/[,\s]+/).filter((entry) => entry !== '');
  if (entries.length === 0) return undefined;
  if (noProxy.trim() === '*') return '*';
  const host = withoutBrackets(url.hostname.toLowerCase());
  const port = Number(url.port) || defaultPorts[url.protocol] || 0;
  for (const entry of entries) {
    if (entry.includes('/')) {
      if (inNetwork(host, entry)) return entry;
      continue;
    }
    // `::1` is an address, not the host `:` on port 1.
    const parsed = isIP(withoutBrackets(entry)) === 0 ? /^(.+):(\d+)$/.exec(entry) : null;
    const entryHost = withoutBrackets((parsed?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase());
    if (parsed?.[2] && Number(parsed[2]) !== port) continue;
    if (host === entryHost || host.endsWith(`.${entryHost}`)) return entry;
  }
  return undefined;
}

/** An IPv6 address as a URL writes it, `[::1]`, as an address: `::1`. */
function withoutBrackets(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Whether `host`, an IP address as written, is in the NO_PROXY network `entry` (`127.0.0.0/8`, `[fd00::]/8`): an
 * entry that is no network (a bad address or prefix length) holds nothing, as curl ignores it.
 */
function inNetwork(host: string, entry: string): boolean {
  const network = /^(.+)\/(\d{1,3})$/.exec(entry);
  const hostFamily = isIP(host);
  if (network === null || hostFamily === 0) return false;
  const address = withoutBrackets(network[1] ?? '');
  const family = isIP(address);
  const prefix = Number(network[2]);
  if (family !== hostFamily || prefix > (family === 4 ? 32 : 128)) return false;
  const list = new BlockList();
  const type = family === 4 ? 'ipv4' : 'ipv6';
  list.addSubnet(address, prefix, type);
  return list.check(host, type);
}

/** A proxy URL as it may be printed: the password replaced, the user kept so the reader knows which one was used. */
export function redactProxyUrl(proxy: URL): string {
  const user = proxy.username ? `${decodeURIComponentSafe(proxy.username)}${proxy.password ? ':[redacted]' : ''}@` : '';
  return `${proxy.protocol}//${user}${proxy.host}`;
}

/** Free text that may hold `scheme://user:password@host`: the password replaced. */
export function redactProxyText(text: string): string {
  // Up to the last `@` of the word: a password may hold an unencoded `/` or `@`.
  return text.replace(/(\/\/[^:/@\s]*:)\S*@/g, '$1[redacted]@');
}

/** One line for doctor and --verbose: where requests to `url` go. */
export function describeRoute(route: ProxyRoute): string {
  if (route.kind === 'direct') {
    const unread =
      route.unread === undefined
        ? ''
        : `; ${route.unread} is set, and b2bctl does not read it (curl does): set HTTPS_PROXY or HTTP_PROXY to go through a proxy`;
    return route.unused === undefined
      ? `direct (no HTTPS_PROXY or HTTP_PROXY set)${unread}`
      : `direct: ${route.unused} is set, but it is for https:// addresses; an http:// one goes through HTTP_PROXY, which is not set${unread}`;
  }
  if (route.kind === 'bypassed')
    return `direct: NO_PROXY entry "${route.entry}" bypasses the proxy ${redactProxyUrl(route.proxy)}`;
  return `through the proxy ${redactProxyUrl(route.proxy)} (${route.variable})`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
