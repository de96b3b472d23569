import { UsageError } from '../errors.js';
import type { InputRecord } from '../io/input/open-input.js';
import type { BulkJob, PendingRecord } from './bulk-job.js';
import type { LineKeys, LineSet } from './resume.js';
import type { RunLedger } from './run-ledger.js';

/**
 * The first pass's records, each checked against the resumed report's key for its line: a report of
 * another file with the same first bytes is refused before anything is sent.
 */
export async function* keysChecked<T>(
  records: AsyncIterable<InputRecord>,
  keys: LineKeys,
  job: BulkJob<T>,
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
 * The valid, not-yet-done records of the second pass, in batches. The records are judged again (the
 * checks are deterministic), so no list of problems is held from the first pass; invalid ones go
 * straight to the report.
 */
export async function* pendingBatches<T>(
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
