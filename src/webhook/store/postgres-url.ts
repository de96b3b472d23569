import { parse } from 'pg-connection-string';
import { UsageError } from '../../base/errors.js';

/**
 * A store URL as pg reads it today, spelled so: `sslmode=require` and `sslmode=verify-ca` written `verify-full`, which
 * pg takes them for (certificate and host checked). pg warns of that on every start, advising `uselibpqcompat=true`,
 * which would turn the check off, and a later pg may read them as libpq does (no check): written out, the check b2bctl
 * decided on is the one any pg makes. Left as written beside `uselibpqcompat`, which b2bctl reads as libpq does.
 */
export function storeUrlAsPgReadsIt(url: string): string {
  if (/[?&]uselibpqcompat=/i.test(url)) return url;
  return url.replace(/([?&]sslmode=)(?:require|verify-ca)(?=[&#]|$)/g, '$1verify-full');
}

/** What b2bctl reads from a PostgreSQL store's URL, as the pg driver reads it. */
export interface StoreUrlParts {
  database: string;
  /** A host name, an address, or a socket's folder (`/run/postgresql`); empty when the URL names none. */
  host: string;
  /** The password the URL carries, in its user-info or as `?password=`; empty when none. */
  password: string;
  /** `connect_timeout` from the query, as written; undefined when not given. */
  connectTimeout?: string;
}

/**
 * Reads a PostgreSQL store's URL with the parser of the pg driver that connects to it (pg-connection-string), so
 * b2bctl takes every URL the driver takes: libpq's socket form with a user and no host
 * (`postgresql://b2bctl@/webhooks?host=/run/postgresql`), which the WHATWG URL parser refuses as "Invalid URL". A
 * URL it cannot read either is refused naming `flag` (exit 2), never quoted: it may hold the password.
 */
export function storeUrlParts(url: string, flag: string): StoreUrlParts {
  if (!/^postgres(?:ql)?:\/\//i.test(url.trim()))
    throw new UsageError(
      `${flag} is not a PostgreSQL URL: give postgres://user@host/database, or postgresql://user@/database?host=/run/postgresql for a local socket.`,
    );
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(storeUrlAsPgReadsIt(url.trim()));
  } catch (error) {
    throw new UsageError(
      `${flag} is not a URL the PostgreSQL driver reads (${(error as Error).message}): give postgres://user@host:port/database, or postgresql://user@/database?host=/run/postgresql for a local socket; a character such as @, : or / in the user or password is written %40, %3A, %2F.`,
    );
  }
  const connectTimeout = parsed.connect_timeout;
  return {
    database: parsed.database ?? '',
    host: parsed.host ?? '',
    password: parsed.password ?? '',
    connectTimeout: typeof connectTimeout === 'string' ? connectTimeout : undefined,
  };
}
