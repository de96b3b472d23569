import type { HttpClientTuning } from '../context.js';
import type { DecimalSeparator } from '../io/input/cell-values.js';
import type { TextEncoding } from '../io/input/sniff.js';

/** How to read an input file (docs/input-files.md). */
export interface InputFlags {
  /** `--map FILE.json`: the ERP's headers to our field names. */
  map?: string;
  delimiter?: string;
  encoding?: TextEncoding;
  decimal?: DecimalSeparator;
  /** Unknown columns are errors instead of warnings. */
  strict: boolean;
  /** `--write-map FILE`: read the columns named as an ERP names them, and save the map that reads them to FILE. */
  writeMap?: string;
  /** `--ignore-column NAME` (repeatable): columns whose data is left out on purpose. */
  ignoreColumns?: readonly string[];
  /** `--sheet NAME|N`: the sheet of a workbook to read. */
  sheet?: string;
}

/** How to send a bulk run (docs/bulk-runs.md, "Sending"). */
export interface SendFlags {
  /** Requests in flight; undefined when not given (sendingConcurrency gives the default). */
  concurrency?: number;
  /** Requests per second; undefined for as fast as concurrency and the platform allow. */
  rate?: number;
  retries?: number;
  timeoutMs?: number;
  report?: string;
  /** `--errors PATH`: where failed and invalid records go (default: beside the report). */
  errors?: string;
  resume?: string;
  /** `--keep-reports N`: keep the files of the N newest runs of this input, remove older ones. */
  keepReports?: number;
  dryRun: boolean;
  skipInvalid: boolean;
  /** `--min-records N`: fewer records in the input is an error (exit 65), for a cron job fed an empty export. */
  minRecords?: number;
}

/**
 * The tuning of a command's one request from its bulk flags: only --retries and --timeout apply to one. The command
 * takes --timeout, so a time-out's advice names it.
 */
export function oneRequestTuning(flags: SendFlags): HttpClientTuning {
  return { retries: flags.retries, timeoutMs: flags.timeoutMs, timeoutFlag: true };
}
