import type { Socket } from 'node:net';
import { InterruptedError, UsageError } from '../../base/errors.js';
import { storeUrlParts } from './postgres-url.js';

/**
 * How long opening a PostgreSQL store (connecting, then the check of its tables' version) may take when neither the
 * URL's `connect_timeout` nor PGCONNECT_TIMEOUT says. libpq waits for ever by default, and so did b2bctl: a database
 * behind a stuck proxy or a firewall that drops after the handshake held `webhook status`, the command a monitor
 * runs, with no line at all. Ten seconds is what a healthy database never needs (a handshake, a login, a few
 * statements) and what a monitor's check still waits out.
 */
export const defaultOpeningLimitSeconds = 10;

/**
 * The time opening may take, in milliseconds: libpq's `connect_timeout` in the URL, else PGCONNECT_TIMEOUT (read from
 * the process's environment, as pg reads PGPASSWORD and the other PG variables), else the default. 0 waits as long as
 * it takes, as in libpq (Ctrl-C and SIGTERM still stop it).
 */
export function openingLimitMs(url: string, environment: NodeJS.ProcessEnv = process.env): number | undefined {
  const inUrl = storeUrlParts(url, 'The store URL').connectTimeout;
  const [given, source] =
    inUrl !== undefined
      ? [inUrl, 'connect_timeout in the store URL']
      : [environment.PGCONNECT_TIMEOUT, 'PGCONNECT_TIMEOUT'];
  if (given === undefined || given.trim() === '') return defaultOpeningLimitSeconds * 1000;
  if (!/^\d+$/.test(given.trim()))
    throw new UsageError(
      `${source} is "${given}": give a whole number of seconds to wait for the store (0 waits as long as it takes).`,
    );
  const seconds = Number(given.trim());
  return seconds === 0 ? undefined : seconds * 1000;
}

/** The session being opened: its own socket, which a stop destroys, and where it goes, as a message names it. */
export interface OpeningSession {
  socket: Socket;
  host: string;
  port: number;
}

/**
 * Runs `opening` (the session's connect and its first statements) within `limitMs`, and stops it at once when
 * `interrupt` fires. Either way the session's socket is destroyed: a database that never answers would otherwise
 * keep the process alive after the command has said it failed, and pg's own end() waits for an answer to its
 * goodbye. A time limit is an error for openStore to word (exit 69); Ctrl-C or SIGTERM is an InterruptedError.
 */
export async function withinOpeningLimit<T>(
  session: OpeningSession,
  limits: { limitMs: number | undefined; interrupt?: AbortSignal },
  opening: () => Promise<T>,
): Promise<T> {
  if (limits.interrupt?.aborted) throw stoppedWhileOpening(session, limits.interrupt);
  const stop = stopsOf(session, limits);
  const work = opening();
  // Once the race is lost, the socket's end makes pg reject this too: nobody is waiting for it any more.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, stop.stopped]);
  } catch (error) {
    session.socket.destroy();
    throw error;
  } finally {
    stop.cancel();
  }
}

/** What ends the wait before the session answers: the time limit, the interrupt; and the end of both once done. */
function stopsOf(
  session: OpeningSession,
  { limitMs, interrupt }: { limitMs: number | undefined; interrupt?: AbortSignal },
): { stopped: Promise<never>; cancel: () => void } {
  let connected = false;
  session.socket.once('connect', () => (connected = true));
  let cancel: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    const timer = limitMs === undefined ? undefined : setTimeout(() => reject(unanswered(limitMs, connected)), limitMs);
    const onInterrupt = () => reject(stoppedWhileOpening(session, interrupt as AbortSignal));
    interrupt?.addEventListener('abort', onInterrupt, { once: true });
    cancel = () => {
      clearTimeout(timer);
      interrupt?.removeEventListener('abort', onInterrupt);
    };
  });
  return { stopped, cancel: () => cancel?.() };
}

/** host:port as a message names it: an IPv6 literal in brackets, a socket folder with its socket's name. */
export function placeOf(session: Pick<OpeningSession, 'host' | 'port'>): string {
  if (session.host.startsWith('/')) return `${session.host}/.s.PGSQL.${session.port}`;
  return session.host.includes(':') ? `[${session.host}]:${session.port}` : `${session.host}:${session.port}`;
}

/** The time limit ran out: its message says on what, for openStore's line. */
export class StoreUnansweredError extends Error {}

/**
 * Opening failed: the database and the address it was opened at (never the URL, which may hold the password), for
 * openStore's line. A bare `3D000` or `ECONNREFUSED` told an operator with several stores neither which nor where.
 */
export class StoreOpeningError extends Error {
  readonly failure: unknown;
  readonly database: string;
  readonly place: string;
  constructor(failure: unknown, database: string, place: string) {
    super((failure as Error).message, { cause: failure });
    this.failure = failure;
    this.database = database;
    this.place = place;
  }
}

/** What the time limit ran out on: no connection at all (a SYN dropped), or a connection nothing answered on. */
function unanswered(limitMs: number, connected: boolean): StoreUnansweredError {
  const seconds = `${limitMs / 1000} s`;
  return new StoreUnansweredError(
    connected ? `took the connection but did not answer within ${seconds}` : `no connection within ${seconds}`,
  );
}

function stoppedWhileOpening(session: OpeningSession, interrupt: AbortSignal): InterruptedError {
  const signal = typeof interrupt.reason === 'string' ? ` by ${interrupt.reason}` : '';
  return new InterruptedError(`Stopped${signal} while waiting for the PostgreSQL store at ${placeOf(session)}.`);
}
