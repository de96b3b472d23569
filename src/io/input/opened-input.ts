import { forbiddenCharacter, forbiddenCharacterProblem } from '../../domain/invisible-characters.js';
import { doubledUtf8Accent, undoubledWord, wordAround } from './brazilian-text.js';
import type { PipeWaitNotice } from './byte-source.js';
import type { DecimalSeparator } from './cell-values.js';
import type { HeaderProposalOptions } from './header-proposal.js';
import type { ColumnPlan, FieldCatalogue, HeaderMap } from './record-shape.js';
import type { RowBounds } from './row-bounds.js';
import type { InputFormat, TextEncoding } from './sniff.js';

/*
 * What every reader of an input hands out (CSV, JSON, a workbook): its records, where each came from, and the options
 * that open it. open-input.ts is the door the rest of b2bctl reads inputs through.
 */

export interface InputOptions {
  path: string;
  /** The name messages give the input when `path` is a spooled copy of stdin or of a pipe. */
  displayName?: string;
  stdin: NodeJS.ReadableStream;
  catalogue: FieldCatalogue;
  encoding?: TextEncoding;
  delimiter?: string;
  decimal?: DecimalSeparator;
  /** `--map`: the ERP's own header (or JSON key) to our field path, or `null` for a column left out. */
  headerMap?: Readonly<HeaderMap>;
  /** The file `headerMap` was read from (`--map FILE`), named where a message speaks of the map. */
  headerMapFile?: string;
  /** `--ignore-column`: headers whose data is left out on purpose (else data under an unknown header stops the run). */
  ignoredColumns?: readonly string[];
  /** The highest list index a header may name (`addressList.N.zipcode`); the input.maxListIndex setting. */
  maxListIndex?: number;
  /** The most columns and characters a CSV row may hold: the input.maxColumns and input.maxRowChars settings. */
  rowBounds?: RowBounds;
  /** The run's Ctrl-C: a long parse of one huge row stops on it. */
  interrupt?: AbortSignal;
  /** The log line of a FIFO or `<(…)` that sends nothing for a while (byte-source.ts): a cron log says why it hangs. */
  pipeWait?: PipeWaitNotice;
  /** `--strict`: an unknown column is an error instead of a warning. */
  strict?: boolean;
  /** `--write-map`: read the columns named as an ERP names them as proposed, and save the map (header-proposal.ts). */
  adoptHeaderMap?: HeaderProposalOptions['adoptHeaderMap'];
  /** `--sheet NAME|N`: the sheet of a workbook to read (the first visible one by default). */
  sheet?: string;
  /**
   * False for a command that sends nothing whatever the file holds (`validate`): a refusal then does not end with
   * "nothing was sent" (nothing-sent.ts). Unset for a command that sends.
   */
  sends?: boolean;
  /**
   * False where refusals go to a server's log (`tax serve`): a header that stops the reading is described (its count of
   * columns), never quoted. The path may lead through a link another account owns to any file the server can read,
   * and a file that is no table stops at its header: quoting it would publish its first line in the log.
   */
  quotesHeader?: boolean;
  /**
   * Throws when a file is no longer the one the command meant to read (another program writing or replacing it):
   * run after each chunk of a regular file is read, before its records are judged. Stdin and pipes have none.
   */
  unchanged?: () => void;
  warn(message: string): void;
  /** What the command was told to do, said back (a column `--ignore-column` leaves out): --quiet hides it. */
  note?(message: string): void;
}

/** A reader's problem with the field and the value it is about. */
export interface ReaderProblem {
  field: string;
  value: string;
  message: string;
}

/** One record of the input, shaped as a request body, with where it came from. */
export interface InputRecord {
  line: number;
  values: Record<string, unknown>;
  /** The record as the user wrote it: CSV cells, or the JSON value. For the errors file. */
  original: readonly string[] | unknown;
  /**
   * Problems of shape found while reading (a row with too many cells, a JSON value that is no object): a message, or
   * one that names its field and value (a workbook's cell), so `validate -o json` can say which field.
   */
  problems: (string | ReaderProblem)[];
  /** CSV: the spreadsheet's row, when a line break inside a cell above made it differ from the line. */
  row?: number;
  /** JSON with several records on one line (minified): where the record starts on it, and its index (from 0). */
  column?: number;
  element?: number;
  /** CSV: how the cells became fields, shared by every record, to quote a value back as it was written. */
  cells?: WrittenCells;
  /**
   * A workbook: the indexes of the columns whose cell in this row is a number cell, not text, which --decimal does
   * not read (a problem about one advises what does); absent when none.
   */
  numberCells?: readonly number[];
  /**
   * JSON: the fields whose key the record holds with null or "", left out of `values` as an empty cell is; absent when
   * none. A CSV's or workbook's columns are in `cells`, whatever a row's cells hold.
   */
  emptyFields?: readonly string[];
}

/** How a CSV input's cells map to fields, and its decimal separator. */
export interface WrittenCells {
  columns: readonly ColumnPlan[];
  decimal: DecimalSeparator;
  /** The separator came from --decimal, or the file's own decimal commas: `1.000` is read by it, not refused as ambiguous. */
  decimalSettled?: boolean;
}

/** Where a record is, after `file:`: `8`, `8 (row 7)` below a cell with a line break, `1:2345 (element 17)` in minified JSON. */
export function recordPlace(record: Pick<InputRecord, 'line' | 'row' | 'column' | 'element'>): string {
  if (record.element !== undefined) return `${record.line}:${record.column ?? 1} (element ${record.element})`;
  return record.row === undefined ? String(record.line) : `${record.line} (row ${record.row})`;
}

export interface OpenedInput {
  file: string;
  format: InputFormat;
  encoding: TextEncoding;
  /**
   * CSV only (and a workbook, whose errors file is CSV): the delimiter, decimal separator and header cells as read,
   * and the columns whose field is text (textColumnIndexes), whose codes the errors file keeps as text.
   */
  csv?: { delimiter: string; decimal: DecimalSeparator; headers: string[]; textColumns?: readonly number[] };
  /** A workbook (.xlsx, .ods): the sheet read. */
  workbook?: { sheet: string };
  /** The records one by one. Read these or recordBatches(), not both: both take from the one reader of the input. */
  records: AsyncGenerator<InputRecord>;
  /**
   * The same records in batches, as the reader makes them (a CSV reader: a batch of rows per read, so a pass over a
   * million rows pays an await per batch instead of one per record); batches of one for JSON.
   */
  recordBatches(): AsyncGenerator<InputRecord[]>;
  /** Rows that were not records, counted as the records stream: Excel's trailing `;;;;` rows. */
  skipped?: { blankRows: number };
  /**
   * About how many records a CSV file holds, from its size and the lines of its first 64 KB: a hint for sizing
   * tables once instead of growing them, never a count to show. Undefined for stdin, pipes and JSON.
   */
  estimatedRecords?: number;
  /**
   * Lets go of the input's file when its records are not read to the end: a run that stops on an error after
   * opening (a header refused, a resume that does not match, a test that looks at the header only). Reading every
   * record lets go of it as well, and closing twice does nothing. Each door that opens an input closes what it
   * opened: Node 26 turns a file left to the garbage collector into an uncaught error.
   */
  close(): void;
}

/** What a reader of one format hands its door (open-input.ts, workbook-input.ts), which adds close(). */
export type ReadInput = Omit<OpenedInput, 'close'>;

/** `, 3 blank rows skipped` for a summary line, or nothing. */
export function skippedNote(input: Pick<OpenedInput, 'skipped'>): string {
  const blank = input.skipped?.blankRows ?? 0;
  return blank === 0 ? '' : `, ${blank} blank ${blank === 1 ? 'row' : 'rows'} skipped`;
}

/** Records as batches of one, for inputs read record by record (JSON, or records a caller filters). */
export async function* batchesOfOne(records: AsyncIterable<InputRecord>): AsyncGenerator<InputRecord[]> {
  for await (const record of records) yield [record];
}

/** An input read record by record, given its recordBatches(). */
export function withBatchesOfOne(input: Omit<ReadInput, 'recordBatches'>): ReadInput {
  return { ...input, recordBatches: () => batchesOfOne(input.records) };
}

/** The records of an empty input (an empty file, or a header-only one). */
export async function* noRecords(): AsyncGenerator<InputRecord> {}

/**
 * Every string of a shaped record that holds a control, invisible or bidi character, or a lone surrogate, or text
 * converted to UTF-8 twice. A CSV or JSON file of doubled text is refused whole as it is decoded; a workbook's cells
 * (a doubled CSV opened and saved as .xlsx or .ods) and JSON's `\u00c3\u00a7` escapes are text already, and come here.
 */
export function invisibleProblems(values: unknown): ReaderProblem[] {
  const problems: ReaderProblem[] = [];
  collectInvisibleProblems(values, '', problems);
  return problems;
}

/** invisibleProblems, adding to `problems` in place: no array per field. */
function collectInvisibleProblems(values: unknown, path: string, problems: ReaderProblem[]): void {
  if (typeof values === 'string') {
    const found = forbiddenCharacter(values);
    if (found)
      problems.push({ field: path, value: shownValue(values), message: forbiddenCharacterProblem(path, found) });
    const doubled = doubledUtf8Accent(values);
    if (doubled !== -1)
      problems.push({
        field: path,
        value: shownValue(values),
        message: doubledTextProblem(path, wordAround(values, doubled)),
      });
    return;
  }
  if (values === null || typeof values !== 'object') return;
  if (Array.isArray(values)) {
    for (let index = 0; index < values.length; index++)
      collectInvisibleProblems(values[index], path === '' ? String(index) : `${path}.${index}`, problems);
    return;
  }
  for (const key in values) {
    if (!Object.hasOwn(values, key)) continue;
    collectInvisibleProblems((values as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, problems);
  }
}

/** A field of text converted to UTF-8 twice (`AÃ§Ãºcar`), with the word as it first read when it undoes. */
function doubledTextProblem(field: string, word: string): string {
  const undone = undoubledWord(word);
  return `field "${field}" holds "${word}", UTF-8 text converted to UTF-8 a second time${undone === undefined ? '' : ` (it was "${undone}")`}: export the file again from the ERP (as UTF-8 once), or retype the value`;
}

/** A field's value as a report shows it beside its problem: a cell of megabytes by its first 200 characters. */
function shownValue(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
