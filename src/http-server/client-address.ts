import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { fastifyTrustProxy, type TrustedProxies } from './trust-proxy.js';

/**
 * The client's address of a request that fastify never sees (the tax callback's own route answers before it), read
 * by the library fastify's `request.ip` reads it with, under the same trust (`fastifyTrustProxy`): from the direct
 * peer outwards through X-Forwarded-For (which `forwardedAware` has already cut to addresses, from `Forwarded` when
 * that is the header), the first address that is not a trusted proxy.
 */
export function clientAddressReader(trusted: TrustedProxies | undefined): (request: IncomingMessage) => string {
  const trust = fastifyTrustProxy(trusted);
  if (typeof trust === 'boolean') return (request) => request.socket.remoteAddress ?? '';
  const trusts = typeof trust === 'function' ? trust : proxyAddr.compile(trust);
  return (request) => proxyAddr(request, trusts);
}

/**
 * Whether a direct peer is a proxy `--trust-proxy` trusts (with a hop count, any peer): its connections carry many
 * clients, so the connection cap per address leaves it to the total cap.
 */
export function trustedPeerCheck(trusted: TrustedProxies | undefined): ((address: string) => boolean) | undefined {
  const trust = fastifyTrustProxy(trusted);
  if (typeof trust === 'boolean') return undefined;
  const trusts = typeof trust === 'function' ? trust : proxyAddr.compile(trust);
  return (address) => address !== '' && trusts(address, 0);
}
