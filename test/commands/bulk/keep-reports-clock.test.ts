/**
 * `--keep-reports N` keeps the run that is ending whatever its clock says: after the clock was set back, the previous
 * run's names carried a later time, and the new run removed its own report and run record as "older", so the resume
 * command it printed named a file that was gone (exit 66) (z/Z6).
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../support/command-line.js';
import { readReport } from '../../support/run-files.js';
import { useSandboxWithToken } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let env: Record<string, string>;
useSandboxWithToken((ready) => ({ env } = ready));

/** The files an earlier run left when the clock was `hours` fast: names with a time still to come. */
function earlierRunFromAFastClock(folder: string, hours = 2): string[] {
  const stamp = new Date(Date.now() + hours * 3600_000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace('T', '-')
    .slice(0, 15);
  const files = [`stock.report-${stamp}.csv`, `stock.report-${stamp}.meta.json`, `stock.errors-${stamp}.csv`];
  writeFileSync(
    join(folder, files[0] as string),
    'line,key,outcome,status,id,message,row\r\n2,GEN-0000001,failed,,,x,2\r\n',
  );
  // A finished run of the same store: --keep-reports removes only its own store's runs, and none with a resume left.
  const record = {
    version: 1,
    command: 'stock push',
    profile: 'default',
    baseUrl: env.B2BCTL_BASE_URL,
    input: { path: join(folder, 'stock.csv') },
    state: { kind: 'ended', exitCode: 1, resumePending: false },
  };
  writeFileSync(join(folder, files[1] as string), JSON.stringify(record));
  writeFileSync(join(folder, files[2] as string), '\uFEFFsku,quantity,row,error\r\nGEN-0000001,1,2,x\r\n');
  return files;
}

describe('--keep-reports after the clock was set back', () => {
  it("keeps the ending run's own report and run record, and removes the earlier run's", async () => {
    const folder = temporaryFolder('b2bctl-keep-clock-');
    writeFileSync(join(folder, 'stock.csv'), 'sku,quantity\nGEN-0000001,1\nGEN-0000002,2\n');
    const earlier = earlierRunFromAFastClock(folder);
    const night = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', '--keep-reports', '1'], {
      configDir: join(folder, 'config'),
      cwd: folder,
      env,
    });
    expect(night.code).toBe(0);
    const report = /^stock push: report: (\S+)$/m.exec(night.stderr)?.[1] ?? '';
    expect(night.stderr).toContain(
      `stock push: report: ${report}\nstock push: removed 3 files of older runs (--keep-reports 1)\n`,
    );
    expect(readReport(join(folder, report)).map((row) => row.outcome)).toEqual(['applied', 'applied']);
    expect(existsSync(join(folder, report.replace(/\.csv$/, '.meta.json')))).toBe(true);
    for (const file of earlier) expect(existsSync(join(folder, file))).toBe(false);
  });

  it('a good night under --quiet keeps its report, and the latest-named of the earlier runs (--keep-reports 2)', async () => {
    const folder = temporaryFolder('b2bctl-keep-clock-quiet-');
    writeFileSync(join(folder, 'stock.csv'), 'sku,quantity\nGEN-0000001,1\n');
    const older = earlierRunFromAFastClock(folder, 2);
    const newer = earlierRunFromAFastClock(folder, 3);
    const night = await runCommandLine(
      ['stock', 'push', 'stock.csv', '--route', 'batch', '--quiet', '--keep-reports', '2'],
      { configDir: join(folder, 'config'), cwd: folder, env },
    );
    expect(night.code).toBe(0);
    // Quiet: not even the removal is said.
    expect(night.stderr).toBe('');
    const reports = readdirSync(folder).filter((name) => /^stock\.report-[\d-]+\.csv$/.test(name));
    expect(reports.toSorted()).toEqual([expect.stringMatching(/^stock\.report-\d{8}-\d{6}\.csv$/), newer[0]]);
    expect(reports).not.toContain(older[0]);
    const own = reports.find((name) => name !== newer[0]) ?? '';
    expect(readReport(join(folder, own)).map((row) => row.outcome)).toEqual(['applied']);
    for (const file of older) expect(existsSync(join(folder, file))).toBe(false);
    for (const file of newer) expect(existsSync(join(folder, file))).toBe(true);
  });
});
