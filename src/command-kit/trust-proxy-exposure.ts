import { isIP } from 'node:net';
import type { ProxyHeader, TrustedProxies } from '../http-server/trust-proxy.js';
import { isLoopbackHost } from '../net/plain-http.js';

/**
 * The warning for a server that listens where other machines reach it and trusts as a proxy peers that may be
 * clients (a hop count: any peer; a range beyond loopback: any peer in it): such a client connects directly and
 * names itself in the proxy header, so every per-address limit counts whatever it writes. Undefined when only
 * loopback or single addresses are trusted, or when the server listens on this machine alone. Said, not refused:
 * a private network where nothing but the proxy reaches the port is a real set-up.
 */
export function exposedTrustWarning(
  server: string,
  host: string,
  trusted: TrustedProxies | undefined,
  header: ProxyHeader | undefined,
): string | undefined {
  if (trusted === undefined || isLoopbackHost(host)) return undefined;
  const range = typeof trusted === 'number' ? undefined : trusted.find((entry) => !singleOrLoopback(entry));
  if (typeof trusted !== 'number' && range === undefined) return undefined;
  const whom =
    range === undefined ? `any peer as a proxy (--trust-proxy ${trusted})` : `every peer in ${range} as a proxy`;
  const headerName = header === 'forwarded' ? 'Forwarded' : 'X-Forwarded-For';
  return `warning: ${server} trusts ${whom} on ${host}, which other machines reach: a client that connects directly names itself in ${headerName} and escapes the per-address limits. Give the proxy's own address instead: --trust-proxy 127.0.0.1 for a proxy on this machine, or its address on the network.`;
}

/** Whether a `--trust-proxy` entry is one address, or a range of this machine's loopback addresses only. */
function singleOrLoopback(entry: string): boolean {
  const [address = '', prefix] = entry.split('/');
  const fullPrefix = isIP(address) === 6 ? 128 : 32;
  if (prefix === undefined || Number(prefix) === fullPrefix) return true;
  // 127.0.0.0/8 is loopback whole; a shorter prefix reaches past it.
  return isIP(address) === 4 && isLoopbackHost(address) && Number(prefix) >= 8;
}
