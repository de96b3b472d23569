/**
 * A resume cannot go to the wrong store (issue 9): the printed resume line is complete, and a report
 * used with another profile, base URL, command or file is refused before anything is sent.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import {
  cleanEnv,
  cliPath,
  collect,
  freshConfigDir,
  freshWorkDir,
  login,
  runCli,
  sleep,
  spawnCli,
} from '../../support/cli.js';
import { createRoute, generateCustomers, storedCustomers } from '../../support/customers.js';
import { readReport, runFiles } from '../../support/run-files.js';
import { clearSandboxCustomers, requestCounts, resetCounts, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const records = 1500;
let home: RunningSandbox;
let lat: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  [home, lat] = await Promise.all([startTestSandbox(), startTestSandbox()]);
  configDir = freshConfigDir();
  await login(home, configDir);
  await login(lat, configDir, ['--profile', 'lat']);
  await Promise.all([clearSandboxCustomers(home), clearSandboxCustomers(lat)]);
});
afterAll(async () => {
  await Promise.all([home.close(), lat.close()]);
  removeTemporaryFolders();
});

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

function documentsOf(csv: string): string[] {
  return csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[1] as string);
}

async function waitForReport(folder: string, rows: number): Promise<string> {
  for (let attempt = 0; attempt < 3000; attempt++) {
    const [report] = runFiles(folder, 'customers').reports;
    if (report && existsSync(join(folder, report))) {
      if (readFileSync(join(folder, report), 'utf8').split('\r\n').length - 2 >= rows) return report;
    }
    await sleep(10);
  }
  throw new Error(`the report never reached ${rows} rows`);
}

/**
 * Runs a printed command line through the shell, as an operator pasting it in their own shell would: b2bctl is the
 * built CLI, and none of the variables of the run that printed it is set (its config folder included).
 */
function runPrinted(commandLine: string, folder: string): ReturnType<typeof collect> {
  const script = `b2bctl() { "${process.execPath}" "${cliPath}" "$@"; }\n${commandLine}`;
  const shellEnv = cleanEnv(configDir, { HOME: freshWorkDir() });
  delete shellEnv.B2BCTL_CONFIG_DIR;
  const child = spawn('sh', ['-c', script], { cwd: folder, env: shellEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child);
}

describe('Ctrl-C under --profile, then the printed resume line', () => {
  const csv = generateCustomers(records).toString('utf8');
  let folder: string;
  let report: string;

  it(
    'puts every record in the profile’s store exactly once, none in the default one',
    { timeout: 120_000 },
    async () => {
      folder = freshWorkDir();
      writeFileSync(join(folder, 'customers.csv'), csv);
      await resetCounts(home);
      const child = spawnCli(['customer', 'create', 'customers.csv', '--profile', 'lat'], configDir, {}, folder);
      child.stdin?.end();
      const exited = collect(child);
      report = await waitForReport(folder, 100);
      child.kill('SIGINT');
      const interrupted = await exited;
      expect(interrupted.code).toBe(75);
      const printed = /Resume with: (.*)$/m.exec(interrupted.stderr)?.[1] ?? '';
      // The config folder came from the environment (a cron line's B2BCTL_CONFIG_DIR): the line carries it.
      expect(printed).toBe(
        `B2BCTL_CONFIG_DIR=${configDir} b2bctl customer create customers.csv --profile lat --resume ${report}`,
      );
      expect(interrupted.stderr).toMatch(
        /customer create: interrupted; finishing the requests already sent \(at most \d+\)…/,
      );

      const resumed = await runPrinted(printed, folder);
      expect(resumed.stderr).toContain('customer create: sending');
      expect(resumed.code).toBe(0);

      const stored = (await storedCustomers(lat)).map((customer) => customer.document).toSorted();
      expect(stored).toEqual(documentsOf(csv).toSorted());
      expect(await storedCustomers(home)).toEqual([]);
      expect((await requestCounts(home))[createRoute]).toBeUndefined();
      const lines = readReport(join(folder, report)).map((row) => Number(row.line));
      expect(new Set(lines).size).toBe(records);
    },
  );

  it('without --profile, the same report is refused (exit 2) naming the profile, and nothing is sent', async () => {
    await resetCounts(home);
    const result = await runCli(['customer', 'create', 'customers.csv', '--resume', report], {
      configDir,
      cwd: folder,
    });
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `error: Cannot resume from ${report}: it was written for profile "lat", this run uses "default" (add --profile lat); nothing was sent.`,
    );
    expect(await requestCounts(home)).toEqual({});
  });

  it('with --base-url of another store, it is refused naming both addresses', async () => {
    const result = await runCli(
      ['customer', 'create', 'customers.csv', '--profile', 'lat', '--base-url', `${home.url}/`, '--resume', report],
      { configDir, cwd: folder },
    );
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `error: Cannot resume from ${report}: it was written for ${lat.url}, this run would send to ${home.url} (add --base-url ${lat.url}); nothing was sent.`,
    );
  });

  it('a report of another file is refused, not "resumed" with nothing sent and exit 0', async () => {
    writeFileSync(join(folder, 'few.csv'), generateCustomers(50, 'csv', 5000));
    await resetCounts(lat);
    const result = await runCli(['customer', 'create', 'few.csv', '--profile', 'lat', '--resume', report], {
      configDir,
      cwd: folder,
    });
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toMatch(
      new RegExp(
        `^error: Cannot resume from ${report.replaceAll('.', '\\.')}: it is the report of .*customers\\.csv \\(\\d+ bytes\\), and this input is another file or was changed since \\(\\d+ bytes\\)\\. Resume with the file that run read, as it was; or send the changed file as a new run without --resume, where records the first run sent may be refused as sent already \\(customer create: --upsert updates them\\); nothing was sent\\.$`,
      ),
    );
    expect(await requestCounts(lat)).toEqual({});
  });

  it('a customer report is refused by stock push', async () => {
    const result = await runCli(['stock', 'push', 'customers.csv', '--profile', 'lat', '--resume', report], {
      configDir,
      cwd: folder,
    });
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      `error: Cannot resume from ${report}: it is the report of b2bctl customer create, not of b2bctl stock push; nothing was sent.`,
    );
  });

  it('a file whose first bytes and size match but whose records differ is refused by its content', async () => {
    // Same size, same first 64 KiB: the document of the last record changes one digit.
    const lines = csv.trimEnd().split('\n');
    const last = lines.at(-1) as string;
    const document = last.split(',')[1] as string;
    const changed = document.slice(0, -1) + String((Number(document.at(-1)) + 1) % 10);
    lines[lines.length - 1] = last.replace(document, changed);
    writeFileSync(join(folder, 'customers.csv'), `${lines.join('\n')}\n`);
    await resetCounts(lat);
    const result = await runCli(['customer', 'create', 'customers.csv', '--profile', 'lat', '--resume', report], {
      configDir,
      cwd: folder,
    });
    expect(result.code).toBe(2);
    // The run record's hash of the whole input tells them apart; a record without one (an earlier version's) is
    // refused by the report's line keys (test/unit/bulk/pending-records.test.ts).
    const size = Buffer.byteLength(`${lines.join('\n')}\n`);
    expect(result.stderr).toContain(
      `error: Cannot resume from ${report}: it is the report of ${join(folder, 'customers.csv')} (${size} bytes), and this input is another file or was changed since (${size} bytes). Resume with the file that run read, as it was; or send the changed file as a new run without --resume, where records the first run sent may be refused as sent already (customer create: --upsert updates them); nothing was sent.`,
    );
    expect(await requestCounts(lat)).toEqual({});
  });
});
