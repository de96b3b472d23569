import { accessSync, constants, statSync } from 'node:fs';
import type { Session } from '../config/session.js';
import { B2bctlError, ExitCode, UsageError } from '../base/errors.js';
import { printable } from '../lib/printable.js';
import { loadTaxShape } from '../tax/shape-file.js';

/** One setting that names a place on this machine, as the job reading it would meet it. */
export interface PathSettingCheck {
  key: 'outputDir' | 'tax.shape';
  /** The path, as given. */
  path: string;
  /** Why the job would refuse it (its exit code the job's); none when it would not. */
  refusal?: B2bctlError;
}

/**
 * The settings that name a place on this machine, read as the jobs read them: an outputDir that was not there and a
 * tax.shape file that was not there passed `whoami` and `doctor`, and the nightly push then wrote no report and
 * sent nothing, exit 2 (a user test). None for a setting not given, or one whose value its parser refuses (the
 * check of the settings names that one).
 */
export async function pathSettingChecks(session: Session): Promise<PathSettingCheck[]> {
  const checks: PathSettingCheck[] = [];
  const folder = givenPath(session, 'outputDir');
  if (folder !== undefined)
    checks.push({ key: 'outputDir', path: folder, refusal: outputFolderRefusal(session, folder) });
  const shape = givenPath(session, 'tax.shape');
  if (shape !== undefined)
    checks.push({ key: 'tax.shape', path: shape, refusal: await taxShapeRefusal(session, shape) });
  return checks;
}

/** The outputDir folder: a bulk run writes its report and errors file there first, and sends nothing if it cannot. */
function outputFolderRefusal(session: Session, folder: string): B2bctlError | undefined {
  let cause: string;
  try {
    if (statSync(folder).isDirectory()) {
      accessSync(folder, constants.W_OK);
      return undefined;
    }
    cause = 'it is not a folder';
  } catch (error) {
    cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
  return new UsageError(
    `${printable(folder)}, ${session.origin('outputDir')}, is no folder b2bctl can write in (${cause}): stock push and customer create would write no report and send nothing; create it, or give a folder b2bctl can write in.`,
  );
}

/** The tax.shape setting (a file or inline JSON), read as `tax serve` reads it: 66 for a file that cannot be read, 2 for one that is no shape. */
async function taxShapeRefusal(session: Session, file: string): Promise<B2bctlError | undefined> {
  try {
    loadTaxShape(file, { kind: 'setting', described: session.origin('tax.shape') });
    return undefined;
  } catch (error) {
    // The message names the setting and where it was set (as tax serve's does): said once, not again in front.
    const message = `${(error as Error).message.replace(/\.$/, '')}; tax serve would not start.`;
    return new B2bctlError(message, error instanceof B2bctlError ? error.exitCode : ExitCode.usage, { cause: error });
  }
}

/** A path setting's value; none when it is not given, or when its parser refuses it. */
function givenPath(session: Session, key: 'outputDir' | 'tax.shape'): string | undefined {
  try {
    return session.get(key);
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}
