/** Tracks where a quoted CSV field opened, to name that line when the quote is never closed. */
export interface QuoteTracker {
  /** Line where the field still open at the end of the input started, if any. */
  openQuoteLine: number | undefined;
  /**
   * When given, the line on which each non-empty record starts is pushed here, in order: the CSV
   * reader pairs them with csv-parse's records, which spares csv-parse's costly per-record `info`.
   */
  recordStarts?: number[];
  /**
   * With recordStarts: the spreadsheet row of each record, pushed alongside. It differs from the line
   * once a quoted cell held a line break (Alt+Enter in Excel): each such break is a line, not a row.
   */
  recordRows?: number[];
  /** The line where text follows the closing quote of a quoted field (`"Ana"x`), if any: csv-parse would keep it quotes and all. */
  textAfterClosingQuoteLine?: number;
  /**
   * How many characters of the normalized text end with a line break outside a quoted field: everything before is
   * whole records, so the CSV reader can take it without waiting for the rest.
   */
  recordsEnd?: number;
}

/**
 * Turns CRLF and lone CR into LF (csv-parse counts a CRLF inside a quoted field as two lines) and
 * follows the quoting as csv-parse does with `relax_quotes`, so an unclosed quote can be reported
 * at the line where it opens rather than at the end of the file.
 */
export async function* normalizeLineEnds(
  text: AsyncIterable<string>,
  delimiter: string | undefined,
  tracker: QuoteTracker,
): AsyncGenerator<string> {
  let pendingCarriageReturn = false;
  const quoting = new QuoteFollower(delimiter ?? '\n', tracker);
  for await (const piece of text) {
    let chunk = piece;
    if (pendingCarriageReturn) chunk = `\r${chunk}`;
    pendingCarriageReturn = chunk.endsWith('\r');
    if (pendingCarriageReturn) chunk = chunk.slice(0, -1);
    const normalized = chunk.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
    if (delimiter !== undefined) quoting.follow(normalized);
    if (normalized) yield normalized;
  }
  if (pendingCarriageReturn) {
    quoting.follow('\n');
    yield '\n';
  }
  quoting.finish();
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
  /** Characters followed before the current text, and the index in it of the last break outside a quoted field. */
  private offset = 0;
  private lastRecordEnd = -1;
  private readonly specials: RegExp;

  constructor(
    private readonly delimiter: string,
    private readonly tracker: QuoteTracker,
  ) {
    this.specials = new RegExp(`["\\n${delimiter.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')}]`, 'g');
  }

  follow(text: string): void {
    this.lastRecordEnd = -1;
    this.followText(text);
    if (this.lastRecordEnd !== -1) this.tracker.recordsEnd = this.offset + this.lastRecordEnd + 1;
    this.offset += text.length;
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
      for (let index = 0; index < text.length; index++) {
        if (this.state === 'quoted') {
          // Inside a quoted cell only the next quote and the line breaks before it matter: found by indexOf, so a
          // cell of megabytes costs a few native scans, not a look at each character. Text there changes nothing.
          const closing = text.indexOf('"', index);
          const stop = closing === -1 ? text.length : closing;
          for (let at = text.indexOf('\n', index); at !== -1 && at < stop; at = text.indexOf('\n', at + 1)) {
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
        this.special(text[index] as string);
        if (code === newlineCode && this.state !== 'quoted') this.lastRecordEnd = index;
        last = index + 1;
      }
    } else {
      for (const match of text.matchAll(this.specials)) {
        if (match.index > last) this.ordinaryText();
        this.special(match[0]);
        if (match[0] === '\n' && this.state !== 'quoted') this.lastRecordEnd = match.index;
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
      this.lastRecordEnd = index;
      last = index + 1;
    }
    if (last < text.length) this.startRecordIfNeeded();
    if (text.length === 0) return;
    const end = text.charAt(text.length - 1);
    this.state = end === '\n' || end === this.delimiter ? 'fieldStart' : 'unquoted';
  }

  finish(): void {
    if (this.state !== 'quoted') this.tracker.openQuoteLine = undefined;
  }

  private ordinaryText(): void {
    this.startRecordIfNeeded();
    if (this.state === 'quoteInQuoted') this.tracker.textAfterClosingQuoteLine ??= this.line;
    if (this.state === 'fieldStart' || this.state === 'quoteInQuoted') this.state = 'unquoted';
  }

  private startRecordIfNeeded(): void {
    if (!this.atRecordStart) return;
    this.atRecordStart = false;
    this.tracker.recordStarts?.push(this.line);
    this.tracker.recordRows?.push(this.line - this.breaksInCells);
  }

  private special(character: string): void {
    if (character !== '\n') this.startRecordIfNeeded();
    else if (this.state !== 'quoted') this.atRecordStart = true;
    const endsField = character === this.delimiter || character === '\n';
    switch (this.state) {
      case 'quoted':
        if (character === '"') this.state = 'quoteInQuoted';
        break;
      case 'quoteInQuoted':
        if (character === '"') this.state = 'quoted';
        else if (endsField) this.state = 'fieldStart';
        break;
      case 'fieldStart':
        if (character === '"') {
          this.state = 'quoted';
          this.tracker.openQuoteLine = this.line;
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
