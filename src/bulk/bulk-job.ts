import { setMaxListeners } from 'node:events';
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.js';
import {
  AuthError,
  ExitCode,
  InputError,
  InterruptedError,
  PartialFailureError,
  PlatformError,
  UnavailableError,
} from '../errors.js';
import { type InputRecord, skippedNote } from '../io/input/open-input.js';
import type { FieldCatalogue } from '../io/input/record-shape.js';
import type { PlatformClient } from '../platform/client.js';
import { openCommandInput } from './command-input.js';
import type { InputFlags, SendFlags } from './flags.js';
import { acquireLock } from './lock.js';
import { Pacer } from '../platform/pacer.js';
import { runPool } from './pool.js';
import { problemLogger } from './problem-output.js';
import type { Outcome, ReportRow } from './report.js';
import { LineSet, readDoneLines } from './resume.js';
import { RunLedger } from './run-ledger.js';
import { spoolStdin } from './spool.js';
import { type RecordChecker, runValidationPass } from './validation-pass.js';

/** A valid record waiting to be sent, with where it came from. */
export interface PendingRecord<T> {
  line: number;
  key: string;
  value: T;
  original: unknown;
  /**
   * Resumed runs only: the report has no row for this record, so the interrupted run may have sent it
   * and died before the answer came (a SIGKILL, a crash). Matters only where sending twice does.
   */
  unanswered?: boolean;
}

export type ReportEntry = { row: ReportRow; original: unknown };

/** What differs between bulk commands; everything else (DESIGN.md §7) is the same for all. */
export interface BulkJob<T> {
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
  /** Flags of the command to repeat in the resume hint, such as `--route queue`. */
  resumeFlags?: string;
  /** Takes a per-profile lock under this name, so two runs never overlap (cron jobs). */
  lockName?: string;
  /** Chooses the batch size once the valid count is known; may log the choice or refuse (usage error). */
  plan(valid: number): { batchSize: number; description: string };
  /** Sends a batch and reports every record of it. Throwing UnavailableError or PlatformError fails the batch. */
  sendBatch(client: PlatformClient, batch: PendingRecord<T>[], signal: AbortSignal): Promise<ReportEntry[]>;
  /** The order outcomes are listed in the summary. */
  outcomes: readonly Outcome[];
  /** Outcomes that count as sent, for the rate in the summary. */
  sentOutcomes: readonly Outcome[];
}

/** Consecutive batches lost to an unavailable platform before the run stops (and can be resumed). */
export const unavailableBatchesBeforeStopping = 3;

/**
 * Runs a bulk job: validate the whole input in a first streaming pass (sending nothing if a record is
 * invalid, unless --skip-invalid), then stream it again, batch it, and send it paced and retried,
 * writing the report as results arrive. Ctrl-C finishes the requests in flight and exits 75 with the
 * resume command; a dead platform stops the run after a few failed batches with exit 69.
 */
export async function runBulkJob<T>(job: BulkJob<T>, context: Context): Promise<void> {
  const session = await context.session();
  // Settings problems surface before a million rows are read, not after.
  session.requireBaseUrl();
  let release: (() => void) | undefined;
  if (job.lockName) {
    const store = await context.profiles();
    release = acquireLock(
      join(store.directory, 'locks', `${session.profileName}.${job.lockName}.lock`),
      `b2bctl ${job.name} (profile ${session.profileName})`,
      context.log.warn,
    );
  }
  let spooled: { path: string; remove(): void } | undefined;
  try {
    // A FIFO or a process substitution (`<(cat f.csv)`) can be read once, like stdin: the send pass
    // would otherwise reopen it and hang, or find it empty and send nothing.
    spooled =
      job.file === '-'
        ? await spoolStdin(context.io.stdin)
        : isPipe(job.file)
          ? await spoolStdin(createReadStream(job.file))
          : undefined;
    await validateThenSend(job, spooled?.path ?? job.file, context);
  } finally {
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

/** True for a FIFO or socket; a missing path is left to the reader, which says so with the fix. */
function isPipe(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isFIFO() || stats.isSocket();
  } catch {
    return false;
  }
}

async function validateThenSend<T>(job: BulkJob<T>, readPath: string, context: Context): Promise<void> {
  const log = context.log;
  const shownName = job.file === '-' ? 'stdin' : job.file;
  const started = context.clock.now();
  // The ERP may still be writing the export when cron starts: what is sent must be what was validated.
  // Taken before anything is printed, so nothing that reacts to the output can slip in before it.
  const identity = fileIdentity(readPath);
  log.info(`${job.name}: validating ${shownName}`);
  const unchanged = () => {
    if (fileIdentity(readPath) !== identity)
      throw new InputError(
        `${shownName} changed while it was being read (another program is writing or replacing it); nothing was sent. Run again once the export is complete, or copy it first and pass the copy.`,
        { file: shownName },
      );
  };
  const firstPass = await openCommandInput(context, readPath, job.flags, job.catalogue, { displayName: shownName });
  const validation = await runValidationPass({
    input: firstPass,
    checker: job.newChecker(),
    onProblem: problemLogger(context, shownName),
    signal: context.interrupt,
  });
  if (context.interrupt.aborted) throw new InterruptedError('Interrupted while validating; nothing was sent.');
  log.info(
    `${job.name}: ${validation.records} records, ${validation.valid} valid, ${validation.invalid} invalid${skippedNote(firstPass)} (${((context.clock.now() - started) / 1000).toFixed(1)} s)`,
  );
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
      `${validation.invalid} records of ${shownName} are invalid (listed above); nothing was sent. Fix them, or pass --skip-invalid to send the rest.`,
      { file: shownName },
    );
  }
  const plan = job.plan(validation.valid);
  const requests = Math.ceil(validation.valid / plan.batchSize);
  if (job.flags.dryRun) {
    log.info(
      `${job.name}: dry run; would send ${validation.valid} ${job.unit} in ${requests} requests ${plan.description}.`,
    );
    return;
  }

  unchanged();
  const reported = job.flags.resume ? new LineSet() : undefined;
  const done = job.flags.resume ? await readDoneLines(job.flags.resume, reported) : undefined;
  const pacer = new Pacer(context.clock, job.flags.rate, (message) => log.debug(`${job.name}: ${message}`));
  const client = await context.platform({
    connections: job.flags.concurrency,
    pace: pacer,
    retries: job.flags.retries,
    timeoutMs: job.flags.timeoutMs,
  });
  unchanged();
  const secondPass = await openCommandInput(context, readPath, job.flags, job.catalogue, {
    quietWarnings: true,
    displayName: shownName,
  });
  const ledger = await RunLedger.open({
    context,
    inputPath: job.file,
    input: secondPass,
    reportPath: job.flags.report,
    resumeFrom: job.flags.resume,
    unit: job.unit,
    total: Math.max(0, validation.valid - (done?.count ?? 0)),
  });
  const skipped = done ? ` (${done.count} already done by the resumed run)` : '';
  log.info(
    `${job.name}: sending ${validation.valid} ${job.unit}${skipped} in up to ${requests} requests ${plan.description} (concurrency ${job.flags.concurrency}${job.flags.rate ? `, at most ${job.flags.rate} requests/s` : ''})`,
  );

  // Requests already sent finish even after Ctrl-C: their answers belong in the report.
  const inFlight = new AbortController().signal;
  // Every request in flight and its back-off sleep listen on this one signal: --concurrency of them
  // is the design, not a leak, and Node's warning at 11 would land in the operator's log.
  setMaxListeners(0, inFlight);
  let unavailableInARow = 0;
  const sendBatch = async (batch: PendingRecord<T>[]) => {
    try {
      ledger.record(await job.sendBatch(client, batch, inFlight));
      unavailableInARow = 0;
    } catch (error) {
      // Refused credentials (401 after re-login, 403) stop the run: every other request would be refused too.
      const refused =
        error instanceof AuthError || (error instanceof PlatformError && error.exitCode === ExitCode.authFailed);
      if (refused || !(error instanceof UnavailableError || error instanceof PlatformError)) throw error;
      const status = error instanceof PlatformError ? error.status : undefined;
      ledger.record(
        batch.map(({ line, key, original }) => ({
          row: { line, key, outcome: 'failed', status, message: error.message },
          original,
        })),
      );
      if (error instanceof UnavailableError && ++unavailableInARow >= unavailableBatchesBeforeStopping) throw error;
    }
  };
  let interrupted = false;
  let stoppedBy: unknown;
  try {
    ({ interrupted } = await runPool(
      pendingBatches(job, secondPass.records, ledger, done, reported, plan.batchSize),
      sendBatch,
      { concurrency: job.flags.concurrency, signal: context.interrupt },
    ));
  } catch (error) {
    stoppedBy = error;
  } finally {
    ledger.close();
  }

  const stats = client.http.stats;
  const seconds = ledger.elapsedSeconds();
  const sent = job.sentOutcomes.reduce((total, outcome) => total + ledger.count(outcome), 0);
  log.info(
    `${job.name}: ${ledger.outcomeSummary(job.outcomes)}; ${stats.requests} requests, ${stats.retries} retries, ${stats.throttled} throttled (429); ${seconds.toFixed(1)} s, ${Math.round(sent / Math.max(seconds, 0.001))} ${job.unit}/s`,
  );
  for (const line of ledger.filesSummary()) log.info(`${job.name}: ${line}`);
  const resumeHint = `b2bctl ${job.name} ${job.file}${job.resumeFlags ? ` ${job.resumeFlags}` : ''} --resume ${ledger.report.path}`;
  if (stoppedBy instanceof UnavailableError) {
    throw new UnavailableError(
      `${stoppedBy.message} Stopped after ${unavailableBatchesBeforeStopping} failed requests in a row; when the platform is back, run: ${resumeHint}`,
    );
  }
  if (stoppedBy !== undefined) throw stoppedBy;
  if (interrupted)
    throw new InterruptedError(
      `Interrupted; the requests in flight were finished and reported. Resume with: ${resumeHint}`,
    );
  if (ledger.failures > 0) {
    throw new PartialFailureError(
      `${ledger.failures} ${job.unit} did not go through (${ledger.outcomeSummary(['rejected', 'invalid', 'failed'])}); the report and the errors file say why.`,
    );
  }
}

/**
 * The valid, not-yet-done records of the second pass, in batches. The records are judged again (the
 * checks are deterministic), so no list of problems is held from the first pass; invalid ones go
 * straight to the report.
 */
async function* pendingBatches<T>(
  job: BulkJob<T>,
  records: AsyncIterable<InputRecord>,
  ledger: RunLedger,
  done: LineSet | undefined,
  reported: LineSet | undefined,
  batchSize: number,
): AsyncGenerator<PendingRecord<T>[]> {
  const checker = job.newChecker();
  let batch: PendingRecord<T>[] = [];
  for await (const record of records) {
    const verdict = checker.judge(record);
    if (done?.has(record.line)) continue;
    if (!verdict.ok) {
      ledger.record([
        {
          row: {
            line: record.line,
            key: job.keyOf(record),
            outcome: 'invalid',
            message: verdict.problems.map((problem) => problem.message).join('; '),
          },
          original: record.original,
        },
      ]);
      continue;
    }
    const unanswered = reported !== undefined && !reported.has(record.line);
    batch.push({
      line: record.line,
      key: job.keyOf(record),
      value: verdict.value,
      original: record.original,
      ...(unanswered ? { unanswered } : {}),
    });
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
