import { lookup as systemLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, type Dispatcher, Pool, ProxyAgent } from 'undici';
import { isLoopbackHost } from './plain-http.js';
import { type ProxyEnvironment, type ProxyRoute, proxyRouteFor } from './proxy-route.js';

export interface DispatcherOptions {
  /** Connections kept open to the origin (through the proxy, as many tunnels). */
  connections?: number;
  connectTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read; the process's environment by default. */
  env?: ProxyEnvironment;
}

/** A dispatcher for one origin and the proxy route it takes. */
export interface OriginDispatcher {
  dispatcher: Dispatcher;
  route: ProxyRoute;
}

/**
 * The one way b2bctl opens connections to another server: a Pool of `connections` to the origin when it is
 * reached directly, or a ProxyAgent when HTTPS_PROXY/HTTP_PROXY apply and NO_PROXY does not exempt it.
 * An https origin is tunnelled with CONNECT; a plain http one is asked of the proxy by absolute URL, as curl
 * does (many proxies allow CONNECT to port 443 only).
 */
export function dispatcherFor(origin: URL, options: DispatcherOptions = {}): OriginDispatcher {
  const route = proxyRouteFor(origin, options.env ?? process.env);
  const connect = connectionRules(origin, route, options.connectTimeoutMs);
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? 10_000;
  if (route.kind !== 'proxy') {
    const dispatcher =
      options.connections === undefined
        ? new Agent({ connect, keepAliveTimeout })
        : new Pool(origin.origin, { connections: options.connections, connect, keepAliveTimeout });
    return { dispatcher, route };
  }
  const dispatcher = new ProxyAgent({
    uri: route.proxy.href,
    proxyTunnel: origin.protocol === 'https:',
    connections: options.connections,
    connect,
    keepAliveTimeout,
  });
  return { dispatcher, route };
}

/** How long opening a connection may take, the resolver's answer included, unless a caller asks for less. */
export const defaultConnectTimeoutMs = 10_000;

/** How b2bctl opens a connection to `origin` by `route`: within `timeout` ms, and resolving through `lookup` when set. */
export interface ConnectionRules {
  timeout: number;
  lookup?: Lookup;
}

/**
 * The rules every connection to `origin` follows, whichever client opens it: undici's (dispatcherFor) or the
 * hand-off's forwarding thread (src/webhook/forward-thread.ts), so that one ERP is never reached by two sets of
 * rules. Plain HTTP to the name `localhost`, reached directly, resolves to this machine only (thisMachineOnly).
 */
export function connectionRules(
  origin: URL,
  route: ProxyRoute,
  timeout: number = defaultConnectTimeoutMs,
): ConnectionRules {
  const plainToLocalhost = route.kind !== 'proxy' && origin.protocol === 'http:' && isLocalhostName(origin.hostname);
  return plainToLocalhost ? { timeout, lookup: thisMachineOnly() } : { timeout };
}

/** The name `localhost` (not an address): what the resolver makes of it decides where a connection goes. */
function isLocalhostName(hostname: string): boolean {
  return hostname.toLowerCase() === 'localhost';
}

export type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A resolver as node:net and undici take one (dns.lookup's shape). */
export type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A resolver for a plain-HTTP connection to the name `localhost`, which b2bctl lets carry credentials because it is
 * this machine: an answer that is not a loopback address (a hosts file may map the name elsewhere) fails the
 * connection, so a token or password never crosses the network in clear.
 */
export function thisMachineOnly(
  resolve: Lookup = (hostname, options, callback) => systemLookup(hostname, options, callback),
): Lookup {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = Array.isArray(address) ? address.map((each) => each.address) : [address];
      const elsewhere = addresses.find((each) => !isLoopbackHost(each));
      if (elsewhere === undefined) return callback(null, address, family);
      callback(
        Object.assign(
          new Error(
            `${hostname} resolves to ${elsewhere}, not this machine: plain HTTP, which b2bctl takes to this machine only, would carry the credentials in clear there. Use http://127.0.0.1, or https://`,
          ),
          { code: 'ENOTLOCAL' },
        ),
        address,
        family,
      );
    });
  };
}
