import { setMaxListeners } from 'node:events';
import { lstatSync } from 'node:fs';
import type { Context } from '../context.js';
import type { Session } from '../config/session.js';
import {
  AmbiguousRequestError,
  AuthError,
  CredentialsRefusedAfterWriteError,
  StoppedAfterWriteError,
  ExitCode,
  NothingSentError,
  OutputError,
  PlatformError,
  ThrottledTooLongError,
  UnavailableError,
  UsageError,
} from '../base/errors.js';
import type { OpenedInput } from '../io/input/open-input.js';
import { countOf } from '../lib/plural.js';
import type { PlatformClient } from '../platform/client.js';
import { notingSentWrites, type SentWrites } from '../platform/http-client.js';
import { longestRefusalMs, Pacer } from '../platform/pacer.js';
import { ProxyPageError } from '../platform/answers/shapes.js';
import { RedirectAnswerError } from '../platform/redirect.js';
import { LoginUnansweredError } from '../platform/token-source.js';
import { bulkRunBackoff } from '../platform/retry-policy.js';
import type { BulkJob, SendPlan } from './job.js';
import { pendingBatches, type PendingRecord, recordInvalidLeft, type ResumedPlaces } from './pending-records.js';
import { runPool } from '../lib/pool.js';
import {
  type ClosingCounts,
  closingFields,
  closingLine,
  closingLineWanted,
  sendingCounts,
  writeSummaryAtOnce,
} from './closing-line.js';
import { comesBefore } from './failure-reasons.js';
import { placeOf, type RecordPlace } from './report.js';
import { reportEntry } from './report-entry.js';
import type { DoneVerdicts } from './resume.js';
import { RunLedger } from './run-ledger.js';
import {
  feedBackCommand,
  recordedFlags,
  recordRunState,
  resumeCommand,
  runningHere,
  type RunMeta,
  type ShapingFlag,
  metaPathOf,
  writeMeta,
} from './run-meta.js';
import type { SpooledRecord } from './verdict-spool.js';
import { sendingConcurrency } from './send-pacing.js';
import { printable } from '../lib/printable.js';
import { userName } from '../lib/file-owners.js';
import { configFolderFromEnvironment } from '../config/location.js';

/** Consecutive batches lost to an unavailable platform before the run stops (and can be resumed). */
export const unavailableBatchesBeforeStopping = 3;

/** What the sending stage is given by the stages before it. */
export interface SendingInput {
  opened: OpenedInput;
  description: RunMeta['input'];
  resumed: RunMeta | undefined;
  shaping: readonly ShapingFlag[];
  resume: { doneVerdicts: DoneVerdicts } | undefined;
  unchanged(): void;
}

/** The open books and client of a run about to send. */
export interface Sending {
  client: PlatformClient;
  /**
   * Aborted when the run stops (an answer that is not the platform's, refused credentials, a platform gone): a
   * request still waiting for its turn under --rate is then not sent, and its record stays `not sent` for the resume.
   */
  stopStarting: AbortController;
  ledger: RunLedger;
  plan: SendPlan;
  /** The command line that resumes this run. */
  resumeHint: string;
  /** The command line that resumes this run with `--timeout` set to this (`60s`), for a run stopped by time-outs. */
  resumeHintWithTimeout(timeout: string): string;
  /**
   * The command line that sends the run's errors file, once fixed, where and how the run sent its records; with the
   * switches some failed record needs (FailureReasons.fixFlags) set.
   */
  feedBackHint(fixFlags: ReadonlySet<string>): string;
}

/** How the sending pass ended. */
export interface SendingResult {
  interrupted: boolean;
  /** The error that stopped the pass (an unwritable report, a dead platform, refused credentials). */
  stoppedBy: unknown;
  /** Batches the platform answered, even with an error. */
  answeredBatches: number;
  /** Batches lost to an unavailable platform. */
  unavailableBatches: number;
  /**
   * Records reported `failed` because the platform stayed unavailable for their request (every retry spent, or
   * unreachable): nothing to fix in them, and a resume may get them through.
   */
  unavailableRecords: number;
  /**
   * Why (nothing listens there, a 503) the record first in the file of those lost to an unavailable platform was: the
   * closing error's, which named the last one lost while the `why` line above it named the first (a fresh user test).
   */
  firstUnavailable?: { error: UnavailableError; place: RecordPlace };
}

/** A new run's record, saying it is sending; not written, the run stops before anything is sent. */
function writeRunRecord(ledger: RunLedger, meta: RunMeta): void {
  try {
    writeMeta(ledger.report.path, { ...meta, state: runningHere() });
  } catch (error) {
    ledger.close();
    const record = metaPathOf(ledger.report.path);
    throw new UsageError(
      `Cannot write the run record ${printable(record)} (${(error as NodeJS.ErrnoException).code}${ownerOfOther(record)}); nothing was sent. Choose a report path of your own, in a folder other users cannot write to, with --report or the outputDir setting.`,
    );
  }
}

/** `: it belongs to NAME (uid N)` when another user owns the file at `path`, for a refusal to say whose it is. */
function ownerOfOther(path: string): string {
  const uid = process.geteuid?.();
  try {
    const owner = lstatSync(path).uid;
    return uid === undefined || owner === uid ? '' : `: it belongs to ${userName(owner)}`;
  } catch {
    return '';
  }
}

/**
 * A resumed run's record says it is sending again, so that another run's --keep-reports leaves its report alone. Not
 * written (a read-only record): the record keeps what it said, and the run goes on, since the record decides nothing
 * of where its records go.
 */
function markRunning(reportPath: string, name: string, context: Context): void {
  try {
    recordRunState(reportPath, runningHere());
  } catch (error) {
    context.log.debug(
      `${name}: the run record beside ${printable(reportPath)} was not marked as sending again (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** Opens the client, the report and the run record (for --resume) of a run whose records are valid. */
export async function openSending<T, Sent>(
  job: BulkJob<T, Sent>,
  input: SendingInput,
  valid: number,
  plan: SendPlan,
  context: Context,
): Promise<Sending> {
  const session = await context.session();
  input.unchanged();
  const pacer = new Pacer(
    context.clock,
    job.flags.rate,
    (message) => context.log.debug(`${job.name}: ${message}`),
    (message) => context.log.info(`${job.name}: ${message}`),
    longestRefusalMs,
    // A night that will last hours says so in a --quiet cron log.
    (message) => context.log.warn(`warning: ${job.name}: ${message}`),
  );
  const stopStarting = new AbortController();
  const client = await context.platform({
    connections: sendingConcurrency(job.flags),
    pace: pacer,
    retries: job.flags.retries,
    backoff: bulkRunBackoff,
    timeoutMs: job.flags.timeoutMs,
    startNothingAfter: stopStarting.signal,
    timeoutFlag: true,
  });
  input.unchanged();
  // The done records still valid: a done record this run refuses (see DoneVerdicts) was among no valid ones.
  const doneValid = input.resume?.doneVerdicts.valid;
  const ledger = await RunLedger.open({
    context,
    inputPath: job.file,
    input: input.opened,
    reportPath: job.flags.report,
    errorsPath: job.flags.errors,
    outputDirectory: session.get('outputDir'),
    excel: context.globals.excel === true || session.get('report.excel') === 'true',
    resumeFrom: job.flags.resume,
    unit: job.unit,
    total: Math.max(0, valid - (doneValid ?? 0)),
    unknownToFeedBack: job.unknownToFeedBack,
    resumeAsksFirst: job.resumeOfUnknown === 'asks first',
  });
  const meta: RunMeta = input.resumed ?? newRunRecord(job, input, plan, context, session);
  if (input.resumed) markRunning(ledger.report.path, job.name, context);
  else writeRunRecord(ledger, meta);
  const resumeHint = resumeCommand(meta, input.shaping, job.file, ledger.report.path);
  const resumeHintWithTimeout = (timeout: string) =>
    resumeCommand(
      { ...meta, flags: { ...meta.flags, timeoutMs: timeout } },
      input.shaping,
      job.file,
      ledger.report.path,
    );
  const feedBackHint = (fixFlags: ReadonlySet<string>) =>
    feedBackCommand(meta, input.shaping, ledger.errors.path, input.opened.csv, fixFlags);
  // A resume sends what its report does not show done: the line counts that, as its dry run does.
  const toSend = Math.max(0, valid - (doneValid ?? 0));
  const requests = Math.ceil(toSend / plan.batchSize);
  const skipped = doneValid === undefined ? '' : ` (${doneValid} already done by the resumed run)`;
  // --skip-invalid with every record invalid: the run only reports them, for the errors file to be fed back.
  if (valid === 0)
    context.log.info(`${job.name}: sending nothing (every record is invalid); reporting them for --skip-invalid`);
  else
    context.log.info(
      `${job.name}: sending ${countOf(toSend, job.unit)}${skipped}${plan.batchSize === 1 ? ', one request each,' : ` in up to ${countOf(requests, 'requests')}`} ${plan.description} (concurrency ${sendingConcurrency(job.flags)}${job.flags.rate ? `, at most ${job.flags.rate} requests/s` : ''})`,
    );
  return { client, stopStarting, ledger, plan, resumeHint, resumeHintWithTimeout, feedBackHint };
}

/** What a new run records beside its report, for --resume and --keep-reports: its store, input and flags. */
function newRunRecord<T, Sent>(
  job: BulkJob<T, Sent>,
  input: SendingInput,
  plan: SendPlan,
  context: Context,
  session: Session,
): RunMeta {
  return {
    version: 1,
    command: job.name,
    profile: session.profileName,
    baseUrl: session.requireBaseUrl(),
    baseUrlFromFlag: context.globals.baseUrl !== undefined || session.setting('baseUrl').source === 'env',
    ...configFolderOfRun(context, session.store.directory),
    input: {
      path: input.description.path,
      size: input.description.size,
      fingerprint: input.description.fingerprint,
      content: input.description.content,
    },
    flags: recordedFlags(input.shaping, { ...job.flags, ...plan.flagsAsRun }),
  };
}

/**
 * Sends the spooled valid records in batches, paced and retried, each answer written to the report as it comes.
 * Ctrl-C lets the requests in flight finish; a few batches in a row lost to an unavailable platform stop the pass.
 */
export async function sendValidRecords<T, Sent>(
  job: BulkJob<T, Sent>,
  { client, stopStarting, ledger, plan, resumeHint }: Sending,
  spooled: () => AsyncIterable<SpooledRecord<Sent>[]>,
  resume: ResumedPlaces | undefined,
  context: Context,
  closing: ClosingCounts,
): Promise<SendingResult> {
  // Requests already sent finish even after Ctrl-C: their answers belong in the report.
  const inFlight = new AbortController().signal;
  // Every request in flight and its back-off sleep listen on this one signal: --concurrency of them
  // is the design, not a leak, and Node's warning at 11 would land in the operator's log.
  setMaxListeners(0, inFlight);
  const result: SendingResult = {
    interrupted: false,
    stoppedBy: undefined,
    answeredBatches: 0,
    unavailableBatches: 0,
    unavailableRecords: 0,
  };
  let unavailableInARow = 0;
  // Batches begun, some still waiting for their --rate turn (not sent now): their count is a bound.
  const batchesInFlight = new Set<BatchInFlight>();
  const onInterrupt = () =>
    context.log.info(
      `${job.name}: interrupted; finishing the requests already sent (at most ${batchesInFlight.size})…`,
    );
  context.interrupt.addEventListener('abort', onInterrupt, { once: true });
  const stopListening = context.onStoppedAtOnce((exitCode) =>
    sayStoppedAtOnce(job, { ledger, resumeHint }, closing, [...batchesInFlight], exitCode, context),
  );
  const sendBatch = async (batch: PendingRecord<Sent>[]) => {
    const sending: BatchInFlight = { records: batch.length, sent: { written: false } };
    batchesInFlight.add(sending);
    try {
      ledger.record(await notingSentWrites(sending.sent, () => job.sendBatch(client, batch, inFlight)), true);
      result.answeredBatches++;
      unavailableInARow = 0;
    } catch (error) {
      // Interrupted before any of it went out: not sent, no row, and the resume sends it.
      if (error instanceof NothingSentError) return;
      // The login its request needed failed (for the network, its retries spent): nothing of the batch left, so no
      // row (not sent, which the resume sends), and the run stops, since every other request needs the login too.
      if (error instanceof LoginUnansweredError) throw error;
      if (!isBatchFailure(error)) throw reportedIfSent(error, batch, ledger, result);
      const unanswered = recordFailedBatch(error, batch, ledger, result);
      // The platform refused every request for the longest b2bctl waits (src/platform/pacer.ts): a run-wide measure,
      // so it stops the run at once rather than after requests in a row each spend their own 429s.
      if (error instanceof ThrottledTooLongError) throw error;
      // Stopped with the why of the record first in the file, as the `why` line names it.
      if (unanswered && ++unavailableInARow >= unavailableBatchesBeforeStopping)
        throw result.firstUnavailable?.error ?? error;
    } finally {
      batchesInFlight.delete(sending);
    }
  };
  const skippedInvalid = (record: { key: string; line: number }) => job.skippedInvalid?.(record);
  const reached = { records: 0 };
  try {
    const batches = pendingBatches(spooled(), ledger, resume, plan.batchSize, skippedInvalid, reached);
    ({ interrupted: result.interrupted } = await runPool(batches, stoppingStarts(sendBatch, stopStarting), {
      concurrency: sendingConcurrency(job.flags),
      signal: context.interrupt,
    }));
  } catch (error) {
    result.stoppedBy = error;
  } finally {
    context.interrupt.removeEventListener('abort', onInterrupt);
    stopListening();
  }
  await closeLedgerAfterStop(result, ledger, () =>
    recordInvalidLeft(spooled(), reached.records, ledger, resume, skippedInvalid),
  );
  return result;
}

/**
 * Closes the run's books; first, for a pass stopped before the end, records the invalid records it did not reach
 * (`recordLeft`): still invalid, not "not sent" (pending-records.ts). Not when the report itself could not be written.
 */
async function closeLedgerAfterStop(
  result: SendingResult,
  ledger: RunLedger,
  recordLeft: () => Promise<void>,
): Promise<void> {
  try {
    if ((result.interrupted || result.stoppedBy !== undefined) && !(result.stoppedBy instanceof OutputError))
      await recordLeft();
  } catch (error) {
    result.stoppedBy ??= error;
  } finally {
    ledger.close();
  }
}

/** A batch begun and not yet answered: its records, and whether a write of it went out (notingSentWrites). */
interface BatchInFlight {
  records: number;
  sent: SentWrites;
}

/**
 * A second Ctrl-C ends the process at once (src/cli/main.ts): the way back is said, then the `-o json` summary and the
 * closing line a cron log ends with, counted from the report as it stands. The records of requests written and never
 * answered may have been applied: `unknown`, not "not sent"; those still waiting for their turn were not sent.
 */
function sayStoppedAtOnce<T, Sent>(
  job: BulkJob<T, Sent>,
  { ledger, resumeHint }: Pick<Sending, 'ledger' | 'resumeHint'>,
  closing: ClosingCounts,
  inFlight: readonly BatchInFlight[],
  exitCode: number,
  context: Context,
): void {
  const sent = inFlight.filter((batch) => batch.sent.written);
  const sentRecords = sent.reduce((sum, batch) => sum + batch.records, 0);
  const unanswered =
    sent.length === 0
      ? 'no request was waiting for its answer'
      : `${countOf(sent.length, 'requests')} in flight may have been applied without their answers in the report (${countOf(sentRecords, job.unit)}, counted unknown; a resume sends them again)`;
  context.log.warn(`${job.name}: stopped at once; ${unanswered}. Resume with: ${resumeHint}`);
  const { counts, outcomes } = sendingCounts(
    job.outcomes,
    ledger,
    closing.toSend,
    closing.invalidRecorded,
    sentRecords,
  );
  const tally = { ...closing.tally, counts, outcomes, report: ledger.report.path };
  writeSummaryAtOnce(context, closingFields(job.name, tally, exitCode));
  if (closingLineWanted(context))
    context.log.notice(closingLine(job.name, tally, exitCode), closingFields(job.name, tally, exitCode));
}

/**
 * Reports the records of a batch `error` failed, and counts the batch; true when no answer came (an unavailable
 * platform), false when the platform answered, if only in a coding b2bctl cannot decode.
 */
function recordFailedBatch<Sent>(
  error: UnavailableError | PlatformError,
  batch: readonly PendingRecord<Sent>[],
  ledger: RunLedger,
  result: SendingResult,
): boolean {
  const status = error instanceof PlatformError || error instanceof AmbiguousRequestError ? error.status : undefined;
  // An answer that came but cannot be read (a 2xx in a coding b2bctl cannot decode): the platform was there.
  const unanswered = error instanceof UnavailableError && status === undefined;
  if (unanswered) {
    result.unavailableBatches++;
    const place = placeOf(batch[0]!);
    if (result.firstUnavailable === undefined || comesBefore(place, result.firstUnavailable.place))
      result.firstUnavailable = { error, place };
  } else result.answeredBatches++;
  // A request that may have been applied without its answer seen: unknown, which a resume asks about again
  // rather than sending it blindly or taking it as failed.
  const outcome = error instanceof AmbiguousRequestError ? 'unknown' : 'failed';
  if (error instanceof UnavailableError && outcome === 'failed') result.unavailableRecords += batch.length;
  // The report's status is what the platform answered, also when that answer made it unavailable (a 429 asking to
  // wait too long): a script filtering the report by status tells throttled rows from rows never answered.
  const shown = status ?? (error instanceof UnavailableError ? error.answeredStatus : undefined);
  ledger.record(
    batch.map((entry) =>
      reportEntry({ ...placeOf(entry), key: entry.key, outcome, status: shown, message: error.message }, entry),
    ),
  );
  return unanswered;
}

/**
 * The worker, aborting `stopStarting` when a batch stops the run: a request still waiting for its turn (under --rate)
 * is then not sent after it, as after Ctrl-C.
 */
function stoppingStarts<Batch>(
  send: (batch: Batch) => Promise<void>,
  stopStarting: AbortController,
): (batch: Batch) => Promise<void> {
  return (batch) =>
    send(batch).catch((error: unknown) => {
      stopStarting.abort();
      throw error;
    });
}

/**
 * An error that stops the run, once the batch it ended is reported when its request was sent: a write answered by an
 * HTML page or a redirect stops the run as any answer that is not the platform's does, but the answer came after the
 * request went out, and it may have been applied, so its records are `unknown` with their rows (each batch in flight
 * that gets such an answer too), never `not sent`. A read's (an order's status read first) sent nothing: no row. So
 * for refused credentials met after a write went out (CredentialsRefusedAfterWriteError): the run stops, exit 77; and
 * for any other stop met after it (StoppedAfterWriteError), which stops the run as the error it carries.
 */
function reportedIfSent<Sent>(
  error: unknown,
  batch: readonly PendingRecord<Sent>[],
  ledger: RunLedger,
  result: SendingResult,
): unknown {
  const sentThenStopped =
    error instanceof ProxyPageError ||
    error instanceof RedirectAnswerError ||
    error instanceof CredentialsRefusedAfterWriteError ||
    error instanceof StoppedAfterWriteError;
  if (!sentThenStopped || error.unknownOutcome === undefined) return error;
  const answer = { status: error.status, message: error.unknownOutcome };
  ledger.record(
    batch.map((entry) => reportEntry({ ...placeOf(entry), key: entry.key, outcome: 'unknown', ...answer }, entry)),
  );
  result.answeredBatches++;
  // The row written, the run stops as what stopped it says (its line, its exit code).
  return error instanceof StoppedAfterWriteError ? error.stop : error;
}

/**
 * An error that fails one batch, whose records are reported `failed` while the run goes on. Refused credentials
 * (401 after re-login, 403) are not: every other request would be refused too.
 */
function isBatchFailure(error: unknown): error is UnavailableError | PlatformError {
  const refused =
    error instanceof AuthError || (error instanceof PlatformError && error.exitCode === ExitCode.authFailed);
  return !refused && (error instanceof UnavailableError || error instanceof PlatformError);
}

/** The config folder, absolute, when the environment chose it: a resume line pasted elsewhere must name it. */
function configFolderOfRun(context: Context, directory: string): { configDir?: string } {
  const configDir = configFolderFromEnvironment(context.env, directory);
  return configDir === undefined ? {} : { configDir };
}
