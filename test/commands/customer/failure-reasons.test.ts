/**
 * A run where every customer fails says why on screen: the most common reasons with their counts, one line each, and
 * a feed-back command that carries the flag the records need. All 25 customers registered already once printed no
 * reason (the cause and its fix, --upsert, only inside the report), and the feed-back command without --upsert
 * failed the same 25 again.
 */
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshWorkDir, type RunResult, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { shellWords } from '../../support/command-words.js';
import { createRoute, updateRoute } from '../../support/customers.js';
import { onlyErrorsFile, runFiles, timed } from '../../support/run-files.js';
import { requestCounts, resetCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

function cli(args: readonly string[], cwd: string): Promise<RunResult> {
  return runCommandLine(args, { configDir, cwd });
}

/** The lines from the run's summary line to its error line: what the screen says once the sending is over. */
function closingLines(stderr: string): string[] {
  const lines = stderr.split('\n');
  return lines.slice(lines.findIndex((line) => line.startsWith('customer create: 25 failed;')));
}

describe('the closing lines of a run whose every record failed', () => {
  it('name the reasons with their counts, and the feed-back command carries --upsert, which sends them', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    expect((await cli(['customer', 'create', 'customers.csv'], folder)).code).toBe(0);
    await resetCounts(sandbox);

    const again = await cli(['customer', 'create', 'customers.csv'], folder);
    expect(again.code).toBe(1);
    const errors = onlyErrorsFile(folder, 'customers');
    // The second run's report, stamped as its errors file is (both runs may have started in the same second).
    const report = errors.replace('.errors-', '.report-');
    expect(runFiles(folder, 'customers').reports).toContain(report);
    const feedBack = `B2BCTL_CONFIG_DIR=${configDir} b2bctl customer create ${errors} --profile default --upsert`;
    const shown = closingLines(again.stderr);
    expect(shown[0]).toMatch(
      timed('customer create: 25 failed; 50 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
    );
    expect(shown.slice(1)).toEqual([
      // The sample file's CPFs, CNPJs and alphanumeric CNPJs: one reason, whatever the document looks like.
      'customer create: why, 25 customers (first at line 2): Document 100.007.919-89 is already registered in the store (pass --upsert to update existing customers)',
      `customer create: report: ${report}`,
      `customer create: errors: ${errors} (25 records to fix and feed back)`,
      `customer create: once fixed, feed it back with: ${feedBack}`,
      `error: 25 customers did not go through (25 failed); the report ${report} and the errors file ${errors} say why.`,
      '',
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 25, [updateRoute]: 25 });

    // The command as printed updates them: the create refused, the question, the update.
    await resetCounts(sandbox);
    const fedBack = await runCommandLine(shellWords(feedBack).slice(1), { configDir, cwd: folder });
    expect(fedBack.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 25, [updateRoute]: 50 });
  });
});
