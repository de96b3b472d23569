import { CompactKeySet } from '../lib/compact-key-set.js';
import type { InputRecord, OpenedInput } from '../io/input/open-input.js';
import { LineSet } from './resume.js';
import { type FieldProblem, type RecordVerdict, validationMessage } from '../domain/validation.js';

/** A value that must not repeat within one file, such as the document or the e-mail of a customer. */
export interface UniqueValue {
  /** Words for the message: "document", "e-mail". */
  label: string;
  field: string;
  value: string | undefined;
}

/**
 * Judges records in file order: problems of shape, the record's own rules, and repeats of unique
 * values. Deterministic, so the sending pass can judge again with a fresh checker and get the
 * verdicts of the validating pass without anyone holding them in memory.
 */
export class RecordChecker<T> {
  private readonly seen = new Map<string, CompactKeySet>();

  constructor(
    private readonly check: (record: InputRecord) => RecordVerdict<T>,
    private readonly uniqueValues?: (value: T) => UniqueValue[],
  ) {}

  judge(record: InputRecord): RecordVerdict<T> {
    const problems: FieldProblem[] = record.problems.map((message) => ({ field: '', value: '', message }));
    const verdict = this.check(record);
    if (!verdict.ok) return { ok: false, problems: [...problems, ...verdict.problems] };
    for (const unique of this.uniqueValues?.(verdict.value) ?? []) {
      if (unique.value === undefined) continue;
      let set = this.seen.get(unique.label);
      if (!set) {
        set = new CompactKeySet();
        this.seen.set(unique.label, set);
      }
      const firstLine = set.addOrGetLine(unique.value, record.line);
      if (firstLine !== undefined) {
        problems.push({
          field: unique.field,
          value: unique.value,
          message: validationMessage(
            unique.field,
            unique.value,
            `the same ${unique.label} is already on line ${firstLine} of this file`,
          ),
        });
      }
    }
    return problems.length > 0 ? { ok: false, problems } : verdict;
  }
}

export interface ValidationPassOptions<T> {
  input: OpenedInput;
  checker: RecordChecker<T>;
  onProblem(line: number, problem: FieldProblem): void | Promise<void>;
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
  const summary: ValidationSummary = { records: 0, valid: 0, invalid: 0, problems: 0, invalidLines: new LineSet() };
  for await (const record of options.input.records) {
    if (options.signal?.aborted) break;
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
      await options.onProblem(record.line, problem);
    }
  }
  return summary;
}
