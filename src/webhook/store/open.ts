import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../../config/lock.js';
import { B2bctlError, InputError, UnavailableError } from '../../base/errors.js';
import { sqliteFileName } from './sqlite-store.js';
import type { EventStore, StoreOptions } from './types.js';

/** Where the events are: a folder holding the SQLite store, or a PostgreSQL URL. */
export interface StoreLocation {
  inbox: string;
  /** `postgres://...`: the store shared by several receivers (the folder is then unused). */
  url?: string;
  /** Where the URL came from, as a failure to open it names it: `--store`, or `--store-env NAME`. */
  urlFlag?: string;
}

export const receiverLockName = 'receiver.lock';

/**
 * Opens the store. A receiver (`exclusive`) first takes the folder's lock, before reading anything: a second
 * receiver on the same folder stops with exit 75 naming the holder's PID. Readers open beside it.
 */
export async function openStore(
  location: StoreLocation,
  mode: { exclusive?: { command: string; warn: (message: string) => void }; mustExist?: boolean },
  options: StoreOptions = {},
): Promise<{ store: EventStore; release: () => void }> {
  if (location.url) {
    const { PostgresStore } = await import('./postgres-store.js');
    try {
      return { store: await PostgresStore.open(location.url, options), release: () => undefined };
    } catch (error) {
      if (error instanceof B2bctlError) throw error;
      // Every command that opens the store says it alike, with the exit code a monitor reads as "unavailable".
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UnavailableError(
        `Cannot open the PostgreSQL store (${reason}); check ${location.urlFlag ?? '--store'} and that the database is up.`,
      );
    }
  }
  if (mode.mustExist && !existsSync(join(location.inbox, sqliteFileName))) {
    throw new InputError(
      `No webhook inbox in ${location.inbox} (no ${sqliteFileName}); pass the folder of webhook listen's --inbox, or --store postgres://... .`,
      { file: location.inbox, missing: true },
    );
  }
  const release = mode.exclusive
    ? acquireLock(join(location.inbox, receiverLockName), mode.exclusive.command, mode.exclusive.warn)
    : () => undefined;
  try {
    const { SqliteStore } = await import('./sqlite-store.js');
    return { store: await SqliteStore.open(location.inbox, options), release };
  } catch (error) {
    release();
    throw error;
  }
}
