import { parse, type CsvError } from 'csv-parse';
import { Readable } from 'node:stream';
import { InputError } from '../../errors.js';
import { normalizeLineEnds, type QuoteTracker } from './text-decoding.js';

/** One CSV row with the line it starts on (1 is the header). */
export interface CsvRow {
  line: number;
  /** The spreadsheet's row: the line minus the line breaks inside quoted cells before it. */
  row: number;
  cells: string[];
}

/** The longest row a customer or stock file can reasonably hold. */
const maxRecordSize = 200_000;

/** Streams the rows of decoded CSV text, each with the line where it starts, even when a quoted field spans lines. */
export async function* readCsvRows(
  text: AsyncIterable<string>,
  options: { delimiter: string; file: string },
): AsyncGenerator<CsvRow> {
  for await (const batch of readCsvRowBatches(text, options)) yield* batch;
}

/**
 * readCsvRows in batches: every row the parser holds at once. On a million rows, one promise and
 * microtask per row of each async layer was a larger share of the time than csv-parse itself.
 */
export async function* readCsvRowBatches(
  text: AsyncIterable<string>,
  options: { delimiter: string; file: string },
): AsyncGenerator<CsvRow[]> {
  const recordStarts: number[] = [];
  const recordRows: number[] = [];
  const tracker: QuoteTracker = { openQuoteLine: undefined, recordStarts, recordRows };
  const parser = parse({
    delimiter: options.delimiter,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // An HTML page or a binary saved as .csv can be one line of megabytes: stop it at once rather than hold and echo it.
    max_record_size: maxRecordSize,
  });
  const source = Readable.from(normalizeLineEnds(text, options.delimiter, tracker));
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
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
  try {
    for await (const first of parser as AsyncIterable<string[]>) {
      const batch: CsvRow[] = [];
      // The async iterator reads the stream with read() too: taking what is buffered here is safe.
      for (let record: string[] | null = first; record !== null; record = parser.read() as string[] | null) {
        lastRow = recordRows[next] ?? lastRow + 1;
        lastLine = recordStarts[next++] ?? lastLine + 1;
        checkClosingQuote(recordStarts[next]);
        batch.push({ line: lastLine, row: lastRow, cells: record });
      }
      // The follower runs ahead of the parser; drop what has been paired now and then.
      if (next > 8192) {
        recordStarts.splice(0, next);
        recordRows.splice(0, next);
        next = 0;
      }
      yield batch;
    }
    checkClosingQuote(undefined);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const csvError = error as CsvError;
    if (csvError.code === 'CSV_QUOTE_NOT_CLOSED') {
      const line = tracker.openQuoteLine ?? lastLine + 1;
      throw new InputError(
        `${options.file}:${line}: a quoted field opens on this line and is never closed. Close the quote (a quote inside a quoted field is written "").`,
        {
          file: options.file,
          line,
        },
      );
    }
    if (csvError.code === 'CSV_MAX_RECORD_SIZE') {
      const line = lastLine + 1;
      throw new InputError(
        `${options.file}:${line}: a row of more than ${maxRecordSize.toLocaleString('en-US')} characters; this is not a spreadsheet export (an HTML page saved as .csv?). Export the data as CSV.`,
        { file: options.file, line },
      );
    }
    if (typeof csvError.code === 'string' && csvError.code.startsWith('CSV_')) {
      const line = (csvError as { lines?: number }).lines ?? lastLine + 1;
      throw new InputError(`${options.file}:${line}: ${csvError.message}`, { file: options.file, line });
    }
    throw error;
  } finally {
    source.destroy();
  }
}
