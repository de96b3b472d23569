import { B2bctlError, ExitCode } from '../../base/errors.js';

/**
 * One step of an inbox's schema, from the version before it to its own (docs/decisions/0021-inbox-version.md).
 * A step, once released, is never edited: an inbox on disk was made by it. Changes are new steps at the end.
 */
export interface Migration {
  /** What the step does, in a few words (the log and the tests name it). */
  name: string;
  sql: string;
}

/**
 * The inbox was written by a newer b2bctl, whose tables this one may misread: it stops, as a lock held by
 * another run stops it (exit 75), and names both versions and the way out.
 */
export function newerInboxError(description: string, found: number, known: number): B2bctlError {
  return new B2bctlError(
    `The inbox ${description} has schema version ${found}; this b2bctl (${B2BCTL_VERSION}) knows versions up to ${known}. Use the newer b2bctl that upgraded it.`,
    ExitCode.interrupted,
  );
}

/**
 * A command beside the receiver (`webhook inbox`, `status`, `dead`, `replay`): it never brings an inbox up to date.
 * On a PostgreSQL store shared by several receivers, a reader of a newer build changing the tables broke the older
 * receivers still writing to it during an upgrade (a user test); only the receiver migrates, when it starts.
 */
export interface InboxReader {
  /** The command, as the refusal names it to run again. */
  command: string;
  /**
   * True when the command reads only events (with hand-off positions and dead letters' ids to choose them), which
   * every version holds as b2bctl 0.1.0 made them: it reads an inbox of any version as it is. Otherwise it needs
   * the newest tables, and refuses an older inbox.
   */
  readsEventsOnly: boolean;
}

/**
 * An inbox older than the tables a reader needs: it stops, exit 75 as a newer inbox does (a service manager retries
 * it, and the restarted receiver will have brought the inbox up to date), naming both versions and who upgrades it.
 */
export function olderInboxError(description: string, found: number, newest: number, command: string): B2bctlError {
  return new B2bctlError(
    `The inbox ${description} has schema version ${found}; this b2bctl (${B2BCTL_VERSION}) writes version ${newest}. Only the receiver brings an inbox up to date, when it starts: restart webhook listen with this b2bctl, then run ${command} again.`,
    ExitCode.interrupted,
  );
}

/** Throws unless `reader` can read an inbox of version `found` as it is: one newer than this code, or older than it reads. */
export function checkReadable(
  migrations: readonly Migration[],
  found: number,
  description: string,
  reader: InboxReader,
): void {
  stepsAfter(migrations, found, description);
  if (!reader.readsEventsOnly && found < migrations.length)
    throw olderInboxError(description, found, migrations.length, reader.command);
}

/** Throws for a version past the list; the steps still to run, in order, otherwise. */
export function stepsAfter(
  migrations: readonly Migration[],
  version: number,
  description: string,
): readonly Migration[] {
  if (version > migrations.length) throw newerInboxError(description, version, migrations.length);
  return migrations.slice(version);
}
