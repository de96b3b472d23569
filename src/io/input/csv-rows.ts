import type { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { forbiddenCharacter } from '../../domain/invisible-characters.js';
import { InputError } from '../../errors.js';
import { maxRecordSize, splitPlainRecords } from './csv/plain-split.js';
import { normalizeLineEnds, type QuoteTracker } from './text-decoding.js';

/** One CSV row with the line it starts on (1 is the header). */
export interface CsvRow {
  line: number;
  /** The spreadsheet's row: the line minus the line breaks inside quoted cells before it. */
  row: number;
  cells: string[];
}

/** Rows read together, and whether their text is free of any character a field may not hold. */
export interface CsvRowBatch {
  rows: CsvRow[];
  /**
   * No cell holds a control, invisible or bidi character or a lone surrogate: the text the rows were read from was
   * looked at once, so no field cut from them needs a look of its own (nearly every batch).
   */
  clean: boolean;
}

/** Streams the rows of decoded CSV text, each with the line where it starts, even when a quoted field spans lines. */
export async function* readCsvRows(
  text: AsyncIterable<string>,
  options: { delimiter: string; file: string },
): AsyncGenerator<CsvRow> {
  for await (const batch of readCsvRowBatches(text, options)) yield* batch.rows;
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
  options: { delimiter: string; file: string },
): AsyncGenerator<CsvRowBatch> {
  const recordStarts: number[] = [];
  const recordRows: number[] = [];
  const tracker: QuoteTracker = { openQuoteLine: undefined, recordStarts, recordRows };
  const parserOptions = csvParseOptions(options.delimiter);
  const delimiter = options.delimiter;
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
  const rowsOf = (records: string, firstLine: number): CsvRow[] => {
    const cells = splitPlainRecords(records, delimiter) ?? parseRecords(records, parserOptions, firstLine);
    const batch: CsvRow[] = [];
    for (const record of cells) {
      lastRow = recordRows[next] ?? lastRow + 1;
      lastLine = recordStarts[next++] ?? lastLine + 1;
      checkClosingQuote(recordStarts[next]);
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
  try {
    for await (const piece of normalizeLineEnds(withoutByteOrderMark(text), delimiter, tracker)) {
      pending += piece;
      const end = (tracker.recordsEnd ?? 0) - taken;
      if (end <= 0) {
        // One record longer than any spreadsheet row: let csv-parse say so now, as it did reading as a stream.
        if (pending.length > nextSizeCheck) {
          nextSizeCheck = pending.length * 2;
          tryRecordSize(pending, parserOptions, pendingLine);
        }
        continue;
      }
      const records = end === pending.length ? pending : pending.slice(0, end);
      pending = end === pending.length ? '' : pending.slice(end);
      taken += end;
      nextSizeCheck = maxRecordSize;
      const firstLine = pendingLine;
      pendingLine += lineBreaks(records);
      const batch = rowsOf(records, firstLine);
      if (batch.length > 0) yield { rows: batch, clean: forbiddenCharacter(records) === undefined };
    }
    if (pending !== '') {
      const batch = rowsOf(pending, pendingLine);
      if (batch.length > 0) yield { rows: batch, clean: forbiddenCharacter(pending) === undefined };
    }
    checkClosingQuote(undefined);
  } catch (error) {
    throw csvReadError(error, options.file, { recordStarts, openQuoteLine: tracker.openQuoteLine, lastLine });
  }
}

/** csv-parse's options for the records the quote-free splitter leaves to it. */
function csvParseOptions(delimiter: string) {
  return {
    delimiter,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // An HTML page or a binary saved as .csv can be one line of megabytes: stop it at once rather than hold and echo it.
    max_record_size: maxRecordSize,
  };
}

/** A csv-parse error as one line naming the file and line; other errors as they are. */
function csvReadError(
  error: unknown,
  file: string,
  where: { recordStarts: readonly number[]; openQuoteLine: number | undefined; lastLine: number },
): unknown {
  if (error instanceof InputError) return error;
  const csvError = error as CsvError;
  if (csvError.code === 'CSV_QUOTE_NOT_CLOSED') {
    const line = where.openQuoteLine ?? where.lastLine + 1;
    return new InputError(
      `${file}:${line}: a quoted field opens on this line and is never closed. Close the quote (a quote inside a quoted field is written "").`,
      { file, line },
    );
  }
  if (csvError.code === 'CSV_MAX_RECORD_SIZE') {
    // The record the over-long line belongs to, as the follower numbered them; csv-parse counts from the stretch it read.
    const at = (csvError as { recordLine?: number }).recordLine ?? where.lastLine + 1;
    const line = where.recordStarts.findLast((start) => start <= at) ?? at;
    return new InputError(
      `${file}:${line}: a row of more than ${maxRecordSize.toLocaleString('en-US')} characters; this is not a spreadsheet export (an HTML page saved as .csv?). Export the data as CSV.`,
      { file, line },
    );
  }
  if (typeof csvError.code === 'string' && csvError.code.startsWith('CSV_')) {
    const line = (csvError as { recordLine?: number }).recordLine ?? where.lastLine + 1;
    return new InputError(`${file}:${line}: ${csvError.message}`, { file, line });
  }
  return error;
}

/** csv-parse's reading of whole records; an error says the line of the file it is on (`recordLine`). */
function parseRecords(records: string, options: object, firstLine: number): string[][] {
  try {
    return parse(records, options) as string[][];
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    if (lines !== undefined) Object.assign(error as object, { recordLine: firstLine + lines - 1 });
    throw error;
  }
}

/** Throws csv-parse's CSV_MAX_RECORD_SIZE when the start of a record already holds more than a row may. */
function tryRecordSize(record: string, options: object, firstLine: number): void {
  try {
    parseRecords(record, options, firstLine);
  } catch (error) {
    if ((error as CsvError).code === 'CSV_MAX_RECORD_SIZE') throw error;
  }
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
