import type { MeasurableText } from '../row-length.js';
import { PieceSplitter } from './piece-split.js';
import { hasSurrogate } from './plain-split.js';

/**
 * Past this many characters, a record still open is split piece by piece as its text comes (a cell of megabytes):
 * made one text and split in one go, a 50 MB cell held the event loop for a second and more.
 */
const splitAsItComes = 1 << 20;

/**
 * Whole records read from the text: their length, whether their pieces held no forbidden character, their text on
 * demand (kept in pieces while long) and their rows when they were split piece by piece.
 */
export interface RecordStretch extends MeasurableText {
  readonly clean: boolean;
  /** The rows, split as the pieces came; undefined when the text is to be split (or read by csv-parse) whole. */
  readonly rows: string[][] | undefined;
}

/**
 * The text of the CSV reader from the last record boundary on, handed out as a record stretch at the next one: kept
 * as one text while short; once a record runs past `splitAsItComes`, kept in pieces and split as they come.
 */
export class RecordStretches implements MeasurableText {
  length = 0;
  /** No piece added held a forbidden character (nor so a lone surrogate). */
  clean = true;
  /** The text while no record in it is long. */
  private short = '';
  /** The pieces, once a record is long: csv-parse reads them joined when the splitter cannot. */
  private pieces: string[] | undefined;
  private splitter: PieceSplitter | undefined;

  private readonly delimiter: string;
  private readonly longestLine: number;
  constructor(delimiter: string, longestLine: number) {
    this.delimiter = delimiter;
    this.longestLine = longestLine;
  }

  /** The next piece of text, no record ending in it; `clean`: it holds no forbidden character. */
  add(piece: string, clean: boolean): void {
    this.length += piece.length;
    this.clean &&= clean;
    if (this.pieces === undefined) {
      this.short += piece;
      if (this.short.length > splitAsItComes) this.keepInPieces();
      return;
    }
    this.pieces.push(piece);
    this.split(piece, clean);
  }

  /** The pending text followed by `last`, which ends at a record boundary (or the input's end). */
  end(last: string, clean: boolean): RecordStretch {
    const { pieces, length } = this;
    const stretchClean = this.clean && clean;
    if (pieces === undefined) {
      const text = this.short + last;
      return { length: text.length, clean: stretchClean, text: () => text, rows: undefined };
    }
    this.split(last, clean);
    let joined: string | undefined;
    return {
      length: length + last.length,
      clean: stretchClean,
      // Made once, and only when the rows could not be split as they came (csv-parse reads it) or are refused.
      text: () => (joined ??= pieces.join('') + last),
      rows: this.splitter?.rows(),
    };
  }

  /** The pending text so far, as one text (a long record's pieces joined: only for a refusal's measure). */
  text(): string {
    return this.pieces === undefined ? this.short : this.pieces.join('');
  }

  private keepInPieces(): void {
    this.pieces = [this.short];
    // A delimiter of several characters is left to csv-parse, as splitPlainRecords leaves it.
    if (this.delimiter.length === 1) this.splitter = new PieceSplitter(this.delimiter.charCodeAt(0), this.longestLine);
    this.split(this.short, this.clean);
    this.short = '';
  }

  private split(piece: string, clean: boolean): void {
    // A lone surrogate: csv-parse reads text as UTF-8 bytes, where it becomes U+FFFD; the splitter would keep it.
    if (!clean && hasSurrogate(piece)) this.splitter = undefined;
    if (this.splitter?.feed(piece) === false) this.splitter = undefined;
  }
}
