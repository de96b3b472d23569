import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import parseForwarded from 'forwarded-parse';
import type { ProxyHeader, TrustedProxies } from './trust-proxy.js';

/**
 * The addresses that the `for=` parameters of an RFC 7239 `Forwarded` header name, farthest first (as in
 * X-Forwarded-For). Only the hops nearer than the nearest one that names no address (`unknown`, an obfuscated
 * `_name`, no `for=`) are kept: beyond that the chain is broken and nothing can be checked. A header that does
 * not parse names nobody, so the direct peer stands.
 */
export function forwardedForAddresses(header: string | undefined): string[] {
  if (header === undefined || header.trim() === '') return [];
  let elements: Record<string, string>[];
  try {
    elements = parseForwarded(header);
  } catch {
    return [];
  }
  const addresses = elements.map((element) => nodeAddress(element.for));
  const nearestUnknown = addresses.lastIndexOf(undefined);
  return addresses.slice(nearestUnknown + 1) as string[];
}

/**
 * The IP address of an RFC 7239 node (`192.0.2.43`, `192.0.2.43:4711`, `[2001:db8::1]`, `[2001:db8::1]:4711`),
 * or undefined for `unknown`, an obfuscated identifier and anything else. IPv6 must be in brackets, as the
 * RFC says: `2001:db8::1:80` would otherwise be ambiguous.
 */
export function nodeAddress(node: string | undefined): string | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(?:\d{1,5}|_[\w.-]+))?$/.exec(node ?? '');
  if (!match) return undefined;
  const [, bracketed, plain] = match;
  if (bracketed !== undefined) return isIP(bracketed) === 6 ? bracketed : undefined;
  return plain !== undefined && isIP(plain) === 4 ? plain : undefined;
}

/**
 * Makes a request's `Forwarded` header the one fastify's trusted-proxy rules read: X-Forwarded-For, which the
 * proxy did not set and anyone could have written, is replaced by the `for=` addresses of `Forwarded`.
 */
export function readForwardedHeader(request: IncomingMessage): void {
  const addresses = forwardedForAddresses(request.headers.forwarded);
  if (addresses.length === 0) delete request.headers['x-forwarded-for'];
  else request.headers['x-forwarded-for'] = addresses.join(', ');
}

/**
 * The addresses of an X-Forwarded-For header, farthest first, as far as they are addresses: from the nearest hop
 * outwards up to the first entry that is not one (text, `unknown`, a name), beyond which nothing can be checked.
 * `192.0.2.7:4711` and `[2001:db8::1]:4711` are taken without their ports.
 */
export function xForwardedForAddresses(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === undefined || text.trim() === '') return [];
  const addresses = text.split(',').map((entry) => {
    const trimmed = entry.trim();
    return isIP(trimmed) !== 0 ? trimmed : nodeAddress(trimmed);
  });
  const nearestNonAddress = addresses.lastIndexOf(undefined);
  return addresses.slice(nearestNonAddress + 1) as string[];
}

/**
 * Keeps in a request's X-Forwarded-For only the addresses fastify's trusted-proxy rules may walk: otherwise a
 * client behind the proxy could have any text recorded as its address (`x-forwarded-for: <script>`).
 */
export function readXForwardedForHeader(request: IncomingMessage): void {
  const addresses = xForwardedForAddresses(request.headers['x-forwarded-for']);
  if (addresses.length === 0) delete request.headers['x-forwarded-for'];
  else request.headers['x-forwarded-for'] = addresses.join(', ');
}

/**
 * Behind a trusted proxy, fastify's trusted-proxy rules (which read X-Forwarded-For only) are given the proxy's
 * header as addresses alone before any route sees the request: `Forwarded`'s `for=` addresses, or the entries of
 * X-Forwarded-For that are addresses, so request.ip is an address whatever a client wrote.
 */
export function forwardedAware(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  trustProxy: TrustedProxies | undefined,
  proxyHeader: ProxyHeader | undefined,
): (request: IncomingMessage, response: ServerResponse) => void {
  if (trustProxy === undefined) return handler;
  const read = proxyHeader === 'forwarded' ? readForwardedHeader : readXForwardedForHeader;
  return (request, response) => {
    read(request);
    handler(request, response);
  };
}
