import { recordPlace } from '../io/input/opened-input.js';
import { lineBreaksAsSpaces } from '../lib/one-line.js';
import { countOf } from '../lib/plural.js';
import type { RecordPlace, ReportRow } from './report.js';

/** The reasons the closing lines name, the most common first; the rest are counted in one line. */
const reasonsShown = 3;
/** Distinct reasons kept: a run whose every failure reads differently must not hold them all in memory. */
const reasonsKept = 1000;
/** A platform's message can be a page long: on a terminal the closing lines stay a screen line or two each. */
const longestMessageShown = 200;
/**
 * Off a terminal (a cron log, a journal) nothing limits the width, and a log is read later, without the run at hand:
 * the message is written whole, bounded only against a platform that writes pages into one field.
 */
const longestMessageLogged = 2000;

interface Reason {
  /** The message of its first record in the input (the lowest line, not the first answered), as the report holds it. */
  message: string;
  first: ReportReasonRow;
  records: number;
}

type ReportReasonRow = Pick<ReportRow, 'line' | 'row' | 'column' | 'element' | 'message' | 'outcome' | 'fixedBy'>;

/**
 * Why the sent records that failed did, for the closing lines: a run where all 300 customers fail (registered
 * already) said why only inside its report, so the screen gave neither the cause nor its fix. Messages that differ
 * only in the words that name the record (its document, SKU, e-mail, a line or an amount) are one reason, shown by
 * its first record's message; the platform's own wording is shown as it came, never read.
 */
export class FailureReasons {
  private readonly reasons = new Map<string, Reason>();
  /** Failures whose reason came after `reasonsKept` others: counted, not told apart. */
  private untold = 0;
  private lastKey: { message: string; key: string } | undefined;
  /** The flags some failed record needs and nothing else (`upsert`): the feed-back command carries them. */
  readonly fixFlags = new Set<string>();

  add(row: ReportReasonRow): void {
    if (row.fixedBy !== undefined) this.fixFlags.add(row.fixedBy);
    const message = row.message ?? row.outcome;
    // A word with a digit or an @ names the record (a CPF, an alphanumeric CNPJ, a SKU, an e-mail), not the reason.
    // Kept for the next record: a file wrong in every row repeats one message half a million times.
    if (message !== this.lastKey?.message) this.lastKey = { message, key: message.replace(/\S*[\d@]\S*/g, '#') };
    const { key } = this.lastKey;
    const reason = this.reasons.get(key);
    if (reason !== undefined) {
      reason.records++;
      // Answers come in any order under concurrency: the line named is the reason's first in the file.
      if (comesBefore(row, reason.first)) Object.assign(reason, { message, first: row });
    } else if (this.reasons.size < reasonsKept) this.reasons.set(key, { message, first: row, records: 1 });
    else this.untold++;
  }

  /**
   * `why, 300 customers (first at line 2): Document … is already registered …`, a line per reason, the most common
   * first; the reasons past the first three in one more line that sends to the report. A bulk run's problem lines past
   * the ones it prints (ProblemLines) are summed up alike, with their own `lead` and place for the rest (`listedIn`).
   */
  closingLines(unit: string, options: { toTerminal: boolean; lead?: string; listedIn?: string }): string[] {
    const { lead = 'why, ', listedIn = 'in the report' } = options;
    const longest = options.toTerminal ? longestMessageShown : longestMessageLogged;
    const reasons = [...this.reasons.values()].toSorted((one, other) => other.records - one.records);
    const lines = reasons
      .slice(0, reasonsShown)
      .map(
        ({ message, first, records }) =>
          `${lead}${countOf(records, unit)} (${records === 1 ? 'line' : 'first at line'} ${recordPlace(first)}): ${shortMessage(message, longest)}`,
      );
    const others = reasons.slice(reasonsShown);
    const otherRecords = others.reduce((total, reason) => total + reason.records, this.untold);
    if (otherRecords > 0)
      lines.push(
        `${lead}${countOf(otherRecords, `other ${unit}`)}: ${this.untold > 0 ? 'other reasons' : countOf(others.length, 'other reasons')}, ${listedIn}`,
      );
    return lines;
  }
}

function shortMessage(message: string, longest: number): string {
  const line = lineBreaksAsSpaces(message);
  return line.length > longest ? `${line.slice(0, longest)}…` : line;
}

/** Whether a record comes earlier in the input: by line, then column (elements of a JSON array on one line). */
export function comesBefore(one: RecordPlace, other: RecordPlace): boolean {
  return one.line !== other.line ? one.line < other.line : (one.column ?? 0) < (other.column ?? 0);
}
