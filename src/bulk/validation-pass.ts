import { setFlagsFromString } from 'node:v8';
import { CompactKeySet } from '../lib/compact-key-set.js';
import { KeyFingerprintSet } from '../lib/key-fingerprints.js';
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

/** What a RecordChecker may be tuned with; tests only. */
export interface RecordCheckerOptions {
  /** The 53-bit hash of the fingerprint index (a colliding one forces false matches). */
  keyHash?: (key: string) => number;
  /** Re-reads for repeats before the exact index is built instead (see defaultRereadsBeforeExactIndex). */
  rereadsBeforeExactIndex?: number;
  /** The share of the records judged so far that re-reads may read before the exact index is built instead. */
  rereadShareBeforeExactIndex?: number;
  /**
   * rawUniqueValues gives a valid record the same values as uniqueValues gives its value (customers, stock):
   * a re-read then skips the record's rules, and costs about what reading the file does.
   */
  rawValuesSuffice?: boolean;
}

/**
 * Re-reads of the input a run pays for repeated fingerprints before it builds the exact index (one more read):
 * a file with a few repeats keeps the small index, one with thousands (scripts/hostile-files.mjs) does not read
 * itself once per repeat. A re-read costs about what reading the file that far does (~13 ms even for the first
 * record: the reader shapes a whole batch), so re-reads that have read half the records judged so far also end
 * them: a million-row file whose last rows repeat rows near its end reads itself twice more, not four times.
 */
const defaultRereadsBeforeExactIndex = 3;
const defaultRereadShareBeforeExactIndex = 0.5;

/** The place of a value whose fingerprint was seen before: to be found by reading the input again. */
const suspected = -1;

/**
 * Judges records in file order: problems of shape, the record's own rules, and repeats of unique
 * values. Deterministic, so the sending pass can judge again with a fresh checker and get the
 * verdicts of the validating pass without anyone holding them in memory.
 *
 * Repeats are found with one of two indexes. Of an input that can be read again (a file, not stdin), only a
 * 32-bit fingerprint is kept per value (~6 bytes; KeyFingerprintSet): when a fingerprint repeats, the input is
 * read again up to this record to find the first record with exactly this value, its line and row (or to find
 * there is none: a false match, no repeat). Otherwise, and after a few such re-reads, each value's hash and its
 * first place are kept (CompactKeySet, ~16 bytes).
 */
export class RecordChecker<T> {
  /** The fingerprint index, while it is in use. */
  private prints: Map<string, KeyFingerprintSet> | undefined;
  /** The exact index, once it is in use (from the first value when the input cannot be read again). */
  private exact: Map<string, CompactKeySet> | undefined;
  /** The spreadsheet row of the lines the duplicate index names, for "already on line 6 (row 5)". */
  private readonly rows = new RowsOfLines();
  /** Opens the input again from its start; set by readsAgainFrom. */
  private reopen: (() => Promise<OpenedInput>) | undefined;
  /** Ctrl-C: ends a re-read (a million records take seconds) with an AbortError. */
  private signal: AbortSignal | undefined;
  /** Records judged so far: a re-read reads this many (the pass judges every record of its input). */
  private judged = 0;
  /** Re-reads of the input so far, the one that built the exact index included. */
  rereads = 0;
  /** Records those re-reads read, the exact index's excepted. */
  private recordsReread = 0;
  private readonly keyHash: ((key: string) => number) | undefined;
  private readonly rereadsBeforeExactIndex: number;
  private readonly rereadShareBeforeExactIndex: number;
  private readonly rawValuesSuffice: boolean;

  constructor(
    private readonly check: (record: InputRecord) => RecordVerdict<T>,
    private readonly uniqueValues?: (value: T) => UniqueValue[],
    /**
     * The unique values of a record that is invalid for another reason, read from its raw values: a repeated SKU
     * is reported even on a row whose price is wrong, so fixing the price does not reveal a second problem later.
     */
    private readonly rawUniqueValues?: (record: InputRecord) => UniqueValue[],
    options: RecordCheckerOptions = {},
  ) {
    this.keyHash = options.keyHash;
    this.rereadsBeforeExactIndex = options.rereadsBeforeExactIndex ?? defaultRereadsBeforeExactIndex;
    this.rereadShareBeforeExactIndex = options.rereadShareBeforeExactIndex ?? defaultRereadShareBeforeExactIndex;
    this.rawValuesSuffice = options.rawValuesSuffice === true && rawUniqueValues !== undefined;
  }

  /**
   * The input this checker judges every record of, in order, from the first: when it can be opened again, the
   * checker keeps the small fingerprint index. Called before the first record.
   */
  readsAgainFrom(input: Pick<OpenedInput, 'reopen'>, signal?: AbortSignal): void {
    if (this.judged === 0) this.reopen = input.reopen;
    this.signal = signal;
  }

  /** Problems about composed values, quoted as composed (see UniqueValue.composed). */
  private readonly composedProblems = new WeakSet<FieldProblem>();

  /** The next record's verdict, for a checker never given an input to read again (readsAgainFrom): never a promise. */
  judge(record: InputRecord): RecordVerdict<T> {
    const verdict = this.judgeNext(record);
    if (verdict instanceof Promise)
      throw new Error('RecordChecker.judge: a checker that reads its input again needs judgeNext');
    return verdict;
  }

  /**
   * The next record's verdict; a promise only when a repeated fingerprint sends the checker back to the input,
   * rare: await it before judging the next record.
   */
  judgeNext(record: InputRecord): RecordVerdict<T> | Promise<RecordVerdict<T>> {
    const verdict = this.judgeValues(record);
    return verdict instanceof Promise
      ? verdict.then((found) => this.asWritten(record, found))
      : this.asWritten(record, verdict);
  }

  private asWritten(record: InputRecord, verdict: RecordVerdict<T>): RecordVerdict<T> {
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

  private judgeValues(record: InputRecord): RecordVerdict<T> | Promise<RecordVerdict<T>> {
    const ordinal = this.judged++;
    if (record.element === undefined) this.rows.note(record.line, record.row ?? record.line);
    // Nearly every record has no reader problems: no array is made for them until a problem needs one.
    const readerProblems: FieldProblem[] | undefined =
      record.problems.length === 0 ? undefined : record.problems.map((message) => ({ field: '', value: '', message }));
    const verdict = this.check(record);
    if (!verdict.ok) {
      const problems = readerProblems ?? [];
      problems.push(...verdict.problems);
      const found = this.checkUnique(this.rawUniqueValues?.(record) ?? [], record, ordinal, problems);
      return found instanceof Promise ? found.then(() => ({ ok: false, problems })) : { ok: false, problems };
    }
    const found = this.checkUnique(this.uniqueValues?.(verdict.value) ?? [], record, ordinal, readerProblems);
    const judged = (problems: FieldProblem[] | undefined): RecordVerdict<T> =>
      problems !== undefined && problems.length > 0 ? { ok: false, problems } : verdict;
    return found instanceof Promise ? found.then(judged) : judged(found);
  }

  /** The unique values of a record as judgeValues takes them: of the valid value, or of the raw values. */
  private uniqueValuesOf(record: InputRecord): readonly UniqueValue[] {
    if (this.rawValuesSuffice) return (this.rawUniqueValues as (record: InputRecord) => UniqueValue[])(record);
    const verdict = this.check(record);
    return (verdict.ok ? this.uniqueValues?.(verdict.value) : this.rawUniqueValues?.(record)) ?? [];
  }

  private duplicatePlaceText(place: number): string {
    if (place >= elementPlace) return `in element ${place - elementPlace}`;
    const row = this.rows.rowOf(place);
    return `on line ${recordPlace(row === place ? { line: place } : { line: place, row })}`;
  }

  /**
   * Adds the repeats among `values` to `problems` (an array is made for the first one when none is given) and
   * returns it; a promise of it when a fingerprint repeats and the input must be read again.
   */
  private checkUnique(
    values: readonly UniqueValue[],
    record: InputRecord,
    ordinal: number,
    problems: FieldProblem[] | undefined,
  ): FieldProblem[] | undefined | Promise<FieldProblem[] | undefined> {
    const place = duplicatePlace(record);
    // Per value, the place of the record it repeats (or `suspected`): made at the first repeat, nearly never.
    let firsts: (number | undefined)[] | undefined;
    let suspects = false;
    for (let index = 0; index < values.length; index++) {
      const unique = values[index] as UniqueValue;
      if (unique.value === undefined) continue;
      const first = this.firstPlaceOf(unique, place);
      if (first === undefined) continue;
      (firsts ??= [])[index] = first;
      if (first === suspected) suspects = true;
    }
    if (firsts === undefined) return problems;
    if (!suspects) return this.repeatProblems(values, firsts, problems);
    const known = firsts;
    return this.findFirstPlaces(values, known, ordinal, place).then(() => this.repeatProblems(values, known, problems));
  }

  /** Adds the value to the index; returns the place it was first seen at, `suspected`, or undefined when new. */
  private firstPlaceOf(unique: UniqueValue, place: number): number | undefined {
    if (this.exact === undefined && this.prints === undefined) {
      if (this.reopen) this.prints = new Map();
      else this.exact = new Map();
    }
    if (this.prints !== undefined) {
      let set = this.prints.get(unique.label);
      if (!set) {
        set = new KeyFingerprintSet(this.keyHash);
        this.prints.set(unique.label, set);
      }
      return set.add(unique.value as string) ? undefined : suspected;
    }
    return addFirstPlace(this.exact as Map<string, CompactKeySet>, unique, place);
  }

  /**
   * Reads the input again, up to the record being judged, for the first record with each suspected value (no
   * such record: a false match, no repeat). After rereadsBeforeExactIndex re-reads, or once re-reads have read
   * half the records judged so far, this one builds the exact index instead and the record's values are looked
   * up in it. (A re-read that built the exact index as it went, kept when it read far, saved a read on a file
   * whose last rows repeat rows near its end, but a million-customer run then peaked at 132-140 MB, above
   * main's 129: a file with repeats is refused anyway, its memory matters more than its CPU.)
   */
  private async findFirstPlaces(
    values: readonly UniqueValue[],
    firsts: (number | undefined)[],
    ordinal: number,
    place: number,
  ): Promise<void> {
    this.rereads++;
    if (
      this.rereads > this.rereadsBeforeExactIndex ||
      this.recordsReread >= ordinal * this.rereadShareBeforeExactIndex
    ) {
      await this.buildExactIndex(ordinal);
      for (let index = 0; index < values.length; index++) {
        const unique = values[index] as UniqueValue;
        firsts[index] = unique.value === undefined ? undefined : this.firstPlaceOf(unique, place);
      }
      return;
    }
    let missing = 0;
    for (const first of firsts) if (first === suspected) missing++;
    await this.readAgain(ordinal, (earlier, earlierValues) => {
      this.recordsReread++;
      for (const seen of earlierValues) {
        if (seen.value === undefined) continue;
        for (let index = 0; index < values.length; index++) {
          const unique = values[index] as UniqueValue;
          if (firsts[index] !== suspected || unique.label !== seen.label || unique.value !== seen.value) continue;
          firsts[index] = duplicatePlace(earlier);
          missing--;
        }
      }
      return missing === 0;
    });
    for (let index = 0; index < firsts.length; index++) if (firsts[index] === suspected) firsts[index] = undefined;
  }

  /** The exact index of the first `count` records, read again, in place of the fingerprints. */
  private async buildExactIndex(count: number): Promise<void> {
    this.dropFingerprints();
    const exact = new Map<string, CompactKeySet>();
    this.exact = exact;
    await this.readAgain(count, (earlier, earlierValues) => {
      const place = duplicatePlace(earlier);
      for (const unique of earlierValues) if (unique.value !== undefined) addFirstPlace(exact, unique, place);
      return false;
    });
  }

  /** Frees the fingerprint index now (its arrays, not at the next full collection): the exact one replaces it. */
  private dropFingerprints(): void {
    for (const set of this.prints?.values() ?? []) set.release();
    this.prints = undefined;
  }

  /** Reads the first `count` records of the input again, each with its unique values, until `visit` says stop. */
  private async readAgain(
    count: number,
    visit: (record: InputRecord, values: readonly UniqueValue[]) => boolean,
  ): Promise<void> {
    if (count === 0) return;
    const input = await (this.reopen as () => Promise<OpenedInput>)();
    let read = 0;
    // Leaving the loop early ends the reader's generators, which closes the file.
    for await (const batch of recordBatchesOf(input.records) ?? oneByOne(input.records)) {
      this.signal?.throwIfAborted();
      for (const record of batch) {
        if (visit(record, this.uniqueValuesOf(record))) return;
        if (++read === count) return;
      }
    }
  }

  /** The problems of the values that repeat an earlier record (`firsts`), in the order of the values. */
  private repeatProblems(
    values: readonly UniqueValue[],
    firsts: readonly (number | undefined)[],
    problems: FieldProblem[] | undefined,
  ): FieldProblem[] | undefined {
    for (let index = 0; index < values.length; index++) {
      const first = firsts[index];
      if (first === undefined) continue;
      const unique = values[index] as UniqueValue;
      const problem: FieldProblem = {
        field: unique.field,
        value: unique.value as string,
        message: validationMessage(
          unique.field,
          unique.value as string,
          `the same ${unique.label} is already ${this.duplicatePlaceText(first)} of this file`,
        ),
      };
      if (unique.composed) this.composedProblems.add(problem);
      (problems ??= []).push(problem);
    }
    return problems;
  }
}

/** Adds a value seen at `place` to an exact index; returns the place it was first seen at, if before. */
function addFirstPlace(index: Map<string, CompactKeySet>, unique: UniqueValue, place: number): number | undefined {
  let set = index.get(unique.label);
  if (!set) {
    set = new CompactKeySet();
    index.set(unique.label, set);
  }
  return set.addOrGetLine(unique.value as string, place);
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
  /** Ctrl-C ended the pass before the last record: the counts are of the records read so far. */
  interrupted: boolean;
}

/** The first, read-only pass over an input: every record judged, every problem reported with its line. */
export async function runValidationPass<T>(options: ValidationPassOptions<T>): Promise<ValidationSummary> {
  keepOldSpaceTight();
  const summary: ValidationSummary = {
    records: 0,
    valid: 0,
    invalid: 0,
    problems: 0,
    invalidLines: new LineSet(),
    interrupted: false,
  };
  // A flag the abort event sets: AbortSignal's `aborted` getter, read per record, was ~2% of a million-row pass.
  let aborted = options.signal?.aborted ?? false;
  const onAbort = () => (aborted = true);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const records = options.input.records;
    options.checker.readsAgainFrom(options.input, options.signal);
    // Whole batches where the reader has them: an await per record was a visible share of a million-row pass.
    read: for await (const batch of recordBatchesOf(records) ?? oneByOne(records)) {
      for (const record of batch) {
        if (aborted) {
          summary.interrupted = true;
          break read;
        }
        const judged = options.checker.judgeNext(record);
        // A promise only when the checker reads the input again for a repeat: rare, so no await per record.
        let verdict: RecordVerdict<T>;
        try {
          verdict = judged instanceof Promise ? await judged : judged;
        } catch (error) {
          // Ctrl-C during a re-read: the record was not judged; the pass ends as at any other record.
          if (!options.signal?.aborted) throw error;
          summary.interrupted = true;
          break read;
        }
        summary.records++;
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
