import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { Context } from '../context.js';
import type { RecordVerdict } from '../domain/validation.js';
import { InputError, InterruptedError, PartialFailureError, UsageError } from '../base/errors.js';
import { defaultOutputFolder, type RecordPlace } from './report.js';
import { inputName, isPipe, openNamedInput } from '../io/input/byte-source.js';
import { batchesOfOne, type InputRecord, type OpenedInput, skippedNote } from '../io/input/open-input.js';
import { acquireProfileLock } from '../config/lock.js';
import { countOf } from '../lib/plural.js';
import { announceTerminalStdin, openCommandInput, pipeWaitNotice } from './command-input.js';
import type { BulkJob, SendPlan } from './job.js';
import { keysChecked, type ResumedPlaces } from './pending-records.js';
import { advisoryLogger } from './problem-output.js';
import { ProblemLines, problemLinesPrinted, validateCommandLine } from './problem-lines.js';
import { DoneVerdicts, PlaceKeys, PlaceSet, readDoneLines, UnknownPlaces } from './resume.js';
import { refuseFormatWithoutData, type RunTally, validationCounts, withClosingLine } from './closing-line.js';
import { checkMinimumRecords } from './min-records.js';
import { concludeRun } from './run-end.js';
import { sendPacing } from './send-pacing.js';
import { checkResume, describeInput, readMeta, type RunMeta, type ShapingFlag, writeMeta } from './run-meta.js';
import { openSending, type Sending, sendValidRecords } from './send-stage.js';
import { spoolStdin } from './spool.js';
import { checkingProgress } from './checking-progress.js';
import { changedWhileRead, fileIdentity } from './file-identity.js';
import { type LateProblem, runValidationPass, type ValidationSummary } from './validation-pass.js';
import { type JudgedRecord, removeAbandonedSpools, type SpooledRecord, VerdictSpool } from './verdict-spool.js';
import { printable } from '../lib/printable.js';

export type { BulkJob, SendPlan } from './job.js';
export type { PendingRecord } from './pending-records.js';
export { type ReportEntry, reportEntry } from './report-entry.js';
export { unavailableBatchesBeforeStopping } from './send-stage.js';

/** The input flags every bulk command records for --resume (docs/bulk-runs.md). */
const inputShaping: readonly ShapingFlag[] = [
  { flag: '--map', key: 'map', path: true },
  { flag: '--delimiter', key: 'delimiter' },
  { flag: '--encoding', key: 'encoding' },
  { flag: '--decimal', key: 'decimal' },
  { flag: '--strict', key: 'strict', unset: false },
  { flag: '--ignore-column', key: 'ignoreColumns', list: true },
  { flag: '--skip-invalid', key: 'skipInvalid', unset: false },
  ...sendPacing,
];

/**
 * Runs a bulk job: validate the whole input in one streaming pass (sending nothing if a record is
 * invalid, unless --skip-invalid) that spools every verdict, then read the spool, batch the valid
 * records and send them paced and retried, writing the report as results arrive. Ctrl-C finishes the requests in flight and exits 75 with the
 * resume command; a dead platform stops the run after a few failed batches with exit 69.
 */
export async function runBulkJob<T, Sent = T>(job: BulkJob<T, Sent>, context: Context): Promise<void> {
  const tally: RunTally = { file: job.file === '-' ? 'stdin' : job.file };
  await withClosingLine(job.name, tally, context, () => lockedRun(job, context, tally));
}

async function lockedRun<T, Sent>(job: BulkJob<T, Sent>, context: Context, tally: RunTally): Promise<void> {
  const session = await context.session();
  tally.profile = session.profileName;
  // Settings problems surface before a million rows are read, not after: every setting the run may read (a value
  // read only when the first request is made, `B2BCTL_ALLOW_HTTP=1`, was refused after the file, with a report and a
  // resume command for a run that never started), and the command's own (prepare).
  tally.baseUrl = session.requireBaseUrl();
  const [refused] = session.refusedSettings();
  if (refused) throw refused.error;
  refuseFormatWithoutData(context);
  job.prepare?.(session);
  let release: (() => void) | undefined;
  let spooled: { path: string; remove(): void } | undefined;
  // A dry run sends nothing, so it keeps no verdicts.
  const verdicts = job.flags.dryRun ? undefined : new VerdictSpool<Sent>();
  // It still removes those of killed runs, and their copies of stdin, as a run that sends does (its spool's making):
  // a nightly dry run before each push left every killed push's copy, 54 MB of it, in the temporary folder (a user test).
  if (!verdicts) removeAbandonedSpools(tmpdir());
  try {
    // A FIFO or a process substitution (`<(cat f.csv)`) can be read once, like stdin: the send pass
    // would otherwise reopen it and hang, or find it empty and send nothing. Spooled before the lock
    // is taken: a writer that never comes must not keep every later cron run out (exit 75).
    const spoolOptions = { name: inputName(job.file), signal: context.interrupt };
    if (job.file === '-') announceTerminalStdin(context);
    spooled =
      job.file === '-'
        ? await spoolStdin(context.io.stdin, spoolOptions)
        : isPipe(job.file)
          ? await spoolStdin(openNamedInput(job.file, pipeWaitNotice(context)).stream, spoolOptions)
          : undefined;
    if (job.lockName) {
      const store = await context.profiles();
      release = acquireProfileLock(
        store.directory,
        session.profileName,
        job.lockName,
        `b2bctl ${job.name} (profile ${session.profileName})`,
        context.log.warn,
      );
    }
    await validateThenSend(job, spooled?.path ?? job.file, context, verdicts, tally);
  } finally {
    verdicts?.remove();
    spooled?.remove();
    release?.();
  }
}

/** The input as the first stage opened and checked it, with what a resumed run has done already. */
interface CheckedInput {
  /** The input as messages name it: the file, or `stdin`. */
  shownName: string;
  /** What the run record says of the input: its path, size and fingerprint. */
  description: RunMeta['input'];
  /** The run record of the report being resumed. */
  resumed: RunMeta | undefined;
  shaping: readonly ShapingFlag[];
  /**
   * Resumed runs only: the report's rows, by place and by key, the places done, and how this run judges them (filled
   * by the validation pass).
   */
  resume: (ResumedPlaces & { keys: PlaceKeys; doneVerdicts: DoneVerdicts }) | undefined;
  opened: OpenedInput;
  /** Throws an InputError when the file is no longer the one that was validated. */
  unchanged(): void;
  /** True when the file is no longer the one that was opened. */
  changed(): boolean;
}

/** The stages of a bulk run, in order: each one's failure ends the run with its own exit code. */
async function validateThenSend<T, Sent>(
  job: BulkJob<T, Sent>,
  readPath: string,
  context: Context,
  verdicts: VerdictSpool<Sent> | undefined,
  tally: RunTally,
): Promise<void> {
  const started = context.clock.now();
  const input = await openAndCheckInput(job, readPath, context);
  // The input's file is let go of however the run ends (an invalid record, a refused plan, an interruption).
  try {
    const lateProblems = new LateProblems();
    const problems = new ProblemLines(context, input.shownName, job.catalogue);
    const validation = await validate(job, input, context, verdicts, { lateProblems, problems }).catch(
      (error: unknown) => {
        // Stopped as the file changed under the pass: what it had counted is of no file as it now stands.
        if (input.changed()) tally.counts = 'nothing sent';
        throw error;
      },
    );
    logValidation(job, input, validation, context, started);
    tally.counts = validationCounts(validation, job.flags.dryRun);
    // By name too, for `-o json` and `--log-format json`: a run that ends before sending is read from them as well.
    tally.outcomes = { records: validation.records, valid: validation.valid, invalid: validation.invalid };
    // The problems not printed are summed up before the error that ends the run, pointing to the validate command
    // that lists them all; a run that sends with --skip-invalid names its errors file instead, once it is opened.
    const listingCommand = { listing: job.listedBy, file: job.file, flags: job.flags };
    let sending: Sending;
    try {
      // Before any verdict on the records: those of a file rewritten while it was read are the rewrite's (a line
      // half old and half new), and the "N records are invalid … pass --skip-invalid" they earned sent the person on
      // call to fix records that were fine.
      input.unchanged();
      checkMinimumRecords(validation.records, job.flags.minRecords, input.shownName);
      const plan = planSending(job, input, validation, context, problems.listed);
      if (plan === undefined && job.flags.dryRun && validation.valid > 0) await rehearseRefusals(job, context);
      if (plan === undefined || verdicts === undefined) return problems.sumUp(listingCommand);
      sending = await openSending(job, input, validation.valid, plan, context);
    } catch (error) {
      problems.sumUp(listingCommand);
      throw error;
    }
    problems.sumUp({ errorsFile: sending.ledger.errors.path });
    try {
      // Read again from its start when a stopped run records the invalid records it did not reach.
      const judged = () => lateProblems.applied(verdicts.read());
      const closing = {
        tally,
        toSend: validation.valid - (input.resume?.doneVerdicts.valid ?? 0),
        invalidRecorded: job.flags.skipInvalid ? validation.invalid - (input.resume?.doneVerdicts.invalid ?? 0) : 0,
      };
      const sent = await sendValidRecords(job, sending, judged, input.resume, context, closing);
      await concludeRun(job, sending, sent, context, closing);
    } finally {
      // Here, not after the run: the closing line (withClosingLine, or run-program after the error) stays the last.
      const lesson = job.sendingLesson?.();
      if (lesson) context.log.warn(lesson);
    }
  } finally {
    input.opened.close();
  }
}

/**
 * Opens the input and checks it against the report being resumed, if any. Its identity is taken first: the ERP
 * may still be writing the export when cron starts, and what is sent must be what was validated.
 */
async function openAndCheckInput<T, Sent>(
  job: BulkJob<T, Sent>,
  readPath: string,
  context: Context,
): Promise<CheckedInput> {
  const shownName = inputName(job.file);
  // Taken before anything is printed, so nothing that reacts to the output can slip in before it.
  const identity = fileIdentity(readPath);
  const changed = () => fileIdentity(readPath) !== identity;
  const unchanged = () => {
    if (changed())
      throw new InputError(
        `${changedWhileRead(shownName)}; nothing was sent. Run again once the export is complete, or copy it first and pass the copy.`,
        { file: shownName },
      );
  };
  const session = await context.session();
  const shaping = [...inputShaping, ...(job.shaping ?? [])];
  context.log.info(`${job.name}: validating ${shownName}`);
  let description: RunMeta['input'];
  try {
    description = { ...describeInput(readPath), path: job.file === '-' ? '-' : resolve(job.file) };
  } catch (error) {
    // A missing or unreadable input: reading it says so in the words of every other command.
    (await openCommandInput(context, readPath, job.flags, job.catalogue, { displayName: shownName })).close();
    throw error;
  }
  let resumed = job.flags.resume ? readMeta(job.flags.resume) : undefined;
  let resume: CheckedInput['resume'];
  if (job.flags.resume && resumed) {
    const { restored, record } = checkResume({
      reportPath: job.flags.resume,
      meta: resumed,
      command: job.name,
      profile: session.profileName,
      baseUrl: session.requireBaseUrl(),
      input: description,
      shaping,
      flags: { ...job.flags },
      configDir: session.store.directory,
    });
    // A resume to where the platform moved, or with other pacing: its record says so, for this run's resume line and
    // the next bare --resume alike.
    if (JSON.stringify(record) !== JSON.stringify(resumed)) writeMeta(job.flags.resume, record);
    resumed = record;
    // A run record of an earlier b2bctl holds no hash of the whole input: a change past its first 64 KiB that keeps
    // the size cannot be seen, so the resume says what it compared.
    if (resumed.input.content === undefined)
      context.log.warn(
        `${job.name}: ${printable(job.flags.resume)} was written by an earlier b2bctl, whose run record holds only the input's size and first 64 KiB: a change past them cannot be seen. Resume only with the file that run read, unchanged.`,
      );
    // The interrupted run's reading and sending flags hold for the rest of its file.
    Object.assign(job.flags, restored);
    const reported = new PlaceSet();
    const keys = new PlaceKeys();
    const unknown = new UnknownPlaces();
    const done = await readDoneLines(job.flags.resume, reported, keys, unknown);
    const unknownOnly = (place: RecordPlace) => unknown.has(place) && !reported.has(place);
    resume = { reported, unknown, keys, done, doneVerdicts: new DoneVerdicts(done, unknownOnly) };
    job.resuming?.(resume.done);
  }
  // Checked after each chunk read as well: a record of a half-rewritten file is never judged, nor its problem printed.
  const opened = await openCommandInput(context, readPath, job.flags, job.catalogue, {
    displayName: shownName,
    unchanged,
  });
  return { shownName, description, resumed, shaping, resume, opened, unchanged, changed };
}

/** Judges every record in one streaming pass, and spools each verdict the sending pass will need. */
async function validate<T, Sent>(
  job: BulkJob<T, Sent>,
  input: CheckedInput,
  context: Context,
  verdicts: VerdictSpool<Sent> | undefined,
  { lateProblems, problems }: { lateProblems: LateProblems; problems: ProblemLines },
): Promise<ValidationSummary> {
  const { opened, resume, shownName } = input;
  let sending = true;
  const advisories = job.advisories
    ? advisoryLogger(context, shownName, job.advisories, job.catalogue, problemLinesPrinted)
    : undefined;
  const spoolVerdict = (record: InputRecord, verdict: RecordVerdict<T>) => {
    resume?.doneVerdicts.judged(record, verdict.ok);
    // A record's warnings are logged once it is judged, before its problems (as validate does).
    advisories?.log(record);
    // Without --skip-invalid an invalid record means nothing is sent: the spool would never be read.
    if (!verdict.ok && !job.flags.skipInvalid) sending = false;
    if (!sending || verdicts === undefined) return;
    const judged: JudgedRecord<Sent> = {
      line: record.line,
      column: record.column,
      element: record.element,
      row: record.row,
      key: job.keyOf(record),
      original: record.original,
    };
    if (verdict.ok) judged.valueJson = job.sendJson?.(verdict.value) ?? JSON.stringify(verdict.value);
    else judged.message = verdict.problems.map((problem) => problem.message).join('; ');
    verdicts.add(judged);
  };
  const progress = checkingProgress(context, 'records checked');
  // A problem per line of a large file: logged in batches (see Logger.batched).
  const validation = await context.log
    .batched(() =>
      runValidationPass({
        batches: resume ? batchesOfOne(keysChecked(opened.records, resume, job, shownName)) : opened.recordBatches(),
        checker: job.newChecker(),
        estimatedRecords: opened.estimatedRecords,
        onProblem: problems.log,
        signal: context.interrupt,
        // What the sending pass needs of each record, so it does not parse and judge the input again.
        onVerdict: verdicts || advisories || resume ? spoolVerdict : undefined,
        onLateProblem: (late) => {
          lateProblems.add(late);
          resume?.doneVerdicts.shownInvalid(late.place);
        },
        onBatch: progress.update,
      }),
    )
    .finally(progress.stop);
  validation.warnings = advisories?.count;
  advisories?.sumUp(job.listedBy && validateCommandLine(job.listedBy, job.file, job.flags));
  verdicts?.finish();
  if (context.interrupt.aborted) throw new InterruptedError('Interrupted while validating; nothing was sent.');
  return validation;
}

/**
 * The problems found of records once the validation pass read on (two rows for one customer or one SKU: the first
 * is invalid too), by place, laid over the spooled verdicts for the sending pass. Few: only records that others repeat.
 */
class LateProblems {
  private readonly messages = new Map<string, string>();

  readonly add = (late: LateProblem): void => {
    const key = LateProblems.keyOf(late.place);
    const before = this.messages.get(key);
    this.messages.set(key, before === undefined ? late.problem.message : `${before}; ${late.problem.message}`);
  };

  async *applied<T>(batches: AsyncIterable<SpooledRecord<T>[]>): AsyncGenerator<SpooledRecord<T>[]> {
    if (this.messages.size === 0) return yield* batches;
    for await (const batch of batches)
      yield batch.map((record) => {
        const message = this.messages.get(LateProblems.keyOf(record));
        return message === undefined ? record : record.withLateProblem(message);
      });
  }

  private static keyOf(place: { line: number; element?: number }): string {
    return place.element === undefined ? `line ${place.line}` : `element ${place.element}`;
  }
}

function logValidation<T, Sent>(
  job: BulkJob<T, Sent>,
  input: CheckedInput,
  validation: ValidationSummary,
  context: Context,
  started: number,
): void {
  context.log.info(
    `${job.name}: ${countOf(validation.records, 'records')}, ${validation.valid} valid, ${validation.invalid} invalid${validation.warnings ? `, ${countOf(validation.warnings, 'warnings')}` : ''}${skippedNote(input.opened)} (${((context.clock.now() - started) / 1000).toFixed(1)} s)`,
  );
}

/**
 * What a dry run says it would send: of a resume, what the resume would (a resumed report's done records left out,
 * its `unknown` ones asked about first where the job does so), not the whole file as a fresh run would.
 */
function wouldSend<T, Sent>(
  job: BulkJob<T, Sent>,
  plan: SendPlan,
  valid: number,
  resumed: DoneVerdicts | undefined,
): string {
  const toSend = valid - (resumed?.valid ?? 0);
  const requests = Math.ceil(toSend / plan.batchSize);
  const done = resumed === undefined ? '' : ` (${resumed.valid} already done by the resumed run)`;
  const unknown = resumed?.unknownValid ?? 0;
  const askedFirst = unknown > 0 && job.resumedUnknownFirst ? ` ${job.resumedUnknownFirst(unknown)}` : '';
  const leaves = job.dryRunLeaves ? ` ${job.dryRunLeaves}` : '';
  return `would send ${countOf(toSend, job.unit)} in ${countOf(requests, 'requests')} ${plan.description}${done}.${askedFirst}${leaves}`;
}

/**
 * What would stop the real run before it sends, checked by a dry run too, so that it exits as the real run would: a
 * folder its report or errors file cannot be written in (exit 2).
 */
async function rehearseRefusals<T, Sent>(job: BulkJob<T, Sent>, context: Context): Promise<void> {
  const fallback = defaultOutputFolder(job.file, (await context.session()).get('outputDir'));
  const outputs: [string, string, string | undefined][] = [
    ['report', '--report', job.flags.report],
    ['errors file', '--errors', job.flags.errors],
  ];
  for (const [what, flag, path] of outputs) {
    const folder = path === undefined ? fallback : dirname(path);
    try {
      accessSync(folder, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UsageError(
        `dry run: the real run could not write its ${what} in ${printable(folder)} (${code}) and would send nothing. Choose a writable path with ${flag} or the outputDir setting.`,
      );
    }
  }
}

/**
 * Decides whether and how the valid records are sent: nothing when the input has no records or the run is a dry
 * run (undefined), an InputError when invalid records forbid it, else the job's plan.
 */
function planSending<T, Sent>(
  job: BulkJob<T, Sent>,
  input: CheckedInput,
  validation: ValidationSummary,
  context: Context,
  /** How the problems were shown: `listed above`, or only the first ones (ProblemLines.listed). */
  listed: string,
): SendPlan | undefined {
  const { shownName } = input;
  if (validation.records === 0) {
    context.log.info(`${job.name}: ${shownName} has no records; nothing to send.`);
    return undefined;
  }
  // With --skip-invalid the invalid records go to the report and the errors file, to be fixed and fed back, however
  // few are valid: none valid is the same run, sending nothing.
  if (validation.valid === 0 && !job.flags.skipInvalid)
    throw new InputError(`Every record of ${shownName} is invalid (${listed}); nothing was sent.`, {
      file: shownName,
    });
  const invalidAre = `${countOf(validation.invalid, 'records')} of ${shownName} ${validation.invalid === 1 ? 'is' : 'are'} invalid (${listed})`;
  if (validation.invalid > 0 && !job.flags.skipInvalid)
    throw new InputError(
      `${invalidAre}; nothing was sent. Fix ${validation.invalid === 1 ? 'it' : 'them'}, or pass --skip-invalid to send the rest.`,
      {
        file: shownName,
      },
    );
  const plan = job.plan(validation.valid);
  if (!job.flags.dryRun) return plan;
  context.log.info(`${job.name}: dry run; ${wouldSend(job, plan, validation.valid, input.resume?.doneVerdicts)}`);
  // The real run reports the skipped invalid records as failures and exits 1: a rehearsal that exits 0 would
  // tell a script the file is fine.
  if (validation.invalid > 0)
    throw new PartialFailureError(
      `dry run: ${invalidAre} and would be reported as invalid; the real run would exit 1 as this one does. Nothing was sent.`,
    );
  return undefined;
}
