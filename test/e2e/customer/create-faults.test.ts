/**
 * Customer imports when things go wrong: a platform that fails 5% of requests and resets 2% of
 * connections, a process killed with SIGKILL halfway and resumed, and Ctrl-C (SIGINT) mid-run.
 * Each ends with every customer in the sandbox exactly once.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sandboxDefaults, type SandboxOptions } from '../../../src/sandbox/options.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, freshConfigDir, freshWorkDir, runCli, spawnCli } from '../../support/cli.js';
import { createRoute, generateCustomers, storedCustomers } from '../../support/customers.js';
import {
  expectLines,
  expectSomeLine,
  onlyReport,
  readReport,
  type ReportRow,
  runFiles,
  timed,
} from '../../support/run-files.js';
import {
  clearSandboxCustomers,
  credentialsEnv,
  requestCounts,
  resetCounts,
  seedDirectory,
  startTestSandbox,
} from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { until } from '../../support/until.js';

const sandboxes: RunningSandbox[] = [];

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  removeTemporaryFolders();
});

/** The documents of a generated CSV, in file order. */
function documentsOf(csv: string): string[] {
  return csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[1] as string);
}

/** Rows of a report still being written: complete lines only. */
function rowsSoFar(path: string): number {
  if (!existsSync(path)) return 0;
  return Math.max(0, readFileSync(path, 'utf8').split('\r\n').length - 2);
}

/** Waits until the one report in `folder` beside `base` has at least `rows` rows; returns its name. */
async function waitForReportRows(folder: string, base: string, rows: number): Promise<string> {
  let found = '';
  const reached = () => {
    found = runFiles(folder, base).reports[0] ?? '';
    return found !== '' && rowsSoFar(join(folder, found)) >= rows;
  };
  await until(reached, `the report beside ${base} to reach ${rows} rows`, { deadlineMs: 60_000 });
  return found;
}

/** The connections a sandbox accepts from a moment on, as they close. */
interface RunConnections {
  /** Every connection accepted since has closed. */
  allClosed(): boolean;
  stopCounting(): void;
}

/**
 * Counts the connections the sandbox accepts from now on: a run spawned after this sends its requests on them (the
 * test itself sends none meanwhile), so once they are all closed the sandbox has read every request the run sent.
 */
function connectionsFromNow(sandbox: RunningSandbox): RunConnections {
  let open = 0;
  const counted = (socket: Socket) => {
    open++;
    socket.once('close', () => open--);
  };
  sandbox.app.server.on('connection', counted);
  return { allClosed: () => open === 0, stopCounting: () => sandbox.app.server.off('connection', counted) };
}

/**
 * The customers stored once the run's connections are closed: requests a killed client left behind are still
 * applied as the sandbox reads them (its create is applied before its slow answer, in the same turn), so none is
 * added after that.
 */
async function settledCustomerCount(sandbox: RunningSandbox, run: RunConnections): Promise<number> {
  await until(run.allClosed, "the run's connections to close", { deadlineMs: 60_000 });
  run.stopCounting();
  return (await storedCustomers(sandbox)).length;
}

/** Each line of the input (2 … records + 1) exactly once in the report, with a done outcome. */
function expectEveryLineDoneOnce(rows: readonly ReportRow[], records: number): void {
  const lines = rows.map((row) => Number(row.line)).toSorted((a, b) => a - b);
  expect(lines).toEqual(Array.from({ length: records }, (_, index) => index + 2));
  expect(rows.filter((row) => row.outcome !== 'created')).toEqual([]);
}

describe('a platform that fails 5% of requests with 503 and resets 2% of connections', () => {
  it(
    '10,000 customers with --retries 10 --concurrency 16: a 503 or a reset of a create is unknown, never sent twice; resumed, every customer exactly once',
    // The first run and the resumes that finish its unknown records: 90 s on two busy cores.
    { timeout: 240_000 },
    async () => {
      const sandbox = await startTestSandbox({ failRate: 0.05, resetRate: 0.02 });
      sandboxes.push(sandbox);
      const folder = freshWorkDir();
      const csv = generateCustomers(10_000).toString('utf8');
      writeFileSync(join(folder, 'customers.csv'), csv);
      const configDir = freshConfigDir();
      const run = (args: string[]) =>
        runCli(['customer', 'create', 'customers.csv', '--retries', '10', '--concurrency', '16', ...args], {
          configDir,
          cwd: folder,
          env: credentialsEnv(sandbox),
        });
      const result = await run([]);
      const report = onlyReport(folder, 'customers');
      // A create reset once sent, or answered 503, may be on the platform: unknown, exit 1. The platform answered its
      // look-up, so the run does not stop as if it were unavailable.
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      // No Node warning: 16 requests backing off at once once tripped MaxListenersExceededWarning.
      expect(result.stderr).not.toMatch(/Warning/);
      const firstRows = readReport(join(folder, report));
      const unknown = firstRows.filter((row) => row.outcome === 'unknown').length;
      // About 5% of the creates answered 503 and 2% reset: each looked up, none sent again in the run.
      expect(unknown).toBeGreaterThan(100);
      expect(firstRows.filter((row) => row.outcome !== 'created' && row.outcome !== 'unknown')).toEqual([]);
      expect(result.stderr).toContain(`${unknown} unknown`);

      // Each resume asks about its unknown records before it sends them.
      const runs = [result];
      while (runs.length < 8 && runs.at(-1)?.code !== 0) runs.push(await run(['--resume', report]));
      const resumed = runs.at(-1) ?? result;
      // The faults did happen; the look-ups (an update, safe to repeat) were retried after theirs.
      expect(Number(/(\d+) retries/.exec(result.stderr)?.[1])).toBeGreaterThan(0);
      expect((await requestCounts(sandbox))[createRoute]).toBeGreaterThan(10_000);
      expect(resumed.code).toBe(0);
      const rows = readReport(join(folder, report));
      expectEveryLineDoneOnce(rows, 10_000);
      // The sandbox resets a request before its work: no unknown create had been made, so none is refused.
      expect(rows.filter((row) => row.status === '400')).toEqual([]);
      const stored = (await storedCustomers(sandbox)).map((customer) => customer.document);
      expect(stored).toHaveLength(10_000);
      expect(new Set(stored).size).toBe(10_000);
      expect([...stored].toSorted()).toEqual(documentsOf(csv).toSorted());
    },
  );
});

describe('interrupted runs', () => {
  let sandbox: RunningSandbox;
  const records = 4_000;
  let csv: string;

  // The sandbox reads its options on every request, so a test can make it fast again once the interruption is done.
  const options: SandboxOptions = { ...sandboxDefaults, host: '127.0.0.1', port: 0, seedDirectory };
  /** 20 ms per answer keeps a 4,000-customer run going for seconds, long enough to interrupt it halfway. */
  const slowAnswers = 20;
  /** The resumed run's subject is what it sends, not how long the platform takes to answer. */
  const answerPromptly = () => (options.latencyMs = 0);

  beforeAll(async () => {
    sandbox = await startSandbox(options);
    sandboxes.push(sandbox);
    csv = generateCustomers(records, 'csv', 20_001).toString('utf8');
  });
  beforeEach(async () => {
    options.latencyMs = slowAnswers;
    await clearSandboxCustomers(sandbox);
    await resetCounts(sandbox);
  });

  it(
    'killed with SIGKILL halfway, then --resume REPORT: every customer exactly once, every line done in the report',
    { timeout: 120_000 },
    async () => {
      const folder = freshWorkDir();
      writeFileSync(join(folder, 'customers.csv'), csv);
      const configDir = freshConfigDir();
      const env = credentialsEnv(sandbox);
      const connections = connectionsFromNow(sandbox);
      const child = spawnCli(['customer', 'create', 'customers.csv', '--concurrency', '16'], configDir, env, folder);
      child.stdin?.end();
      const exited = collect(child);
      const report = await waitForReportRows(folder, 'customers', 1_000);
      child.kill('SIGKILL');
      const killed = await exited;
      expect(killed.signal).toBe('SIGKILL');

      const reportedBefore = readReport(join(folder, report));
      expect(reportedBefore.length).toBeGreaterThanOrEqual(1_000);
      expect(reportedBefore.length).toBeLessThan(records);
      // Requests in flight at the kill were still applied by the platform, without anyone to record the answer.
      const storedAfterKill = await settledCustomerCount(sandbox, connections);
      // Usually a few requests were in flight at the kill; none is possible too. The deterministic test
      // of a lost answer is the next one; this one checks that, either way, every customer exists once.
      const lostAnswers = storedAfterKill - reportedBefore.length;
      expect(lostAnswers).toBeGreaterThanOrEqual(0);

      answerPromptly();
      await resetCounts(sandbox);
      const resumed = await runCli(['customer', 'create', 'customers.csv', '--concurrency', '16', '--resume', report], {
        configDir,
        cwd: folder,
        env,
      });
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toBe('');
      // A run past 10 s logs a progress line when stderr is not a terminal; how long it takes is the machine's business.
      const resumedLines = resumed.stderr.split('\n').filter((line) => !line.startsWith('progress: '));
      expectLines(resumedLines.join('\n'), [
        // The killed run's lock of the profile's customer runs, left behind: taken over, said once.
        new RegExp(
          `^warning: taking over the stale lock .*/locks/default\\.customers\\.lock left by PID ${child.pid} \\(b2bctl customer create \\(profile default\\), [0-9TZ:.-]+\\), which is no longer running\\.$`,
        ),
        'customer create: validating customers.csv',
        timed(`customer create: ${records} records, ${records} valid, 0 invalid ({s} s)`),
        `customer create: sending ${records - reportedBefore.length} customers (${reportedBefore.length} already done by the resumed run), one request each, to POST /v1/customer (concurrency 16)`,
        timed(
          `customer create: ${records - reportedBefore.length} created; {n} requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s`,
        ),
        `customer create: report: ${report}`,
      ]);
      // Only the records without a row were sent again; the lost answers were recognised by their e-mail.
      const counts = await requestCounts(sandbox);
      expect(counts[createRoute]).toBe(records - reportedBefore.length);
      // No request of a route leaves it out of the counts: none in flight at the kill means no PUT at all.
      expect(counts['PUT /v1/customer/:document'] ?? 0).toBe(lostAnswers);

      const rows = readReport(join(folder, report));
      expect(rows.slice(0, reportedBefore.length)).toEqual(reportedBefore);
      expectEveryLineDoneOnce(rows, records);
      const recognised = rows.filter((row) => row.message !== '');
      expect(recognised).toHaveLength(lostAnswers);
      for (const row of recognised)
        expect(row.message).toBe(
          'already registered with this e-mail: the interrupted run created it before its answer was recorded',
        );
      expect(runFiles(folder, 'customers').errors).toEqual([]);

      const stored = (await storedCustomers(sandbox)).map((customer) => customer.document);
      expect(stored).toHaveLength(records);
      expect([...stored].toSorted()).toEqual(documentsOf(csv).toSorted());
    },
  );

  it(
    'resuming from a report that lacks rows of customers the platform created: recognised by their e-mail, not failed, not sent twice',
    { timeout: 120_000 },
    async () => {
      const folder = freshWorkDir();
      writeFileSync(join(folder, 'customers.csv'), generateCustomers(10, 'csv', 30_001));
      const configDir = freshConfigDir();
      const env = credentialsEnv(sandbox);
      const first = await runCli(['customer', 'create', 'customers.csv'], { configDir, cwd: folder, env });
      expect(first.code).toBe(0);
      const report = onlyReport(folder, 'customers');
      // As if the run had died before the answers of lines 5 to 11 were written: keep the header and lines 2-4.
      const kept = readFileSync(join(folder, report), 'utf8')
        .split('\r\n')
        .filter((row) => row !== '');
      const header = kept[0] as string;
      const rows = kept.slice(1).filter((row) => Number(row.split(',')[0]) <= 4);
      expect(rows).toHaveLength(3);
      writeFileSync(join(folder, report), `${[header, ...rows].join('\r\n')}\r\n`);
      await resetCounts(sandbox);

      const resumed = await runCli(['customer', 'create', 'customers.csv', '--resume', report], {
        configDir,
        cwd: folder,
        env,
      });
      expect(resumed.code).toBe(0);
      const counts = await requestCounts(sandbox);
      // Each unanswered customer is tried once, refused as registered, and read back once; nothing is created twice.
      expect(counts[createRoute]).toBe(7);
      expect(counts['PUT /v1/customer/:document']).toBe(7);
      const after = readReport(join(folder, report));
      const recognised = after.filter((row) => row.message !== '');
      expect(recognised.map((row) => Number(row.line)).toSorted((a, b) => a - b)).toEqual([5, 6, 7, 8, 9, 10, 11]);
      for (const row of recognised) {
        expect(row.outcome).toBe('created');
        expect(row.message).toBe(
          'already registered with this e-mail: the interrupted run created it before its answer was recorded',
        );
      }
      expect(await storedCustomers(sandbox)).toHaveLength(10);
    },
  );

  it(
    'SIGINT mid-run: the requests in flight finish and are reported, exit 75 with the resume command; resuming completes it',
    { timeout: 120_000 },
    async () => {
      const folder = freshWorkDir();
      writeFileSync(join(folder, 'customers.csv'), csv);
      const configDir = freshConfigDir();
      const env = credentialsEnv(sandbox);
      const connections = connectionsFromNow(sandbox);
      const child = spawnCli(['customer', 'create', 'customers.csv', '--concurrency', '16'], configDir, env, folder);
      child.stdin?.end();
      const exited = collect(child);
      const report = await waitForReportRows(folder, 'customers', 300);
      child.kill('SIGINT');
      const interrupted = await exited;
      expect(interrupted.code).toBe(75);
      expect(interrupted.stdout).toBe('');
      const lines = interrupted.stderr.trimEnd().split('\n');
      expect(lines.at(-1)).toBe(
        `error: Interrupted; the requests in flight were finished and reported. Resume with: B2BCTL_CONFIG_DIR=${configDir} b2bctl customer create customers.csv --profile default --base-url ${sandbox.url} --concurrency 16 --resume ${report}`,
      );
      expect(lines.at(-2)).toBe(`customer create: report: ${report}`);

      // Nothing was left unanswered: the store holds exactly the customers the report says were created.
      const rowsBefore = readReport(join(folder, report));
      expect(rowsBefore.length).toBeLessThan(records);
      expectSomeLine(
        interrupted.stderr,
        timed(
          `customer create: ${rowsBefore.length} created, ${records - rowsBefore.length} not sent; {n} requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s`,
        ),
      );
      expect(rowsBefore.every((row) => row.outcome === 'created' && row.message === '')).toBe(true);
      expect(await settledCustomerCount(sandbox, connections)).toBe(rowsBefore.length);

      answerPromptly();
      const resumed = await runCli(['customer', 'create', 'customers.csv', '--resume', report, '--concurrency', '16'], {
        configDir,
        cwd: folder,
        env,
      });
      expect(resumed.code).toBe(0);
      const rows = readReport(join(folder, report));
      expectEveryLineDoneOnce(rows, records);
      expect(rows.filter((row) => row.message !== '')).toEqual([]);
      const stored = (await storedCustomers(sandbox)).map((customer) => customer.document);
      expect(new Set(stored).size).toBe(records);
      expect(stored).toHaveLength(records);
    },
  );
});
