import { InvalidArgumentError } from 'commander';
import { isIP } from 'node:net';

/**
 * Which direct peers may say, in X-Forwarded-For or Forwarded, whom they forward for: a hop count (`1`: the nearest proxy),
 * or addresses and CIDR ranges (`127.0.0.1,10.0.0.0/8`). Fastify's `trustProxy` takes both as they are.
 */
export type TrustedProxies = number | string[];

/** Parses `--trust-proxy HOPS|CIDR,...`; a bad entry is a usage error naming it. */
export function trustedProxies(text: string): TrustedProxies {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (hops < 1) throw new InvalidArgumentError('a hop count starts at 1 (the nearest proxy).');
    return hops;
  }
  const entries = trimmed.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || rest.length > 0)
      throw new InvalidArgumentError(
        `"${entry}" is neither a hop count nor an IP address or CIDR range (such as 127.0.0.1 or 10.0.0.0/8).`,
      );
    // The library that reads the ranges refuses a /0, and a range of every address would trust every client's word.
    if (prefix !== undefined && Number(prefix) === 0)
      throw new InvalidArgumentError(
        `"${entry}" is every address: any client could name itself in X-Forwarded-For; give the proxy's own address or range.`,
      );
  }
  return entries;
}

/**
 * Fastify's `trustProxy` for the parsed flag. Fastify ignores a bare hop count (a direct client could claim
 * hops), so hops become the rule it used to apply: the nearest `hops` addresses are trusted, whoever they are.
 */
export function fastifyTrustProxy(
  trusted: TrustedProxies | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trusted === undefined) return false;
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  return trusted;
}

/**
 * The header the trusted proxy names the client in. Only that one is read: a proxy passes the other through as
 * the client wrote it, so preferring either header whenever present would let a client forge the address.
 */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded';

export const proxyHeaders: readonly ProxyHeader[] = ['x-forwarded-for', 'forwarded'];

/** Parses `--proxy-header x-forwarded-for|forwarded` (any case); anything else is a usage error. */
export function proxyHeader(text: string): ProxyHeader {
  const name = text.trim().toLowerCase();
  const known = proxyHeaders.find((header) => header === name);
  if (known === undefined)
    throw new InvalidArgumentError(`"${text}" is not a header b2bctl reads: use x-forwarded-for or forwarded.`);
  return known;
}
