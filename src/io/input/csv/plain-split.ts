/**
 * The CSV splitter: whole records split as csv-parse splits them with this reader's options, at a fraction of its
 * cost. test/unit/io/input/csv-rows-plain-split.test.ts holds it to csv-parse on random texts;
 * docs/decisions/0001-csv-splitter.md says why it exists and what it leaves to csv-parse.
 */

import { defaultRowBounds } from '../row-bounds.js';

/**
 * The most characters of one record looked at one by one (a quoted cell's text is cut by native searches and does not
 * count); a record with more goes to csv-parse, which is fed in slices with signals served between them.
 */
const longestPlainLine = Math.floor(defaultRowBounds.maxRowChars / 4);
/** A UTF-16 surrogate: csv-parse reads text as UTF-8 bytes, where a lone one becomes U+FFFD; it is left to csv-parse. */
const surrogate = /[\uD800-\uDFFF]/;
const quoteCode = 0x22;
const newlineCode = 0x0a;
/**
 * The longest stretch of records split here in one go (16 Mi characters): a record that long arrives in pieces and is
 * split as they come (csv/record-stretches.ts). A text handed over whole that is longer goes to csv-parse, fed in
 * slices: cut here in one go, its copies made the collector hold a Ctrl-C for over a second on a loaded machine.
 */
export const longestStretch = 1 << 24;

/**
 * Whole records split on line breaks and a one-character delimiter, as csv-parse splits them with relax_quotes,
 * relax_column_count and skip_empty_lines; undefined when csv-parse must read them (a surrogate, a record with more
 * than `longestLine` characters outside quoted cells, a quote that is neither a cell's opening, a `""` inside it nor
 * its closing before a delimiter or line break, a longer delimiter). `surrogateFree`: the caller has looked already.
 */
export function splitPlainRecords(
  records: string,
  delimiter: string,
  longestLine = longestPlainLine,
  surrogateFree = false,
  longest = longestStretch,
): string[][] | undefined {
  if (delimiter.length !== 1 || records.length > longest || (!surrogateFree && hasSurrogate(records))) return undefined;
  const delimiterCode = delimiter.charCodeAt(0);
  return records.includes('"')
    ? splitQuoted(records, delimiterCode, longestLine)
    : splitQuoteFree(records, delimiterCode, longestLine);
}

/** Whether the text holds a UTF-16 surrogate, which csv-parse must read (a lone one becomes U+FFFD there). */
export function hasSurrogate(text: string): boolean {
  return surrogate.test(text);
}

/**
 * Records without a quote (nearly all of an ERP export): one pass over the character codes, each cell cut from the
 * text once; 0.6x the time of slicing each line and splitting it.
 */
function splitQuoteFree(records: string, delimiterCode: number, longestLine: number): string[][] | undefined {
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
    } else if (code === newlineCode) {
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

/**
 * Records with quotes. A quote opening a cell makes it quoted: its text, line breaks and delimiters included, runs to
 * the next quote not doubled, found by indexOf, and is cut once (`""` made `"` in one replace), so a cell of megabytes
 * costs a few native scans. A quote anywhere else in a cell is a character of it (relax_quotes).
 */
function splitQuoted(records: string, delimiterCode: number, longestLine: number): string[][] | undefined {
  const rows: string[][] = [];
  let cells: string[] = [];
  let cellStart = 0;
  let recordStart = 0;
  /** Characters of the current record inside quoted cells: not looked at one by one. */
  let quoted = 0;
  const length = records.length;
  for (let index = 0; index < length; index++) {
    const code = records.charCodeAt(index);
    if (code === quoteCode && index === cellStart) {
      const first = records.indexOf('"', index + 1);
      const close = closingQuote(records, first);
      if (close === -1) return undefined;
      const after = close + 1 < length ? records.charCodeAt(close + 1) : newlineCode;
      // Text after the closing quote (`"Ana"x`): csv-parse's own reading, which the reader then refuses.
      if (after !== delimiterCode && after !== newlineCode) return undefined;
      const text = records.slice(index + 1, close);
      cells.push(close === first ? text : unescapeQuotes(text));
      quoted += close - index - 1;
      index = close + 1;
      cellStart = index + 1;
      if (after === delimiterCode) continue;
      // The record ends with its quoted cell: a line of `""` alone is a record of one empty cell (csv-parse skips
      // only lines that held no quote).
      if (index - recordStart - quoted > longestLine) return undefined;
      rows.push(cells);
      cells = [];
      recordStart = index + 1;
      quoted = 0;
    } else if (code === delimiterCode) {
      cells.push(records.slice(cellStart, index));
      cellStart = index + 1;
    } else if (code === newlineCode) {
      if (index - recordStart - quoted > longestLine) return undefined;
      if (index > recordStart) {
        cells.push(records.slice(cellStart, index));
        rows.push(cells);
        cells = [];
      }
      cellStart = recordStart = index + 1;
      quoted = 0;
    }
  }
  if (length > recordStart) {
    if (length - recordStart - quoted > longestLine) return undefined;
    cells.push(records.slice(cellStart, length));
    rows.push(cells);
  }
  return rows;
}

/** A quoted cell's text with each `""` made `"`. */
function unescapeQuotes(text: string): string {
  return text.replace(/""/g, '"');
}

/** The quote closing a quoted cell, from the first quote in its text (`""` is a quote inside it), or -1. */
function closingQuote(records: string, first: number): number {
  let quote = first;
  while (quote !== -1 && records.charCodeAt(quote + 1) === quoteCode) quote = records.indexOf('"', quote + 2);
  return quote;
}
