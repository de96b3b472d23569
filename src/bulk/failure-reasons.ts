import { recordPlace } from '../io/input/opened-input.js';
import { countOf } from '../lib/plural.js';
import type { ReportRow } from './report.js';

/** The reasons the closing lines name, the most common first; the rest are counted in one line. */
const reasonsShown = 3;
/** Distinct reasons kept: a run whose every failure reads differently must not hold them all in memory. */
const reasonsKept = 1000;
/** A platform's message can be a page long: the closing lines stay one line each. */
const longestMessageShown = 200;

interface Reason {
  /** The message of its first record, as the report holds it. */
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
  /** The flags some failed record needs and nothing else (`upsert`): the feed-back command carries them. */
  readonly fixFlags = new Set<string>();

  add(row: ReportReasonRow): void {
    if (row.fixedBy !== undefined) this.fixFlags.add(row.fixedBy);
    const message = row.message ?? row.outcome;
    // A word with a digit or an @ names the record (a CPF, an alphanumeric CNPJ, a SKU, an e-mail), not the reason.
    const key = message.replace(/\S*[\d@]\S*/g, '#');
    const reason = this.reasons.get(key);
    if (reason !== undefined) reason.records++;
    else if (this.reasons.size < reasonsKept) this.reasons.set(key, { message, first: row, records: 1 });
    else this.untold++;
  }

  /**
   * `why, 300 customers (first at line 2): Document … is already registered …`, a line per reason, the most common
   * first; the reasons past the first three in one more line that sends to the report.
   */
  closingLines(unit: string): string[] {
    const reasons = [...this.reasons.values()].toSorted((one, other) => other.records - one.records);
    const lines = reasons
      .slice(0, reasonsShown)
      .map(
        ({ message, first, records }) =>
          `why, ${countOf(records, unit)} (${records === 1 ? 'line' : 'first at line'} ${recordPlace(first)}): ${shortMessage(message)}`,
      );
    const others = reasons.slice(reasonsShown);
    const otherRecords = others.reduce((total, reason) => total + reason.records, this.untold);
    if (otherRecords > 0)
      lines.push(
        `why, ${countOf(otherRecords, `other ${unit}`)}: ${this.untold > 0 ? 'other reasons' : countOf(others.length, 'other reasons')}, in the report`,
      );
    return lines;
  }
}

function shortMessage(message: string): string {
  const oneLine = message.replace(/\s*[\r\n]+\s*/g, ' ');
  return oneLine.length > longestMessageShown ? `${oneLine.slice(0, longestMessageShown)}…` : oneLine;
}
