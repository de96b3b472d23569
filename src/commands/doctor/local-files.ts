import type { Session } from '../../config/session.js';
import { pathSettingChecks } from '../../command-kit/path-settings.js';
import { printable } from '../../lib/printable.js';
import type { Finding } from './findings.js';

/** The check's name and what its `ok` says, by setting. */
const checked = {
  outputDir: { check: 'output folder', fine: 'is a folder b2bctl can write in' },
  'tax.shape': { check: 'tax shape', fine: 'reads' },
} as const;

/**
 * The settings that name a place on this machine (outputDir, tax.shape), read as the jobs read them (pathSettingChecks):
 * one line each that is given, failed with the job's words and exit code when the job would refuse it.
 */
export async function localFileFindings(session: Session): Promise<Finding[]> {
  return (await pathSettingChecks(session)).map(({ key, path, refusal }): Finding => {
    const { check, fine } = checked[key];
    if (refusal === undefined) return { check, result: 'ok', detail: `${printable(path)} ${fine}`, setting: key };
    // A finding's detail is a clause, as the others are: the sentence's full stop dropped.
    return {
      check,
      result: 'fail',
      detail: refusal.message.replace(/\.$/, ''),
      setting: key,
      exitCode: refusal.exitCode,
    };
  });
}
