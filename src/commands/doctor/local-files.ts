import { accessSync, constants, statSync } from 'node:fs';
import type { Session } from '../../config/session.js';
import { B2bctlError, ExitCode, UsageError } from '../../base/errors.js';
import { printable } from '../../lib/printable.js';
import { readShapeFile } from '../../tax/shape-file.js';
import type { Finding } from './findings.js';

/**
 * The settings that name a place on this machine, read as the jobs read them: an outputDir that is not there and a
 * tax.shape file that is not there read as settings, and the nightly push then refused (exit 2) while doctor
 * called every setting fit (a user test). None when neither is given.
 */
export async function localFileFindings(session: Session): Promise<Finding[]> {
  return [...outputDirFindings(session), ...(await taxShapeFindings(session))];
}

/** The outputDir folder: a bulk run writes its report and errors file there first, and sends nothing if it cannot. */
function outputDirFindings(session: Session): Finding[] {
  const folder = pathSetting(session, 'outputDir');
  if (folder === undefined) return [];
  const check = 'output folder';
  try {
    if (!statSync(folder).isDirectory()) return [refusedFolder(session, folder, 'it is not a folder', check)];
    accessSync(folder, constants.W_OK);
  } catch (error) {
    return [refusedFolder(session, folder, (error as NodeJS.ErrnoException).code ?? (error as Error).message, check)];
  }
  return [
    { check, result: 'ok', detail: `${printable(folder)} is a folder b2bctl can write in`, setting: 'outputDir' },
  ];
}

function refusedFolder(session: Session, folder: string, cause: string, check: string): Finding {
  return {
    check,
    result: 'fail',
    detail: `${printable(folder)}, ${session.origin('outputDir')}, is no folder b2bctl can write in (${cause}): stock push and customer create would write no report and send nothing; create it, or give a folder b2bctl can write in`,
    setting: 'outputDir',
    exitCode: ExitCode.usage,
  };
}

/** The tax.shape file, read as `tax serve` reads it. */
async function taxShapeFindings(session: Session): Promise<Finding[]> {
  const file = pathSetting(session, 'tax.shape');
  if (file === undefined) return [];
  const check = 'tax shape';
  try {
    await readShapeFile(file);
  } catch (error) {
    return [
      {
        check,
        result: 'fail',
        detail: `${session.origin('tax.shape')}: ${(error as Error).message.replace(/\.$/, '')}; tax serve would not start`,
        setting: 'tax.shape',
        exitCode: error instanceof B2bctlError ? error.exitCode : ExitCode.usage,
      },
    ];
  }
  return [{ check, result: 'ok', detail: `${printable(file)} reads`, setting: 'tax.shape' }];
}

/** A path setting's value; none when it is not given, or when its value is refused (the settings check names it). */
function pathSetting(session: Session, key: 'outputDir' | 'tax.shape'): string | undefined {
  try {
    return session.get(key);
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}
