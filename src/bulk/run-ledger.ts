import { existsSync, lstatSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { checkRunFileFolderLink } from '../config/folder-safety.js';
import { lstatOrUndefined } from '../lib/file-status.js';
import { NotOwnPrivateFileError, pathTaken } from '../lib/private-file.js';
import { metaPathOf } from './run-meta.js';
import type { Context } from '../context.js';
import { OutputError, UsageError } from '../base/errors.js';
import type { OpenedInput } from '../io/input/open-input.js';
import { countOf } from '../lib/plural.js';
import { FailureReasons } from './failure-reasons.js';
import { createProgress, type Progress, progressStreams } from './progress.js';
import {
  ErrorsWriter,
  isSystemPath,
  type Outcome,
  type ReportRow,
  ReportWriter,
  siblingPath,
  withoutErrorsColumns,
} from './report.js';
import { printable } from '../lib/printable.js';

const failingOutcomes: ReadonlySet<Outcome> = new Set<Outcome>([
  'invalid',
  'failed',
  'rejected',
  'conflict',
  'unknown',
]);

export interface LedgerOptions {
  context: Context;
  inputPath: string;
  input: OpenedInput;
  /** `--report PATH`; default beside the input, or the resumed report. */
  reportPath?: string;
  /** `--errors PATH`; default beside the report (a given or resumed one too). */
  errorsPath?: string;
  /** The `outputDir` setting: the folder of default report and errors files instead of the input's. */
  outputDirectory?: string;
  /** `--excel` or the `report.excel` setting: a new report for a pt-BR Excel (BOM, `;`). */
  excel?: boolean;
  /** `--resume REPORT`: its rows stay and new ones are appended to it. */
  resumeFrom?: string;
  /** What a record is called in progress and summary lines: "customers", "items". */
  unit: string;
  /** Records this run will send, for the progress bar. */
  total: number;
  /**
   * Whether a record whose outcome is unknown goes to the errors file, to be fed back once checked (order moves).
   * Not for a create: fed back, a customer the lost request made is refused as registered; a resume asks instead.
   */
  unknownToFeedBack?: boolean;
  /**
   * Whether a resume asks the platform before it sends a record the interrupted run may have sent (order moves read
   * the order's status): such a record left `unknown` again stays out of the errors file even where unknown records
   * are fed back, since the errors file fed back sends it unchecked (a second move); the resume settles it.
   */
  resumeAsksFirst?: boolean;
}

/**
 * The books of one bulk run: the report (a row per record, appended as results arrive), the errors
 * file (failed and invalid records in the input's own form), counts per outcome, and progress.
 */
export class RunLedger {
  readonly counts = new Map<Outcome, number>();
  /**
   * Answers that came after the report could no longer be written (a full disk): the requests in flight finish, and
   * what the platform did with them is said in the summary, though the report lacks them and a resume sends them again.
   */
  readonly unrecorded = new Map<Outcome, number>();
  /** Why the sent records that failed did, said on screen at the end (the invalid ones were told as validated). */
  readonly failureReasons = new FailureReasons();
  readonly startedAt: number;
  /** Unknown records kept out of the errors file though unknown ones are fed back (LedgerOptions.resumeAsksFirst). */
  private unknownKeptForResume = 0;
  readonly report: ReportWriter;
  readonly errors: ErrorsWriter;
  private readonly progress: Progress;
  private readonly context: Context;
  private readonly unknownToFeedBack: boolean;
  private readonly resumeAsksFirst: boolean;
  private constructor(
    report: ReportWriter,
    errors: ErrorsWriter,
    progress: Progress,
    context: Context,
    unknownToFeedBack: boolean,
    resumeAsksFirst: boolean,
  ) {
    this.report = report;
    this.errors = errors;
    this.progress = progress;
    this.context = context;
    this.unknownToFeedBack = unknownToFeedBack;
    this.resumeAsksFirst = resumeAsksFirst;

    this.startedAt = context.clock.now();
  }

  static async open(options: LedgerOptions): Promise<RunLedger> {
    const startedAt = new Date(options.context.clock.now());
    const csv = options.input.csv;
    const errorsExtension = csv ? '.csv' : '.ndjson';
    refuseOneFileTwice(options);
    if (options.resumeFrom === undefined) {
      refuseEarlierRun(options.reportPath, 'report', '--report');
      refuseEarlierRun(options.errorsPath, 'errors file', '--errors');
      refuseTakenRunRecord(options.reportPath);
    }
    const chosenReport = options.reportPath ?? options.resumeFrom;
    // Both files are opened for appending: a second run started in the same second must get files of
    // its own, not add its rows to the first run's report (which a --resume would then misread).
    const folder = options.outputDirectory;
    const errorsFolder = folderOfReport(chosenReport) ?? folder;
    const taken = (sequence: number) =>
      (chosenReport === undefined &&
        reportTaken(siblingPath(options.inputPath, 'report', startedAt, '.csv', sequence, folder))) ||
      (options.errorsPath === undefined &&
        pathTaken(siblingPath(options.inputPath, 'errors', startedAt, errorsExtension, sequence, errorsFolder)));
    let sequence = 1;
    while (taken(sequence)) sequence++;
    const reportPath = chosenReport ?? siblingPath(options.inputPath, 'report', startedAt, '.csv', sequence, folder);
    // Feeding back an errors file: its own `row` and `error` columns are replaced, not repeated.
    const headers = csv ? withoutErrorsColumns(csv.headers) : [];
    const errors = new ErrorsWriter(
      options.errorsPath ??
        siblingPath(options.inputPath, 'errors', startedAt, errorsExtension, sequence, errorsFolder),
      csv ? { kind: 'csv', headers, delimiter: csv.delimiter, textColumns: csv.textColumns } : { kind: 'ndjson' },
    );
    refuseForeignLinkedFolders(reportPath, errors.path, options);
    // Both opened before the progress bar starts, so an unwritable path (a read-only export share)
    // fails cleanly, before anything is sent.
    const reportExisted = existsSync(reportPath);
    const report = openOutput(
      reportPath,
      'report',
      // A resumed report is not chosen afresh: the way out is a copy of it in a folder of one's own.
      options.reportPath === undefined && options.resumeFrom !== undefined ? '--resume' : '--report',
      () =>
        new ReportWriter(reportPath, {
          spreadsheetRows: csv !== undefined,
          excel: options.excel === true,
        }),
    );
    openOutput(
      errors.path,
      'errors file',
      '--errors',
      () => errors.checkWritable(),
      () => {
        report.close();
        // A report this run made holds only its header: left, it would refuse the next run at a fixed --report.
        if (!reportExisted) rmSync(reportPath, { force: true });
      },
    );
    const progress = await createProgress({
      io: progressStreams(options.context),
      clock: options.context.clock,
      quiet: options.context.globals.quiet,
      unit: options.unit,
      total: options.total,
      log: (message) => options.context.log.info(message),
      divertLog: (write) => options.context.log.divert(write),
    });
    return new RunLedger(
      report,
      errors,
      progress,
      options.context,
      options.unknownToFeedBack !== false,
      options.resumeAsksFirst === true,
    );
  }

  count(outcome: Outcome): number {
    return this.counts.get(outcome) ?? 0;
  }

  /** Records with this outcome, those the report could not hold included. */
  answered(outcome: Outcome): number {
    return this.count(outcome) + (this.unrecorded.get(outcome) ?? 0);
  }

  /** Records answered that the report could not hold. */
  get notInReport(): number {
    let total = 0;
    for (const value of this.unrecorded.values()) total += value;
    return total;
  }

  get recorded(): number {
    let total = 0;
    for (const value of this.counts.values()) total += value;
    return total;
  }

  /** Unknown records that stay out of the errors file: only a resume, which asks before it sends, finishes them. */
  get unknownForResume(): number {
    return this.unknownToFeedBack ? this.unknownKeptForResume : this.count('unknown');
  }

  /** Unknown records the errors file holds, to send again as they are. */
  get unknownFedBack(): number {
    return this.count('unknown') - this.unknownForResume;
  }

  /**
   * Whether the entry's record goes to the errors file: a failure, unless it is unknown and only a resume settles it
   * (counted here, once per record written, for the line that offers the resume).
   */
  private fedBack(entry: { row: ReportRow; unanswered?: boolean }): boolean {
    if (!failingOutcomes.has(entry.row.outcome)) return false;
    if (entry.row.outcome !== 'unknown') return true;
    if (!this.unknownToFeedBack) return false;
    if (!this.resumeAsksFirst || entry.unanswered !== true) return true;
    this.unknownKeptForResume++;
    return false;
  }

  /** The progress line's counts: the unknown apart from the failed, as the summary and the report count them. */
  private progressCounts(): { done: number; failed: number; unknown: number } {
    const unknown = this.count('unknown');
    return { done: this.recorded - this.count('skipped'), failed: this.failures - unknown, unknown };
  }

  get failures(): number {
    let total = 0;
    for (const outcome of failingOutcomes) total += this.count(outcome);
    return total;
  }

  /**
   * Counts an invalid record a resumed run's report has already (it stays invalid in an input that has not changed):
   * in the summary and the exit code, without a second row in the report. It goes to this run's errors file all the
   * same, whose feed-back command must cover every record to fix: the interrupted run's errors file is not continued,
   * as the failed records this run sends again would stay in it once sent.
   */
  recountInvalid(invalid: { original: unknown; message: string; row: number; line: number; element?: number }): void {
    this.counts.set('invalid', this.count('invalid') + 1);
    writing(this.errors.path, () =>
      this.errors.write(invalid.original, invalid.message, invalid.row, {
        line: invalid.line,
        element: invalid.element,
      }),
    );
    this.progress.update(this.progressCounts());
  }

  /**
   * Writes the rows (and the failing records to the errors file) before anything else happens. `answered`: rows of a
   * batch sent, whose `invalid` ones were found so while sending (an address the stored record cannot complete): told
   * nowhere else, they get their why line as failures do; the validation's were told as validated.
   */
  record(entries: readonly { row: ReportRow; original: unknown; unanswered?: boolean }[], answered = false): void {
    try {
      writing(this.report.path, () => this.report.write(entries.map((entry) => entry.row)));
    } catch (error) {
      for (const { row } of entries) this.unrecorded.set(row.outcome, (this.unrecorded.get(row.outcome) ?? 0) + 1);
      throw error;
    }
    // A batch's rows mostly share one outcome: counted per run of equal outcomes, not a map update per row. The
    // run is counted even when writing the errors file stops the loop: the summary counts every row written.
    let runOutcome: Outcome | undefined;
    let runLength = 0;
    try {
      for (const entry of entries) {
        const row = entry.row;
        if (row.outcome !== runOutcome) {
          if (runOutcome !== undefined) this.counts.set(runOutcome, this.count(runOutcome) + runLength);
          runOutcome = row.outcome;
          runLength = 0;
        }
        runLength++;
        if (failingOutcomes.has(row.outcome) && (answered || row.outcome !== 'invalid')) this.failureReasons.add(row);
        // original is read only for a failure: a spooled record parses its cells when asked.
        if (this.fedBack(entry))
          writing(this.errors.path, () =>
            this.errors.write(entry.original, row.message ?? row.outcome, row.row ?? row.line, row),
          );
      }
    } finally {
      if (runOutcome !== undefined) this.counts.set(runOutcome, this.count(runOutcome) + runLength);
    }
    this.progress.update(this.progressCounts());
  }

  /** "12 created, 1 failed" for the outcomes that occurred, in a fixed order. */
  outcomeSummary(order: readonly Outcome[]): string {
    const parts = order
      .filter((outcome) => this.count(outcome) > 0)
      .map((outcome) => `${this.count(outcome)} ${outcome}`);
    return parts.length > 0 ? parts.join(', ') : 'nothing sent';
  }

  elapsedSeconds(): number {
    return (this.context.clock.now() - this.startedAt) / 1000;
  }

  close(): void {
    this.progress.stop();
    this.report.close();
    this.errors.close((message) => this.context.log.warn(message));
  }

  /**
   * The report's path, and the errors file's; with `feedBack` (the command that sends it), the line that feeds it back.
   * `unavailable`: the records of the errors file that failed only because the platform was unavailable, which have
   * nothing to fix: they are sent again once it answers. `resumeFollows`: the run ends with its resume command, which
   * sends every record not done, these too; a feed-back command beside it would finish only part of the night (and,
   * both run, send those records twice), so the resume is the one way on, and its own errors file the one to fix.
   */
  filesSummary(next: { feedBack?: string; unavailable?: number; resumeFollows?: boolean } = {}): string[] {
    const lines = [`report: ${printable(this.report.path)}`];
    const rows = this.errors.rows;
    if (rows === 0) return lines;
    const unavailable = next.unavailable ?? 0;
    // Unknown records fed back (stock items, order moves) have nothing to fix either: they only go again as they are.
    const unknown = Math.min(this.unknownFedBack, rows - unavailable);
    const toFix = Math.max(0, rows - unavailable - unknown);
    const holds = { rows, toFix, unknown, unavailable };
    if (next.resumeFollows === true) {
      lines.push(`errors: ${printable(this.errors.path)} (${errorsFileHolds(holds, true)})`);
      if (toFix > 0)
        lines.push(
          'once the resume command below has finished the run, fix and feed back the errors file that run writes: it holds every record still to fix',
        );
      return lines;
    }
    lines.push(`errors: ${printable(this.errors.path)} (${errorsFileHolds(holds, false)})`);
    // It keeps the input's own headers, so the run's own flags read it.
    const when =
      unavailable > 0
        ? toFix > 0
          ? 'once fixed and the platform answers'
          : 'once the platform answers'
        : toFix > 0
          ? 'once fixed'
          : `to send ${unknown === 1 ? 'it' : 'them'} again`;
    if (next.feedBack) lines.push(`${when}, feed it back with: ${next.feedBack}`);
    return lines;
  }
}

/**
 * What the errors file holds, of `rows` records: `toFix` to fix, `unknown` whose outcome is unknown and
 * `unavailable` that failed because the platform was unavailable, the last two with nothing to fix (a resume that
 * follows sends them again).
 */
function errorsFileHolds(
  { rows, toFix, unknown, unavailable }: { rows: number; toFix: number; unknown: number; unavailable: number },
  resumeFollows: boolean,
): string {
  const records = countOf(rows, 'records');
  const unavailableWords = 'that failed because the platform was unavailable';
  const unknownWords = 'whose outcome is unknown, with nothing to fix';
  const sentAgain = 'which the resume command below sends again';
  if (toFix === rows) return resumeFollows ? `${records} to fix` : `${records} to fix and feed back`;
  if (unavailable === rows)
    return `${records} ${unavailableWords}, ${resumeFollows ? sentAgain : 'to feed back once it answers'}`;
  if (unknown === rows)
    return `${records} ${unknownWords}, ${resumeFollows ? sentAgain : `to feed back as ${rows === 1 ? 'it is' : 'they are'}`}`;
  const parts = [
    toFix > 0 ? `${toFix} to fix` : undefined,
    unknown > 0 ? `${unknown} ${unknownWords}` : undefined,
    unavailable > 0 ? `${unavailable} ${unavailableWords}` : undefined,
  ].filter((part) => part !== undefined);
  return `${records}: ${parts.join(', ')}${resumeFollows ? `, ${sentAgain}` : ''}`;
}

/**
 * The folder of a report given (`--report`) or resumed (`--resume`), where the errors file goes by default: a resume
 * pasted without the outputDir setting of the run it resumes must not write beside an input on a read-only share. A
 * device (`--report /dev/stdout`) is no folder to write in: undefined.
 */
function folderOfReport(reportPath: string | undefined): string | undefined {
  if (reportPath === undefined || isSystemPath(reportPath)) return undefined;
  return dirname(reportPath);
}

/**
 * The report's and the errors file's folders, given or beside the input, reached through another user's symbolic
 * link are refused (checkRunFileFolderLink), the rule of every other folder b2bctl writes in; a device under /dev is
 * no folder of the run's.
 */
function refuseForeignLinkedFolders(reportPath: string, errorsPath: string, options: LedgerOptions): void {
  const reportFlag = options.reportPath === undefined && options.resumeFrom !== undefined ? '--resume' : '--report';
  if (!isSystemPath(reportPath)) checkRunFileFolderLink(reportPath, 'report', reportFlag);
  if (!isSystemPath(errorsPath)) checkRunFileFolderLink(errorsPath, 'errors file', '--errors');
}

/**
 * The report, the errors file and the input must be three files (a user test): a report and errors file written into
 * one file mix the errors rows, passwords included, into the report (which never holds one) and leave the errors
 * rows without their header, so they cannot be fed back; an output written over the input destroys what a resume or
 * a feed-back reads. Refused before anything is sent, naming both. A path under /dev (`/dev/null` for both) is a
 * device, no file of the run's; the same file is the same path, or the same device and inode (a link, another
 * spelling of the path).
 */
function refuseOneFileTwice(options: LedgerOptions): void {
  const report = options.reportPath ?? options.resumeFrom;
  const reportFlag = options.reportPath === undefined ? '--resume' : '--report';
  const input = options.inputPath === '-' ? undefined : options.inputPath;
  const named: [flag: string, path: string | undefined][] = [
    [reportFlag, report],
    ['--errors', options.errorsPath],
  ];
  for (const [flag, path] of named) {
    if (path === undefined || input === undefined || !sameFile(path, input)) continue;
    throw new UsageError(
      `${flag} ${printable(path)} names the input file ${printable(input)}; nothing was sent. Give the ${flag === '--errors' ? 'errors file' : 'report'} a path of its own (or leave ${flag} out for NAME.${flag === '--errors' ? 'errors' : 'report'}-TIMESTAMP beside the input).`,
    );
  }
  if (report !== undefined && options.errorsPath !== undefined && sameFile(report, options.errorsPath))
    throw new UsageError(
      `${reportFlag} ${printable(report)} and --errors ${printable(options.errorsPath)} name one file; nothing was sent. The report never holds a password and the errors file is fed back with its header: give each a path of its own (or leave --errors out for NAME.errors-TIMESTAMP beside the report).`,
    );
}

/** Whether two paths name one file (see refuseOneFileTwice); never for a device under /dev. */
function sameFile(first: string, second: string): boolean {
  if (isSystemPath(first) || isSystemPath(second)) return false;
  if (resolve(first) === resolve(second)) return true;
  try {
    const [one, other] = [statSync(first), statSync(second)];
    return one.dev === other.dev && one.ino === other.ino;
  } catch {
    return false;
  }
}

/**
 * A new run's `--report` or `--errors` path that already holds an earlier run's rows is refused: appended to, a
 * `--resume` would take that run's done rows for this one's (and skip records never sent), and an errors file fed
 * back would send that run's records again. A device or pipe (`/dev/stdout`) and an empty file are written as given.
 */
function refuseEarlierRun(path: string | undefined, what: string, flag: string): void {
  if (path === undefined) return;
  let size: number;
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) return;
    size = stat.size;
  } catch {
    return;
  }
  if (size > 0)
    throw new UsageError(
      `${flag} ${printable(path)}: the file already holds an earlier run's ${what}; nothing was sent. Give a path of its own to each run (a date in it, or leave ${flag} out for NAME.${what === 'report' ? 'report' : 'errors'}-TIMESTAMP beside the input), or --resume the earlier run's report to finish it.`,
    );
}

/**
 * Whether a report name is taken: the report, or its run record. One naming rule for the run's files: a record of the
 * coming name already there (another user's, planted ahead in a shared folder) moves the run to `-2` as a taken
 * report does, rather than stop it.
 */
function reportTaken(path: string): boolean {
  return pathTaken(path) || pathTaken(metaPathOf(path));
}

/**
 * A new run writes its record beside the report (`NAME.meta.json` for `--report NAME.csv`), replacing what is there:
 * a file of that name the run did not make (another run's record, a file of the user's) is refused first.
 */
function refuseTakenRunRecord(reportPath: string | undefined): void {
  if (reportPath === undefined || isSystemPath(reportPath)) return;
  const record = metaPathOf(reportPath);
  if (lstatOrUndefined(record) === undefined) return;
  throw new UsageError(
    `--report ${printable(reportPath)}: ${record} is already there, and this run would replace it with its own run record; nothing was sent. Give the report another name, move that file away, or --resume the run whose report this is.`,
  );
}

function openOutput<T>(path: string, what: string, flag: string, open: () => T, undo?: () => void): T {
  try {
    return open();
  } catch (error) {
    undo?.();
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    // A file another user made first in a shared folder, or a FIFO, would hand them the rows.
    const wayOut =
      flag === '--resume'
        ? `Copy it and its run record ${printable(metaPathOf(path))} into a folder of your own that other users cannot write to, and --resume the copy.`
        : undefined;
    if (error instanceof NotOwnPrivateFileError)
      throw new UsageError(
        `Cannot write the ${what} ${printable(path)}: ${error.reason}; nothing was sent. ${wayOut ?? `Choose a path of your own, in a folder other users cannot write to, with ${flag} or the outputDir setting.`}`,
      );
    // A link planted in a shared folder would send the rows wherever it points.
    const reason = code === 'ELOOP' ? 'it is a symbolic link, which b2bctl never writes through' : code;
    throw new UsageError(
      `Cannot write the ${what} ${printable(path)} (${reason}); nothing was sent. ${wayOut ?? `Choose a writable path with ${flag} or the outputDir setting.`}`,
    );
  }
}

/** A write that fails mid-run (a full disk, a share gone read-only) stops the run; the caller prints the resume line. */
function writing(path: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new OutputError(`Cannot write ${printable(path)} (${code}).`, { cause: error });
  }
}
