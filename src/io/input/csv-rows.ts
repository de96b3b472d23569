import { parse, type CsvError } from 'csv-parse';
import { Readable } from 'node:stream';
import { InputError } from '../../errors.js';
import { normalizeLineEnds, type QuoteTracker } from './text-decoding.js';

/** One CSV row with the line it starts on (1 is the header). */
export interface CsvRow {
  line: number;
  cells: string[];
}

/** Streams the rows of decoded CSV text, each with the line where it starts, even when a quoted field spans lines. */
export async function* readCsvRows(text: AsyncIterable<string>, options: { delimiter: string; file: string }): AsyncGenerator<CsvRow> {
  const tracker: QuoteTracker = { openQuoteLine: undefined };
  const parser = parse({
    delimiter: options.delimiter,
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  const source = Readable.from(normalizeLineEnds(text, options.delimiter, tracker));
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  let previousEndLine = 0;
  let previousEmptyLines = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number; empty_lines: number } }>) {
      const line = previousEndLine + 1 + (info.empty_lines - previousEmptyLines);
      previousEndLine = info.lines;
      previousEmptyLines = info.empty_lines;
      yield { line, cells: record };
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    const csvError = error as CsvError;
    if (csvError.code === 'CSV_QUOTE_NOT_CLOSED') {
      const line = tracker.openQuoteLine ?? previousEndLine + 1;
      throw new InputError(`${options.file}:${line}: a quoted field opens on this line and is never closed. Close the quote (a quote inside a quoted field is written "").`, {
        file: options.file,
        line,
      });
    }
    if (typeof csvError.code === 'string' && csvError.code.startsWith('CSV_')) {
      const line = (csvError as { lines?: number }).lines ?? previousEndLine + 1;
      throw new InputError(`${options.file}:${line}: ${csvError.message}`, { file: options.file, line });
    }
    throw error;
  } finally {
    source.destroy();
  }
}
