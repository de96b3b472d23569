/**
 * LibreOffice run headless as a user's Calc: files opened with an import filter and saved in another format, for the
 * tests that check what a spreadsheet makes of b2bctl's files. Callers skip where soffice is missing
 * (`requireTools('soffice')`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

export interface CalcConversion {
  /** Holds the office's profile (its `profile` folder), so a run neither shares nor waits on the user's. */
  folder: string;
  /** How Calc opens each file: `--infilter`'s value, such as `CSV:44,34,76,1,,1046`. */
  infilter: string;
  /** What it saves: `--convert-to`'s value, such as `xlsx` or `csv:Text - txt - csv (StarCalc):…`. */
  convertTo: string;
  outdir: string;
  files: readonly string[];
  timeoutMs: number;
  /** The office's environment (its locale, for one): this process's when absent. */
  env?: NodeJS.ProcessEnv;
}

/** Converts `files` as Calc does, failing the test with soffice's stderr when it does not finish well. */
export function convertedByCalc(conversion: CalcConversion): void {
  const { folder, infilter, convertTo, outdir, files, timeoutMs, env } = conversion;
  const converted = spawnSync(
    'soffice',
    [
      `-env:UserInstallation=file://${join(folder, 'profile')}`,
      '--headless',
      `--infilter=${infilter}`,
      '--convert-to',
      convertTo,
      '--outdir',
      outdir,
      ...files,
    ],
    { encoding: 'utf8', timeout: timeoutMs, env },
  );
  expect({ status: converted.status, stderr: converted.status === 0 ? '' : converted.stderr }).toEqual({
    status: 0,
    stderr: '',
  });
}
