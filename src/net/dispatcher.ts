import { Agent, type Dispatcher, Pool, ProxyAgent } from 'undici';
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
  const connect = { timeout: options.connectTimeoutMs ?? 10_000 };
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
