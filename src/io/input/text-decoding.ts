/**
 * A piece of CSV text, line ends normalized, with what the quote follower found in it. Everything the reader needs
 * travels with the piece, so nothing is written behind the reader's back between two pieces.
 */
export interface FollowedPiece {
  /** The text, CRLF and lone CR turned into LF. */
  text: string;
  /** How many characters at the start of `text` end whole records (up to its last line break outside a quoted field): 0 when no record ends in it. */
  recordsEnd: number;
  /** The line that follows those whole records (the line of the next record); the previous value when none ends here. */
  lineAfterRecords: number;
  /**
   * The line on which each non-empty record starting in this piece starts, in order: the CSV reader pairs them with
   * the rows it reads, which spares csv-parse's costly per-record `info`.
   */
  recordStarts: number[];
  /**
   * The spreadsheet row of each of those records. It differs from the line once a quoted cell held a line break
   * (Alt+Enter in Excel): each such break is a line, not a row.
   */
  recordRows: number[];
  /** The line where a quoted field still open at the end of this piece started, if one is. */
  openQuoteLine: number | undefined;
  /** The first line in this piece where text follows the closing quote of a quoted field (`"Ana"x`): csv-parse would keep it quotes and all. */
  textAfterClosingQuoteLine: number | undefined;
  /**
   * The line where that quoted field opened, when what closed it was a quote right after a delimiter on a later line: the opening quote of the next quoted cell (`;"y"`), taken for a close by a quote never closed.
   */
  textAfterClosingQuoteOpenedLine: number | undefined;
}

/**
 * Turns CRLF and lone CR into LF (csv-parse counts a CRLF inside a quoted field as two lines).
 */
export async function* normalizeLineEnds(text: AsyncIterable<string>): AsyncGenerator<string> {
  let pendingCarriageReturn = false;
  for await (const piece of text) {
    let chunk = piece;
    if (pendingCarriageReturn) chunk = `\r${chunk}`;
    pendingCarriageReturn = chunk.endsWith('\r');
    if (pendingCarriageReturn) chunk = chunk.slice(0, -1);
    const normalized = chunk.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
    if (normalized) yield normalized;
  }
  if (pendingCarriageReturn) yield '\n';
}

/**
 * The text with its line ends normalized, each piece with the record boundaries in it: the quoting is followed as
 * csv-parse follows it with `relax_quotes`, so an unclosed quote can be reported at the line where it opens rather
 * than at the end of the file.
 */
export async function* followRecords(text: AsyncIterable<string>, delimiter: string): AsyncGenerator<FollowedPiece> {
  const quoting = new QuoteFollower(delimiter);
  for await (const normalized of normalizeLineEnds(text)) yield quoting.follow(normalized);
}

const quoteCode = 0x22;
const newlineCode = 0x0a;

/** The quoting state machine of RFC 4180 with csv-parse's `relax_quotes`, jumping from one special character to the next. */
class QuoteFollower {
  private state: 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted' = 'fieldStart';
  private line = 1;
  /** Line breaks inside quoted fields so far: the line minus these is the spreadsheet's row. */
  private breaksInCells = 0;
  private atRecordStart = true;
  /** The line where the quoted field open now (if one is) started. */
  private quoteOpenedLine = 0;
  /** The character before the special one being followed (undefined at a piece's start). */
  private before: string | undefined;
  /** The quote that closed the last quoted field stood where a field starts: right after a delimiter. */
  private closedAtFieldStart = false;
  /** The line after the last line break outside a quoted field so far. */
  private lineAfterRecords = 1;
  private readonly specials: RegExp;
  /** What the piece being followed holds: made afresh for each piece and handed over with it. */
  private piece: FollowedPiece = emptyPiece('', 1);
  /** The index in the piece's text of its last line break outside a quoted field, or -1. */
  private lastRecordEnd = -1;

  private readonly delimiter: string;
  constructor(delimiter: string) {
    this.delimiter = delimiter;

    this.specials = new RegExp(`["\\n${delimiter.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')}]`, 'g');
  }

  /** The piece of normalized text with the record boundaries found in it. */
  follow(text: string): FollowedPiece {
    const piece = emptyPiece(text, this.lineAfterRecords);
    this.piece = piece;
    this.lastRecordEnd = -1;
    this.followText(text);
    piece.recordsEnd = this.lastRecordEnd + 1;
    piece.lineAfterRecords = this.lineAfterRecords;
    piece.openQuoteLine = this.state === 'quoted' ? this.quoteOpenedLine : undefined;
    return piece;
  }

  private followText(text: string): void {
    if (
      this.delimiter.length === 1 &&
      (this.state === 'fieldStart' || this.state === 'unquoted') &&
      !text.includes('"')
    ) {
      this.followUnquoted(text);
      return;
    }
    let last = 0;
    if (this.delimiter.length === 1) {
      // One character code compared at a time: matchAll's match object per delimiter was a visible
      // share of reading a million rows.
      const delimiterCode = this.delimiter.charCodeAt(0);
      // The next line break from where the last search started (-1: none left): each is found once, never searched
      // for again from every quote of a long cell without one (a cell of a million `""` was quadratic).
      let nextBreak = -2;
      for (let index = 0; index < text.length; index++) {
        if (this.state === 'quoted') {
          // Inside a quoted cell only the next quote and the line breaks before it matter: found by indexOf, so a
          // cell of megabytes costs a few native scans, not a look at each character. Text there changes nothing.
          const closing = text.indexOf('"', index);
          const stop = closing === -1 ? text.length : closing;
          if (nextBreak !== -1 && nextBreak < index) nextBreak = text.indexOf('\n', index);
          for (; nextBreak !== -1 && nextBreak < stop; nextBreak = text.indexOf('\n', nextBreak + 1)) {
            this.line++;
            this.breaksInCells++;
          }
          last = stop;
          if (closing === -1) break;
          index = closing;
        }
        const code = text.charCodeAt(index);
        if (code !== quoteCode && code !== newlineCode && code !== delimiterCode) continue;
        if (index > last) this.ordinaryText();
        this.before = text[index - 1];
        this.special(text[index] as string);
        if (code === newlineCode && this.state !== 'quoted') this.recordEndAt(index);
        last = index + 1;
      }
    } else {
      for (const match of text.matchAll(this.specials)) {
        if (match.index > last) this.ordinaryText();
        this.before = text[match.index - 1];
        this.special(match[0]);
        if (match[0] === '\n' && this.state !== 'quoted') this.recordEndAt(match.index);
        last = match.index + 1;
      }
    }
    if (last < text.length) this.ordinaryText();
  }

  /**
   * `follow` for text without a quote, outside a quoted field (nearly every chunk of an ERP export): only the line
   * breaks matter then, found by indexOf instead of a look at every character. A delimiter only decides whether a
   * quote after it would open a quoted field, so the state it leaves is read from the text's last character.
   */
  private followUnquoted(text: string): void {
    let last = 0;
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', last)) {
      // Any character before the break starts a record (a row of delimiters only too); an empty line does not.
      if (index > last) this.startRecordIfNeeded();
      this.atRecordStart = true;
      this.line++;
      this.recordEndAt(index);
      last = index + 1;
    }
    if (last < text.length) this.startRecordIfNeeded();
    if (text.length === 0) return;
    const end = text.charAt(text.length - 1);
    this.state = end === '\n' || end === this.delimiter ? 'fieldStart' : 'unquoted';
  }

  /** A line break outside a quoted field at `index` of the piece, the line count already past it. */
  private recordEndAt(index: number): void {
    this.lastRecordEnd = index;
    this.lineAfterRecords = this.line;
  }

  private ordinaryText(): void {
    this.startRecordIfNeeded();
    if (this.state === 'quoteInQuoted' && this.piece.textAfterClosingQuoteLine === undefined) {
      this.piece.textAfterClosingQuoteLine = this.line;
      if (this.closedAtFieldStart && this.quoteOpenedLine < this.line)
        this.piece.textAfterClosingQuoteOpenedLine = this.quoteOpenedLine;
    }
    if (this.state === 'fieldStart' || this.state === 'quoteInQuoted') this.state = 'unquoted';
  }

  private startRecordIfNeeded(): void {
    if (!this.atRecordStart) return;
    this.atRecordStart = false;
    this.piece.recordStarts.push(this.line);
    this.piece.recordRows.push(this.line - this.breaksInCells);
  }

  private special(character: string): void {
    if (character !== '\n') this.startRecordIfNeeded();
    else if (this.state !== 'quoted') this.atRecordStart = true;
    const endsField = character === this.delimiter || character === '\n';
    switch (this.state) {
      case 'quoted':
        if (character === '"') {
          this.state = 'quoteInQuoted';
          // After a delimiter only: a multi-line cell may end with a line break before its closing quote.
          this.closedAtFieldStart = this.before === this.delimiter.at(-1);
        }
        break;
      case 'quoteInQuoted':
        if (character === '"') this.state = 'quoted';
        else if (endsField) this.state = 'fieldStart';
        break;
      case 'fieldStart':
        if (character === '"') {
          this.state = 'quoted';
          this.quoteOpenedLine = this.line;
        }
        break;
      case 'unquoted':
        if (endsField) this.state = 'fieldStart';
        break;
    }
    if (character === '\n') {
      this.line++;
      if (this.state === 'quoted') this.breaksInCells++;
    }
  }
}

function emptyPiece(text: string, lineAfterRecords: number): FollowedPiece {
  return {
    text,
    recordsEnd: 0,
    lineAfterRecords,
    recordStarts: [],
    recordRows: [],
    openQuoteLine: undefined,
    textAfterClosingQuoteLine: undefined,
    textAfterClosingQuoteOpenedLine: undefined,
  };
}
