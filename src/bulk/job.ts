import type { InputRecord } from '../io/input/open-input.js';
import type { FieldCatalogue } from '../io/input/record-shape.js';
import type { PlatformClient } from '../platform/client.js';
import type { InputFlags, SendFlags } from './flags.js';
import type { PendingRecord } from './pending-records.js';
import type { ReportEntry } from './report-entry.js';
import type { PlaceSet } from './resume.js';
import type { Outcome } from './report.js';
import type { ShapingFlag, ShapingValue } from './run-meta.js';
import type { RecordChecker } from './validation-pass.js';
import type { ListingCommand } from './problem-lines.js';
import type { Session } from '../config/session.js';

/**
 * What differs between bulk commands; everything else (docs/bulk-runs.md) is the same for all. T is a
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
  /**
   * The command's own set-up that may refuse the run (a setting it reads: stock.schema, orders.routes), given the
   * profile once the run has opened it. Called inside the run, before the input is read, so that a refusal, like the
   * profile's own (a config folder another user owns), ends with the closing line a cron log is read by.
   */
  prepare?(session: Session): void;
  /**
   * Values the platform takes but that look wrong (a state registration whose check digit fails): logged as
   * warnings while the file is validated, as `validate` prints them, and sent all the same.
   */
  advisories?(record: InputRecord): readonly { message: string }[];
  /** The record's key in the report (SKU, document), read from the record even when it is invalid. */
  keyOf(record: InputRecord): string;
  /**
   * A resumed run: the places its report shows done, told before the input is checked (so before any keyOf), for a
   * job that prepares for the records it will send (orders update reads only the orders with moves left).
   */
  resuming?(done: PlaceSet): void;
  /**
   * The command's own flags that decide where and how records go (`--route`, `--upsert`), recorded
   * beside the report and restored into `flags` or checked by `--resume`, before plan().
   */
  shaping?: readonly ShapingFlag[];
  /**
   * The validate command that lists every problem of the file, named when a run prints only the first ones (decision
   * 0036); none for a command that has no validate (then the errors file of a --skip-invalid run lists them).
   */
  listedBy?: ListingCommand;
  /** Takes a per-profile lock under this name, so two runs never overlap (cron jobs). */
  lockName?: string;
  /**
   * The JSON text the spool keeps of a valid record, in the form sendBatch sends it (stock: the wire item, whose
   * JSON then goes into the request as it is). Called during the validation pass. Default: JSON.stringify(value).
   */
  sendJson?(value: T): string;
  /** Chooses the batch size once the valid count is known; may log the choice or refuse (usage error). */
  plan(valid: number): SendPlan;
  /**
   * What a resume does with a record this run left `unknown` (sent, its answer never seen), said by the line that
   * offers the resume: `asks first` when it asks the platform before sending (a customer create looks the customer
   * up, an orders update reads the order's status), `sends again` when it sends the record as it is, which repeating
   * cannot harm (a stock item's absolute values, a customer update's or status change's same request).
   */
  resumeOfUnknown: 'asks first' | 'sends again';
  /** False when a record whose outcome is unknown is no record to feed back (see LedgerOptions.unknownToFeedBack). */
  unknownToFeedBack?: boolean;
  /** What a dry run, which reads nothing of the platform, leaves to the real run to find: said after its line. */
  dryRunLeaves?: string;
  /**
   * What a resume does first with the records its report shows only `unknown`, when it asks the platform about them
   * before sending (customer create looks each one up): said by a dry run of the resume, given how many there are.
   */
  resumedUnknownFirst?(records: number): string;
  /**
   * What the run learnt while sending that the next run should know (stock push: the smaller batch a 413 taught),
   * said as a warning once sending ends, however it ends: after the summary, before the closing line.
   */
  sendingLesson?(): string | undefined;
  /** Sends a batch and reports every record of it. Throwing UnavailableError or PlatformError fails the batch. */
  sendBatch(client: PlatformClient, batch: PendingRecord<Sent>[], signal: AbortSignal): Promise<ReportEntry[]>;
  /**
   * Told of each invalid record `--skip-invalid` passes over, in file order, before any record after it is sent
   * (orders update holds back the later moves of that order).
   */
  skippedInvalid?(record: { key: string; line: number }): void;
  /** The order outcomes are listed in the summary. */
  outcomes: readonly Outcome[];
  /** Outcomes that count as sent, for the rate in the summary. */
  sentOutcomes: readonly Outcome[];
}

/** How a bulk job's valid records will be sent. */
export interface SendPlan {
  batchSize: number;
  /** `of up to 50 items through the batch route`, for the log lines. */
  description: string;
  /**
   * Shaping flags as this run applies them, where that differs from what was given (stock push's `--route auto`
   * becomes the route taken): recorded for --resume, so the rest of the file goes the same way.
   */
  flagsAsRun?: Record<string, ShapingValue>;
}
