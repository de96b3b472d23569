import { batchedWriter } from '../io/output/batched-writer.js';
import { printable } from '../lib/printable.js';
import { type Context, stdoutStyle } from '../context.js';
import { ExitCode } from '../base/errors.js';
import { exitOnClosedOutput } from '../io/output/closed-output.js';
import { createRecordWriter } from '../io/output/record-writer.js';
import type { FieldProblem } from '../domain/validation.js';
import { type InputRecord, recordPlace } from '../io/input/open-input.js';
import type { InputFormat } from '../io/input/sniff.js';
import type { FieldCatalogue } from '../io/input/record-shape.js';
import { redactSecrets, redacted } from '../lib/secret-values.js';
import { secretCellsOf } from './record-secrets.js';
import { countOf } from '../lib/plural.js';

type Place = Pick<InputRecord, 'line' | 'row' | 'column' | 'element'>;

export interface ProblemRow {
  file: string;
  line: number;
  /**
   * The spreadsheet row: in JSON output when it differs from the line (see recordPlace); in CSV output of a CSV
   * input on every problem, as the last column (as in the report), for the person who fixes the file in Excel.
   */
  row?: number;
  column?: number;
  element?: number;
  field: string;
  value: string;
  message: string;
}

export interface ProblemOutput {
  write(line: number, problem: FieldProblem, place?: Place): Promise<void>;
  end(): Promise<void>;
}

/**
 * Where `validate` puts the problems it finds, as its data on stdout: `file:line: message` lines on a
 * terminal (streamed, not a table that waits for the end), else NDJSON, or `-o json|csv`.
 */
export function problemOutput(
  context: Context,
  file: string,
  inputFormat: InputFormat = 'csv',
  catalogue?: Pick<FieldCatalogue, 'isSecret'>,
): ProblemOutput {
  const output = problemWriter(context, file, inputFormat);
  let found = false;
  return {
    write: (line, problem, place) => {
      // A problem found means the file is invalid: a reader that stops early (`| head -1`) must not make it exit 0.
      if (!found) exitOnClosedOutput(context.io.stdout, ExitCode.dataInvalid);
      found = true;
      return output.write(line, shownProblem(problem, catalogue), place);
    },
    end: () => output.end(),
  };
}

function problemWriter(context: Context, file: string, inputFormat: InputFormat): ProblemOutput {
  const format = context.outputFormat('ndjson');
  // A file of duplicates has a problem on every line: they are written in batches (see batchedWriter).
  if (format === 'table') {
    const batch = batchedWriter(context.io.stdout);
    return {
      write: async (line, problem, place) =>
        batch.write(`${printable(file)}:${place ? recordPlace(place) : line}: ${printable(problem.message)}\n`),
      end: () => batch.flush(),
    };
  }
  const rowColumn = format === 'csv' && inputFormat === 'csv';
  const writer = createRecordWriter<ProblemRow>(
    format,
    context.io.stdout,
    {
      table: [],
      csv: rowColumn
        ? ['file', 'line', 'field', 'value', 'message', 'row']
        : ['file', 'line', 'field', 'value', 'message'],
    },
    // `--excel` asks every CSV b2bctl writes for a pt-BR Excel: a validate's problems too, as a listing's rows.
    { ...stdoutStyle(context), color: false, batched: true },
  );
  return {
    write: (line, problem, place) =>
      writer.write({
        file,
        line,
        // JSON names the row or element when the line alone does not place it; CSV of a CSV input always has its row.
        ...(rowColumn
          ? { row: place?.row ?? line }
          : format !== 'csv' && place?.row !== undefined
            ? { row: place.row }
            : {}),
        ...(format !== 'csv' && place?.element !== undefined ? { column: place.column, element: place.element } : {}),
        field: problem.field,
        value: problem.value,
        message: problem.message,
      }),
    end: async () => {
      await writer.end();
    },
  };
}

/**
 * Values the platform takes but that look wrong: a `warning: file:line: message` line each on stderr, counted for
 * the summary. `validate` and the bulk commands log them alike, each record's once it is judged; a bulk run prints
 * the first `printed` only and sums up the rest in one line (sumUp), as its problem lines (decision 0036): a good
 * night of 20,000 SKUs differing only by case wrote 20,000 warnings, 6.6 MB, into a --quiet cron log (a user test).
 */
export function advisoryLogger(
  context: Context,
  file: string,
  advisories: (record: InputRecord) => readonly { message: string }[],
  catalogue?: Pick<FieldCatalogue, 'isSecret'>,
  printed = Number.POSITIVE_INFINITY,
): { log(record: InputRecord): void; readonly count: number; sumUp(listedBy?: string): void } {
  let count = 0;
  return {
    log(record) {
      const found = advisories(record);
      // A warning quotes a cell: the row's secret cells are masked in it as in its problem lines (secretCellsOf).
      const secrets = found.length === 0 || count >= printed ? [] : secretCellsOf(record, catalogue);
      for (const advisory of found) {
        if (count++ >= printed) continue;
        context.log.warn(
          `warning: ${printable(file)}:${recordPlace(record)}: ${redactSecrets(advisory.message, secrets)}`,
        );
      }
    },
    get count() {
      return count;
    },
    sumUp(listedBy) {
      if (count <= printed) return;
      const every = listedBy === undefined ? '' : `; ${listedBy} prints every one`;
      context.log.warn(
        `warning: ${printable(file)}: ${countOf(count - printed, 'more warnings')} not printed one by one (only the first ${printed} are)${every}.`,
      );
    },
  };
}

/** Problems of a run that will not send: one line each on stderr, so stdout stays for data. */
export function problemLogger(
  context: Context,
  file: string,
  catalogue?: Pick<FieldCatalogue, 'isSecret'>,
): (line: number, problem: FieldProblem, place?: Place) => void {
  return (line, found, place) => {
    const problem = shownProblem(found, catalogue);
    context.log.warn(`${printable(file)}:${place ? recordPlace(place) : line}: ${printable(problem.message)}`, {
      file,
      line,
      ...(place?.row !== undefined ? { row: place.row } : {}),
      field: problem.field,
      value: problem.value,
    });
  };
}

/**
 * A problem as printed: the value of a secret field (a customer's password) is `[redacted]`, in the value and wherever
 * the message quotes it. The checks that find the problem are the reader's as well as the record's (an invisible
 * character, a formula's error), and each quotes the cell its own way: the mask is put on here, where all are printed.
 * An empty value stays empty: it says the password is missing, and hides nothing.
 */
export function shownProblem(problem: FieldProblem, catalogue?: Pick<FieldCatalogue, 'isSecret'>): FieldProblem {
  if (problem.value === '' || !catalogue?.isSecret?.(problem.field)) return problem;
  return { ...problem, value: redacted, message: redactSecrets(problem.message, [problem.value]) };
}
