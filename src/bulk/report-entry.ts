import type { ReportRow } from './report.js';

/**
 * A report row and its record. `unanswered`: a resumed run's record the interrupted run may have sent without seeing
 * the answer (PendingRecord.unanswered), which the ledger keeps out of the errors file when it ends `unknown` and the
 * resume asks the platform first (LedgerOptions.resumeAsksFirst).
 */
export type ReportEntry = { row: ReportRow; original: unknown; unanswered?: boolean };

/** A report entry that reads the record's original only when asked: the ledger asks for failures only. */
class EntryOfRecord implements ReportEntry {
  readonly row: ReportRow;
  private readonly record: { readonly original: unknown; readonly unanswered?: boolean };
  constructor(row: ReportRow, record: { readonly original: unknown; readonly unanswered?: boolean }) {
    this.row = row;
    this.record = record;
  }

  get original(): unknown {
    return this.record.original;
  }

  get unanswered(): boolean {
    return this.record.unanswered === true;
  }
}

/** The report entry of a sent record; its cells as written are parsed from the spool only if it failed. */
export function reportEntry(
  row: ReportRow,
  record: { readonly original: unknown; readonly unanswered?: boolean },
): ReportEntry {
  return new EntryOfRecord(row, record);
}
