import type { ReportRow } from './report.js';

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
