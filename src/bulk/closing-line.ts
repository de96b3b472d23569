import type { Context } from '../context.js';
import { B2bctlError, ExitCode, exitCodeOf, OutputError, UsageError } from '../base/errors.js';
import { isClosedPipe, writeClaimingFailure } from '../io/output/closed-output.js';
import { countOf } from '../lib/plural.js';
import type { Outcome } from './report.js';
import { printable } from '../lib/printable.js';

/** What a bulk run learnt by its end, for the last line of its log. Filled in stage by stage. */
export interface RunTally {
  /** The input as the operator named it (`stdin` for `-`). */
  file: string;
  profile?: string;
  baseUrl?: string;
  /** `1998 applied, 2 rejected, 98400 not sent`, or what validation found when nothing was sent. */
  counts?: string;
  /** The same counts by name, for `--log-format json`. */
  outcomes?: Record<string, number>;
  /** The report of a run that sent, as its summary names it. */
  report?: string;
}

/** What the closing line counts: the records this run was to send, and the invalid ones validation let through. */
export interface ClosingCounts {
  tally: RunTally;
  /** Valid records not done by the resumed run. */
  toSend: number;
  /** Records validation found invalid and --skip-invalid reported: never to be sent. */
  invalidRecorded: number;
}

/**
 * `stock push: estoque.csv to profile "prod" (https://…): 1998 applied, 2 rejected; exit 1` — the line a cron
 * log ends with, so the night's result is read from one line whatever came before.
 */
export function closingLine(name: string, tally: RunTally, exitCode: number): string {
  const store =
    tally.profile === undefined ? '' : ` to profile "${tally.profile}"${tally.baseUrl ? ` (${tally.baseUrl})` : ''}`;
  return `${name}: ${printable(tally.file)}${store}: ${tally.counts ?? 'nothing read'}; exit ${exitCode}`;
}

/** Off a terminal (cron, a file) and with --quiet, where it is the one line kept. */
export function closingLineWanted(context: Context): boolean {
  return !context.io.isStderrTTY || context.globals.quiet;
}

/**
 * `-o json` or `ndjson` asked of a bulk run: its summary as one JSON object on stdout, for a script (`| jq`). The
 * records themselves are the report's rows; a run prints no data otherwise.
 */
export function summaryWanted(context: Context): boolean {
  return context.globals.output === 'json' || context.globals.output === 'ndjson';
}

/**
 * The summary of a run a second Ctrl-C stops at once, written before its closing line as any run's (docs/bulk-runs.md):
 * the process ends right after, so it is written at once, as a file or a pipe takes it (Node writes either
 * synchronously on Linux); a script reading it gets an object in just the case where requests may have been applied.
 */
export function writeSummaryAtOnce(context: Context, fields: Record<string, unknown>): void {
  if (summaryWanted(context)) context.io.stdout.write(`${JSON.stringify(fields)}\n`);
}

/** The closing line's facts by name, for `--log-format json` and `-o json`. */
export function closingFields(name: string, tally: RunTally, exitCode: number): Record<string, unknown> {
  return {
    command: name,
    file: tally.file,
    profile: tally.profile,
    baseUrl: tally.baseUrl,
    ...(tally.outcomes ? { outcomes: tally.outcomes } : {}),
    exitCode,
  };
}

/**
 * Runs a bulk job and ends its log with its closing line: off a terminal (cron, a file) and with --quiet, where
 * it is the one line kept. A failure's line goes after its error message (run-program prints `closingLine`).
 */
export async function withClosingLine(
  name: string,
  tally: RunTally,
  context: Context,
  work: () => Promise<void>,
): Promise<void> {
  const wanted = closingLineWanted(context);
  const fields = (exitCode: number) => closingFields(name, tally, exitCode);
  const asJson = summaryWanted(context);
  // Written, or failed, before the closing line: that line is the log's last and carries the process's exit code.
  const printSummary = async (exitCode: number) => {
    if (!asJson) return undefined;
    const failure = await writeClaimingFailure(context.io.stdout, `${JSON.stringify(fields(exitCode))}\n`);
    // A reader that stopped early (`| head`) wanted no more: not a failure of the run.
    return failure === undefined || isClosedPipe(failure) ? undefined : failure;
  };
  try {
    await work();
  } catch (error) {
    const exitCode = exitCodeOf(error);
    // The run's own failure stays what it ends with (its exit code, its resume line); the lost summary is said first.
    const unprinted = await printSummary(exitCode);
    if (unprinted) context.log.error(`error: ${summaryNotPrinted(unprinted, context)}.`);
    if (wanted && error instanceof B2bctlError)
      error.closingLine = { message: closingLine(name, tally, exitCode), fields: fields(exitCode) };
    throw error;
  }
  const unprinted = await printSummary(ExitCode.ok);
  if (unprinted) {
    const error = new OutputError(
      `${summaryNotPrinted(unprinted, context)}; the run itself is done (${tally.counts ?? 'nothing read'})${tally.report ? `, and its report has every outcome: ${printable(tally.report)}` : ''}. Nothing needs sending again: make room, or write stdout elsewhere, next time.`,
      { cause: unprinted },
    );
    if (wanted)
      error.closingLine = { message: closingLine(name, tally, error.exitCode), fields: fields(error.exitCode) };
    throw error;
  }
  if (wanted) context.log.notice(closingLine(name, tally, 0), fields(0));
}

/**
 * A usage error for `-o csv` asked of a bulk run: it has no CSV to print (its records are the report's rows, its
 * summary an object), and printing nothing left a script writing an empty file and going on. Asked before anything is
 * read. `-o table` is the human view, on stderr as on a terminal; no `-o` prints no data either, even piped: a cron
 * job's log or mail keeps the closing line alone (docs/cron.md).
 */
export function refuseFormatWithoutData(context: Context): void {
  if (context.globals.output !== 'csv') return;
  throw new UsageError(
    `-o csv: a bulk run prints no CSV; its records are the report's rows (a CSV file, --excel alone for a pt-BR Excel), and -o json or -o ndjson prints the run's summary. Nothing was sent.`,
  );
}

/** What a failed write of the run's JSON summary lost: `cannot write to stdout (ENOSPC): …`. */
function summaryNotPrinted(failure: NodeJS.ErrnoException, context: Context): string {
  return `cannot write to stdout (${failure.code ?? failure.message}): the run's summary (-o ${context.globals.output}) was not printed`;
}

/** What validation found, for a run that ends before sending: `3 records, 2 valid, 1 invalid; nothing sent`. */
export function validationCounts(
  validation: { records: number; valid: number; invalid: number },
  dryRun: boolean,
): string {
  return `${countOf(validation.records, 'records')}, ${validation.valid} valid, ${validation.invalid} invalid; ${dryRun ? 'dry run, ' : ''}nothing sent`;
}

/**
 * The outcomes of a run that sent, and the valid records it never reached (`toSend` minus every one recorded):
 * a run stopped by an unreachable store must say how much of the file is still to go. `sentUnanswered`: records of
 * requests written and never answered, none of them in the report (a run stopped at once by a second Ctrl-C): they
 * may have been applied, so they are `unknown`, not "not sent".
 */
export function sendingCounts(
  order: readonly Outcome[],
  ledger: { answered(outcome: Outcome): number; recorded: number; notInReport: number },
  toSend: number,
  invalidRecorded: number,
  sentUnanswered = 0,
): { counts: string; outcomes: Record<string, number>; notSent: number } {
  // The report also holds the records validation found invalid (--skip-invalid): they were never to be sent. Answers
  // the report could not hold (a full disk) were sent all the same.
  const unreported = Math.max(0, toSend - (ledger.recorded + ledger.notInReport - invalidRecorded));
  const unknown = Math.min(sentUnanswered, unreported);
  const notSent = unreported - unknown;
  const outcomes: Record<string, number> = {};
  for (const outcome of order) {
    const count = ledger.answered(outcome) + (outcome === 'unknown' ? unknown : 0);
    if (count > 0) outcomes[outcome] = count;
  }
  if (unknown > 0 && !order.includes('unknown')) outcomes.unknown = unknown;
  if (notSent > 0) outcomes['not sent'] = notSent;
  const counts = Object.entries(outcomes).map(([outcome, count]) => `${count} ${outcome}`);
  return { counts: counts.length > 0 ? counts.join(', ') : 'nothing sent', outcomes, notSent };
}
