import { forbiddenCharacter } from '../../domain/invisible-characters.js';
import { InputError, InterruptedError } from '../../base/errors.js';
import { splitPlainRecords } from './csv/plain-split.js';
import { asInputError, parseCounted, type StretchReading, stretchReading } from './csv-stretch.js';
import { RecordStretches, type RecordStretch } from './csv/record-stretches.js';
import { checkRowWidth, ColumnCounter, type RowBounds } from './row-bounds.js';
import { RowLengthGuard } from './row-length.js';
import { type FollowedPiece, followRecords } from './text-decoding.js';

/** One CSV row with the line it starts on (1 is the header). */
export interface CsvRow {
  line: number;
  /** The spreadsheet's row: the line minus the line breaks inside quoted cells before it. */
  row: number;
  cells: string[];
  /**
   * The text's last row has no line end though the lines before it do: what Excel, LibreOffice and ERPs write ends
   * with one, so the export was cut short or is still being written, and the row's last value may be partial.
   */
  unterminated?: true;
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

/** How the rows are read: the delimiter, the name errors give the file, the bounds of a row, the run's Ctrl-C. */
export interface CsvReadOptions {
  delimiter: string;
  file: string;
  bounds?: RowBounds;
  /** Aborted on SIGINT/SIGTERM: a long parse stops between its slices. */
  interrupt?: AbortSignal;
  /** The header's cells once the caller has read them, for messages that name a column by its header. */
  columnNames?: { headers?: readonly string[] };
}

/** Streams the rows of decoded CSV text, each with the line where it starts, even when a quoted field spans lines. */
export async function* readCsvRows(text: AsyncIterable<string>, options: CsvReadOptions): AsyncGenerator<CsvRow> {
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
  options: CsvReadOptions,
): AsyncGenerator<CsvRowBatch> {
  const reading = stretchReading(options);
  const { bounds, delimiter, file } = reading;
  const pairing = new RecordPairing(reading, options.file);
  // Text read but not yet made rows: from the last record boundary on, starting on `pendingLine`.
  const newRecordStretches = () => new RecordStretches(delimiter, reading.plainLineBound);
  let pending = newRecordStretches();
  let pendingLine = 1;
  let pendingColumns = new ColumnCounter(delimiter, bounds.maxColumns, pendingLine, file);
  const rowLength = new RowLengthGuard({
    file,
    delimiter,
    maxRowChars: bounds.maxRowChars,
    headers: () => options.columnNames?.headers,
  });
  try {
    for await (const followed of followRecords(withoutByteOrderMark(text), delimiter)) {
      pairing.follow(followed);
      const piece = followed.text;
      if (rowLength.measuring) {
        if (options.interrupt?.aborted) throw interruptedWhileReading(file, pendingLine);
        rowLength.measure(piece, pendingLine);
        continue;
      }
      // Each piece is looked at for forbidden characters as it comes, so the end of a record of megabytes is not one
      // more pass over all of it, with signals unserved (a piece is a few KB).
      const pieceClean = forbiddenCharacter(piece) === undefined;
      if (followed.recordsEnd === 0) {
        pending.add(piece, pieceClean);
        // Inside one record that spans pieces (a cell of a gigabyte is thousands): served at the next piece. Between
        // records, the consumer of the rows serves it, with its own account of what was read.
        if (options.interrupt?.aborted) throw interruptedWhileReading(file, pendingLine);
        pendingColumns.feed(piece);
        // One record longer than a row may be: measured to its end from here, never parsed or kept.
        if (rowLength.watch(pending)) pending = newRecordStretches();
        continue;
      }
      const whole = followed.recordsEnd === piece.length;
      // The cleanness is said of the whole piece, so of its records and of the rest it leaves pending alike.
      const records = pending.end(whole ? piece : piece.slice(0, followed.recordsEnd), pieceClean);
      pending = newRecordStretches();
      if (!whole) pending.add(piece.slice(followed.recordsEnd), pieceClean);
      const firstLine = pendingLine;
      rowLength.checkRecords(records, firstLine);
      pendingLine = followed.lineAfterRecords;
      pendingColumns = new ColumnCounter(delimiter, bounds.maxColumns, pendingLine, file).feed(pending.text());
      const batch = await pairing.rowsOf(records, firstLine);
      if (batch.length > 0) yield { rows: batch, clean: records.clean };
    }
    rowLength.finish(pendingLine);
    if (pending.length > 0) {
      const records = pending.end('', true);
      rowLength.checkRecords(records, pendingLine);
      const batch = await pairing.rowsOf(records, pendingLine);
      // Past the first line, a line end was read before this row: the file's other lines end with one.
      if (pendingLine > 1) for (const row of batch) row.unterminated = true;
      if (batch.length > 0) yield { rows: batch, clean: records.clean };
    }
    pairing.checkClosingQuote(undefined);
  } catch (error) {
    throw asInputError(error, reading, {
      recordStarts: pairing.recordStarts,
      openQuoteLine: pairing.openQuoteLine,
      lastLine: pairing.lastLine,
    });
  }
}

/**
 * Pairs the rows a stretch of whole records makes (split here, or by csv-parse) with the record starts and
 * spreadsheet rows the quote follower found for them, and checks each row on the way.
 */
class RecordPairing {
  /** The starts and rows of the records the follower found, from the first not yet paired with a row (`next`). */
  recordStarts: number[] = [];
  private recordRows: number[] = [];
  /** As the follower left them after the last piece. */
  openQuoteLine: number | undefined;
  private textAfterClosingQuoteLine: number | undefined;
  private textAfterClosingQuoteOpenedLine: number | undefined;
  lastLine = 0;
  private lastRow = 0;
  private next = 0;

  private readonly reading: StretchReading;
  private readonly file: string;
  constructor(reading: StretchReading, file: string) {
    this.reading = reading;
    this.file = file;
  }

  /** Takes what the quote follower found in the next piece, ahead of the rows. */
  follow(piece: FollowedPiece): void {
    // What has been paired is dropped here; the rest (the record the last piece left open) goes before the new ones.
    if (piece.recordStarts.length > 0) {
      this.recordStarts = this.recordStarts.slice(this.next).concat(piece.recordStarts);
      this.recordRows = this.recordRows.slice(this.next).concat(piece.recordRows);
      this.next = 0;
    }
    this.openQuoteLine = piece.openQuoteLine;
    if (this.textAfterClosingQuoteLine === undefined) {
      this.textAfterClosingQuoteLine = piece.textAfterClosingQuoteLine;
      this.textAfterClosingQuoteOpenedLine = piece.textAfterClosingQuoteOpenedLine;
    }
  }

  /** `"Ana"x`: csv-parse (relax_quotes) keeps the cell as `"Ana"x`, quotes and all, which would be sent. */
  checkClosingQuote(nextStart: number | undefined): void {
    const bad = this.textAfterClosingQuoteLine;
    if (bad === undefined || bad < this.lastLine || (nextStart !== undefined && bad >= nextStart)) return;
    // A quote opened on an earlier line and never closed there swallows the lines below it, up to the next quoted
    // cell (`"y"`), whose opening quote it takes for its close: the line to fix is where it opened.
    const opened = this.textAfterClosingQuoteOpenedLine ?? bad;
    if (opened < bad)
      throw new InputError(
        `${this.file}:${opened}: a quoted cell opens on this line and runs on across the line breaks to line ${bad}, where text follows what closes it; the quote is probably never closed on line ${opened}. Close it there, or write a quote inside a cell as "".`,
        { file: this.file, line: opened },
      );
    throw new InputError(
      `${this.file}:${bad}: text follows the closing quote of a quoted cell (such as "Ana"x); put the whole cell inside the quotes, and write a quote inside it as "".`,
      { file: this.file, line: bad },
    );
  }

  /**
   * The rows of whole records (text from one record boundary to another) with the lines the follower found: split
   * as they came, or here, or by csv-parse. Clean records hold no forbidden character, and so no lone surrogate.
   */
  async rowsOf(records: RecordStretch, firstLine: number): Promise<CsvRow[]> {
    const { delimiter, bounds, file } = this.reading;
    const cells =
      records.rows ??
      splitPlainRecords(records.text(), delimiter, this.reading.plainLineBound, records.clean) ??
      (await parseCounted(records.text(), firstLine, this.reading));
    const batch: CsvRow[] = [];
    for (const record of cells) {
      this.lastRow = this.recordRows[this.next] ?? this.lastRow + 1;
      this.lastLine = this.recordStarts[this.next++] ?? this.lastLine + 1;
      this.checkClosingQuote(this.recordStarts[this.next]);
      checkRowWidth(record.length, bounds.maxColumns, file, this.lastLine);
      batch.push({ line: this.lastLine, row: this.lastRow, cells: record });
    }
    return batch;
  }
}

/** An interrupt while the rows are read: served at the next piece, as during a parse. */
function interruptedWhileReading(file: string, line: number): InterruptedError {
  return new InterruptedError(`${file}: interrupted while reading the rows from line ${line}.`);
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
