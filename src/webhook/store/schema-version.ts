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

/** Throws for a version past the list; the steps still to run, in order, otherwise. */
export function stepsAfter(
  migrations: readonly Migration[],
  version: number,
  description: string,
): readonly Migration[] {
  if (version > migrations.length) throw newerInboxError(description, version, migrations.length);
  return migrations.slice(version);
}
