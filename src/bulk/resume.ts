import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { InputError } from '../base/errors.js';
import { restoreDigitsGuard, restoreFormula } from '../io/output/csv-format.js';
import { doneOutcomes, headerLine, parsePlace, type RecordPlace, reportDelimiterOf } from './report.js';
import { printable } from '../lib/printable.js';

/** A set of input line numbers, one bit per line: flat memory for a million-line file. */
export class LineSet {
  private bits = new Uint8Array(1024);
  count = 0;

  add(line: number): void {
    if (line >> 3 >= this.bits.length) {
      const grown = new Uint8Array(Math.max(this.bits.length * 2, (line >> 3) + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    const mask = 1 << (line & 7);
    if (!((this.bits[line >> 3] as number) & mask)) this.count++;
    this.bits[line >> 3] = (this.bits[line >> 3] as number) | mask;
  }

  has(line: number): boolean {
    return line >> 3 < this.bits.length && ((this.bits[line >> 3] as number) & (1 << (line & 7))) !== 0;
  }

  delete(line: number): void {
    if (!this.has(line)) return;
    this.bits[line >> 3] = (this.bits[line >> 3] as number) & ~(1 << (line & 7));
    this.count--;
  }
}

/**
 * The key each reported line had, as a 32-bit hash per line (4 MB for a million lines): enough to
 * notice a report of another file whose first bytes happen to match, without holding the keys.
 */
export class LineKeys {
  private hashes = new Uint32Array(1024);

  static hash(key: string): number {
    // FNV-1a, never 0 so that 0 means "no row for this line".
    let hash = 0x811c9dc5;
    for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
    return hash >>> 0 || 1;
  }

  set(line: number, key: string): void {
    if (line >= this.hashes.length) {
      const grown = new Uint32Array(Math.max(this.hashes.length * 2, line + 1));
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[line] = LineKeys.hash(key);
  }

  /** True when the report has no row for the line, or its row has this key. */
  matches(line: number, key: string): boolean {
    const stored = line < this.hashes.length ? (this.hashes[line] as number) : 0;
    return stored === 0 || stored === LineKeys.hash(key);
  }
}

/**
 * Records by place: a bit per line for records the line places, and a bit per element index for the
 * records of a minified JSON array, which all share line 1.
 */
export class PlaceSet {
  readonly lines = new LineSet();
  readonly elements = new LineSet();

  add(place: RecordPlace): void {
    if (place.element === undefined) this.lines.add(place.line);
    else this.elements.add(place.element);
  }

  has(place: RecordPlace): boolean {
    return place.element === undefined ? this.lines.has(place.line) : this.elements.has(place.element);
  }

  delete(place: RecordPlace): void {
    if (place.element === undefined) this.lines.delete(place.line);
    else this.elements.delete(place.element);
  }

  get count(): number {
    return this.lines.count + this.elements.count;
  }
}

/**
 * The places of a report's `unknown` rows, with the HTTP status each row recorded, if any: how the resume words what
 * the earlier run saw (an answer lost, a 5xx, a 2xx whose body refused), not "had no answer" for all of them (a
 * fresh user test). Only `unknown` rows are kept so, a few in any run.
 */
export class UnknownPlaces extends PlaceSet {
  private readonly statuses = new Map<string, number>();

  /** The place of an `unknown` row, and the status cell it recorded (`''` for none). */
  addRow(place: RecordPlace, status: string | undefined): void {
    this.add(place);
    const code = /^\d{3}$/.test(status?.trim() ?? '') ? Number(status) : undefined;
    if (code !== undefined) this.statuses.set(UnknownPlaces.keyOf(place), code);
  }

  /** The status the `unknown` row of this place recorded, if it recorded one. */
  statusOf(place: RecordPlace): number | undefined {
    return this.statuses.get(UnknownPlaces.keyOf(place));
  }

  private static keyOf(place: RecordPlace): string {
    return place.element === undefined ? `line ${place.line}` : `element ${place.element}`;
  }
}

/**
 * The verdicts this run gives the records the resumed report has done. An unchanged input is judged as before, so they
 * are valid, but a report written by an earlier build may have done a record this build refuses: the first of two rows
 * for one customer or SKU, sent by builds before every repeat was refused. Such a record is not sent again and gets
 * no row (pendingBatches skips every done record), so it counts neither among the valid records left to send nor
 * among the invalid ones this run reports.
 */
export class DoneVerdicts {
  private readonly validPlaces = new PlaceSet();
  private readonly validUnknown = new PlaceSet();

  private readonly done: PlaceSet;
  private readonly unknownOnly?: (place: RecordPlace) => boolean;
  /**
   * `unknownOnly` tells the places the report shows only `unknown` (sent, the outcome never seen): the records a
   * resume may ask the platform about before it sends them, which a dry run counts.
   */
  constructor(done: PlaceSet, unknownOnly?: (place: RecordPlace) => boolean) {
    this.done = done;
    this.unknownOnly = unknownOnly;
  }

  /** A record's verdict, as the validation pass gives it. */
  judged(place: RecordPlace, valid: boolean): void {
    if (!valid) return;
    if (this.done.has(place)) this.validPlaces.add(place);
    else if (this.unknownOnly?.(place)) this.validUnknown.add(place);
  }

  /** A record judged valid that a later one showed invalid (the first of a repeated value). */
  shownInvalid(place: RecordPlace): void {
    this.validPlaces.delete(place);
    this.validUnknown.delete(place);
  }

  /** Done records this run judges valid. */
  get valid(): number {
    return this.validPlaces.count;
  }

  /** Records this run judges valid whose only row in the report is `unknown`: among those left to send. */
  get unknownValid(): number {
    return this.validUnknown.count;
  }

  /** Done records this run judges invalid. */
  get invalid(): number {
    return this.done.count - this.validPlaces.count;
  }
}

/** The key each reported place had (see LineKeys), for lines and for elements of minified JSON. */
export class PlaceKeys {
  private readonly lines = new LineKeys();
  private readonly elements = new LineKeys();

  set(place: RecordPlace, key: string): void {
    if (place.element === undefined) this.lines.set(place.line, key);
    else this.elements.set(place.element, key);
  }

  /** True when the report has no row for the place, or its row has this key. */
  matches(place: RecordPlace, key: string): boolean {
    return place.element === undefined
      ? this.lines.matches(place.line, key)
      : this.elements.matches(place.element, key);
  }
}

/**
 * Reads a report written by an earlier run (`--resume REPORT`); a record is done when any of its rows
 * says so. Every line with a row at all, done or not, is added to `reported` when it is given, except an `unknown`
 * row's, which goes to `unknown` with the status it recorded.
 */
export async function readDoneLines(
  reportPath: string,
  reported?: PlaceSet,
  keys?: PlaceKeys,
  unknown?: UnknownPlaces,
): Promise<PlaceSet> {
  const done = new PlaceSet();
  const notAReport = () =>
    new InputError(`${printable(reportPath)}: not a b2bctl report (expected the columns line,key,outcome,...).`, {
      file: reportPath,
    });
  const columns = (header: string[]) => {
    if (!header.includes('line') || !header.includes('outcome')) throw notAReport();
    return header;
  };
  // A report written with --excel has a BOM and `;` between cells; its header line says which.
  const delimiter = reportDelimiterOf(headerLine(reportPath));
  const source = createReadStream(reportPath);
  const parser = source.pipe(
    parse({ columns, delimiter, bom: true, relax_column_count: true, skip_empty_lines: true }),
  );
  // pipe() does not forward the source's errors: a missing report was an uncaught 'error' event and a crash.
  source.on('error', (error) => parser.destroy(error));
  // A crash can cut the last row short ("12," or "1"): harmless there, but a bad row with rows after it is no report of ours.
  let shortRow = false;
  try {
    for await (const row of parser as AsyncIterable<Record<string, string>>) {
      if (shortRow) throw notAReport();
      const place = parsePlace(row.line ?? '');
      if (place === undefined || row.outcome === undefined) {
        shortRow = true;
        continue;
      }
      // An `unknown` row (sent, its answer never seen, nothing could tell) stays unanswered: checked again, not sent.
      if (row.outcome !== 'unknown') reported?.add(place);
      else unknown?.addRow(place, row.status);
      // The report's key cell of `=1+1` is `'=1+1` (formula-guarded for Excel), and an --excel report's `00123` is
      // `'00123` (guarded as digits): compared as the record's own key.
      const key = restoreFormula(row.key ?? '');
      keys?.set(place, delimiter === ';' ? restoreDigitsGuard(key) : key);
      if (doneOutcomes.has(row.outcome)) done.add(place);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES')
      throw new InputError(`${printable(reportPath)}: cannot read the report to resume from (${code}).`, {
        file: reportPath,
        missing: true,
      });
    // A report cut off mid-row by a crash: every complete row before it still counts.
    if (typeof code === 'string' && code.startsWith('CSV_')) return done;
    throw error;
  }
  return done;
}
