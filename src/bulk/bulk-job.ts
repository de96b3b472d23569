import { setMaxListeners } from 'node:events';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import {
  AuthError,
  ExitCode,
  InputError,
  InterruptedError,
  OutputError,
  PartialFailureError,
  PlatformError,
  UnavailableError,
  UsageError,
} from '../errors.js';
import { isPipe, openPipe } from '../io/input/byte-source.js';
import { type InputRecord, skippedNote } from '../io/input/open-input.js';
import type { FieldCatalogue } from '../io/input/record-shape.js';
import type { PlatformClient } from '../platform/client.js';
import { announceTerminalStdin, openCommandInput } from './command-input.js';
import type { InputFlags, SendFlags } from './flags.js';
import { acquireProfileLock } from '../config/lock.js';
import { Pacer } from '../platform/pacer.js';
import { countOf } from '../lib/plural.js';
import { runPool } from './pool.js';
import { problemLogger } from './problem-output.js';
import { type Outcome, placeOf, type ReportRow } from './report.js';
import { PlaceKeys, PlaceSet, readDoneLines } from './resume.js';
import { keysChecked, pendingBatches, type PendingRecord } from './pending-records.js';
import { pruneOldRuns } from './retention.js';
import { RunLedger } from './run-ledger.js';
import { sendPacing } from './send-pacing.js';
import { checkMinimumRecords } from './min-records.js';
import { type RunTally, sendingCounts, validationCounts, withClosingLine } from './closing-line.js';
import {
  checkResume,
  describeInput,
  readMeta,
  recordedFlags,
  resumeCommand,
  shellWord,
  type RunMeta,
  type ShapingFlag,
  writeMeta,
} from './run-meta.js';
import { spoolStdin } from './spool.js';
import { type RecordChecker, runValidationPass } from './validation-pass.js';
import { type JudgedRecord, VerdictSpool } from './verdict-spool.js';

export type { PendingRecord } from './pending-records.js';

export type ReportEntry = { row: ReportRow; original: unknown };

/** A report entry that reads the record's original only when asked: the ledger asks for failures only. */
class EntryOfRecord implements ReportEntry {
  constructor(
    readonly row: ReportRow,
    private readonly record: { readonly original: unknown },
  ) {}

  get original(): unknown {
    return this.record.original;
  }
}

/** The report entry of a sent record; its cells as written are parsed from the spool only if it failed. */
export function reportEntry(row: ReportRow, record: { readonly original: unknown }): ReportEntry {
  return new EntryOfRecord(row, record);
}

/**
 * What differs between bulk commands; everything else (DESIGN.md §7) is the same for all. T is a
 * valid record as the checker makes it; Sent is what the spool keeps of it for sendBatch (T unless
 * sendJson says otherwise).
 */
export interface BulkJob<T, Sent = T> {
  /** `stock push`, `customer create`: in log lines and the resume command. */
  name: string;
  /** What a record is called: `items`, `customers`. */
  unit: string;
  file: string;
  flags: InputFlags & SendFlags;
  catalogue: FieldCatalogue;
  newChecker(): RecordChecker<T>;
  /** The record's key in the report (SKU, document), read from the record even when it is invalid. */
  keyOf(record: InputRecord): string;
  /**
   * The command's own flags that decide where and how records go (`--route`, `--upsert`), recorded
   * beside the report and restored or checked by `--resume`. Read from `flags` after plan().
   */
  shaping?: readonly ShapingFlag[];
  /** Takes a per-profile lock under this name, so two runs never overlap (cron jobs). */
  lockName?: string;
  /**
   * The JSON text the spool keeps of a valid record, in the form sendBatch sends it (stock: the wire item, whose
   * JSON then goes into the request as it is). Called during the validation pass. Default: JSON.stringify(value).
   */
  sendJson?(value: T): string;
  /** Chooses the batch size once the valid count is known; may log the choice or refuse (usage error). */
  plan(valid: number): { batchSize: number; description: string };
  /** Sends a batch and reports every record of it. Throwing UnavailableError or PlatformError fails the batch. */
  sendBatch(client: PlatformClient, batch: PendingRecord<Sent>[], signal: AbortSignal): Promise<ReportEntry[]>;
  /** The order outcomes are listed in the summary. */
  outcomes: readonly Outcome[];
  /** Outcomes that count as sent, for the rate in the summary. */
  sentOutcomes: readonly Outcome[];
}

/** The input flags every bulk command records for --resume (DESIGN.md §5). */
const inputShaping: readonly ShapingFlag[] = [
  { flag: '--map', key: 'map', path: true },
  { flag: '--delimiter', key: 'delimiter' },
  { flag: '--encoding', key: 'encoding' },
  { flag: '--decimal', key: 'decimal' },
  { flag: '--strict', key: 'strict', unset: false },
  { flag: '--skip-invalid', key: 'skipInvalid', unset: false },
  ...sendPacing,
];

/** Consecutive batches lost to an unavailable platform before the run stops (and can be resumed). */
export const unavailableBatchesBeforeStopping = 3;

/**
 * Runs a bulk job: validate the whole input in one streaming pass (sending nothing if a record is
 * invalid, unless --skip-invalid) that spools every verdict, then read the spool, batch the valid
 * records and send them paced and retried,
 * writing the report as results arrive. Ctrl-C finishes the requests in flight and exits 75 with the
 * resume command; a dead platform stops the run after a few failed batches with exit 69.
 */
export async function runBulkJob<T, Sent = T>(job: BulkJob<T, Sent>, context: Context): Promise<void> {
  const tally: RunTally = { file: job.file === '-' ? 'stdin' : job.file };
  await withClosingLine(job.name, tally, context, () => lockedRun(job, context, tally));
}

async function lockedRun<T, Sent>(job: BulkJob<T, Sent>, context: Context, tally: RunTally): Promise<void> {
  const session = await context.session();
  tally.profile = session.profileName;
  // Settings problems surface before a million rows are read, not after.
  tally.baseUrl = session.requireBaseUrl();
  let release: (() => void) | undefined;
  let spooled: { path: string; remove(): void } | undefined;
  // A dry run sends nothing, so it keeps no verdicts.
  const verdicts = job.flags.dryRun ? undefined : new VerdictSpool<Sent>();
  try {
    // A FIFO or a process substitution (`<(cat f.csv)`) can be read once, like stdin: the send pass
    // would otherwise reopen it and hang, or find it empty and send nothing. Spooled before the lock
    // is taken: a writer that never comes must not keep every later cron run out (exit 75).
    const spoolOptions = { name: job.file === '-' ? 'stdin' : job.file, signal: context.interrupt };
    if (job.file === '-') announceTerminalStdin(context);
    spooled =
      job.file === '-'
        ? await spoolStdin(context.io.stdin, spoolOptions)
        : isPipe(job.file)
          ? await spoolStdin(openPipe(job.file), spoolOptions)
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

/** Device, inode, size and modification time of a file: any change means another file, or other content. */
function fileIdentity(path: string): string | undefined {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return undefined;
  }
}

async function validateThenSend<T, Sent>(
  job: BulkJob<T, Sent>,
  readPath: string,
  context: Context,
  verdicts: VerdictSpool<Sent> | undefined,
  tally: RunTally,
): Promise<void> {
  const log = context.log;
  const shownName = job.file === '-' ? 'stdin' : job.file;
  const started = context.clock.now();
  // The ERP may still be writing the export when cron starts: what is sent must be what was validated.
  // Taken before anything is printed, so nothing that reacts to the output can slip in before it.
  const identity = fileIdentity(readPath);
  const unchanged = () => {
    if (fileIdentity(readPath) !== identity)
      throw new InputError(
        `${shownName} changed while it was being read (another program is writing or replacing it); nothing was sent. Run again once the export is complete, or copy it first and pass the copy.`,
        { file: shownName },
      );
  };
  const session = await context.session();
  const shaping = [...inputShaping, ...(job.shaping ?? [])];
  const flags = job.flags as unknown as Record<string, unknown>;
  log.info(`${job.name}: validating ${shownName}`);
  let input: RunMeta['input'];
  try {
    input = { ...describeInput(readPath), path: job.file === '-' ? '-' : resolve(job.file) };
  } catch (error) {
    // A missing or unreadable input: reading it says so in the words of every other command.
    await openCommandInput(context, readPath, job.flags, job.catalogue, { displayName: shownName });
    throw error;
  }
  const resumed = job.flags.resume ? readMeta(job.flags.resume) : undefined;
  if (resumed) {
    checkResume({
      reportPath: job.flags.resume as string,
      meta: resumed,
      command: job.name,
      profile: session.profileName,
      baseUrl: session.requireBaseUrl(),
      input,
      shaping,
      flags,
    });
  }
  const reported = job.flags.resume ? new PlaceSet() : undefined;
  const reportedKeys = job.flags.resume ? new PlaceKeys() : undefined;
  const done = job.flags.resume ? await readDoneLines(job.flags.resume, reported, reportedKeys) : undefined;
  const firstPass = await openCommandInput(context, readPath, job.flags, job.catalogue, { displayName: shownName });
  let sending = true;
  // A problem per line of a large file: logged in batches (see Logger.batched).
  const validation = await log.batched(() =>
    runValidationPass({
      input:
        reportedKeys && reported
          ? {
              ...firstPass,
              records: keysChecked(firstPass.records, { keys: reportedKeys, reported }, job, shownName),
            }
          : firstPass,
      checker: job.newChecker(),
      onProblem: problemLogger(context, shownName),
      signal: context.interrupt,
      // What the sending pass needs of each record, so it does not parse and judge the input again.
      onVerdict: verdicts
        ? (record, verdict) => {
            // Without --skip-invalid an invalid record means nothing is sent: the spool would never be read.
            if (!verdict.ok && !job.flags.skipInvalid) sending = false;
            if (!sending) return;
            const judged: JudgedRecord<Sent> = {
              line: record.line,
              column: record.column,
              element: record.element,
              row: record.row,
              key: job.keyOf(record),
              original: record.original,
            };
            if (verdict.ok && job.sendJson) judged.valueJson = job.sendJson(verdict.value);
            else if (verdict.ok) judged.value = verdict.value as unknown as Sent;
            else judged.message = verdict.problems.map((problem) => problem.message).join('; ');
            verdicts.add(judged);
          }
        : undefined,
    }),
  );
  verdicts?.finish();
  if (context.interrupt.aborted) throw new InterruptedError('Interrupted while validating; nothing was sent.');
  log.info(
    `${job.name}: ${countOf(validation.records, 'records')}, ${validation.valid} valid, ${validation.invalid} invalid${skippedNote(firstPass)} (${((context.clock.now() - started) / 1000).toFixed(1)} s)`,
  );
  tally.counts = validationCounts(validation, job.flags.dryRun);
  checkMinimumRecords(validation.records, job.flags.minRecords, shownName);
  if (validation.records === 0) {
    log.info(`${job.name}: ${shownName} has no records; nothing to send.`);
    return;
  }
  if (validation.valid === 0)
    throw new InputError(`Every record of ${shownName} is invalid (listed above); nothing was sent.`, {
      file: shownName,
    });
  if (validation.invalid > 0 && !job.flags.skipInvalid) {
    throw new InputError(
      `${countOf(validation.invalid, 'records')} of ${shownName} ${validation.invalid === 1 ? 'is' : 'are'} invalid (listed above); nothing was sent. Fix ${validation.invalid === 1 ? 'it' : 'them'}, or pass --skip-invalid to send the rest.`,
      { file: shownName },
    );
  }
  const plan = job.plan(validation.valid);
  const requests = Math.ceil(validation.valid / plan.batchSize);
  if (job.flags.dryRun) {
    log.info(
      `${job.name}: dry run; would send ${countOf(validation.valid, job.unit)} in ${countOf(requests, 'requests')} ${plan.description}.`,
    );
    // The real run reports the skipped invalid records as failures and exits 1: a rehearsal that exits 0 would
    // tell a script the file is fine.
    if (validation.invalid > 0)
      throw new PartialFailureError(
        `dry run: ${countOf(validation.invalid, 'records')} of ${shownName} ${validation.invalid === 1 ? 'is' : 'are'} invalid (listed above) and would be reported as invalid; the real run would exit 1 as this one does. Nothing was sent.`,
      );
    return;
  }

  unchanged();
  const pacer = new Pacer(context.clock, job.flags.rate, (message) => log.debug(`${job.name}: ${message}`));
  const client = await context.platform({
    connections: job.flags.concurrency,
    pace: pacer,
    retries: job.flags.retries,
    timeoutMs: job.flags.timeoutMs,
  });
  unchanged();
  const ledger = await RunLedger.open({
    context,
    inputPath: job.file,
    input: firstPass,
    reportPath: job.flags.report,
    errorsPath: job.flags.errors,
    outputDirectory: session.get('outputDir'),
    resumeFrom: job.flags.resume,
    unit: job.unit,
    total: Math.max(0, validation.valid - (done?.count ?? 0)),
  });
  const meta: RunMeta = resumed ?? {
    version: 1,
    command: job.name,
    profile: session.profileName,
    baseUrl: session.requireBaseUrl(),
    baseUrlFromFlag: context.globals.baseUrl !== undefined,
    input: { path: input.path, size: input.size, fingerprint: input.fingerprint },
    flags: recordedFlags(shaping, flags),
  };
  if (!resumed) {
    try {
      writeMeta(ledger.report.path, meta);
    } catch (error) {
      ledger.close();
      throw new UsageError(
        `Cannot write the run record beside ${ledger.report.path} (${(error as NodeJS.ErrnoException).code}); nothing was sent.`,
      );
    }
  }
  const resumeHint = resumeCommand(meta, shaping, job.file, ledger.report.path);
  const skipped = done ? ` (${done.count} already done by the resumed run)` : '';
  log.info(
    `${job.name}: sending ${countOf(validation.valid, job.unit)}${skipped}${plan.batchSize === 1 ? ', one request each,' : ` in up to ${countOf(requests, 'requests')}`} ${plan.description} (concurrency ${job.flags.concurrency}${job.flags.rate ? `, at most ${job.flags.rate} requests/s` : ''})`,
  );

  // Requests already sent finish even after Ctrl-C: their answers belong in the report.
  const inFlight = new AbortController().signal;
  // Every request in flight and its back-off sleep listen on this one signal: --concurrency of them
  // is the design, not a leak, and Node's warning at 11 would land in the operator's log.
  setMaxListeners(0, inFlight);
  let unavailableInARow = 0;
  // Batches the platform answered (even with an error) and batches lost to unavailability: a run where
  // every request was lost says "unavailable" (exit 69) whatever the size of the file.
  let answeredBatches = 0;
  let unavailableBatches = 0;
  let requestsInFlight = 0;
  const onInterrupt = () =>
    log.info(`${job.name}: interrupted; finishing ${countOf(requestsInFlight, 'requests')} in flight…`);
  context.interrupt.addEventListener('abort', onInterrupt, { once: true });
  const sendBatch = async (batch: PendingRecord<Sent>[]) => {
    requestsInFlight++;
    try {
      const entries = await job.sendBatch(client, batch, inFlight);
      answeredBatches++;
      ledger.record(entries);
      unavailableInARow = 0;
    } catch (error) {
      // Refused credentials (401 after re-login, 403) stop the run: every other request would be refused too.
      const refused =
        error instanceof AuthError || (error instanceof PlatformError && error.exitCode === ExitCode.authFailed);
      if (refused || !(error instanceof UnavailableError || error instanceof PlatformError)) throw error;
      if (error instanceof UnavailableError) unavailableBatches++;
      else answeredBatches++;
      const status = error instanceof PlatformError ? error.status : undefined;
      ledger.record(
        batch.map((entry) =>
          reportEntry({ ...placeOf(entry), key: entry.key, outcome: 'failed', status, message: error.message }, entry),
        ),
      );
      if (error instanceof UnavailableError && ++unavailableInARow >= unavailableBatchesBeforeStopping) throw error;
    } finally {
      requestsInFlight--;
    }
  };
  let interrupted = false;
  let stoppedBy: unknown;
  try {
    ({ interrupted } = await runPool(
      pendingBatches((verdicts as VerdictSpool<Sent>).read(), ledger, done, reported, plan.batchSize),
      sendBatch,
      { concurrency: job.flags.concurrency, signal: context.interrupt },
    ));
  } catch (error) {
    stoppedBy = error;
  } finally {
    context.interrupt.removeEventListener('abort', onInterrupt);
    ledger.close();
  }

  const sentCounts = sendingCounts(
    job.outcomes,
    ledger,
    validation.valid - (done?.count ?? 0),
    job.flags.skipInvalid ? validation.invalid : 0,
  );
  tally.counts = sentCounts.counts;
  tally.outcomes = sentCounts.outcomes;
  const stats = client.http.stats;
  const seconds = ledger.elapsedSeconds();
  const sent = job.sentOutcomes.reduce((total, outcome) => total + ledger.count(outcome), 0);
  // --quiet keeps the closing line alone (closing-line.ts); this one adds the pace and the requests.
  log.info(
    `${job.name}: ${sentCounts.counts}; ${countOf(stats.requests, 'requests')}, ${countOf(stats.retries, 'retries')}, ${stats.throttled} throttled (429); ${seconds.toFixed(1)} s, ${Math.round(sent / Math.max(seconds, 0.001))} ${job.unit}/s`,
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
  const feedBack = job.flags.map
    ? (errorsPath: string) =>
        ['b2bctl', ...job.name.split(' '), errorsPath, '--map', job.flags.map as string].map(shellWord).join(' ')
    : undefined;
  for (const line of ledger.filesSummary(feedBack)) log.info(`${job.name}: ${line}`);
  // Not after a resume: its report carries an old stamp and would count among the old runs.
  if (job.flags.keepReports !== undefined && !job.flags.report && !job.flags.resume) {
    const removed = pruneOldRuns({
      inputPath: job.file,
      folder: session.get('outputDir'),
      keep: job.flags.keepReports,
    });
    if (removed.length > 0)
      log.info(
        `${job.name}: removed ${countOf(removed.length, 'files')} of older runs (--keep-reports ${job.flags.keepReports})`,
      );
  }
  if (stoppedBy instanceof OutputError)
    throw new OutputError(
      `${stoppedBy.message} Stopped; the requests in flight were finished. Once it is writable, run: ${resumeHint}`,
    );
  if (stoppedBy instanceof UnavailableError) {
    throw new UnavailableError(
      `${stoppedBy.message} Stopped after ${unavailableBatchesBeforeStopping} failed requests in a row; when the platform is back, run: ${resumeHint}`,
    );
  }
  if (stoppedBy !== undefined) throw stoppedBy;
  if (unavailableBatches > 0 && answeredBatches === 0 && !interrupted)
    throw new UnavailableError(
      `The platform was unavailable for every request of this run (${countOf(ledger.count('failed'), job.unit)} not sent); when it is back, run: ${resumeHint}`,
    );
  if (interrupted)
    throw new InterruptedError(
      `Interrupted; the requests in flight were finished and reported. Resume with: ${resumeHint}`,
    );
  if (ledger.failures > 0) {
    throw new PartialFailureError(
      `${countOf(ledger.failures, job.unit)} did not go through (${ledger.outcomeSummary(['rejected', 'invalid', 'failed'])}); the report and the errors file say why.`,
    );
  }
}
