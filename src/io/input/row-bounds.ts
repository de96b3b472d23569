import { InputError } from '../../base/errors.js';

/** The bounds a CSV row is held to: the input.maxColumns and input.maxRowChars settings. */
export interface RowBounds {
  maxColumns: number;
  maxRowChars: number;
}

/** As many columns as a spreadsheet sheet holds (Excel's XFD), and the characters of a long but real row. */
export const defaultRowBounds: RowBounds = { maxColumns: 16_384, maxRowChars: 200_000 };

/**
 * Counts the columns of the rows of CSV text fed to it piece by piece, quotes respected, and refuses the first row
 * with more than `maxColumns` at once: a header of millions of empty cells costs a pass over the text, not millions
 * of cells parsed and held.
 */
export class ColumnCounter {
  private inQuotes = false;
  private columns = 1;
  private newlines = 0;
  private rowStartNewlines = 0;
  private readonly delimiterCode: number;

  private readonly maxColumns: number;
  private readonly firstLine: number;
  private readonly file: string;
  constructor(delimiter: string, maxColumns: number, firstLine: number, file: string) {
    this.maxColumns = maxColumns;
    this.firstLine = firstLine;
    this.file = file;

    // A delimiter of several characters is rare and never what makes a row of a million cells: its first one counts.
    this.delimiterCode = delimiter.charCodeAt(0);
  }

  /** Counts `text`, the next piece of the rows; returns the counter. */
  feed(text: string): this {
    const { delimiterCode } = this;
    for (let index = 0; index < text.length; index++) {
      if (this.inQuotes) {
        // Inside a quoted cell only its closing quote matters: found by indexOf, not a look at each character.
        const closing = text.indexOf('"', index);
        if (closing === -1) break;
        this.inQuotes = false;
        index = closing;
        continue;
      }
      const code = text.charCodeAt(index);
      if (code === 0x22) this.inQuotes = true;
      else if (code === delimiterCode) {
        if (++this.columns > this.maxColumns) this.refuse(text, index + 1);
      } else if (code === 0x0a) {
        // The next row starts after this line break (an empty line is no row; the one after it is).
        this.rowStartNewlines = ++this.newlines;
        this.columns = 1;
      }
    }
    return this;
  }

  /** Counts the rest of the row in the text at hand, so the message gives the count found, then refuses. */
  private refuse(text: string, from: number): never {
    let columns = this.columns;
    let inQuotes = this.inQuotes;
    for (let index = from; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === 0x22) inQuotes = !inQuotes;
      else if (inQuotes) continue;
      else if (code === this.delimiterCode) columns++;
      else if (code === 0x0a) break;
    }
    const line = this.firstLine + this.rowStartNewlines;
    throw new InputError(`${this.file}:${line}: ${tooManyColumnsMessage(columns, this.maxColumns, 'at least ')}`, {
      file: this.file,
      line,
    });
  }
}

/** The shape of an over-long row, from the text where it starts: its longest cell and its columns. */
export function longRowShape(
  text: string,
  delimiter: string,
): { longestCell: number; columns: number; whole: boolean } {
  const delimiterCode = delimiter.charCodeAt(0);
  let inQuotes = false;
  let columns = 1;
  let cellStart = 0;
  let longestCell = 0;
  let index = 0;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) inQuotes = !inQuotes;
    else if (inQuotes) continue;
    else if (code === delimiterCode) {
      longestCell = Math.max(longestCell, index - cellStart);
      cellStart = index + 1;
      columns++;
    } else if (code === 0x0a) break;
  }
  return { longestCell: Math.max(longestCell, index - cellStart), columns, whole: index < text.length };
}

/** Markup a web page opens with, or holds near its start: only such text is called an HTML page. */
const htmlMarkup = /^\s*<(?:!doctype|html|head|body|\?xml|meta|title|script|div|table)\b|<html[\s>]|<body[\s>]/i;

/** The message for a row longer than input.maxRowChars: what was found, and the setting that would read it. */
export function longRowMessage(rowText: string, delimiter: string, maxRowChars: number): string {
  const limit = maxRowChars.toLocaleString('en-US');
  if (htmlMarkup.test(rowText.slice(0, 4096))) {
    return `a row of more than ${limit} characters; this is not a spreadsheet export (an HTML page saved as .csv?). Export the data as CSV.`;
  }
  const { longestCell, columns, whole } = longRowShape(rowText, delimiter);
  const atLeast = whole ? '' : 'at least ';
  const found =
    longestCell * 2 > maxRowChars
      ? `a cell of ${atLeast}${longestCell.toLocaleString('en-US')} characters`
      : `${atLeast}${columns.toLocaleString('en-US')} columns`;
  return `a row of more than ${limit} characters (${found}), more than the input.maxRowChars setting allows. If the row is meant to be this long, raise the setting above its length: b2bctl config set input.maxRowChars NUMBER.`;
}

/** The message for a row of more columns than input.maxColumns: the count found, and the setting. */
export function tooManyColumnsMessage(columns: number, maxColumns: number, atLeast = ''): string {
  return `a row of ${atLeast}${columns.toLocaleString('en-US')} columns, more than the ${maxColumns.toLocaleString('en-US')} the input.maxColumns setting allows. Check the delimiter (--delimiter); if the file really has that many columns, raise the setting to at least that count: b2bctl config set input.maxColumns NUMBER.`;
}

/** Refuses a row split without csv-parse whose cells are more than input.maxColumns allows. */
export function checkRowWidth(columns: number, maxColumns: number, file: string, line: number): void {
  if (columns > maxColumns)
    throw new InputError(`${file}:${line}: ${tooManyColumnsMessage(columns, maxColumns)}`, { file, line });
}
