import { type InputRecord, recordPlace } from '../io/input/open-input.js';
import { CompactDuplicateIndex, type DuplicateIndex } from './duplicate-index.js';
import { LineSet } from './resume.js';
import { type FieldProblem, type RecordVerdict, validationMessage } from '../domain/validation.js';
import { problemsAsWritten, writtenCell } from '../io/input/written-values.js';
import { redacted, redactSecrets } from '../lib/secret-values.js';
import { WrittenShapes } from './written-shapes.js';
import { InterruptedError } from '../base/errors.js';

/** A value that must not repeat within one file, such as the document or the e-mail of a customer. */
export interface UniqueValue {
  /** Words for the message: "document", "e-mail". */
  label: string;
  field: string;
  value: string | undefined;
  /** The value is composed of several cells (`SKU @ warehouse`): messages quote it so, not one cell as written. */
  composed?: boolean;
  /**
   * A repeat leaves out every record holding the value, the first one too, each naming the others: two rows for one
   * customer, or two quantities for one SKU, are two instructions that contradict, and the row that is right (often a
   * corrected one appended at the bottom) is the operator's choice, not the file's order.
   */
  everyRepeatInvalid?: boolean;
  /**
   * The value as the platform may take it (a SKU the same but for case and leading zeros): a record whose value is
   * new but whose loose form is not gets a warning naming the first (takeWarnings), not a problem. The file may mean
   * two products; a platform that takes them for one sets it twice, whichever request lands last winning.
   */
  loose?: string;
}

/**
 * A record found invalid once the pass read on: a later record repeats a value of it (UniqueValue.everyRepeatInvalid),
 * or shows it invalid otherwise (RecordChecker.invalidateEarlier).
 */
export interface LateProblem {
  place: Pick<InputRecord, 'line' | 'row' | 'element'>;
  problem: FieldProblem;
}

/** The warnings of nearly every record: one shared empty list. */
const noWarnings: readonly { message: string }[] = [];

const looseKinds = new Map<string, string>();

/** The duplicate index's kind for the loose forms of the values of kind `label`: one string per kind, made once. */
function looseKindOf(label: string): string {
  let kind = looseKinds.get(label);
  if (kind === undefined) looseKinds.set(label, (kind = `${label}, loose`));
  return kind;
}

/** A problem with the given secret values masked in its message, and its value masked when it is one. */
function maskedProblem(problem: FieldProblem, secrets: readonly string[]): FieldProblem {
  const value = secrets.includes(problem.value) ? redacted : problem.value;
  const message = redactSecrets(problem.message, secrets);
  return value === problem.value && message === problem.message ? problem : { ...problem, value, message };
}

/**
 * Judges records in file order: problems of shape, the record's own rules, and repeats of unique
 * values. Deterministic: a fresh checker over the same records gives the same verdicts.
 */
export class RecordChecker<T> {
  /** The spreadsheet row of the lines the duplicate index names, for "already on line 6 (row 5)". */
  private readonly rows = new RowsOfLines();
  /** Problems about composed values, quoted as composed (see UniqueValue.composed). */
  private readonly composedProblems = new WeakSet<FieldProblem>();
  /**
   * Records judged valid when they came that later records showed invalid, by place (checkerPlace, as the duplicate
   * index holds it): why, worded once every record is judged (lateProblems). Only such records take room.
   */
  private readonly invalidLater = new Map<number, LateCauses>();
  /** How the first record of each value that makes every repeat invalid wrote it: its late problem quotes it so. */
  private readonly firstShapes = new WrittenShapes();

  private readonly check: (record: InputRecord) => RecordVerdict<T>;
  private readonly uniqueValues?: (value: T) => UniqueValue[];
  /**
   * The unique values of a record that is invalid for another reason, read from its raw values: a repeated SKU
   * is reported even on a row whose price is wrong, so fixing the price does not reveal a second problem later.
   */
  private readonly rawUniqueValues?: (record: InputRecord) => UniqueValue[];
  private readonly duplicates: DuplicateIndex;
  constructor(
    check: (record: InputRecord) => RecordVerdict<T>,
    uniqueValues?: (value: T) => UniqueValue[],
    rawUniqueValues?: (record: InputRecord) => UniqueValue[],
    duplicates: DuplicateIndex = new CompactDuplicateIndex(),
  ) {
    this.check = check;
    this.uniqueValues = uniqueValues;
    this.rawUniqueValues = rawUniqueValues;
    this.duplicates = duplicates;
  }

  /** About how many records will be judged (an estimate from the input's size): the duplicate index makes room once. */
  expect(records: number): void {
    this.duplicates.expect(records);
  }

  /** The values of a record its problems must not quote (secretCellsOf); none unless maskingCells is called. */
  private secretCellsOf?: (record: InputRecord) => string[];

  /**
   * Masks in every problem of a record the values `secretsOf` gives: a secret cell that a shifted row put under
   * another column's name (a user test: a password quoted as a phone). Returns the checker.
   */
  maskingCells(secretsOf: (record: InputRecord) => string[]): this {
    this.secretCellsOf = secretsOf;
    return this;
  }

  /** The next record's verdict. */
  judge(record: InputRecord): RecordVerdict<T> {
    const verdict = this.judgeValues(record);
    if (verdict.ok) return verdict;
    // Composed values (`SKU @ warehouse`) are no cell of the file: quoted as composed.
    const quoted = problemsAsWritten(
      record,
      verdict.problems.filter((problem) => !this.composedProblems.has(problem)),
    );
    const problems = verdict.problems.map((problem) =>
      this.composedProblems.has(problem) ? problem : quoted.shift()!,
    );
    const secrets = this.secretCellsOf?.(record) ?? [];
    return { ok: false, problems: secrets.length === 0 ? problems : problems.map((p) => maskedProblem(p, secrets)) };
  }

  private judgeValues(record: InputRecord): RecordVerdict<T> {
    if (record.element === undefined) this.rows.note(record.line, record.row ?? record.line);
    // Nearly every record has no reader problems: no array is made for them until a problem needs one.
    const readerProblems: FieldProblem[] | undefined =
      record.problems.length === 0
        ? undefined
        : record.problems.map((problem) =>
            typeof problem === 'string' ? { field: '', value: '', message: problem } : { ...problem },
          );
    const verdict = this.check(record);
    if (!verdict.ok) {
      const problems = readerProblems ?? [];
      // A cell the reader refused already (a number in a code column) is said once, in the reader's words: the
      // rules' complaint about the value read from it adds nothing.
      const refusedFields = readerProblems?.map((problem) => problem.field).filter((field) => field !== '');
      problems.push(
        ...(refusedFields === undefined || refusedFields.length === 0
          ? verdict.problems
          : verdict.problems.filter((problem) => !refusedFields.includes(problem.field))),
      );
      this.addRepeats(this.rawUniqueValues?.(record) ?? [], record, problems);
      return { ok: false, problems };
    }
    const problems = this.addRepeats(this.uniqueValues?.(verdict.value) ?? [], record, readerProblems);
    return problems !== undefined && problems.length > 0 ? { ok: false, problems } : verdict;
  }

  /**
   * The problems of the records that later records repeat (UniqueValue.everyRepeatInvalid), in file order, once every
   * record is judged: when such a record was judged, nothing said its value would come again.
   */
  lateProblems(): LateProblem[] {
    const byPlace = [...this.invalidLater].toSorted(([first], [second]) => first - second);
    return byPlace.flatMap(([place, { repeat, shown }]) => {
      const problems = [...(repeat ? [this.repeatProblem(repeat)] : []), ...(shown ? [shown] : [])];
      return problems.map((problem) => ({ place: this.placeOf(place), problem }));
    });
  }

  /** The problem of the first record of a value later records repeat, naming every one of them. */
  private repeatProblem({ unique, written, repeats }: RepeatedFirst): FieldProblem {
    const problem: FieldProblem = {
      field: unique.field,
      value: written,
      message: validationMessage(
        unique.field,
        written,
        `the same ${unique.label} is also ${joinedPlaces(repeats.map((repeat) => this.duplicatePlaceText(repeat)))} of this file`,
      ),
    };
    if (unique.composed) this.composedProblems.add(problem);
    return problem;
  }

  /**
   * Notes that the record at `place` (checkerPlace), judged valid when it came, is invalid for `problem`, as a later
   * record shows (two rows of one order's move that disagree: neither is sent, the operator chooses). Reported by
   * lateProblems() with the repeats; a record's first such problem is kept.
   */
  invalidateEarlier(place: number, problem: FieldProblem): void {
    this.causesAt(place).shown ??= problem;
  }

  /** What made the record at `place` invalid later, as noted so far: none yet at its first cause. */
  private causesAt(place: number): LateCauses {
    const known = this.invalidLater.get(place);
    if (known !== undefined) return known;
    const causes: LateCauses = {};
    this.invalidLater.set(place, causes);
    return causes;
  }

  private placeOf(place: number): LateProblem['place'] {
    if (place >= elementPlace) return { line: 1, element: place - elementPlace };
    const row = this.rows.rowOf(place);
    return row === place ? { line: place } : { line: place, row };
  }

  private duplicatePlaceText(place: number): string {
    if (place >= elementPlace) return `in element ${place - elementPlace}`;
    const row = this.rows.rowOf(place);
    return `on line ${recordPlace(row === place ? { line: place } : { line: place, row })}`;
  }

  /**
   * The warnings of the record judged last (UniqueValue.loose), taken once: a command's advisories read them as each
   * record is judged.
   */
  takeWarnings(): readonly { message: string }[] {
    if (this.warnings.length === 0) return noWarnings;
    const taken = this.warnings;
    this.warnings = [];
    return taken;
  }

  private warnings: { message: string }[] = [];

  /**
   * Notes a warning when a value seen for the first time has a loose form seen before. The loose forms share the
   * duplicate index as a kind of key of their own, holding only the values not already in their loose form (`abc-1`,
   * `00777`): a value in its loose form (most SKUs) is one of the exact values already, so it is only looked up among
   * the others' loose forms, and a value not in it looks its loose form up among the exact values too. A file of SKUs
   * in capitals without leading zeros then keeps no second index (it cost a tenth of a 500,000-line validate's CPU).
   */
  private noteLooseRepeat(unique: UniqueValue, place: number): void {
    const { loose, value } = unique;
    if (loose === undefined || value === undefined) return;
    const looseKind = looseKindOf(unique.label);
    let first: number | undefined;
    if (loose === value) first = this.duplicates.placeOf(looseKind, loose);
    else {
      const asValue = this.duplicates.placeOf(unique.label, loose);
      const asLoose = this.duplicates.firstPlaceOf(looseKind, loose, place);
      first = asValue === undefined || (asLoose !== undefined && asLoose < asValue) ? asLoose : asValue;
    }
    if (first === undefined) return;
    this.warnings.push({
      message: `${unique.label} "${unique.value}" is the same but for case or leading zeros as the ${unique.label} ${this.duplicatePlaceText(first)} of this file: a platform that takes them for one product gets two values for it, and whichever request lands last wins. If they are one product, keep one line; if two, nothing is wrong.`,
    });
  }

  /**
   * Adds the repeats among `values` to `problems` (an array is made for the first one when none is given) and
   * returns it.
   */
  private addRepeats(
    values: readonly UniqueValue[],
    record: InputRecord,
    problems: FieldProblem[] | undefined,
  ): FieldProblem[] | undefined {
    const place = checkerPlace(record);
    for (const unique of values) {
      if (unique.value === undefined) continue;
      const first = this.duplicates.firstPlaceOf(unique.label, unique.value, place);
      if (first === undefined) this.noteLooseRepeat(unique, place);
      if (first === undefined) {
        // Its cell is gone when a repeat comes: how it wrote the value is kept (composed values are no cell).
        if (unique.everyRepeatInvalid && !unique.composed)
          this.firstShapes.note(unique.label, place, unique.value, writtenCell(record, unique.field));
        continue;
      }
      const problem: FieldProblem = {
        field: unique.field,
        value: unique.value,
        message: validationMessage(
          unique.field,
          unique.value,
          `the same ${unique.label} is ${unique.everyRepeatInvalid ? 'also' : 'already'} ${this.duplicatePlaceText(first)} of this file`,
        ),
      };
      if (unique.composed) this.composedProblems.add(problem);
      if (unique.everyRepeatInvalid) this.noteRepeat(first, place, unique);
      (problems ??= []).push(problem);
    }
    return problems;
  }

  private noteRepeat(first: number, place: number, unique: UniqueValue): void {
    const causes = this.causesAt(first);
    if (causes.repeat !== undefined) {
      causes.repeat.repeats.push(place);
      return;
    }
    const written = unique.composed ? undefined : this.firstShapes.writtenAt(unique.label, first, unique.value!);
    causes.repeat = { unique, written: written ?? unique.value!, repeats: [place] };
  }
}

/**
 * Why a record judged valid when it came is invalid, as later records showed. Both may hold: its repeat's problem is
 * reported first.
 */
interface LateCauses {
  /** Later records repeat a value of it that makes every repeat invalid (UniqueValue.everyRepeatInvalid). */
  repeat?: RepeatedFirst;
  /** The first problem a later record showed it has (RecordChecker.invalidateEarlier). */
  shown?: FieldProblem;
}

/** The first record of a repeated value and the places of the repeats. */
interface RepeatedFirst {
  unique: UniqueValue;
  /**
   * The value as the first record's own cell wrote it (WrittenShapes), never as a repeat did (line 2 quoted line 3's
   * `660 487 647 07` where it holds `66048764707`, a fresh user test); the value as read only where no cell says (JSON).
   */
  written: string;
  repeats: number[];
}

/** `on line 5`, `on line 5 and on line 9`, `on line 5, on line 7 and in element 3`. */
function joinedPlaces(places: readonly string[]): string {
  return places.length === 1 ? places[0]! : `${places.slice(0, -1).join(', ')} and ${places.at(-1)}`;
}

/** Marks an element index among the lines the duplicate index holds (both far below 2^31). */
const elementPlace = 0x80000000;

/**
 * Where a record is, as the duplicate index holds it: its line, or in minified JSON (every record on
 * line 1, where "already on line 1" names none of them) its element index with the top bit set.
 */
export function checkerPlace(record: Pick<InputRecord, 'line' | 'element'>): number {
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
  /** The input's records in batches (OpenedInput.recordBatches): an await per record was a visible share of a million-row pass. */
  batches: AsyncIterable<readonly InputRecord[]>;
  checker: RecordChecker<T>;
  /** OpenedInput.estimatedRecords: tables sized once instead of grown. */
  estimatedRecords?: number;
  /** `record` says where the record is when the line alone does not (a row below a multi-line cell, minified JSON). */
  onProblem(line: number, problem: FieldProblem, record: InputRecord): void | Promise<void>;
  signal?: AbortSignal;
  /** Every record with its verdict, in file order: a bulk job spools them for its sending pass. */
  onVerdict?(record: InputRecord, verdict: RecordVerdict<T>): void;
  /**
   * A record found invalid after the last one was read (see RecordChecker.lateProblems), its verdict already given to
   * onVerdict: a bulk job leaves it out of its sending pass. Its problem goes to onProblem as well.
   */
  onLateProblem?(late: LateProblem): void;
  /** The counts so far, after each batch of records: for a progress line. */
  onBatch?(summary: Readonly<ValidationSummary>): void;
}

export interface ValidationSummary {
  records: number;
  valid: number;
  invalid: number;
  problems: number;
  invalidLines: LineSet;
  /** Minified JSON, whose records share a line: the elements of the invalid records. */
  invalidElements: LineSet;
  /** Ctrl-C ended the pass before the last record: the counts are of the records read so far. */
  interrupted: boolean;
  /** Warnings logged of values the platform takes but that look wrong (a bulk job's advisories). */
  warnings?: number;
}

/** The first, read-only pass over an input: every record judged, every problem reported with its line. */
export async function runValidationPass<T>(options: ValidationPassOptions<T>): Promise<ValidationSummary> {
  const summary: ValidationSummary = {
    records: 0,
    valid: 0,
    invalid: 0,
    problems: 0,
    invalidLines: new LineSet(),
    invalidElements: new LineSet(),
    interrupted: false,
  };
  // A flag the abort event sets: AbortSignal's `aborted` getter, read per record, was ~2% of a million-row pass.
  let aborted = options.signal?.aborted ?? false;
  const onAbort = () => (aborted = true);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.estimatedRecords !== undefined) options.checker.expect(options.estimatedRecords);
  try {
    read: for await (const batch of options.batches) {
      for (const record of batch) {
        if (aborted) {
          summary.interrupted = true;
          break read;
        }
        const verdict = options.checker.judge(record);
        summary.records++;
        options.onVerdict?.(record, verdict);
        if (verdict.ok) {
          summary.valid++;
          continue;
        }
        summary.invalid++;
        summary.invalidLines.add(record.line);
        if (record.element !== undefined) summary.invalidElements.add(record.element);
        for (const problem of verdict.problems) {
          summary.problems++;
          await options.onProblem(record.line, problem, record);
        }
      }
      options.onBatch?.(summary);
    }
    if (!summary.interrupted) await reportLateProblems(options, summary);
  } catch (error) {
    // A pipe whose writer went silent is ended by the interruption itself (byte-source.ts): no error of the input.
    if (!(aborted && error instanceof InterruptedError)) throw error;
    summary.interrupted = true;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  return summary;
}

/** The records later records made invalid (RecordChecker.lateProblems), counted and reported once all are read. */
async function reportLateProblems<T>(options: ValidationPassOptions<T>, summary: ValidationSummary): Promise<void> {
  const lateProblems = options.checker.lateProblems();
  for (const late of lateProblems) {
    const { line, element } = late.place;
    const invalidAlready =
      element === undefined ? summary.invalidLines.has(line) : summary.invalidElements.has(element);
    if (!invalidAlready) {
      summary.valid--;
      summary.invalid++;
      summary.invalidLines.add(line);
      if (element !== undefined) summary.invalidElements.add(element);
    }
    summary.problems++;
    options.onLateProblem?.(late);
    await options.onProblem(late.place.line, late.problem, late.place as InputRecord);
  }
  // The progress count shows the records found invalid now too.
  if (lateProblems.length > 0) options.onBatch?.(summary);
}
