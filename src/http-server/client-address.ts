import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { TrustedProxies } from './trust-proxy.js';

/**
 * The client's address of a request that fastify never sees (the tax callback's own route answers before it), read
 * as fastify's `request.ip` reads it under `fastifyTrustProxy(trusted)`: from the direct peer outwards through
 * X-Forwarded-For (which `forwardedAware` has already cut to addresses, from `Forwarded` when that is the header),
 * the first address that is not a trusted proxy; the farthest one when every hop is trusted.
 */
export function clientAddressReader(trusted: TrustedProxies | undefined): (request: IncomingMessage) => string {
  if (trusted === undefined) return (request) => request.socket.remoteAddress ?? '';
  const trusts = trustedHop(trusted);
  return (request) => {
    const forwarded = request.headers['x-forwarded-for'];
    const chain = [
      request.socket.remoteAddress ?? '',
      ...(typeof forwarded === 'string' && forwarded !== '' ? forwarded.split(',').toReversed() : []),
    ].map((address) => address.trim());
    for (let hop = 0; hop < chain.length - 1; hop++)
      if (!trusts(chain[hop] as string, hop)) return chain[hop] as string;
    return chain[chain.length - 1] as string;
  };
}

/** Whether the hop-th address from the peer is a trusted proxy: within the hop count, or in a trusted range. */
function trustedHop(trusted: TrustedProxies): (address: string, hop: number) => boolean {
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  const ranges = new BlockList();
  for (const entry of trusted) {
    const [address = '', prefix] = entry.split('/');
    // As fastify's proxy-addr: an IPv4-mapped address given alone is its IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = prefix === undefined && mapped !== undefined ? mapped : address;
    const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) ranges.addAddress(plain, family);
    else ranges.addSubnet(plain, Number(prefix), family);
  }
  // BlockList matches an IPv4-mapped IPv6 peer (`::ffff:127.0.0.1`) against IPv4 ranges, as proxy-addr does.
  return (address) => isIP(address) !== 0 && ranges.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}
