/**
 * The books of a bulk run on their own (the command tests reach them too, but those that run b2bctl in another folder
 * are left out of mutation testing): where the report and errors file go, what each row counts, what is written to
 * the errors file, and how an unwritable path is refused before anything is sent.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Outcome, ReportRow } from '../../../src/bulk/report.js';
import { type LedgerOptions, RunLedger } from '../../../src/bulk/run-ledger.js';
import { OutputError, UsageError } from '../../../src/base/errors.js';
import type { OpenedInput } from '../../../src/io/input/open-input.js';
import { WholeAppender } from '../../../src/lib/whole-write.js';
import type { FakeClock } from '../../support/fake-clock.js';
import { testContext } from '../../support/test-context.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterEach(removeTemporaryFolders);

// The test context's clock starts at 2026-11-23 12:00:00 UTC: the stamp of the default file names.
const stamp = '20261123-120000';
const csvInput = (headers: string[], delimiter = ';') =>
  ({ csv: { delimiter, decimal: ',', headers } }) as unknown as OpenedInput;
const jsonInput = {} as OpenedInput;

function ledgerIn(folder: string, options: Partial<LedgerOptions> = {}, globals = {}, tty = false) {
  const test = testContext({ globals, tty: { stderr: tty } });
  const open = () =>
    RunLedger.open({
      context: test.context,
      inputPath: join(folder, 'customers.csv'),
      input: csvInput(['name', 'document']),
      unit: 'customers',
      total: 10,
      ...options,
    });
  return { test, open };
}

const row = (
  line: number,
  outcome: Outcome,
  extra: Partial<ReportRow> = {},
): { row: ReportRow; original: unknown } => ({
  row: { line, key: `K${line}`, outcome, ...extra },
  original: [`name ${line}`, `doc ${line}`],
});

describe('RunLedger.open: where the report and the errors file go', () => {
  it('beside the input, named after it and the start time; a CSV input gets a CSV errors file with its headers', async () => {
    const folder = temporaryFolder();
    const ledger = await ledgerIn(folder).open();
    expect(ledger.report.path).toBe(join(folder, `customers.report-${stamp}.csv`));
    expect(ledger.errors.path).toBe(join(folder, `customers.errors-${stamp}.csv`));
    ledger.record([row(2, 'invalid', { message: 'bad document' })]);
    ledger.close();
    expect(readFileSync(ledger.report.path, 'utf8')).toBe(
      'line,key,outcome,status,id,message,row\r\n2,K2,invalid,,,bad document,2\r\n',
    );
    expect(readFileSync(ledger.errors.path, 'utf8')).toBe(
      '\uFEFFname;document;row;error\r\nname 2;doc 2;2;bad document\r\n',
    );
  });

  it('a JSON input: an NDJSON errors file, and report rows without the spreadsheet row column', async () => {
    const folder = temporaryFolder();
    const ledger = await ledgerIn(folder, { input: jsonInput }).open();
    expect(ledger.errors.path).toBe(join(folder, `customers.errors-${stamp}.ndjson`));
    ledger.record([{ row: { line: 1, key: 'K1', outcome: 'failed', message: 'no' }, original: { name: 'Ana' } }]);
    ledger.close();
    expect(readFileSync(ledger.report.path, 'utf8')).toBe('line,key,outcome,status,id,message\r\n1,K1,failed,,,no\r\n');
    expect(readFileSync(ledger.errors.path, 'utf8')).toBe('{"name":"Ana","error":"no"}\n');
  });

  it('an errors file fed back: its own row and error columns are not repeated', async () => {
    const folder = temporaryFolder();
    const input = csvInput(['name', 'document', 'row', 'error']);
    const ledger = await ledgerIn(folder, { input }).open();
    ledger.record([row(3, 'rejected', { message: 'taken' })]);
    ledger.close();
    expect(readFileSync(ledger.errors.path, 'utf8')).toBe('\uFEFFname;document;row;error\r\nname 3;doc 3;3;taken\r\n');
  });

  it('a second run in the same second gets files of its own, whether the report or the errors file is there', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, `customers.report-${stamp}.csv`), 'taken');
    const second = await ledgerIn(folder).open();
    second.close();
    expect(second.report.path).toBe(join(folder, `customers.report-${stamp}-2.csv`));
    expect(second.errors.path).toBe(join(folder, `customers.errors-${stamp}-2.csv`));
    // Only an errors file left by the first run (its report moved away) is enough to move on too.
    const other = temporaryFolder();
    writeFileSync(join(other, `customers.errors-${stamp}.csv`), 'taken');
    writeFileSync(join(other, `customers.report-${stamp}-2.csv`), 'taken');
    const third = await ledgerIn(other).open();
    third.close();
    expect(third.report.path).toBe(join(other, `customers.report-${stamp}-3.csv`));
    expect(third.errors.path).toBe(join(other, `customers.errors-${stamp}-3.csv`));
  });

  it('a report path given (or resumed) is kept whatever is beside the input; so is an errors path given', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, `customers.errors-${stamp}.csv`), 'taken');
    const chosen = join(folder, 'mine.csv');
    const given = await ledgerIn(folder, { reportPath: chosen, errorsPath: join(folder, 'errs.csv') }).open();
    given.close();
    expect([given.report.path, given.errors.path]).toEqual([chosen, join(folder, 'errs.csv')]);
    // Resumed: the errors file is numbered past the one there, the report is the resumed one.
    const resumed = await ledgerIn(folder, { resumeFrom: chosen }).open();
    resumed.close();
    expect([resumed.report.path, resumed.errors.path]).toEqual([
      chosen,
      join(folder, `customers.errors-${stamp}-2.csv`),
    ]);
    // A report file taken beside the input does not move an errors path that was given, nor a report given.
    writeFileSync(join(folder, `customers.report-${stamp}.csv`), 'taken');
    const both = await ledgerIn(folder, {
      reportPath: join(folder, 'mine-2.csv'),
      errorsPath: join(folder, 'errs-2.csv'),
    }).open();
    both.close();
    expect([both.report.path, both.errors.path]).toEqual([join(folder, 'mine-2.csv'), join(folder, 'errs-2.csv')]);
  });

  it("a report or errors path given that holds an earlier run's rows is refused, before anything is written", async () => {
    const folder = temporaryFolder();
    const daily = join(folder, 'daily.csv');
    writeFileSync(daily, 'line,key,outcome,status,id,message\n3,001.234.567-97,updated,200,,\n');
    await expect(ledgerIn(folder, { reportPath: daily }).open()).rejects.toThrow(
      `--report ${daily}: the file already holds an earlier run's report; nothing was sent.`,
    );
    await expect(ledgerIn(folder, { errorsPath: daily }).open()).rejects.toThrow(
      `--errors ${daily}: the file already holds an earlier run's errors file; nothing was sent.`,
    );
    expect(readFileSync(daily, 'utf8')).toBe('line,key,outcome,status,id,message\n3,001.234.567-97,updated,200,,\n');
    // An empty file (made with touch) and the system's devices are written as given.
    const empty = join(folder, 'empty.csv');
    writeFileSync(empty, '');
    const fresh = await ledgerIn(folder, { reportPath: empty }).open();
    fresh.close();
    expect(fresh.report.path).toBe(empty);
  });

  it('a file taken beside the input moves only the name that is not given', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, `customers.report-${stamp}.csv`), 'taken');
    const resumed = await ledgerIn(folder, { resumeFrom: join(folder, 'old.csv') }).open();
    resumed.close();
    expect(resumed.errors.path).toBe(join(folder, `customers.errors-${stamp}.csv`));
    const other = temporaryFolder();
    writeFileSync(join(other, `customers.errors-${stamp}.csv`), 'taken');
    const given = await ledgerIn(other, { errorsPath: join(other, 'errs.csv') }).open();
    given.close();
    expect(given.report.path).toBe(join(other, `customers.report-${stamp}.csv`));
  });

  it('with the outputDir setting, both files go to that folder', async () => {
    const folder = temporaryFolder();
    const out = join(folder, 'out');
    mkdirSync(out);
    writeFileSync(join(out, `customers.report-${stamp}.csv`), 'taken');
    const ledger = await ledgerIn(folder, { outputDirectory: out }).open();
    ledger.close();
    expect(ledger.report.path).toBe(join(out, `customers.report-${stamp}-2.csv`));
    expect(ledger.errors.path).toBe(join(out, `customers.errors-${stamp}-2.csv`));
  });

  it('--excel: a report with a byte order mark and `;`', async () => {
    const ledger = await ledgerIn(temporaryFolder(), { excel: true }).open();
    ledger.close();
    expect(readFileSync(ledger.report.path, 'utf8')).toBe('\uFEFFline;key;outcome;status;id;message;row\r\n');
  });

  it('an unwritable report: a usage error naming the file, the code and the flag; nothing is left behind', async () => {
    const folder = temporaryFolder();
    const missing = join(folder, 'no-such-folder', 'report.csv');
    const opened = ledgerIn(folder, { reportPath: missing }).open();
    await expect(opened).rejects.toThrow(UsageError);
    await expect(opened).rejects.toThrow(
      `Cannot write the report ${missing} (ENOENT); nothing was sent. Choose a writable path with --report or the outputDir setting.`,
    );
  });

  it('an unwritable errors file: a usage error naming it and --errors; the report opened first is closed and removed', async () => {
    const folder = temporaryFolder();
    const missing = join(folder, 'no-such-folder', 'errors.csv');
    const { test, open } = ledgerIn(folder, { errorsPath: missing });
    const opened = open();
    await expect(opened).rejects.toThrow(
      `Cannot write the errors file ${missing} (ENOENT); nothing was sent. Choose a writable path with --errors or the outputDir setting.`,
    );
    // The report was opened, then closed again and removed: a header alone at a fixed --report path would refuse the
    // next run as "an earlier run's report".
    const report = join(folder, `customers.report-${stamp}.csv`);
    expect(existsSync(report)).toBe(false);
    expect(openDescriptorsOf(report)).toEqual([]);
    await test.context.close();
  });
});

/** The descriptors of this process open on `path` (/proc/self/fd), parallel-safe unlike a count of them. */
function openDescriptorsOf(path: string): string[] {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  });
}

describe('RunLedger.record: what each row counts and what goes to the errors file', () => {
  it('counts per outcome across batches and runs of equal outcomes; only failing records go to the errors file', async () => {
    const ledger = await ledgerIn(temporaryFolder()).open();
    ledger.record([row(1, 'created'), row(2, 'created'), row(3, 'failed', { message: 'boom' }), row(4, 'created')]);
    ledger.record([row(5, 'created'), row(6, 'invalid'), row(7, 'rejected', { row: 9 }), row(8, 'skipped')]);
    ledger.record([]);
    ledger.close();
    expect(Object.fromEntries(ledger.counts)).toEqual({ created: 4, failed: 1, invalid: 1, rejected: 1, skipped: 1 });
    expect([ledger.count('created'), ledger.count('updated'), ledger.recorded, ledger.failures]).toEqual([4, 0, 8, 3]);
    expect(ledger.report.rows).toBe(8);
    expect(ledger.errors.rows).toBe(3);
    // The message, else the outcome; the spreadsheet row, else the line.
    expect(readFileSync(ledger.errors.path, 'utf8')).toBe(
      '\uFEFFname;document;row;error\r\nname 3;doc 3;3;boom\r\nname 6;doc 6;6;invalid\r\nname 7;doc 7;9;rejected\r\n',
    );
  });

  it('a record whose errors line cannot be written stops the run; every row written is still counted', async () => {
    const folder = temporaryFolder();
    const errorsPath = join(folder, 'errs.csv');
    const ledger = await ledgerIn(folder, { errorsPath }).open();
    // The errors file is opened at the first failure: a folder in its place makes that fail (EISDIR).
    mkdirSync(errorsPath);
    const recording = () => ledger.record([row(1, 'created'), row(2, 'created'), row(3, 'failed'), row(4, 'created')]);
    expect(recording).toThrow(OutputError);
    expect(recording).toThrow(`Cannot write ${errorsPath} (EISDIR).`);
    // The system's error is kept as the cause, for --verbose.
    expect(() => recording()).toThrow(expect.objectContaining({ cause: expect.objectContaining({ code: 'EISDIR' }) }));
    // Three times: rows 1 and 2 and the failed one, each time (the report holds them all).
    expect(Object.fromEntries(ledger.counts)).toEqual({ created: 6, failed: 3 });
    ledger.close();
  });

  it.skipIf(!existsSync('/dev/full'))(
    'a report that cannot be written stops the run before anything is counted (/dev/full: no space)',
    async () => {
      // The report's file turned into a device that refuses every write (a disk filled up after the start). A closed
      // descriptor was used before: another open of the worker could take its number, the write land there, and
      // the test fail on a busy machine.
      const ledger = await ledgerIn(temporaryFolder()).open();
      const report = ledger.report as unknown as { descriptor: number; appender: WholeAppender };
      const opened = report.descriptor;
      report.descriptor = openSync('/dev/full', 'w');
      report.appender = new WholeAppender(report.descriptor);
      closeSync(opened);
      expect(() => ledger.record([row(1, 'created')])).toThrow(`Cannot write ${ledger.report.path} (ENOSPC).`);
      expect(ledger.recorded).toBe(0);
      ledger.report.close();
      ledger.errors.close();
    },
  );

  it('progress lines (no terminal) count done records without the skipped ones, and the failures', async () => {
    const { test, open } = ledgerIn(temporaryFolder());
    const ledger = await open();
    (test.clock as FakeClock).advance(10_000);
    ledger.record([row(1, 'created'), row(2, 'skipped'), row(3, 'failed'), row(4, 'invalid')]);
    ledger.close();
    await test.context.close();
    expect(test.stderr()).toContain('progress: 3 of 10 customers (30%)');
    expect(test.stderr()).toContain(', 2 failed');
  });

  // A cron log's "71 failed" sent the operator to an errors file that holds none of them (a user test): the unknown are
  // counted apart, as the summary and the report count them.
  it('progress lines count the unknown apart from the failed', async () => {
    const { test, open } = ledgerIn(temporaryFolder(), { unknownToFeedBack: false });
    const ledger = await open();
    (test.clock as FakeClock).advance(10_000);
    ledger.record([row(1, 'created'), row(2, 'unknown'), row(3, 'failed'), row(4, 'unknown')]);
    ledger.close();
    await test.context.close();
    expect(test.stderr()).toMatch(/progress: 4 of 10 customers \(40%\), \d+\/s, 1 failed, 2 unknown\n/);
  });

  it('JSON log lines on a terminal: progress lines for the log shipper, not a bar', async () => {
    const { test, open } = ledgerIn(temporaryFolder(), {}, { logFormat: 'json' }, true);
    const ledger = await open();
    (test.clock as FakeClock).advance(10_000);
    ledger.record([row(1, 'created')]);
    ledger.close();
    await test.context.close();
    expect(test.stderr()).toContain('progress: 1 of 10 customers (10%)');
  });

  it('a bar on a terminal with plain log lines: no progress line', async () => {
    const { test, open } = ledgerIn(temporaryFolder(), {}, {}, true);
    const ledger = await open();
    (test.clock as FakeClock).advance(10_000);
    ledger.record([row(1, 'created')]);
    ledger.close();
    await test.context.close();
    expect(test.stderr()).not.toContain('progress:');
  });

  it('--quiet: no progress at all', async () => {
    const { test, open } = ledgerIn(temporaryFolder(), {}, { quiet: true });
    const ledger = await open();
    (test.clock as FakeClock).advance(10_000);
    ledger.record([row(1, 'created')]);
    ledger.close();
    await test.context.close();
    expect(test.stderr()).toBe('');
  });
});

describe('RunLedger.close', () => {
  it('closes the report and the errors file', async () => {
    const ledger = await ledgerIn(temporaryFolder()).open();
    ledger.record([row(1, 'failed')]);
    expect(openDescriptorsOf(ledger.report.path)).toHaveLength(1);
    expect(openDescriptorsOf(ledger.errors.path)).toHaveLength(1);
    ledger.close();
    expect(openDescriptorsOf(ledger.report.path)).toEqual([]);
    expect(openDescriptorsOf(ledger.errors.path)).toEqual([]);
  });
});

describe('RunLedger: the summary lines', () => {
  it('outcomes that occurred, in the order asked; "nothing sent" when none did', async () => {
    const ledger = await ledgerIn(temporaryFolder()).open();
    expect(ledger.outcomeSummary(['created', 'failed'])).toBe('nothing sent');
    ledger.record([row(1, 'failed'), row(2, 'created'), row(3, 'created')]);
    ledger.close();
    expect(ledger.outcomeSummary(['created', 'updated', 'failed'])).toBe('2 created, 1 failed');
  });

  it('the seconds since the ledger opened', async () => {
    const { test, open } = ledgerIn(temporaryFolder());
    const ledger = await open();
    (test.clock as FakeClock).advance(2_500);
    ledger.close();
    expect(ledger.elapsedSeconds()).toBe(2.5);
  });

  it('the report always; the errors file and the line that feeds it back only when records failed', async () => {
    const ledger = await ledgerIn(temporaryFolder()).open();
    const feedBack = `b2bctl customer create ${ledger.errors.path}`;
    expect(ledger.filesSummary({ feedBack })).toEqual([`report: ${ledger.report.path}`]);
    ledger.record([row(1, 'failed'), row(2, 'invalid')]);
    ledger.close();
    expect(ledger.filesSummary()).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records to fix and feed back)`,
    ]);
    expect(ledger.filesSummary({ feedBack })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records to fix and feed back)`,
      `once fixed, feed it back with: b2bctl customer create ${ledger.errors.path}`,
    ]);
    // Records that failed only because the platform was unavailable have nothing to fix.
    expect(ledger.filesSummary({ feedBack, unavailable: 2 })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records that failed because the platform was unavailable, to feed back once it answers)`,
      `once the platform answers, feed it back with: b2bctl customer create ${ledger.errors.path}`,
    ]);
    expect(ledger.filesSummary({ feedBack, unavailable: 1 })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records: 1 to fix, 1 that failed because the platform was unavailable)`,
      `once fixed and the platform answers, feed it back with: b2bctl customer create ${ledger.errors.path}`,
    ]);
    // A run that ends with its resume command: that command is the one way on, and its run's errors file the one to fix.
    expect(ledger.filesSummary({ feedBack, unavailable: 2, resumeFollows: true })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records that failed because the platform was unavailable, which the resume command below sends again)`,
    ]);
    expect(ledger.filesSummary({ feedBack, unavailable: 1, resumeFollows: true })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records: 1 to fix, 1 that failed because the platform was unavailable, which the resume command below sends again)`,
      'once the resume command below has finished the run, fix and feed back the errors file that run writes: it holds every record still to fix',
    ]);
    expect(ledger.filesSummary({ feedBack, resumeFollows: true })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records to fix)`,
      'once the resume command below has finished the run, fix and feed back the errors file that run writes: it holds every record still to fix',
    ]);
  });

  it('unknown records fed back are named apart: nothing in them to fix, they only go again', async () => {
    // Five stock items `unknown` read "5 records to fix and feed back" and "once fixed, feed it back" (a fresh user
    // test).
    const ledger = await ledgerIn(temporaryFolder(), { unknownToFeedBack: true }).open();
    const feedBack = `b2bctl stock push ${ledger.errors.path}`;
    ledger.record([row(1, 'unknown'), row(2, 'unknown')]);
    expect(ledger.filesSummary({ feedBack })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records whose outcome is unknown, with nothing to fix, to feed back as they are)`,
      `to send them again, feed it back with: ${feedBack}`,
    ]);
    expect(ledger.filesSummary({ feedBack, resumeFollows: true })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records whose outcome is unknown, with nothing to fix, which the resume command below sends again)`,
    ]);
    ledger.record([row(3, 'failed'), row(4, 'failed')]);
    ledger.close();
    expect(ledger.filesSummary({ feedBack, unavailable: 1 })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (4 records: 1 to fix, 2 whose outcome is unknown, with nothing to fix, 1 that failed because the platform was unavailable)`,
      `once fixed and the platform answers, feed it back with: ${feedBack}`,
    ]);
  });

  it('one unknown record fed back is said as one', async () => {
    const ledger = await ledgerIn(temporaryFolder(), { unknownToFeedBack: true }).open();
    const feedBack = `b2bctl stock push ${ledger.errors.path}`;
    ledger.record([row(1, 'unknown')]);
    ledger.close();
    expect(ledger.filesSummary({ feedBack })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (1 record whose outcome is unknown, with nothing to fix, to feed back as it is)`,
      `to send it again, feed it back with: ${feedBack}`,
    ]);
  });

  it('a resume that asks first keeps out of the errors file the unknown records the interrupted run may have sent (a user test)', async () => {
    // Fed back as the run was made (orders update --no-status-check), such a move went a second time, unchecked.
    const folder = temporaryFolder();
    const ledger = await ledgerIn(folder, { unknownToFeedBack: true, resumeAsksFirst: true }).open();
    const feedBack = `b2bctl orders update ${ledger.errors.path}`;
    ledger.record([{ ...row(1, 'unknown'), unanswered: true }, row(2, 'unknown'), row(3, 'failed')]);
    ledger.close();
    expect(ledger.count('unknown')).toBe(2);
    expect(ledger.unknownForResume).toBe(1);
    expect(ledger.unknownFedBack).toBe(1);
    expect(readFileSync(ledger.errors.path, 'utf8').split('\r\n').slice(1, -1)).toEqual([
      'name 2;doc 2;2;unknown',
      'name 3;doc 3;3;failed',
    ]);
    expect(ledger.filesSummary({ feedBack, resumeFollows: true })).toEqual([
      `report: ${ledger.report.path}`,
      `errors: ${ledger.errors.path} (2 records: 1 to fix, 1 whose outcome is unknown, with nothing to fix, which the resume command below sends again)`,
      'once the resume command below has finished the run, fix and feed back the errors file that run writes: it holds every record still to fix',
    ]);
  });

  it('a resume that sends unknown records again as they are (stock) feeds back those of the interrupted run too', async () => {
    const ledger = await ledgerIn(temporaryFolder(), { unknownToFeedBack: true }).open();
    ledger.record([{ ...row(1, 'unknown'), unanswered: true }]);
    ledger.close();
    expect(ledger.unknownForResume).toBe(0);
    expect(ledger.errors.rows).toBe(1);
  });
});
