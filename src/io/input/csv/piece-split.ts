/**
 * The CSV splitter for a record of megabytes (a pasted description in a quoted cell): the records are split piece by
 * piece as the text arrives, as splitPlainRecords splits them whole, so the record is never made one flat text, each
 * step is as short as a piece (a Ctrl-C is served between them) and a cell of 50 MB costs less than csv-parse takes
 * for it. test/unit/io/input/csv-rows-plain-split.test.ts holds it to splitPlainRecords on random texts cut anywhere.
 */

const quoteCode = 0x22;
const newlineCode = 0x0a;

/**
 * Where the splitter is between two pieces: at a cell's first character, inside an unquoted cell, inside a quoted
 * one, or just after a quote inside a quoted cell that the next character makes a `""` or the cell's closing quote.
 */
type SplitState = 'cellStart' | 'unquoted' | 'quoted' | 'quoteAtEnd';

/**
 * Splits records fed a piece at a time; `rows()` gives them once the text ends at a record boundary, or undefined
 * when csv-parse must read the text (the cases splitPlainRecords leaves to it: text after a closing quote, a quote
 * never closed, a record with more than `longestLine` characters outside quoted cells). The caller keeps the text
 * for that case, and gives only a one-character delimiter and text without a lone surrogate.
 */
export class PieceSplitter {
  /** The records ended so far, as their cells. */
  private readonly ended: string[][] = [];
  private cells: string[] = [];
  /** The open cell's text so far: a quoted cell's `""` already made `"`, one part a piece. */
  private parts: string[] = [];
  private state: SplitState = 'cellStart';
  /** The open record's characters in the pieces before this one, and how many of all of them are inside quotes. */
  private recordCarried = 0;
  private recordQuoted = 0;
  /** Where the open record starts in the piece being split (0 when it started in an earlier one). */
  private recordStart = 0;
  private failed = false;

  private readonly delimiterCode: number;
  private readonly longestLine: number;
  constructor(delimiterCode: number, longestLine: number) {
    this.delimiterCode = delimiterCode;
    this.longestLine = longestLine;
  }

  /** Splits the next piece; false once csv-parse must read the text. */
  feed(text: string): boolean {
    if (this.failed) return false;
    this.recordStart = 0;
    let index = 0;
    if (this.state === 'quoteAtEnd' && text.length > 0) index = this.afterQuoteAtEnd(text);
    while (index < text.length && index !== -1) {
      index = this.state === 'quoted' ? this.followQuoted(text, index) : this.followUnquoted(text, index);
    }
    if (index === -1) return this.fail();
    this.recordCarried += text.length - this.recordStart;
    return true;
  }

  /** The rows of all the text fed, which ended with it; undefined when csv-parse must read it. */
  rows(): string[][] | undefined {
    if (this.failed || this.state === 'quoted') return undefined;
    this.recordStart = 0;
    // A record the text ends without a line break (a last quote closing its cell, or a last cell after a delimiter).
    if (this.state === 'quoteAtEnd' || this.recordCarried > 0) {
      this.cells.push(this.cellText());
      this.state = 'cellStart';
      if (!this.endRecord(0)) {
        this.fail();
        return undefined;
      }
    }
    return this.ended;
  }

  /** The piece's first character after a quote that ended the previous piece inside a quoted cell. */
  private afterQuoteAtEnd(text: string): number {
    if (text.charCodeAt(0) === quoteCode) {
      this.parts.push('"');
      this.recordQuoted += 2;
      this.state = 'quoted';
      return 1;
    }
    return this.closeQuoted(text, 0);
  }

  /**
   * Inside a quoted cell from `index`: its text to the next quote not doubled, found by indexOf, is one part of the
   * cell (`""` made `"` by one split and join of that part). Returns where splitting goes on, or -1.
   */
  private followQuoted(text: string, index: number): number {
    let at = index;
    let doubled = false;
    for (;;) {
      const quote = text.indexOf('"', at);
      if (quote === -1 || quote === text.length - 1) {
        // The piece ends inside the cell, or with a quote the next piece says the meaning of.
        const end = quote === -1 ? text.length : quote;
        this.addQuotedPart(text.slice(index, end), doubled);
        this.recordQuoted += end - index;
        if (quote !== -1) this.state = 'quoteAtEnd';
        return text.length;
      }
      if (text.charCodeAt(quote + 1) === quoteCode) {
        doubled = true;
        at = quote + 2;
        continue;
      }
      this.addQuotedPart(text.slice(index, quote), doubled);
      this.recordQuoted += quote - index;
      return this.closeQuoted(text, quote + 1);
    }
  }

  /** The character at `index` follows a quoted cell's closing quote: it must end the cell (else csv-parse reads it). */
  private closeQuoted(text: string, index: number): number {
    const code = text.charCodeAt(index);
    if (code !== this.delimiterCode && code !== newlineCode) return -1;
    this.cells.push(this.cellText());
    this.state = 'cellStart';
    // A line of `""` alone is a record of one empty cell: csv-parse skips only lines that held no quote.
    if (code === newlineCode) return this.endRecord(index) ? index + 1 : -1;
    return index + 1;
  }

  /**
   * Outside quotes from `index`: a quote opening a cell makes it quoted; any other quote is a character of its cell
   * (relax_quotes). Cells end at the delimiter, records at a line break; an empty line is no record.
   */
  private followUnquoted(text: string, index: number): number {
    if (this.state === 'cellStart' && text.charCodeAt(index) === quoteCode) {
      this.state = 'quoted';
      return index + 1;
    }
    const { delimiterCode } = this;
    let end = index;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      if (code === delimiterCode || code === newlineCode) break;
    }
    if (end > index) {
      this.parts.push(text.slice(index, end));
      this.state = 'unquoted';
    }
    if (end === text.length) return this.outsideQuotes(end) > this.longestLine ? -1 : end;
    if (text.charCodeAt(end) === delimiterCode) {
      this.cells.push(this.cellText());
      this.state = 'cellStart';
      return end + 1;
    }
    this.state = 'cellStart';
    if (this.recordCarried === 0 && end === this.recordStart) {
      // An empty line.
      this.recordStart = end + 1;
      return end + 1;
    }
    this.cells.push(this.cellText());
    return this.endRecord(end) ? end + 1 : -1;
  }

  /** Ends the record whose line break is at `index` of the piece; false when it was too long to split here. */
  private endRecord(index: number): boolean {
    if (this.outsideQuotes(index) > this.longestLine) return false;
    this.ended.push(this.cells);
    this.cells = [];
    this.recordCarried = 0;
    this.recordQuoted = 0;
    this.recordStart = index + 1;
    return true;
  }

  /** The open record's characters outside quoted cells up to `index` of the piece. */
  private outsideQuotes(index: number): number {
    return this.recordCarried + index - this.recordStart - this.recordQuoted;
  }

  private addQuotedPart(part: string, doubled: boolean): void {
    if (part.length > 0) this.parts.push(doubled ? part.split('""').join('"') : part);
  }

  private cellText(): string {
    const { parts } = this;
    this.parts = [];
    return parts.length === 1 ? (parts[0] as string) : parts.join('');
  }

  private fail(): false {
    this.failed = true;
    this.parts = [];
    this.cells = [];
    return false;
  }
}
