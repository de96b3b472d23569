import type { Context } from '../../context.js';
import type { StoreLocation } from '../../webhook/store/open.js';
import { defaultInboxDirectory } from './inbox-folder.js';
import { UsageError } from '../../base/errors.js';
import { profileSetting } from '../../command-kit/client-secret.js';
import { readSetting } from '../../config/settings.js';
import { storeUrlParts } from '../../webhook/store/postgres-url.js';
import { storeReachOf } from '../../webhook/store/postgres-tls.js';

/** `--store URL` or `--store-env VAR`: where a PostgreSQL store is, as given. */
export interface StoreUrlFlags {
  store?: string;
  /** The name of an environment variable holding the store's URL, so its password stays out of the process list. */
  storeEnv?: string;
}

/**
 * The PostgreSQL store's URL from `--store` or from the variable `--store-env` names; undefined for the SQLite inbox.
 * A password written in `--store` is visible to every local user in `ps` and stays in the shell's history: warned,
 * as `--token` is, with the ways to keep it out (PGPASSWORD, ~/.pgpass, --store-env).
 */
export function storeUrlOf(flags: StoreUrlFlags, context: Context): string | undefined {
  if (flags.store !== undefined && flags.storeEnv !== undefined)
    throw new UsageError('Give the PostgreSQL store once: --store URL or --store-env VAR, not both.');
  if (flags.storeEnv !== undefined) {
    const url = context.env[flags.storeEnv]?.trim();
    if (!url)
      throw new UsageError(
        `--store-env ${flags.storeEnv}: the environment variable ${flags.storeEnv} is not set; export it with the store's postgres://user:password@host/db URL.`,
      );
    if (!/^postgres(?:ql)?:\/\//.test(url))
      throw new UsageError(
        `--store-env ${flags.storeEnv}: the variable does not hold a PostgreSQL URL such as postgres://user@db.internal/webhooks.`,
      );
    storeUrlParts(url, `--store-env ${flags.storeEnv}`);
    return url;
  }
  if (flags.store === undefined) return undefined;
  // Read here, before anything opens: a URL the driver cannot read is a usage error naming --store (exit 2), not the
  // inbox folder's (exit 66) nor a bare "Invalid URL" (exit 1). A password given as ?password= is in ps as well.
  if (storeUrlParts(flags.store, '--store').password !== '')
    context.log.warn(
      'warning: --store puts the database password in the process list and shell history; leave it out of the URL and set PGPASSWORD or a ~/.pgpass line, or pass the whole URL in an environment variable with --store-env VAR.',
    );
  return flags.store;
}

/**
 * How long a PostgreSQL store may take to answer one statement: the webhook.storeTimeout setting of the profile, else
 * B2BCTL_STORE_TIMEOUT or the default (webhook commands run without a profile too).
 */
export async function storeTimeoutOf(context: Context): Promise<number> {
  return (
    (await profileSetting(context, 'webhook.storeTimeout')) ??
    readSetting('webhook.storeTimeout', { flags: {}, env: context.env, profile: {} })
  );
}

/**
 * Whether a PostgreSQL store on another machine may be opened with an sslmode that sends in clear or to an unchecked
 * server: the webhook.storeAllowPlain setting of the profile, else B2BCTL_STORE_ALLOW_PLAIN (as storeTimeoutOf).
 */
async function storeAllowsPlain(context: Context): Promise<boolean> {
  const setting =
    (await profileSetting(context, 'webhook.storeAllowPlain')) ??
    readSetting('webhook.storeAllowPlain', { flags: {}, env: context.env, profile: {} });
  return setting === 'true';
}

/**
 * The store named by `--inbox`/`--store`/`--store-env`, for every command that opens it (the receiver and the
 * readers beside it). A store on another machine is refused (exit 2) before anything connects when its URL or
 * PGSSLMODE would send the password in clear (postgres-tls.ts), and is reached over checked TLS when they say nothing.
 * The command's environment decides, and what it decided (host, TLS, PGPASSWORD) is handed to pg, which would
 * otherwise read the process's own.
 */
export async function storeLocation(
  options: { inbox?: string } & StoreUrlFlags,
  context: Context,
): Promise<StoreLocation> {
  const url = storeUrlOf(options, context);
  const urlFlag = options.storeEnv === undefined ? '--store' : `--store-env ${options.storeEnv}`;
  const inbox = options.inbox ?? (await defaultInboxDirectory(context));
  if (url === undefined) return { inbox, urlFlag };
  const allowPlain = await storeAllowsPlain(context);
  return {
    inbox,
    url,
    urlFlag,
    statementLimitMs: await storeTimeoutOf(context),
    reach: storeReachOf(url, urlFlag, { environment: context.env, allowPlain }),
  };
}
