import { setFlagsFromString } from 'node:v8';
import { CompactKeySet } from '../lib/compact-key-set.js';
import { type InputRecord, type OpenedInput, recordBatchesOf, recordPlace } from '../io/input/open-input.js';
import { LineSet } from './resume.js';
import { type FieldProblem, type RecordVerdict, validationMessage } from '../domain/validation.js';
import { problemsAsWritten } from '../io/input/written-values.js';

/** A value that must not repeat within one file, such as the document or the e-mail of a customer. */
export interface UniqueValue {
  /** Words for the message: "document", "e-mail". */
  label: string;
  field: string;
  value: string | undefined;
  /** The value is composed of several cells (`SKU @ warehouse`): messages quote it so, not one cell as written. */
  composed?: boolean;
}

/**
 * Judges records in file order: problems of shape, the record's own rules, and repeats of unique
 * values. Deterministic, so the sending pass can judge again with a fresh checker and get the
 * verdicts of the validating pass without anyone holding them in memory.
 */
export class RecordChecker<T> {
  private readonly seen = new Map<string, CompactKeySet>();
  /** The spreadsheet row of the lines the duplicate index names, for "already on line 6 (row 5)". */
  private readonly rows = new RowsOfLines();

  constructor(
    private readonly check: (record: InputRecord) => RecordVerdict<T>,
    private readonly uniqueValues?: (value: T) => UniqueValue[],
    /**
     * The unique values of a record that is invalid for another reason, read from its raw values: a repeated SKU
     * is reported even on a row whose price is wrong, so fixing the price does not reveal a second problem later.
     */
    private readonly rawUniqueValues?: (record: InputRecord) => UniqueValue[],
  ) {}

  /** Problems about composed values, quoted as composed (see UniqueValue.composed). */
  private readonly composedProblems = new WeakSet<FieldProblem>();

  judge(record: InputRecord): RecordVerdict<T> {
    const verdict = this.judgeValues(record);
    if (verdict.ok) return verdict;
    // Composed values (`SKU @ warehouse`) are no cell of the file: quoted as composed.
    const quoted = problemsAsWritten(
      record,
      verdict.problems.filter((problem) => !this.composedProblems.has(problem)),
    );
    return {
      ok: false,
      problems: verdict.problems.map((problem) => (this.composedProblems.has(problem) ? problem : quoted.shift()!)),
    };
  }

  private judgeValues(record: InputRecord): RecordVerdict<T> {
    if (record.element === undefined) this.rows.note(record.line, record.row ?? record.line);
    // Nearly every record has no reader problems: no array is made for them until a problem needs one.
    const readerProblems: FieldProblem[] | undefined =
      record.problems.length === 0 ? undefined : record.problems.map((message) => ({ field: '', value: '', message }));
    const verdict = this.check(record);
    if (!verdict.ok) {
      const problems = readerProblems ?? [];
      problems.push(...verdict.problems);
      this.checkUnique(this.rawUniqueValues?.(record) ?? [], duplicatePlace(record), problems);
      return { ok: false, problems };
    }
    const problems = this.checkUnique(this.uniqueValues?.(verdict.value) ?? [], duplicatePlace(record), readerProblems);
    return problems !== undefined && problems.length > 0 ? { ok: false, problems } : verdict;
  }

  private duplicatePlaceText(place: number): string {
    if (place >= elementPlace) return `in element ${place - elementPlace}`;
    const row = this.rows.rowOf(place);
    return `on line ${recordPlace(row === place ? { line: place } : { line: place, row })}`;
  }

  /** Adds the repeats among `values` to `problems` (an array is made for the first one when none is given); returns it. */
  private checkUnique(
    values: readonly UniqueValue[],
    place: number,
    problems: FieldProblem[] | undefined,
  ): FieldProblem[] | undefined {
    for (const unique of values) {
      if (unique.value === undefined) continue;
      let set = this.seen.get(unique.label);
      if (!set) {
        set = new CompactKeySet();
        this.seen.set(unique.label, set);
      }
      const first = set.addOrGetLine(unique.value, place);
      if (first !== undefined) {
        const problem: FieldProblem = {
          field: unique.field,
          value: unique.value,
          message: validationMessage(
            unique.field,
            unique.value,
            `the same ${unique.label} is already ${this.duplicatePlaceText(first)} of this file`,
          ),
        };
        if (unique.composed) this.composedProblems.add(problem);
        (problems ??= []).push(problem);
      }
    }
    return problems;
  }
}

/** Marks an element index among the lines the duplicate index holds (both far below 2^31). */
const elementPlace = 0x80000000;

/**
 * Where a record is, as the duplicate index holds it: its line, or in minified JSON (every record on
 * line 1, where "already on line 1" names none of them) its element index with the top bit set.
 */
function duplicatePlace(record: InputRecord): number {
  return record.element === undefined ? record.line : (elementPlace | record.element) >>> 0;
}

/**
 * The spreadsheet row of any line seen so far. Rows fall behind lines only at a cell with a line break
 * (or Excel's hidden `sep=` line) and never catch up, so the gap is kept only where it changes: nothing
 * per record in a file without such cells.
 */
class RowsOfLines {
  private readonly lines: number[] = [];
  private readonly gaps: number[] = [];

  note(line: number, row: number): void {
    const gap = line - row;
    if (gap !== (this.gaps.at(-1) ?? 0)) {
      this.lines.push(line);
      this.gaps.push(gap);
    }
  }

  rowOf(line: number): number {
    // The last change at or before the line.
    let low = 0;
    let high = this.lines.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.lines[middle] as number) <= line) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? line : line - (this.gaps[low - 1] as number);
  }
}

export interface ValidationPassOptions<T> {
  input: OpenedInput;
  checker: RecordChecker<T>;
  /** `record` says where the record is when the line alone does not (a row below a multi-line cell, minified JSON). */
  onProblem(line: number, problem: FieldProblem, record: InputRecord): void | Promise<void>;
  signal?: AbortSignal;
  /** Every record with its verdict, in file order: a bulk job spools them for its sending pass. */
  onVerdict?(record: InputRecord, verdict: RecordVerdict<T>): void;
}

export interface ValidationSummary {
  records: number;
  valid: number;
  invalid: number;
  problems: number;
  invalidLines: LineSet;
}

/** The first, read-only pass over an input: every record judged, every problem reported with its line. */
export async function runValidationPass<T>(options: ValidationPassOptions<T>): Promise<ValidationSummary> {
  keepOldSpaceTight();
  const summary: ValidationSummary = { records: 0, valid: 0, invalid: 0, problems: 0, invalidLines: new LineSet() };
  // A flag the abort event sets: AbortSignal's `aborted` getter, read per record, was ~2% of a million-row pass.
  let aborted = options.signal?.aborted ?? false;
  const onAbort = () => (aborted = true);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const records = options.input.records;
    // Whole batches where the reader has them: an await per record was a visible share of a million-row pass.
    read: for await (const batch of recordBatchesOf(records) ?? oneByOne(records)) {
      for (const record of batch) {
        if (aborted) break read;
        summary.records++;
        const verdict = options.checker.judge(record);
        options.onVerdict?.(record, verdict);
        if (verdict.ok) {
          summary.valid++;
          continue;
        }
        summary.invalid++;
        summary.invalidLines.add(record.line);
        for (const problem of verdict.problems) {
          summary.problems++;
          await options.onProblem(record.line, problem, record);
        }
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  return summary;
}

/**
 * A pass over a large file (and the sending pass after it) promotes short-lived objects (records held across
 * a request, the text they were sliced from) to V8's old space, which by default may grow to about four times
 * what survived the last full collection before the next one: 40-50 MB of dead records set the peak RSS of a
 * 1,000,000-row stock push (issue 14). A growth of half (V8 still adds at least 16 MB) collects them sooner;
 * with ~15 MB live a full collection takes ~10 ms, a few per million rows. The flag is read at every
 * collection, so setting it here takes effect for the rest of the run; `--max-semi-space-size`, read only when
 * the heap is set up, could not be set this way and cost +20% CPU besides.
 */
function keepOldSpaceTight(): void {
  setFlagsFromString('--heap-growing-percent=50');
}

/** Records as batches of one, for inputs read record by record (JSON, or records a caller filters). */
async function* oneByOne(records: AsyncIterable<InputRecord>): AsyncGenerator<InputRecord[]> {
  for await (const record of records) yield [record];
}
