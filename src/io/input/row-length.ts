import { InputError } from '../../base/errors.js';
import { columnLetter } from './row-shape-problems.js';

/*
 * input.maxRowChars in the unit people see: a row's length is the characters of its text in the file (quotes and
 * line breaks inside quoted cells included, its line end not), counted in characters, never in bytes, so a
 * Portuguese row of 170,000 characters is 170,000 whatever its accents weigh in UTF-8
 * (docs/decisions/0015-every-column-accounted-for.md).
 */

/** Past this, an over-long row is no longer measured to its end: the message says "more than" instead. */
const measuredAtMost = 64 * 1024 * 1024;

const quoteCode = 0x22;
const newlineCode = 0x0a;

/**
 * Measures one row from its first character, a piece at a time: its length, its columns and its longest cell (the
 * cell's characters without its quotes), until the line break that ends it outside quotes. One pass over the
 * character codes, nothing kept: measuring a long row costs less than parsing it.
 */
export class RowMeasure {
  length = 0;
  columns = 1;
  longest = { column: 1, length: 0 };
  ended = false;
  /** Line breaks inside quoted cells: the row's lines beyond its first. */
  breaks = 0;
  private inQuotes = false;
  private cell = 0;

  private readonly delimiterCode: number;
  constructor(delimiterCode: number) {
    this.delimiterCode = delimiterCode;
  }

  /** Takes the next piece of the row's text; returns where in it the row ended, or -1 when it goes on. */
  feed(text: string, from = 0): number {
    const { delimiterCode } = this;
    let { inQuotes, cell } = this;
    let index = from;
    // The next line break from where the last search started (-1: none left), found once (as in the quote follower).
    let nextBreak = -2;
    for (; index < text.length; index++) {
      if (inQuotes) {
        // Inside a quoted cell only its closing quote and line breaks matter: found by indexOf.
        const closing = text.indexOf('"', index);
        const stop = closing === -1 ? text.length : closing;
        if (nextBreak !== -1 && nextBreak < index) nextBreak = text.indexOf('\n', index);
        for (; nextBreak !== -1 && nextBreak < stop; nextBreak = text.indexOf('\n', nextBreak + 1)) this.breaks++;
        cell += stop - index;
        if (closing === -1) {
          index = text.length;
          break;
        }
        inQuotes = false;
        index = closing;
        continue;
      }
      const code = text.charCodeAt(index);
      if (code === quoteCode) inQuotes = true;
      else if (code === delimiterCode) {
        if (cell > this.longest.length) this.longest = { column: this.columns, length: cell };
        this.columns++;
        cell = 0;
      } else if (code === newlineCode) break;
      else cell++;
    }
    this.length += index - from;
    this.inQuotes = inQuotes;
    this.cell = cell;
    if (cell > this.longest.length) this.longest = { column: this.columns, length: cell };
    if (index === text.length) return -1;
    this.ended = true;
    return index;
  }

  /** Whether measuring further would cost more than the message is worth. */
  get enough(): boolean {
    return this.length > measuredAtMost;
  }
}

/** Markup a web page opens with, or holds near its start: only such text is called an HTML page. */
const htmlMarkup = /^\s*<(?:!doctype|html|head|body|\?xml|meta|title|script|div|table)\b|<html[\s>]|<body[\s>]/i;

/**
 * The refusal of a row longer than input.maxRowChars: its length, its longest cell by column, letter and header,
 * and the setting's value that reads it (when the row's end was found).
 */
export function longRowError(
  where: { file: string; line: number },
  measure: RowMeasure,
  context: { start: string; maxRowChars: number; headers: readonly string[] | undefined },
): InputError {
  const { file, line } = where;
  const limit = context.maxRowChars.toLocaleString('en-US');
  if (htmlMarkup.test(context.start.slice(0, 4096)))
    return new InputError(
      `${file}:${line}: a row of more than ${limit} characters; this is not a spreadsheet export (an HTML page saved as .csv?). Export the data as CSV.`,
      { file, line },
    );
  const { column, length } = measure.longest;
  const header = context.headers?.[column - 1]?.trim();
  const named = `column ${column} (${columnLetter(column - 1)})${header ? ` "${header.length > 40 ? `${header.slice(0, 40)}…` : header}"` : ''}`;
  const more = measure.ended ? '' : 'at least ';
  const holds =
    length * 2 > context.maxRowChars
      ? `its cell in ${named} holds ${more}${length.toLocaleString('en-US')} characters`
      : `it has ${more}${measure.columns.toLocaleString('en-US')} columns`;
  const size = measure.ended
    ? `a row of ${measure.length.toLocaleString('en-US')} characters`
    : `a row of more than ${measure.length.toLocaleString('en-US')} characters (its end was not found)`;
  const fix = measure.ended
    ? `If the row is meant to be this long, raise the setting to at least its length: b2bctl config set input.maxRowChars ${measure.length}.`
    : `This is rarely a spreadsheet row: check that the file is a CSV export; if it is, raise the setting above ${measure.length}: b2bctl config set input.maxRowChars NUMBER.`;
  return new InputError(
    `${file}:${line}: ${size}, more than the ${limit} the input.maxRowChars setting allows; ${holds}. ${fix}`,
    { file, line },
  );
}

/** Text whose length is known before the text itself is made (a long record kept in pieces). */
export interface MeasurableText {
  readonly length: number;
  text(): string;
}

/**
 * input.maxRowChars for a CSV reader: a record still being read (no end yet) is watched as it grows and, past the
 * bound, measured to its end without being kept; whole records are checked when their text is longer than a row may
 * be. Each refusal is longRowError's.
 */
export class RowLengthGuard {
  private overLong: RowMeasure | undefined;
  /** The over-long row's first characters, for the HTML test of the message. */
  private start = '';

  private readonly options: {
    file: string;
    delimiter: string;
    maxRowChars: number;
    headers: () => readonly string[] | undefined;
  };
  constructor(options: {
    file: string;
    delimiter: string;
    maxRowChars: number;
    headers: () => readonly string[] | undefined;
  }) {
    this.options = options;
  }

  /** Whether an over-long record is being measured: its pieces go to measure(), not to the rows. */
  get measuring(): boolean {
    return this.overLong !== undefined;
  }

  /** The record in progress is `pending` so far; true when it is over the bound and is now measured instead. */
  watch(pending: MeasurableText): boolean {
    if (pending.length <= this.options.maxRowChars) return false;
    const text = pending.text();
    this.overLong = new RowMeasure(this.options.delimiter.charCodeAt(0));
    this.overLong.feed(text);
    this.start = text.slice(0, 4096);
    return true;
  }

  /** The next piece of the measured record; refuses it once its end is found, or enough of it measured. */
  measure(piece: string, line: number): void {
    const measure = this.overLong as RowMeasure;
    if (measure.feed(piece) !== -1 || measure.enough) throw this.refusal(measure, line, this.start);
  }

  /** At the end of the input: the measured record, if any, ended with it. */
  finish(line: number): void {
    if (!this.overLong) return;
    this.overLong.ended = true;
    throw this.refusal(this.overLong, line, this.start);
  }

  /** Refuses the first of these whole records (starting on `firstLine`) that is longer than a row may be. */
  checkRecords(stretch: MeasurableText, firstLine: number): void {
    if (stretch.length <= this.options.maxRowChars) return;
    const records = stretch.text();
    let line = firstLine;
    for (let at = 0; at < records.length;) {
      const measure = new RowMeasure(this.options.delimiter.charCodeAt(0));
      const end = measure.feed(records, at);
      if (measure.length > this.options.maxRowChars) {
        measure.ended = true;
        throw this.refusal(measure, line, records.slice(at, at + 4096));
      }
      line += measure.breaks + 1;
      at = end === -1 ? records.length : end + 1;
    }
  }

  private refusal(measure: RowMeasure, line: number, start: string): InputError {
    return longRowError({ file: this.options.file, line }, measure, {
      start,
      maxRowChars: this.options.maxRowChars,
      headers: this.options.headers(),
    });
  }
}
