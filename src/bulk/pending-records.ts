import { UsageError } from '../errors.js';
import type { InputRecord } from '../io/input/open-input.js';
import type { RecordChecker } from './validation-pass.js';
import type { LineKeys, LineSet } from './resume.js';
import type { RunLedger } from './run-ledger.js';
import type { JudgedRecord } from './verdict-spool.js';

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

/** What these generators need of a bulk job (bulk-job.ts's BulkJob has it all). */
interface JobRecords<T> {
  flags: { resume?: string };
  newChecker(): RecordChecker<T>;
  keyOf(record: InputRecord): string;
}

/**
 * The first pass's records, each checked against the resumed report's key for its line: a report of
 * another file with the same first bytes is refused before anything is sent.
 */
export async function* keysChecked<T>(
  records: AsyncIterable<InputRecord>,
  keys: LineKeys,
  job: JobRecords<T>,
  shownName: string,
): AsyncGenerator<InputRecord> {
  for await (const record of records) {
    const key = job.keyOf(record);
    if (!keys.matches(record.line, key))
      throw new UsageError(
        `Cannot resume from ${job.flags.resume}: its row for line ${record.line} names another record than ${shownName}:${record.line} (${key}); it is the report of another file. Nothing was sent.`,
      );
    yield record;
  }
}

/**
 * The valid, not-yet-done records, in batches, from the verdicts the validation pass spooled (the input
 * is not read again); invalid ones go straight to the report, in file order as before.
 */
export async function* pendingBatches<T>(
  judged: AsyncIterable<JudgedRecord<T>[]>,
  ledger: RunLedger,
  done: LineSet | undefined,
  reported: LineSet | undefined,
  batchSize: number,
): AsyncGenerator<PendingRecord<T>[]> {
  let batch: PendingRecord<T>[] = [];
  for await (const records of judged) {
    for (const record of records) {
      if (done?.has(record.line)) continue;
      if (record.message !== undefined) {
        ledger.record([
          {
            row: { line: record.line, key: record.key, outcome: 'invalid', message: record.message },
            original: record.original,
          },
        ]);
        continue;
      }
      const unanswered = reported !== undefined && !reported.has(record.line);
      batch.push({
        line: record.line,
        key: record.key,
        value: record.value as T,
        original: record.original,
        ...(unanswered ? { unanswered } : {}),
      });
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
