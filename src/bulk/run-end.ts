import { resolve } from 'node:path';
import type { Context } from '../context.js';
import {
  AmbiguousRequestError,
  AuthError,
  B2bctlError,
  ExitCode,
  exitCodeOf,
  InterruptedError,
  OutputError,
  PartialFailureError,
  ThrottledTooLongError,
  UnavailableError,
} from '../base/errors.js';
import { longerTimeoutThan } from '../platform/http-client.js';
import { spokenDuration } from '../domain/duration.js';
import { countOf } from '../lib/plural.js';
import type { RunLedger } from './run-ledger.js';
import type { BulkJob } from './job.js';
import { type ClosingCounts, sendingCounts } from './closing-line.js';
import { isSystemPath } from './report.js';
import { pruneOldRuns, removeAbandonedCopiesOfRuns } from './old-runs.js';
import { recordRunState, type RunState } from './run-meta.js';
import { RedirectAnswerError } from '../platform/redirect.js';
import { EncodedSlashRefusedError } from '../platform/encoded-slash.js';
import { LoginUnansweredError } from '../platform/token-source.js';
import { dropSupersededRows } from './superseded-rows.js';
import { type Sending, type SendingResult, unavailableBatchesBeforeStopping } from './send-stage.js';
import { printable } from '../lib/printable.js';
import { certificateRemedy } from '../net/network-error.js';
import { asSentence } from '../lib/clause.js';

/** What decides how a bulk run that began sending ends. */
export interface SendingFacts extends SendingResult {
  /** Records reported rejected, invalid or failed. */
  failures: number;
  /** Records this run was to send that have no answer in the report; undefined when not counted. */
  unanswered?: number;
  /** Records reported `unknown`: sent, their outcome not seen, which only a resume settles. */
  unknown?: number;
}

/** How a bulk run that began sending ends, and its exit code. */
export type RunEnd = { exitCode: ExitCode } & (
  | { kind: 'stopped: report not writable'; error: OutputError }
  | { kind: 'stopped: platform unavailable'; error: UnavailableError }
  | { kind: 'stopped: credentials refused'; error: Error }
  | { kind: 'stopped: records left'; error: Error }
  | { kind: 'stopped'; error: unknown }
  | { kind: 'platform unavailable throughout' }
  | { kind: 'interrupted' }
  | { kind: 'some records failed' }
  | { kind: 'done' }
);

/** The end of a run from how its sending went: the first that holds, in the order of this function. */
export function runEnd(facts: SendingFacts): RunEnd {
  const error = facts.stoppedBy;
  if (error instanceof OutputError) return { kind: 'stopped: report not writable', error, exitCode: error.exitCode };
  if (error instanceof UnavailableError)
    return { kind: 'stopped: platform unavailable', error, exitCode: ExitCode.unavailable };
  // Logging in again does not finish the run: the records it left unsent need the resume line too.
  if (error instanceof Error && exitCodeOf(error) === ExitCode.authFailed && facts.unanswered !== 0)
    return { kind: 'stopped: credentials refused', error, exitCode: ExitCode.authFailed };
  // Whatever stopped it (an answer that came from no platform: a portal's page, a redirect), what it left unsent
  // needs the resume line, or a rerun of the whole file meets what this one did ("already registered"); so do the
  // records it left unknown (writes such a page answered), every record of a short run among them.
  if (error instanceof Error && ((facts.unanswered ?? 0) > 0 || (facts.unknown ?? 0) > 0))
    return { kind: 'stopped: records left', error, exitCode: exitCodeOf(error) };
  if (error !== undefined) return { kind: 'stopped', error, exitCode: exitCodeOf(error) };
  // A run where every request was lost says "unavailable" whatever the size of the file.
  if (facts.unavailableBatches > 0 && facts.answeredBatches === 0 && !facts.interrupted)
    return { kind: 'platform unavailable throughout', exitCode: ExitCode.unavailable };
  // A signal that came once every record was answered interrupted nothing: no resume is left to offer.
  if (facts.interrupted && facts.unanswered !== 0) return { kind: 'interrupted', exitCode: ExitCode.interrupted };
  if (facts.failures > 0) return { kind: 'some records failed', exitCode: ExitCode.someRecordsFailed };
  return { kind: 'done', exitCode: ExitCode.ok };
}

/** Prints the run's summary, prunes older runs' files, and ends the run as runEnd says (an error but for `done`). */
export async function concludeRun<T, Sent>(
  job: BulkJob<T, Sent>,
  sending: Sending,
  result: SendingResult,
  context: Context,
  closing: ClosingCounts,
): Promise<void> {
  const { ledger, resumeHint } = sending;
  await dropResumedRunsSupersededRows(job, ledger, context);
  const counted = sendingCounts(job.outcomes, ledger, closing.toSend, closing.invalidRecorded);
  closing.tally.counts = counted.counts;
  closing.tally.outcomes = counted.outcomes;
  closing.tally.report = ledger.report.path;
  const answered = ledger.recorded - closing.invalidRecorded;
  const end = runEnd({
    ...result,
    failures: ledger.failures,
    unanswered: Math.max(0, closing.toSend - answered),
    unknown: ledger.count('unknown'),
  });
  const resumeFollows = endsWithResume(end, result.unavailableRecords + ledger.unknownForResume);
  logSummary(job, sending, context, counted.counts, { unavailable: result.unavailableRecords, resumeFollows });
  // A redirect that stopped the run to another origin: the platform moved, and its resume may send there.
  const movedTo = result.stoppedBy instanceof RedirectAnswerError ? result.stoppedBy.movedTo : undefined;
  const ended = { kind: 'ended', exitCode: end.exitCode, resumePending: resumeFollows } as const;
  recordEnd(job, ledger, movedTo === undefined ? ended : { ...ended, movedTo }, context);
  await removeEarlierRunsAbandonedCopies(job, context);
  await pruneOlderRuns(job, ledger, context);
  switch (end.kind) {
    case 'stopped: report not writable':
      throw new OutputError(
        `${end.error.message} Stopped; the requests in flight were finished${inFlightNotInReport(ledger, job.unit)}. Once it is writable, run: ${resumeHint}`,
      );
    case 'stopped: platform unavailable':
      throw new UnavailableError(
        `${end.error.message} ${stoppedBecause(end.error, job.unit)}; ${whenToResume(end.error)}: ${resumeAfter(end.error, sending)}`,
      );
    case 'stopped: credentials refused':
      throw new AuthError(`${asSentence(end.error.message)} Then resume with: ${resumeHint}`, { cause: end.error });
    case 'stopped: records left':
      throw new B2bctlError(
        `${asSentence(end.error.message)} Stopped; once that is fixed, run: ${resumeHint}`,
        end.exitCode,
        {
          cause: end.error,
        },
      );
    case 'stopped':
      throw end.error;
    case 'platform unavailable throughout':
      throw new UnavailableError(
        unavailableThroughout(
          result.firstUnavailable?.error,
          ledger,
          job,
          resumeAfter(result.firstUnavailable?.error, sending),
        ),
      );
    case 'interrupted':
      throw new InterruptedError(
        `Interrupted; the requests in flight were finished and reported. Resume with: ${resumeHint}`,
      );
    case 'some records failed':
      throw new PartialFailureError(
        partialFailure(sending, job.unit, result.unavailableRecords, { summaryShown: !context.globals.quiet }),
      );
    case 'done':
      return;
  }
}

/**
 * Why a run the platform's unavailability stopped stopped then: at once for a platform refusing everything, or a
 * login the network failed (nothing is sent without it, and what it held back was not sent); else after requests in
 * a row.
 */
function stoppedBecause(error: UnavailableError, unit: string): string {
  if (error instanceof ThrottledTooLongError) return 'Stopped';
  if (error instanceof LoginUnansweredError)
    return `Stopped: no request is sent without the login, so the ${unit} it held back were not sent`;
  return `Stopped after ${unavailableBatchesBeforeStopping} failed requests in a row`;
}

/**
 * How a run stopped by an unavailable platform is to be resumed: when it is back; but a platform that was sent the
 * requests and answered none within the time-out was there, and slow: waiting for it to be "back" would meet the same
 * time-out (a fresh user test), so the run is to be sent again with a longer --timeout.
 */
function whenToResume(error: UnavailableError | undefined): string {
  const remedy = certificateRemedyOf(error);
  if (remedy !== undefined) return remedy;
  // A 2xx in words that do not tell (a body refusing the question, one b2bctl cannot decode): the platform is there,
  // and waiting for it to be "back" would meet the same answer (a fresh user test).
  const answered = answeredStatus(error);
  if (answered !== undefined && answered < 300)
    return `the platform answered HTTP ${answered} in words that do not tell (quoted above); once that is settled, run`;
  const timedOutAfterMs = timedOutAfter(error);
  if (timedOutAfterMs === undefined) return 'when the platform is back, run';
  return `the platform did not answer within ${spokenDuration(timedOutAfterMs)} (--timeout); run again with a longer --timeout`;
}

/**
 * The time-out a request of the run met, on the error or the one it wraps: a create that met it and whose question
 * (does the customer exist now?) met it too carries it on the question's error (a fresh user test: such a run said
 * "when the platform is back" and resumed with the same time-out).
 */
function timedOutAfter(error: unknown): number | undefined {
  return foundAlongCauses(error, (cause) => (cause instanceof UnavailableError ? cause.timedOutAfterMs : undefined));
}

/**
 * How to resume a run the platform's certificate stopped, up to the command, or undefined for another failure: the
 * platform never went away, so "when it is back" would send the operator waiting (a user test).
 */
function certificateRemedyOf(error: unknown): string | undefined {
  const remedy = foundAlongCauses(error, certificateRemedy);
  return remedy === undefined
    ? undefined
    : `the platform's certificate was refused, which waiting does not mend: once ${remedy}, run`;
}

/** The status of an answer that came and did not tell, on the error or the one it wraps (a question asked after it). */
function answeredStatus(error: unknown): number | undefined {
  return foundAlongCauses(error, (cause) => (cause instanceof AmbiguousRequestError ? cause.status : undefined));
}

/** The first thing `read` finds on the error or along the errors it wraps (`.cause`), the error itself first. */
function foundAlongCauses<T>(error: unknown, read: (cause: Error) => T | undefined): T | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const found = read(cause);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The command that resumes a run stopped by the platform: for one that answered nothing within the time-out, with a
 * longer one, the time-out's own advice (longerTimeoutThan: twice it, or the setting's default when that is longer):
 * the run's own `--timeout 700` pasted back met the same time-out, though the line said "a longer --timeout" (a fresh
 * user test).
 */
function resumeAfter(error: UnavailableError | undefined, sending: Sending): string {
  const timedOutAfterMs = timedOutAfter(error);
  if (timedOutAfterMs === undefined) return sending.resumeHint;
  return sending.resumeHintWithTimeout(longerTimeoutThan(timedOutAfterMs));
}

/** The line of a run every request of which was lost: why (the record first in the file's), and how to resume. */
function unavailableThroughout(
  first: UnavailableError | undefined,
  ledger: { count(outcome: 'failed' | 'unknown'): number },
  job: Pick<BulkJob<unknown, unknown>, 'unit' | 'resumeOfUnknown'>,
  resumeHint: string,
): string {
  // Why first (nothing listens at a mistyped base URL, a 503), as a run stopped after requests in a row says it.
  const why = first === undefined ? '' : `${first.message} `;
  const lost = unsentWords(ledger, job);
  const answered = answeredStatus(first);
  // The question after a lost answer refused for its encoded "/": the platform answers, and a resume meets the same
  // refusal until the setting quoted above changes (a user test), so "when it is back" would not help.
  if (foundAlongCauses(first, (cause) => (cause instanceof EncodedSlashRefusedError ? cause : undefined)))
    return `${why}No request of this run could be settled (${lost}): the question whether it went through was answered for a path holding an encoded "/" (%2F), quoted above; once customer.documentInPath is set as it says, run: ${resumeHint}`;
  if (answered !== undefined && answered < 300)
    return `${why}No request of this run was answered in words that tell (${lost}): the platform answered HTTP ${answered}, quoted above; once that is settled, run: ${resumeHint}`;
  const remedy = certificateRemedyOf(first);
  if (remedy !== undefined)
    return `${why}No request of this run reached the platform (${lost}); ${remedy}: ${resumeHint}`;
  const timedOutAfterMs = timedOutAfter(first);
  if (timedOutAfterMs === undefined)
    return `${why}The platform was unavailable for every request of this run (${lost}); when it is back, run: ${resumeHint}`;
  return `${why}No request of this run was answered within ${spokenDuration(timedOutAfterMs)} (${lost}); run again with a longer --timeout: ${resumeHint}`;
}

/**
 * Whether the run's last error line gives its resume command (the cases of concludeRun that print resumeHint);
 * `toResume`: the records only a resume finishes (failed as unavailable, or unknown and kept out of the errors file).
 */
function endsWithResume(end: RunEnd, toResume: number): boolean {
  switch (end.kind) {
    case 'stopped: report not writable':
    case 'stopped: platform unavailable':
    case 'stopped: credentials refused':
    case 'stopped: records left':
    case 'platform unavailable throughout':
    case 'interrupted':
      return true;
    case 'some records failed':
      return toResume > 0;
    case 'stopped':
    case 'done':
      return false;
  }
}

/**
 * What did not go through, the files that say why (named: under --quiet this line is all the log holds), and, when
 * some failed only because the platform was unavailable, or are unknown and kept out of the errors file (a create
 * that may have been done), the resume command that sends them again, asking first about the unknown ones. A resume
 * sends every valid record its report does not show done, as it is: the rejected ones too, which the platform will
 * most likely refuse again; never the invalid ones.
 */
function partialFailure(
  { ledger, resumeHint, feedBackHint }: Sending,
  unit: string,
  unavailable: number,
  /** Whether the summary's lines were printed above, its feed-back line among them (not under --quiet). */
  { summaryShown }: { summaryShown: boolean },
): string {
  const files =
    ledger.errors.rows > 0
      ? `the report ${printable(ledger.report.path)} and the errors file ${printable(ledger.errors.path)} say why`
      : `the report ${printable(ledger.report.path)} says why`;
  const line = `${notThroughWords(ledger, unit)} (${ledger.outcomeSummary(['rejected', 'conflict', 'invalid', 'failed', 'unknown'])}); ${files}.`;
  const unknown = ledger.unknownForResume;
  // No resume follows: under --quiet this line is all the log holds, so it gives the command that feeds the errors
  // file back, and what to do first (the summary's own feed-back line says it otherwise: not twice). Unknown records
  // the errors file holds (a stock batch answered 5xx or timed out) go again as they are: sending them is harmless.
  if (unavailable === 0 && unknown === 0) {
    if (ledger.errors.rows === 0 || summaryShown) return line;
    const feedBack = feedBackHint(ledger.failureReasons.fixFlags);
    const unknownInErrors = ledger.unknownFedBack;
    if (unknownInErrors === ledger.errors.rows)
      return `${line} They may have been applied without an answer; the errors file holds them to send again as they are: run ${feedBack}`;
    const first =
      unknownInErrors === 0
        ? 'Fix the errors file'
        : `Fix the errors file's ${countOf(ledger.errors.rows - unknownInErrors, unit)} to fix (its ${unknownInErrors} unknown go again as they are)`;
    return `${line} ${first}, then feed it back: run ${feedBack}`;
  }
  const reasons = [];
  if (unavailable > 0)
    reasons.push(
      `${countOf(unavailable, unit)} failed because the platform was unavailable, and may go through when sent again`,
    );
  if (unknown > 0)
    reasons.push(
      `${unknown} unknown may have gone through without an answer, and the resume asks the platform about ${unknown === 1 ? 'it' : 'them'} before sending ${unknown === 1 ? 'it' : 'them'} again`,
    );
  const others = ledger.failures - ledger.count('invalid') - unavailable - unknown;
  const alsoOthers =
    others > 0 ? ` (it also sends the ${countOf(others, `other ${unit}`)} not done again, as they are)` : '';
  return `${line} ${reasons.join('; ')}: run ${resumeHint}${alsoOthers}`;
}

/**
 * What did not go through, in words: an `unknown` record was sent and may have been applied (a 500 after the
 * platform stored it, a time-out), so it is never said "did not go through" (a fresh user test).
 */
function notThroughWords(ledger: RunLedger, unit: string): string {
  const unknown = ledger.count('unknown');
  const failed = ledger.failures - unknown;
  if (unknown === 0) return `${countOf(failed, unit)} did not go through`;
  const unknownWords = `the outcome of ${failed === 0 ? countOf(unknown, unit) : unknown} is not known`;
  return failed === 0
    ? capitalisedFirst(unknownWords)
    : `${countOf(failed, unit)} did not go through and ${unknownWords}`;
}

function capitalisedFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The summary, with the pace and the requests; --quiet keeps the closing line alone (closing-line.ts). */
function logSummary<T, Sent>(
  job: BulkJob<T, Sent>,
  { client, ledger, feedBackHint }: Pick<Sending, 'client' | 'ledger' | 'feedBackHint'>,
  context: Context,
  counts: string,
  /** Records that failed only because the platform was unavailable (nothing in them to fix); whether a resume follows. */
  next: { unavailable: number; resumeFollows: boolean },
): void {
  const stats = client.http.stats;
  const seconds = ledger.elapsedSeconds();
  const sent = job.sentOutcomes.reduce((total, outcome) => total + ledger.count(outcome), 0);
  context.log.info(
    `${job.name}: ${counts}; ${countOf(stats.requests, 'requests')}, ${countOf(stats.retries, 'retries')}, ${stats.throttled} throttled (429); ${seconds.toFixed(1)} s, ${Math.round(sent / Math.max(seconds, 0.001))} ${job.unit}/s`,
    {
      command: job.name,
      outcomes: Object.fromEntries(job.outcomes.map((outcome) => [outcome, ledger.count(outcome)])),
      requests: stats.requests,
      retries: stats.retries,
      throttled: stats.throttled,
      seconds: Number(seconds.toFixed(1)),
      report: ledger.report.path,
    },
  );
  for (const line of ledger.failureReasons.closingLines(job.unit, { toTerminal: context.io.isStderrTTY }))
    context.log.info(`${job.name}: ${line}`);
  const feedBack = feedBackHint(ledger.failureReasons.fixFlags);
  for (const line of ledger.filesSummary({ ...next, feedBack })) context.log.info(`${job.name}: ${line}`);
}

/**
 * A resumed report holds one row per record once the run ends, as a new run's does (superseded-rows.ts). When it
 * cannot be rewritten (a full disk), it stays as it was, whole and resumable, and the warning says how to read it.
 */
async function dropResumedRunsSupersededRows<T, Sent>(
  job: BulkJob<T, Sent>,
  ledger: RunLedger,
  context: Context,
): Promise<void> {
  const resumed = job.flags.resume;
  if (resumed === undefined || resolve(resumed) !== resolve(ledger.report.path) || isSystemPath(resumed)) return;
  try {
    await dropSupersededRows(ledger.report.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    context.log.warn(
      `${job.name}: ${printable(ledger.report.path)} still holds the rows of the records this run sent again (${code}); a record's last row is its outcome`,
    );
  }
}

/**
 * How the run ended, in its run record, for the --keep-reports of later runs: one that left a resume to run keeps its
 * report. Not written (a full disk): the record still says "running", of a process gone by then, which those runs
 * keep as they keep a resume pending.
 */
function recordEnd<T, Sent>(job: BulkJob<T, Sent>, ledger: RunLedger, state: RunState, context: Context): void {
  try {
    recordRunState(ledger.report.path, state);
  } catch (error) {
    context.log.debug(
      `${job.name}: how the run ended was not written to its run record (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/**
 * --keep-reports: removes the files of this input's older runs of the same command, profile and store, never this
 * run's own (whose report the resume command names), nor one still sending or whose resume is still to be run (see
 * retention.ts). Not after a resume, whose report has an old stamp.
 */
async function pruneOlderRuns<T, Sent>(job: BulkJob<T, Sent>, ledger: RunLedger, context: Context): Promise<void> {
  if (job.flags.keepReports === undefined || job.flags.report || job.flags.resume) return;
  const session = await context.session();
  const removed = pruneOldRuns({
    inputPath: job.file,
    folder: session.get('outputDir'),
    keep: job.flags.keepReports,
    current: [ledger.report.path, ledger.errors.path],
    owner: { command: job.name, profile: session.profileName, baseUrl: session.requireBaseUrl() },
  });
  if (removed.length > 0)
    context.log.info(
      `${job.name}: removed ${countOf(removed.length, 'files')} of older runs (--keep-reports ${job.flags.keepReports})`,
    );
}

/**
 * The hidden copies earlier runs of this input left when killed while rewriting a file (its errors file put in
 * order): removed at every run's end, with or without --keep-reports, before the pruning that removes their records
 * (retention.ts). A folder that cannot be read keeps them; the run's outcome stands.
 */
async function removeEarlierRunsAbandonedCopies<T, Sent>(job: BulkJob<T, Sent>, context: Context): Promise<void> {
  try {
    const session = await context.session();
    const removed = removeAbandonedCopiesOfRuns({
      inputPath: job.file,
      folder: session.get('outputDir'),
      owner: { command: job.name, profile: session.profileName, baseUrl: session.requireBaseUrl() },
    });
    if (removed.length > 0)
      context.log.debug(`${job.name}: removed ${countOf(removed.length, 'copies')} earlier runs left when killed`);
  } catch (error) {
    context.log.debug(`${job.name}: earlier runs' abandoned copies were not looked for: ${(error as Error).message}`);
  }
}

/** What the report lacks of the requests that finished after it failed: the resume sends them again. */
function inFlightNotInReport(ledger: RunLedger, unit: string): string {
  const lacking = ledger.notInReport;
  if (lacking === 0) return '';
  return `: ${countOf(lacking, unit)} answered after the report failed ${lacking === 1 ? 'is' : 'are'} counted above but missing from it, so the resume sends ${lacking === 1 ? 'it' : 'them'} again`;
}

/**
 * `3 customers not sent`, and those that may have been applied without an answer, with what the resume does with
 * them: `1 unknown, asked about again by the resume` (a customer create), `2 unknown, sent again by the resume` (a
 * stock item: a stock run's line said "asked about", which its resume never does).
 */
function unsentWords(
  ledger: { count(outcome: 'failed' | 'unknown'): number },
  { unit, resumeOfUnknown }: Pick<BulkJob<unknown, unknown>, 'unit' | 'resumeOfUnknown'>,
): string {
  const failed = ledger.count('failed');
  const unknown = ledger.count('unknown');
  const words = failed > 0 || unknown === 0 ? [`${countOf(failed, unit)} not sent`] : [];
  const resumed = resumeOfUnknown === 'asks first' ? 'asked about again by the resume' : 'sent again by the resume';
  if (unknown > 0) words.push(`${unknown} unknown, ${resumed}`);
  return words.join(', ');
}
