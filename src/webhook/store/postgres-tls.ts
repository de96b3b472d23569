import { parse } from 'pg-connection-string';
import { UsageError } from '../../base/errors.js';
import { isLoopbackHost } from '../../net/plain-http.js';
import { storeUrlAsPgReadsIt } from './postgres-url.js';

/**
 * What a PostgreSQL store's URL and PGSSLMODE ask of TLS, read as the bundled pg reads them, and the host it goes to
 * (its own or PGHOST's). The store's password and every event cross the network to it: the project's rule for
 * credentials, plain only to this machine (net/plain-http.ts, decision 0028), holds for the store too (decision 0041).
 */
export interface StoreTransport {
  /** The host pg connects to: the URL's, else PGHOST, else localhost; a socket's folder starts with `/`. */
  host: string;
  /** What the user wrote that lets the password or the events through unsafely, or says nothing sure; undefined when nothing does. */
  weakness?: StoreTlsWeakness;
  /**
   * pg's `ssl` as pg would read it from PGSSLMODE, when the URL says nothing of TLS (pg then reads the variable);
   * undefined when the URL says.
   */
  environmentSsl?: PgSsl;
  /** Neither the URL nor PGSSLMODE says anything of TLS: pg would connect in plain. */
  unsaid: boolean;
}

/** pg's `ssl` option: false is plain, true TLS with the server's certificate checked, an object TLS options. */
export type PgSsl = boolean | { rejectUnauthorized: false };

/**
 * Why a spelling is refused past this machine: `plain` sends in clear or to an unchecked server as pg reads it,
 * `unread` is a PGSSLMODE pg does not know (it then connects in plain), `ambiguous` means TLS checked in this pg but
 * may end in clear in libpq (psql) and in pg's next major.
 */
export interface StoreTlsWeakness {
  said: string;
  kind: 'plain' | 'unread' | 'ambiguous';
}

/**
 * PGSSLMODE as pg reads it (connection-parameters.js, readSSLConfigFromEnvironment): these exact lower-case words
 * and no others; any other value, `VERIFY-FULL` or `require ` included, is taken for nothing said, in plain.
 */
const pgSslOfEnvironmentMode = new Map<string, PgSsl>([
  ['disable', false],
  ['prefer', true],
  ['require', true],
  ['verify-ca', true],
  ['verify-full', true],
  ['no-verify', { rejectUnauthorized: false }],
]);

/** Spellings of `sslmode` that pg reads as verify-full today while libpq (and pg's next major) may fall back to plain. */
const ambiguousModes = new Set(['prefer', 'allow']);

/** Reads a store URL's TLS wishes and host, with `environment` the PG variables handed to pg (PGHOST, PGSSLMODE). */
export function storeTransportOf(url: string, environment: NodeJS.ProcessEnv): StoreTransport {
  const parsed = parse(storeUrlAsPgReadsIt(url.trim()));
  const host = parsed.host || environment.PGHOST || 'localhost';
  if (parsed.ssl === undefined) return environmentTransport(host, environment.PGSSLMODE);
  const mode = typeof parsed.sslmode === 'string' && parsed.sslmode !== '' ? parsed.sslmode : undefined;
  const said = (weakness: string, kind: StoreTlsWeakness['kind']) => ({
    host,
    weakness: { said: weakness, kind },
    unsaid: false,
  });
  if (mode === 'disable' || mode === 'no-verify') return said(`sslmode=${mode}`, 'plain');
  // libpq's own reading (uselibpqcompat=true) of `prefer` and `require` checks no certificate either.
  if (typeof parsed.ssl === 'object' && parsed.ssl.rejectUnauthorized === false)
    return said(`sslmode=${mode ?? ''} with uselibpqcompat`, 'plain');
  if (mode !== undefined && ambiguousModes.has(mode)) return said(`sslmode=${mode}`, 'ambiguous');
  // pg keeps `ssl=` other than 1, true and 0 as written: empty asks for no TLS, `no-verify` checks no certificate.
  if (parsed.ssl === false) return said('ssl=0', 'plain');
  if (parsed.ssl === '' || parsed.ssl === 'no-verify') return said(`ssl=${parsed.ssl}`, 'plain');
  return { host, unsaid: false };
}

/** The URL says nothing of TLS: pg reads PGSSLMODE, its exact words only. */
function environmentTransport(host: string, mode: string | undefined): StoreTransport {
  if (mode === undefined || mode === '') return { host, unsaid: true };
  const environmentSsl = pgSslOfEnvironmentMode.get(mode);
  if (environmentSsl === undefined)
    return {
      host,
      environmentSsl: false,
      weakness: { said: `PGSSLMODE=${JSON.stringify(mode)}`, kind: 'unread' },
      unsaid: false,
    };
  const kind = ambiguousModes.has(mode) ? 'ambiguous' : environmentSsl === true ? undefined : 'plain';
  return { host, environmentSsl, weakness: kind && { said: `PGSSLMODE=${mode}`, kind }, unsaid: false };
}

/** Whether the store is on this machine: a socket's folder, or a loopback host (isLoopbackHost). */
export function storeOnThisMachine(transport: StoreTransport): boolean {
  return transport.host.startsWith('/') || isLoopbackHost(transport.host);
}

/**
 * How b2bctl has pg reach the store, decided from one environment (the command's) and handed to pg explicitly, so
 * that pg does not read PGHOST, PGSSLMODE and PGPASSWORD again from another.
 */
export interface StoreReach {
  /** The host pg connects to (StoreTransport.host). */
  host: string;
  /** pg's `ssl` when the URL says nothing of TLS; undefined when it does (pg reads the URL's). */
  ssl?: PgSsl;
  /** b2bctl asked for TLS with the certificate checked because nothing was said (a TLS failure then says so). */
  verifiedTls: boolean;
  /** PGPASSWORD of that environment, when set: pg sends it unless the URL has a password. */
  environmentPassword?: string;
}

/**
 * How the store is reached: TLS with the server's certificate checked (pg's `ssl: true`, libpq's verify-full) when
 * nothing else was said and the store is on another machine; refuses (exit 2) there a URL or PGSSLMODE that would
 * send the password in clear or to an unchecked server, that pg does not understand, or that libpq reads otherwise,
 * unless `allowPlain` (the webhook.storeAllowPlain setting) says that network is trusted. `flag` names where the URL
 * came from.
 */
export function storeReachOf(
  url: string,
  flag: string,
  { environment, allowPlain }: { environment: NodeJS.ProcessEnv; allowPlain: boolean },
): StoreReach {
  const transport = storeTransportOf(url, environment);
  const onThisMachine = storeOnThisMachine(transport);
  if (!onThisMachine && transport.weakness !== undefined && !allowPlain)
    throw new UsageError(storeTlsRefusal(flag, transport.host, transport.weakness));
  const verifiedTls = transport.unsaid && !onThisMachine;
  const ssl = transport.unsaid ? verifiedTls : transport.environmentSsl;
  const environmentPassword = environment.PGPASSWORD || undefined;
  return { host: transport.host, ssl, verifiedTls, ...(environmentPassword ? { environmentPassword } : {}) };
}

/** The refusal's line: what was said, what it means here, and the way out. */
function storeTlsRefusal(flag: string, host: string, { said, kind }: StoreTlsWeakness): string {
  const opening = `Refusing to open the PostgreSQL store of ${flag} on ${host} with ${said}`;
  const exposed = `its password and the events would cross the network unencrypted`;
  const readable = `where anyone between here and ${host} can read them`;
  const trusted = 'or set webhook.storeAllowPlain (B2BCTL_STORE_ALLOW_PLAIN=true) if that network is trusted';
  if (kind === 'unread')
    return `${opening}: pg reads PGSSLMODE only as disable, prefer, require, verify-ca, verify-full or no-verify, written so, and takes any other value for none, so ${exposed}, ${readable}. Use PGSSLMODE=verify-full (with sslrootcert=FILE in the URL for a private CA), ${trusted}.`;
  if (kind === 'ambiguous') {
    const variable = said.startsWith('PGSSLMODE') ? 'PGSSLMODE' : 'sslmode';
    const libpqReading = said.endsWith('allow')
      ? 'plain unless the server asks for TLS'
      : 'TLS if the server offers it, else plain';
    return `${opening}: libpq (psql) reads it as "${libpqReading}", and pg says its next major will follow libpq; the pg b2bctl bundles reads it as verify-full (TLS, the certificate checked), so it does not say how the password and the events cross the network to ${host}. Use ${variable}=verify-full (with sslrootcert=FILE for a private CA) to say what you mean.`;
  }
  return `${opening}: ${exposed} or to a server whose certificate is not checked, ${readable}. Use sslmode=verify-full (with sslrootcert=FILE for a private CA), ${trusted}.`;
}

/**
 * What pg is given to connect with: the URL read as pg reads it, with the host, TLS and password `reach` decided put
 * over what pg would take from the process's environment. Without `reach` (a store opened directly, as the tests
 * of the store do), pg reads the URL and the environment itself.
 */
export function pgConnectionOf(url: string, reach: StoreReach | undefined): Record<string, unknown> {
  if (reach === undefined) return { connectionString: storeUrlAsPgReadsIt(url) };
  const parsed = parse(storeUrlAsPgReadsIt(url));
  return {
    ...parsed,
    host: reach.host,
    ssl: reach.ssl ?? parsed.ssl,
    password: parsed.password || reach.environmentPassword,
  };
}
