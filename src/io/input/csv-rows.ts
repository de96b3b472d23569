import { forbiddenCharacter } from '../../domain/invisible-characters.js';
import { InputError } from '../../errors.js';
import { asInputError, parseCounted, type StretchReading, tryRecordSize } from './csv-stretch.js';
import { ColumnCounter, defaultRowBounds, type RowBounds, tooManyColumnsMessage } from './row-bounds.js';
import { normalizeLineEnds, type QuoteTracker } from './text-decoding.js';

/** One CSV row with the line it starts on (1 is the header). */
export interface CsvRow {
  line: number;
  /** The spreadsheet's row: the line minus the line breaks inside quoted cells before it. */
  row: number;
  cells: string[];
}

/** How the rows are read: the delimiter, the name errors give the file, the bounds of a row, the run's Ctrl-C. */
export interface CsvReadOptions {
  delimiter: string;
  file: string;
  bounds?: RowBounds;
  /** Aborted on SIGINT/SIGTERM: a long parse stops between its slices. */
  interrupt?: AbortSignal;
}

/** Streams the rows of decoded CSV text, each with the line where it starts, even when a quoted field spans lines. */
export async function* readCsvRows(text: AsyncIterable<string>, options: CsvReadOptions): AsyncGenerator<CsvRow> {
  for await (const batch of readCsvRowBatches(text, options)) yield* batch;
}

/**
 * readCsvRows in batches: every row of the text read so far that ends a record. On a million rows, one promise and
 * microtask per row of each async layer was a larger share of the time than csv-parse itself.
 *
 * The quote follower says where the whole records of the text read so far end. Those without a quote, a surrogate or
 * a very long line (nearly all of an ERP export) are split here on line breaks and the delimiter, which is what
 * csv-parse makes of them with these options, at a fraction of its cost; the others go to csv-parse, each stretch
 * starting and ending at a record boundary, so it reads them as it would have read the whole file.
 */
export async function* readCsvRowBatches(
  text: AsyncIterable<string>,
  options: CsvReadOptions,
): AsyncGenerator<CsvRow[]> {
  const bounds = options.bounds ?? defaultRowBounds;
  const maxRecordSize = bounds.maxRowChars;
  // A line that might be over the bound goes to csv-parse, which counts it.
  const plainLineBound = Math.min(longestPlainLine, Math.floor(maxRecordSize / 4));
  const recordStarts: number[] = [];
  const recordRows: number[] = [];
  const tracker: QuoteTracker = { openQuoteLine: undefined, recordStarts, recordRows };
  const parserOptions = {
    delimiter: options.delimiter,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // An HTML page or a binary saved as .csv can be one line of megabytes: stop it at once rather than hold and echo it.
    max_record_size: maxRecordSize,
  };
  const delimiter = options.delimiter;
  const file = options.file;
  const reading: StretchReading = { parserOptions, bounds, delimiter, file, interrupt: options.interrupt };
  let next = 0;
  let lastLine = 0;
  let lastRow = 0;
  // `"Ana"x`: csv-parse (relax_quotes) keeps the cell as `"Ana"x`, quotes and all, which would be sent.
  const checkClosingQuote = (nextStart: number | undefined) => {
    const bad = tracker.textAfterClosingQuoteLine;
    if (bad === undefined || bad < lastLine || (nextStart !== undefined && bad >= nextStart)) return;
    throw new InputError(
      `${options.file}:${bad}: text follows the closing quote of a quoted cell (such as "Ana"x); put the whole cell inside the quotes, and write a quote inside it as "".`,
      { file: options.file, line: bad },
    );
  };
  /** The rows of whole records (text from one record boundary to another) with the lines the follower found. */
  const rowsOf = async (records: string, firstLine: number): Promise<CsvRow[]> => {
    const cells =
      splitPlainRecords(records, delimiter, plainLineBound) ?? (await parseCounted(records, firstLine, reading));
    const batch: CsvRow[] = [];
    for (const record of cells) {
      lastRow = recordRows[next] ?? lastRow + 1;
      lastLine = recordStarts[next++] ?? lastLine + 1;
      checkClosingQuote(recordStarts[next]);
      // A plain line is split without csv-parse, its cells counted here.
      if (record.length > bounds.maxColumns) {
        const message = tooManyColumnsMessage(record.length, bounds.maxColumns);
        throw new InputError(`${file}:${lastLine}: ${message}`, { file, line: lastLine });
      }
      batch.push({ line: lastLine, row: lastRow, cells: record });
    }
    // The follower runs ahead of the rows; drop what has been paired now and then.
    if (next > 8192) {
      recordStarts.splice(0, next);
      recordRows.splice(0, next);
      next = 0;
    }
    return batch;
  };
  // Text read but not yet made rows: from the last record boundary on. `taken` counts the characters before it.
  let pending = '';
  let taken = 0;
  let pendingLine = 1;
  let nextSizeCheck = maxRecordSize;
  // The columns of a record still arriving are counted as its pieces come, so a row of a million cells stops early.
  let pendingColumns = new ColumnCounter(delimiter, bounds.maxColumns, pendingLine, file);
  try {
    for await (const piece of normalizeLineEnds(withoutByteOrderMark(text), delimiter, tracker)) {
      pending += piece;
      const end = (tracker.recordsEnd ?? 0) - taken;
      if (end <= 0) {
        pendingColumns.feed(piece);
        // One record longer than any spreadsheet row: let csv-parse say so now, as it did reading as a stream.
        if (pending.length > nextSizeCheck) {
          nextSizeCheck = pending.length * 2;
          await tryRecordSize(pending, pendingLine, reading);
        }
        continue;
      }
      const records = end === pending.length ? pending : pending.slice(0, end);
      pending = end === pending.length ? '' : pending.slice(end);
      taken += end;
      nextSizeCheck = maxRecordSize;
      const firstLine = pendingLine;
      pendingLine += lineBreaks(records);
      pendingColumns = new ColumnCounter(delimiter, bounds.maxColumns, pendingLine, file);
      pendingColumns.feed(pending);
      const batch = await rowsOf(records, firstLine);
      if (batch.length > 0) yield markedClean(batch, records);
    }
    if (pending !== '') {
      const batch = await rowsOf(pending, pendingLine);
      if (batch.length > 0) yield markedClean(batch, pending);
    }
    checkClosingQuote(undefined);
  } catch (error) {
    throw asInputError(error, reading, {
      openQuoteLine: tracker.openQuoteLine,
      lastLine,
      recordStart: (at) => recordStarts.findLast((start) => start <= at) ?? at,
    });
  }
}

/** The longest line split here; a longer one goes to csv-parse, which counts its characters against the bound. */
const longestPlainLine = Math.floor(defaultRowBounds.maxRowChars / 4);
/** A UTF-16 surrogate: csv-parse reads text as UTF-8 bytes, where a lone one becomes U+FFFD; it is left to csv-parse. */
const surrogate = /[\uD800-\uDFFF]/;

/**
 * Whole records without a quote split on line breaks and a one-character delimiter, as csv-parse splits them with
 * relax_quotes, relax_column_count and skip_empty_lines; undefined when csv-parse must read them (a quote, a
 * surrogate, a line too long for a row, a longer delimiter).
 */
export function splitPlainRecords(
  records: string,
  delimiter: string,
  longestLine = longestPlainLine,
): string[][] | undefined {
  if (delimiter.length !== 1 || records.includes('"') || surrogate.test(records)) return undefined;
  // One pass over the character codes, each cell cut from the text once: 0.6x the time of slicing each line and
  // splitting it, which was the largest share of reading a million plain rows.
  const delimiterCode = delimiter.charCodeAt(0);
  const rows: string[][] = [];
  let cells: string[] = [];
  let cellStart = 0;
  let lineStart = 0;
  const length = records.length;
  for (let index = 0; index < length; index++) {
    const code = records.charCodeAt(index);
    if (code === delimiterCode) {
      cells.push(records.slice(cellStart, index));
      cellStart = index + 1;
    } else if (code === 0x0a) {
      if (index - lineStart > longestLine) return undefined;
      // An empty line is no record (skip_empty_lines); a line of delimiters only is one of empty cells.
      if (index > lineStart) {
        cells.push(records.slice(cellStart, index));
        rows.push(cells);
        cells = [];
      }
      cellStart = lineStart = index + 1;
    }
  }
  if (length > lineStart) {
    if (length - lineStart > longestLine) return undefined;
    cells.push(records.slice(cellStart, length));
    rows.push(cells);
  }
  return rows;
}

function lineBreaks(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/**
 * csv-parse's `bom`: a byte order mark opening the text is no character of the first record. Taken off before the
 * quote follower, which would otherwise see a header's opening quote after it as a quote inside a cell.
 */
async function* withoutByteOrderMark(text: AsyncIterable<string>): AsyncGenerator<string> {
  let first = true;
  for await (const piece of text) {
    if (first && piece.charCodeAt(0) === 0xfeff) {
      first = false;
      if (piece.length > 1) yield piece.slice(1);
      continue;
    }
    if (piece !== '') first = false;
    yield piece;
  }
}

/** Batches whose text holds no character a field may not hold (see rowsWithoutForbiddenCharacters). */
const cleanBatches = new WeakSet<readonly CsvRow[]>();

function markedClean(batch: CsvRow[], text: string): CsvRow[] {
  if (forbiddenCharacter(text) === undefined) cleanBatches.add(batch);
  return batch;
}

/**
 * True when no cell of the batch holds a control, invisible or bidi character or a lone surrogate: the text the rows
 * were read from was looked at once, so no field cut from them needs a look of its own (nearly every batch).
 */
export function rowsWithoutForbiddenCharacters(batch: readonly CsvRow[]): boolean {
  return cleanBatches.has(batch);
}
