import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkInboxFolderLink } from '../../config/folder-safety.js';
import { acquireHeldLock, type HeldLock } from '../../config/lock.js';
import { B2bctlError, InputError, UnavailableError } from '../../base/errors.js';
import { StoreOpeningError, StoreUnansweredError } from './postgres-opening.js';
import { sqliteFileName } from './sqlite-store.js';
import type { EventStore, StoreOptions } from './types.js';
import type { StoreReach } from './postgres-tls.js';
import { printable } from '../../lib/printable.js';

/** Where the events are: a folder holding the SQLite store, or a PostgreSQL URL. */
export interface StoreLocation {
  inbox: string;
  /** `postgres://...`: the store shared by several receivers (the folder is then unused). */
  url?: string;
  /** Where the URL came from, as a failure to open it names it: `--store`, or `--store-env NAME`. */
  urlFlag?: string;
  /** How long the PostgreSQL store may take to answer a statement (the webhook.storeTimeout setting). */
  statementLimitMs?: number;
  /** How pg reaches the PostgreSQL store, as the command's environment and the TLS rule decided (postgres-tls.ts). */
  reach?: StoreReach;
}

export const receiverLockName = 'receiver.lock';

/** The command that opens the store, as a lock names its holder, and where a lock's warnings go. */
export interface StoreUser {
  command: string;
  warn: (message: string) => void;
}

/**
 * Opens the store. A receiver (`exclusive`) first takes the folder's lock, before reading anything: a second
 * receiver on the same folder stops with exit 75 naming the holder's PID; it brings an older inbox up to date.
 * Other commands open `beside` it and never change its tables: they read an older inbox as it is when they can
 * (`readsEventsOnly`), and refuse it otherwise (exit 75), as a running receiver of the older b2bctl may still be
 * writing to it.
 */
export async function openStore(
  location: StoreLocation,
  mode: { exclusive?: StoreUser; beside?: StoreUser & { readsEventsOnly: boolean }; mustExist?: boolean },
  options: StoreOptions = {},
): Promise<{ store: EventStore; release: () => void; lock?: HeldLock }> {
  const reader = mode.beside && { command: mode.beside.command, readsEventsOnly: mode.beside.readsEventsOnly };
  if (location.url) {
    const { PostgresStore } = await import('./postgres-store.js');
    try {
      const limited = { ...options, reader, statementLimitMs: location.statementLimitMs, reach: location.reach };
      return { store: await PostgresStore.open(location.url, limited), release: () => undefined };
    } catch (error) {
      if (error instanceof B2bctlError || !(error instanceof StoreOpeningError)) throw error;
      throw new UnavailableError(
        openingFailure(error, location.urlFlag ?? '--store', location.reach?.verifiedTls === true),
      );
    }
  }
  // Every command that opens the inbox, the readers (`webhook status`, `inbox`, `dead`, `replay`) as the receiver:
  // another user's link named as --inbox would have them read, replay or drop the events of whichever inbox its
  // owner points it at. Refused before the folder is looked into (exit 77).
  checkInboxFolderLink(location.inbox);
  if (mode.mustExist && !existsSync(join(location.inbox, sqliteFileName))) {
    throw new InputError(
      `No webhook inbox in ${printable(location.inbox)} (no ${sqliteFileName}); pass the folder of webhook listen's --inbox, or --store postgres://... .`,
      { file: location.inbox, missing: true },
    );
  }
  // The receiver looks at its lock again while it runs (`lock`): a lock file removed under it let a second one in.
  const lock = mode.exclusive
    ? acquireHeldLock(join(location.inbox, receiverLockName), mode.exclusive.command, mode.exclusive.warn)
    : undefined;
  const release = lock?.release ?? (() => undefined);
  try {
    const { SqliteStore } = await import('./sqlite-store.js');
    return { store: await SqliteStore.open(location.inbox, { ...options, reader }), release, lock };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * Every command that opens the store says it alike, naming the database and where (with the exit code a monitor reads
 * as "unavailable"). A SQLSTATE is the server answering (no such database, a refused login): it is up, and its own
 * words say what is wrong; anything else (ECONNREFUSED, a time limit) is the address or the database being down.
 */
function openingFailure(error: StoreOpeningError, flag: string, verifiedTls: boolean): string {
  const store = `Cannot open the PostgreSQL store "${error.database}" at ${error.place}`;
  const failure = error.failure as { code?: unknown; message?: string };
  const code = typeof failure.code === 'string' ? failure.code : undefined;
  const sqlState = code !== undefined && /^[0-9A-Z]{5}$/.test(code);
  // Class 08 and 57P01-57P03 are the server going away (shutting down, starting, restarting): not up, for now.
  if (sqlState && !/^(?:08...|57P0[1-3])$/.test(code))
    return `${store}: the server answered "${failure.message}" (${code}); check the database, user and password that ${flag} gives.`;
  const reason = sqlState ? `${failure.message}, ${code}` : (code ?? failure.message);
  const longer = failure instanceof StoreUnansweredError ? ' (connect_timeout=SECONDS in the URL waits longer)' : '';
  // TLS b2bctl asked for by itself (postgres-tls.ts): the way out is the server's or the URL's, not the database being up.
  if (verifiedTls && /\bSSL\b|certificate|altname/i.test(reason ?? ''))
    return `${store} (${reason}); b2bctl reaches a store on another machine over TLS with its certificate checked (sslmode=verify-full): turn TLS on in the server, add sslrootcert=FILE to ${flag} for a private CA, or set sslmode=disable and webhook.storeAllowPlain if that network is trusted.`;
  return `${store} (${reason}); check ${flag} and that the database is up${longer}.`;
}
