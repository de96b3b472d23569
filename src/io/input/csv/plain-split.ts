/**
 * The quote-free CSV splitter: whole records without a quote, split as csv-parse splits them with this reader's
 * options, at a fraction of its cost. test/unit/io/input/csv-rows-plain-split.test.ts holds it to csv-parse on
 * random texts; docs/decisions/0001-csv-splitter.md says why it exists.
 */

/** The longest row a customer or stock file can reasonably hold. */
export const maxRecordSize = 200_000;

/** The longest line split here; a longer one goes to csv-parse, which counts its bytes against maxRecordSize. */
const longestPlainLine = Math.floor(maxRecordSize / 4);
/** A UTF-16 surrogate: csv-parse reads text as UTF-8 bytes, where a lone one becomes U+FFFD; it is left to csv-parse. */
const surrogate = /[\uD800-\uDFFF]/;

/**
 * Whole records without a quote split on line breaks and a one-character delimiter, as csv-parse splits them with
 * relax_quotes, relax_column_count and skip_empty_lines; undefined when csv-parse must read them (a quote, a
 * surrogate, a line too long for a row, a longer delimiter).
 */
export function splitPlainRecords(records: string, delimiter: string): string[][] | undefined {
  if (delimiter.length !== 1 || records.includes('"') || surrogate.test(records)) return undefined;
  // One pass over the character codes, each cell cut from the text once: 0.6x the time of slicing each line and
  // splitting it, which was the largest share of reading a million plain rows.
  const delimiterCode = delimiter.charCodeAt(0);
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
    } else if (code === 0x0a) {
      if (index - lineStart > longestPlainLine) return undefined;
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
    if (length - lineStart > longestPlainLine) return undefined;
    cells.push(records.slice(cellStart, length));
    rows.push(cells);
  }
  return rows;
}
