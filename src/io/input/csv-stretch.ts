import { type CsvError, parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { finished } from 'node:stream/promises';
import { InputError, InterruptedError } from '../../base/errors.js';
import { ColumnCounter, defaultRowBounds, longRowMessage, type RowBounds } from './row-bounds.js';

/*
 * csv-parse's reading of a stretch of whole records for the CSV reader (csv-rows.ts): its columns counted first, a
 * long stretch parsed in slices so that signals are served during it, its errors turned into one-line input errors.
 */

/** What reading a stretch of records with csv-parse needs. */
export interface StretchReading {
  parserOptions: object;
  bounds: RowBounds;
  delimiter: string;
  file: string;
  interrupt: AbortSignal | undefined;
  /** The most characters outside quoted cells the splitter takes in one record; a longer one goes to csv-parse, in slices. */
  plainLineBound: number;
}

/** The reading of a file's stretches, from its options. */
export function stretchReading(options: {
  delimiter: string;
  file: string;
  bounds?: RowBounds;
  interrupt?: AbortSignal;
}): StretchReading {
  const bounds = options.bounds ?? defaultRowBounds;
  return {
    // csv-parse counts a record's UTF-8 bytes, at most 3 per character: the bound in characters is checked first
    // (row-length.ts), this one only keeps csv-parse from holding a record without end.
    parserOptions: csvParseOptions(options.delimiter, 3 * bounds.maxRowChars + 4),
    bounds,
    delimiter: options.delimiter,
    file: options.file,
    interrupt: options.interrupt,
    // Longer lines go to csv-parse, which is parsed in slices: a signal is served inside a line of megabytes.
    plainLineBound: Math.min(defaultRowBounds.maxRowChars, bounds.maxRowChars) >> 2,
  };
}

/** csv-parse's options for the records the splitter leaves to it. */
function csvParseOptions(delimiter: string, maxRecordSize: number) {
  return {
    delimiter,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // The text's line ends are LF by now (normalizeLineEnds). Given, not detected: until csv-parse has seen a record
    // end it re-encodes "\r\n" at every byte to size its look-ahead, 20x the cost of a long first cell.
    record_delimiter: '\n',
    // An HTML page or a binary saved as .csv can be one line of megabytes: stop it at once rather than hold and echo it.
    max_record_size: maxRecordSize,
  };
}

/** csv-parse's reading of a stretch, its columns counted first (csv-parse would make every empty cell a string). */
export async function parseCounted(records: string, firstLine: number, reading: StretchReading): Promise<string[][]> {
  new ColumnCounter(reading.delimiter, reading.bounds.maxColumns, firstLine, reading.file).feed(records);
  return parseRecords(records, reading.parserOptions, firstLine, reading.interrupt, reading.file);
}

/** Text longer than this is parsed in slices of it, with the event loop served between them (signals, timers). */
const parseSlice = 1 << 20;

/**
 * csv-parse's reading of whole records; an error says the line of the file it is on (`recordLine`) and carries the
 * text from the start of that line (`recordText`), for a message that says what the row holds.
 */
async function parseRecords(
  records: string,
  options: object,
  firstLine: number,
  interrupt: AbortSignal | undefined,
  file: string,
): Promise<string[][]> {
  try {
    if (records.length <= parseSlice) return parse(records, options) as string[][];
    return await parseInSlices(
      records,
      options,
      interrupt,
      `${file}: interrupted while reading the rows from line ${firstLine}.`,
    );
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    if (lines !== undefined) {
      const start = lineOffset(records, lines - 1);
      Object.assign(error as object, {
        recordLine: firstLine + lines - 1,
        recordText: records.slice(start, start + 4 * parseSlice),
      });
    }
    throw error;
  }
}

/** csv-parse's stream parser fed a slice at a time, so a Ctrl-C during a long row is served at once. */
async function parseInSlices(
  text: string,
  options: object,
  interrupt: AbortSignal | undefined,
  interruptedMessage: string,
): Promise<string[][]> {
  const parser = parseStream(options);
  const rows: string[][] = [];
  parser.on('data', (row: string[]) => rows.push(row));
  const done = finished(parser);
  // Its rejection is awaited after the last slice; until then it must not count as unhandled.
  done.catch(() => {});
  for (let start = 0; start < text.length && !parser.errored;) {
    let end = Math.min(text.length, start + parseSlice);
    // Never between the two halves of a surrogate pair: each slice is encoded to UTF-8 on its own.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    parser.write(text.slice(start, end));
    start = end;
    await new Promise((resolve) => setImmediate(resolve));
    if (interrupt?.aborted) {
      parser.destroy();
      throw new InterruptedError(interruptedMessage);
    }
  }
  if (!parser.errored) parser.end();
  await done;
  return rows;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Where the text's line `index` (0 is the first) starts. */
function lineOffset(text: string, index: number): number {
  let offset = 0;
  for (let line = 0; line < index; line++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) break;
    offset = next + 1;
  }
  return offset;
}

/** csv-parse's errors in the words of the file's lines; other errors as they are. */
export function asInputError(
  error: unknown,
  reading: StretchReading,
  where: { recordStarts: readonly number[]; openQuoteLine: number | undefined; lastLine: number },
): unknown {
  const { file } = reading;
  if (error instanceof InputError) return error;
  const csvError = error as CsvError & { recordLine?: number; recordText?: string };
  if (csvError.code === 'CSV_QUOTE_NOT_CLOSED') {
    const line = where.openQuoteLine ?? where.lastLine + 1;
    return new InputError(
      `${file}:${line}: a quoted field opens on this line and is never closed. Close the quote (a quote inside a quoted field is written "").`,
      { file, line },
    );
  }
  if (csvError.code === 'CSV_MAX_RECORD_SIZE') {
    // The record the over-long line belongs to, as the follower numbered them; csv-parse counts from the stretch it read.
    const at = csvError.recordLine ?? where.lastLine + 1;
    const line = where.recordStarts.findLast((start) => start <= at) ?? at;
    const message = longRowMessage(csvError.recordText ?? '', reading.delimiter, reading.bounds.maxRowChars);
    return new InputError(`${file}:${line}: ${message}`, { file, line });
  }
  if (typeof csvError.code === 'string' && csvError.code.startsWith('CSV_')) {
    const line = csvError.recordLine ?? where.lastLine + 1;
    return new InputError(`${file}:${line}: ${csvError.message}`, { file, line });
  }
  return error;
}
