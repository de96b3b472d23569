import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { UsageError } from '../base/errors.js';
import { queryHoldsCredential } from '../lib/secret-values.js';
import { noProxyVariableOf, type ProxyEnvironment, proxyRouteFor } from './proxy-route.js';

/**
 * Whether `hostname` (as URL.hostname gives it: `[::1]` bracketed) names this machine: `localhost`, all of
 * 127.0.0.0/8, `::1`, and 127.x written as an IPv4-mapped IPv6 address. Only the name `localhost` itself: glibc
 * without nss-myhostname sends `app.localhost` and `localhost.` to the DNS server, whose answer may be any machine
 * (browsers keep them local; node's resolver does not).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) !== 6) return false;
  if (host === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(host)) return true;
  // ::ffff:127.0.0.1 (URL writes it ::ffff:7f00:1).
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([\da-f]{1,4}):[\da-f]{1,4})$/.exec(host);
  if (!mapped) return false;
  return mapped[1] !== undefined ? mapped[1].startsWith('127.') : Number.parseInt(mapped[2] ?? '', 16) >> 8 === 0x7f;
}

/**
 * Whether a server told to listen on `host` listens on this machine's own addresses only: a loopback address, or the
 * name `localhost` when every address the resolver gives it is one (`/etc/hosts` may map it to another machine's
 * address, and the server would listen there).
 */
export async function listensOnThisMachineOnly(
  host: string,
  resolve: (host: string) => Promise<readonly { address: string }[]> = (name) => lookup(name, { all: true }),
): Promise<boolean> {
  if (!isLoopbackHost(host)) return false;
  if (isIP(host.replace(/^\[(.*)\]$/, '$1')) !== 0) return true;
  try {
    const addresses = await resolve(host);
    return addresses.length > 0 && addresses.every((address) => isLoopbackHost(address.address));
  } catch {
    return false;
  }
}

/**
 * The warning for a plain-HTTP server listening on `host` where other machines reach it (`what` they then reach or
 * read, and the way to keep it here), or undefined on this machine's own addresses. Said, not refused: a test
 * network, or a TLS proxy on another machine, may want it. Shared by the sandbox, the receiver and `tax serve`.
 */
export async function reachableListenerWarning(
  server: string,
  host: string,
  what: string,
  keepHere: string,
): Promise<string | undefined> {
  if (await listensOnThisMachineOnly(host)) return undefined;
  return `warning: ${server} listens on ${host}, reachable from other machines: ${what}. ${keepHere}`;
}

/**
 * Whether a request to `url` would travel unencrypted past this machine: to another machine, or to this one
 * through a proxy on another (HTTP_PROXY takes loopback addresses too unless NO_PROXY names them), with `env` the
 * proxy variables to read.
 */
export function isPlainHttpOffMachine(url: URL, env?: ProxyEnvironment): boolean {
  return url.protocol === 'http:' && (!isLoopbackHost(url.hostname) || remoteProxyOf(url, env) !== undefined);
}

/** The proxy on another machine that a plain-HTTP request to `url` would pass through, if any. */
function remoteProxyOf(url: URL, env: ProxyEnvironment | undefined): URL | undefined {
  if (env === undefined) return undefined;
  const route = proxyRouteFor(url, env);
  return route.kind === 'proxy' && !isLoopbackHost(route.proxy.hostname) ? route.proxy : undefined;
}

/**
 * Whether the URL itself holds a credential: user-info, or a query parameter that carries one, by the rule that
 * masks it wherever a URL is printed (isCredentialParameter): `?api_key=`, `?code=`, `?jwt=`, `?senha=`, `?chave=`
 * are credentials, `?sortKey=` and `?author=` are not.
 */
export function urlHoldsCredential(url: URL): boolean {
  if (url.username !== '' || url.password !== '') return true;
  return queryHoldsCredential(url.search);
}

/**
 * Refuses (exit 2) to send `credential` over plain HTTP to another machine, where anyone on the way can read it,
 * unless the user said `--allow-http`. `url` is shown without user-info or query. `allow` is what lets it through
 * when the network is trusted; `false` where nothing does (the sandbox's credentials): the advice is then the
 * https:// address alone, not "use the https:// address, or use an https:// --tax-callback" (a user test).
 */
export function refusePlainHttp(
  url: URL,
  credential: string,
  allowHttp: boolean,
  allow: string | false = 'pass --allow-http',
  env?: ProxyEnvironment,
): void {
  if (allowHttp || !isPlainHttpOffMachine(url, env)) return;
  const proxy = isLoopbackHost(url.hostname) ? remoteProxyOf(url, env) : undefined;
  const between =
    proxy === undefined ? url.hostname : `the proxy ${proxy.hostname} (${goDirectAdvice(url.hostname, env ?? {})})`;
  throw new UsageError(
    `Refusing to send ${credential} to ${url.protocol}//${url.host}${url.pathname} over plain HTTP: anyone on the network between here and ${between} can read it. Use the https:// address${allow === false ? '' : `, or ${allow} if that network is trusted`}.`,
  );
}

/**
 * How to send a request to `host` without the proxy: through the no-proxy variable the request reads, named, and
 * added to when it already lists hosts. A lower-case `no_proxy` hides `NO_PROXY`, so advice to set `NO_PROXY` when
 * `no_proxy` is what is read would change nothing (a user test).
 */
function goDirectAdvice(host: string, env: ProxyEnvironment): string {
  const { name, value } = noProxyVariableOf(env);
  const change = value?.trim() ? `add ${host} to ${name}` : `set ${name}=${host}`;
  return name === 'no_proxy' && env.NO_PROXY !== undefined
    ? `${change} to go direct: it is read instead of NO_PROXY`
    : `${change} to go direct`;
}

/** A hand-off URL (`--forward-to`, `--to`) is refused over plain HTTP only when it carries a credential of its own. */
export function refuseUrlCredentialOverPlainHttp(url: URL, allowHttp: boolean, env?: ProxyEnvironment): void {
  if (urlHoldsCredential(url))
    refusePlainHttp(url, 'the credential in the URL (user-info or query)', allowHttp, undefined, env);
}
