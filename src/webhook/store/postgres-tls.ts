import { parse } from 'pg-connection-string';
import { UsageError } from '../../base/errors.js';
import { isLoopbackHost } from '../../net/plain-http.js';

/**
 * What a PostgreSQL store's URL asks of TLS, read as pg reads it, and the host it goes to (its own or PGHOST's). The
 * store's password and every event cross the network to it: the project's rule for credentials, plain only to this
 * machine (net/plain-http.ts, decision 0028), holds for the store too (decision 0044).
 */
export interface StoreTransport {
  /** The host pg connects to: the URL's, else PGHOST, else localhost; a socket's folder starts with `/`. */
  host: string;
  /**
   * What lets the password or the events through unencrypted or to an unchecked server, as the user wrote it
   * (`sslmode=prefer`, `PGSSLMODE=disable`, `ssl=0`); undefined when nothing does.
   */
  weakness?: string;
  /** Neither the URL nor PGSSLMODE says anything of TLS: pg would connect in plain. */
  unsaid: boolean;
}

/** libpq's modes that may send in clear (`allow`, `prefer` fall back to it) or never check the server (pg's `no-verify`). */
const weakModes = new Set(['disable', 'allow', 'prefer', 'no-verify']);

/** Reads a store URL's TLS wishes and host, with `environment` the PG variables pg reads. */
export function storeTransportOf(url: string, environment: NodeJS.ProcessEnv): StoreTransport {
  const parsed = parse(url.trim());
  const host = parsed.host || environment.PGHOST || 'localhost';
  const mode = typeof parsed.sslmode === 'string' ? parsed.sslmode : undefined;
  if (mode !== undefined && weakModes.has(mode)) return { host, weakness: `sslmode=${mode}`, unsaid: false };
  if (parsed.ssl === false) return { host, weakness: 'ssl=0', unsaid: false };
  // libpq's own reading (uselibpqcompat=true) of `require` checks no certificate either.
  if (typeof parsed.ssl === 'object' && parsed.ssl.rejectUnauthorized === false)
    return { host, weakness: `sslmode=${mode ?? ''} with uselibpqcompat`, unsaid: false };
  if (parsed.ssl !== undefined) return { host, unsaid: false };
  const environmentMode = environment.PGSSLMODE;
  if (environmentMode === undefined || environmentMode === '') return { host, unsaid: true };
  return {
    host,
    weakness: weakModes.has(environmentMode) ? `PGSSLMODE=${environmentMode}` : undefined,
    unsaid: false,
  };
}

/** Whether the store is on this machine: a socket's folder, or a loopback host (isLoopbackHost). */
export function storeOnThisMachine(transport: StoreTransport): boolean {
  return transport.host.startsWith('/') || isLoopbackHost(transport.host);
}

/**
 * Whether the store's connections must ask for TLS with the server's certificate checked (pg's `ssl: true`,
 * libpq's verify-full) because nothing else was said and the store is on another machine; refuses (exit 2) a URL or
 * PGSSLMODE that would send the password in clear or to an unchecked server there, unless `allowPlain` (the
 * webhook.storeAllowPlain setting) says that network is trusted. `flag` names where the URL came from.
 */
export function storeNeedsVerifiedTls(
  url: string,
  flag: string,
  { environment, allowPlain }: { environment: NodeJS.ProcessEnv; allowPlain: boolean },
): boolean {
  const transport = storeTransportOf(url, environment);
  if (storeOnThisMachine(transport)) return false;
  if (transport.weakness !== undefined && !allowPlain)
    throw new UsageError(
      `Refusing to open the PostgreSQL store of ${flag} on ${transport.host} with ${transport.weakness}: its password and the events would cross the network unencrypted or to a server whose certificate is not checked, where anyone between here and ${transport.host} can read them. Use sslmode=verify-full (with sslrootcert=FILE for a private CA), or set webhook.storeAllowPlain (B2BCTL_STORE_ALLOW_PLAIN=true) if that network is trusted.`,
    );
  return transport.unsaid;
}
