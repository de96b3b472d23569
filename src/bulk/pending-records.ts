import { UsageError } from '../base/errors.js';
import { type InputRecord, recordPlace } from '../io/input/open-input.js';
import { countOf } from '../lib/plural.js';
import { placeOf, type RecordPlace } from './report.js';
import type { PlaceKeys, PlaceSet, UnknownPlaces } from './resume.js';
import type { RunLedger } from './run-ledger.js';
import type { SpooledRecord } from './verdict-spool.js';
import { printable } from '../lib/printable.js';

/** A valid record waiting to be sent, with where it came from. */
export interface PendingRecord<T> extends RecordPlace {
  readonly key: string;
  /** Parsed from the spool when first asked for. */
  readonly value: T;
  /** The value as JSON text, as JSON.stringify wrote it: a request body can hold it as it is. */
  readonly json: string;
  /** The cells (or JSON value) as written, parsed from the spool when first asked for: only a failure needs them. */
  readonly original: unknown;
  /**
   * Resumed runs only: the report has no row for this record, so the interrupted run may have sent it
   * and died before the answer came (a SIGKILL, a crash). Matters only where sending twice does.
   */
  unanswered?: boolean;
  /**
   * Resumed runs only: the report's row says `unknown` (the interrupted run sent it and could not tell whether it
   * went through, and said the resume would ask first). Matters only where sending twice does.
   */
  reportedUnknown?: boolean;
  /** Resumed runs only: the HTTP status the report's `unknown` row recorded, if any (a 5xx, a 2xx that refused). */
  reportedStatus?: number;
}

/** The places the resumed report has done, has a row for (other than `unknown`), and has an `unknown` row for. */
export interface ResumedPlaces {
  done: PlaceSet;
  reported: PlaceSet;
  unknown: UnknownPlaces;
}

/** What these generators need of a bulk job (bulk-job.ts's BulkJob has it all). */
interface JobRecords {
  flags: { resume?: string };
  keyOf(record: InputRecord): string;
}

/**
 * The first pass's records, each checked against the resumed report's key for its place: a report of
 * another file with the same first bytes is refused before anything is sent. So is a report with rows
 * for places the input has none at: the rows of another file, or a report of a minified JSON file
 * written before rows named the element (every row `1`), whose done records could not be told apart.
 */
export async function* keysChecked(
  records: AsyncIterable<InputRecord>,
  report: { keys: PlaceKeys; reported: PlaceSet },
  job: JobRecords,
  shownName: string,
): AsyncGenerator<InputRecord> {
  let placesFound = 0;
  let elementsPlaced = false;
  for await (const record of records) {
    const key = job.keyOf(record);
    const place = placeOf(record);
    if (!report.keys.matches(place, key))
      throw otherRecordInReport(job.flags.resume, place, key, report.keys, shownName);
    if (report.reported.has(place)) placesFound++;
    if (place.element !== undefined) elementsPlaced = true;
    yield record;
  }
  const unmatched = report.reported.count - placesFound;
  if (unmatched === 0) return;
  const olderReport = elementsPlaced && report.reported.elements.count === 0;
  throw new UsageError(
    `Cannot resume from ${printable(String(job.flags.resume))}: it has rows for ${countOf(unmatched, 'places')} where ${shownName} has no record${
      olderReport
        ? ` (${shownName} holds several records on a line, and the report names lines only, as b2bctl wrote reports before it named the element; such a report cannot tell its records apart)`
        : '; it is the report of another file'
    }. Nothing was sent.`,
  );
}

/**
 * A resumed report whose row names another record than the input at the same place. A key that lost its leading
 * zeros (`1` for `0000001`) is a report opened and saved again in a spreadsheet, not another file's: said so, with
 * the way out, since "the report of another file" sent the operator looking for a file that was never there.
 */
function otherRecordInReport(
  reportPath: string | undefined,
  place: RecordPlace,
  key: string,
  keys: PlaceKeys,
  shownName: string,
): UsageError {
  const row = place.element === undefined ? `line ${place.line}` : `element ${place.element}`;
  const unpadded = key.replace(/^0+(?=.)/, '');
  const why =
    unpadded !== key && keys.matches(place, unpadded)
      ? `names ${unpadded} where ${shownName}:${recordPlace(place)} has ${key}: its keys lost their leading zeros, as a spreadsheet drops them when it opens and saves a CSV. Resume from the report as b2bctl wrote it (or a copy whose key column was kept as text)`
      : `names another record than ${key} on ${shownName}:${recordPlace(place)}; it is the report of another file`;
  return new UsageError(
    `Cannot resume from ${printable(String(reportPath))}: its row for ${row} ${why}. Nothing was sent.`,
  );
}

/**
 * The valid, not-yet-done records, in batches, from the verdicts the validation pass spooled (the input
 * is not read again); invalid ones go straight to the report, in file order as before.
 */
export async function* pendingBatches<T>(
  judged: AsyncIterable<SpooledRecord<T>[]>,
  ledger: RunLedger,
  resume: ResumedPlaces | undefined,
  batchSize: number,
  skippedInvalid?: (record: { key: string; line: number }) => void,
  position?: { records: number },
): AsyncGenerator<PendingRecord<T>[]> {
  let batch: PendingRecord<T>[] = [];
  for await (const records of judged) {
    for (const record of records) {
      if (position) position.records++;
      if (resume?.done.has(record)) continue;
      if (record.message !== undefined) {
        recordInvalid(record, record.message, ledger, resume, skippedInvalid);
        continue;
      }
      // The spooled record itself goes on, not a copy: its value and cells stay unparsed unless needed.
      if (resume !== undefined && !resume.reported.has(record)) {
        record.unanswered = true;
        if (resume.unknown.has(record)) {
          record.reportedUnknown = true;
          record.reportedStatus = resume.unknown.statusOf(record);
        }
      }
      batch.push(record as PendingRecord<T>);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/** An invalid record of a --skip-invalid run, written to the report and the errors file (a resume's: counted again). */
function recordInvalid<T>(
  record: SpooledRecord<T>,
  message: string,
  ledger: RunLedger,
  resume: ResumedPlaces | undefined,
  skippedInvalid?: (record: { key: string; line: number }) => void,
): void {
  if (resume?.reported.has(record)) {
    // A resume: its report says so already.
    ledger.recountInvalid({
      original: record.original,
      message,
      row: record.row ?? record.line,
      line: record.line,
      element: record.element,
    });
  } else
    ledger.record([
      {
        row: { ...placeOf(record), key: record.key, outcome: 'invalid', message },
        original: record.original,
      },
    ]);
  skippedInvalid?.(record);
}

/**
 * The invalid records past the first `reached` of the verdicts, after a --skip-invalid run stopped before reaching
 * them (Ctrl-C, an unavailable platform): they were found invalid before anything was sent, so the report and the
 * errors file hold them as `invalid`, not "not sent", which a resume would send (a user test).
 */
export async function recordInvalidLeft<T>(
  judged: AsyncIterable<SpooledRecord<T>[]>,
  reached: number,
  ledger: RunLedger,
  resume: ResumedPlaces | undefined,
  skippedInvalid?: (record: { key: string; line: number }) => void,
): Promise<void> {
  let seen = 0;
  for await (const records of judged) {
    for (const record of records) {
      if (seen++ < reached || resume?.done.has(record) || record.message === undefined) continue;
      recordInvalid(record, record.message, ledger, resume, skippedInvalid);
    }
  }
}
