import { SaxesParser } from 'saxes';
import { referenceColumn } from './workbook-cells.js';

/**
 * The rows of a sheet's XML (`xl/worksheets/sheetN.xml`) as written: each cell's reference, type, style, value
 * text and whether it holds a formula. Two readers give the same rows: saxes, the reference, and a scanner of
 * the few elements a sheet's rows use, eight times cheaper on a million rows (docs/decisions/0019-workbook-reader.md),
 * held to saxes by test/unit/io/input/workbook-xlsx-rows.test.ts.
 */
export interface RawCell {
  /** Column from 0, from the `r` reference; undefined when the cell has none (it follows the one before). */
  column: number | undefined;
  type: string;
  style: number;
  value: string;
  formula: boolean;
}

export interface RawRow {
  /** From `r`; undefined when the row has none (it follows the one before). */
  row: number | undefined;
  hidden: boolean;
  cells: RawCell[];
}

/**
 * The most characters of XML one row (or one shared string) is read into before it is refused: a damaged stream
 * inflates into text that never closes its row, and a hostile cell can hold hundreds of millions of characters in a
 * file of kilobytes, so what the reader holds is bounded as a CSV row is, by input.maxRowChars (and maxColumns). A
 * character of text takes at most 10 of XML (`&#x10FFFF;`); a cell's markup (`<c r="XFD1048576" s="12" t="s"><v>`
 * and its closing) well under 200.
 */
export function rowXmlBound(bounds: { maxRowChars: number; maxColumns: number }): number {
  return 10 * bounds.maxRowChars + 200 * bounds.maxColumns;
}

/**
 * A row, or a shared string, still unfinished past rowXmlBound: where it starts (the row's number and the last
 * cell opened in it, as the XML gives them; for a shared string, its index) and how many characters were read.
 */
export class OverlongXmlError extends Error {
  readonly found: { row?: number; column?: number; sharedString?: number; part?: string };
  readonly length: number;
  constructor(found: { row?: number; column?: number; sharedString?: number; part?: string }, length: number) {
    super(`an element of more than ${length} characters`);
    this.found = found;
    this.length = length;
  }
}

/** A reader of a sheet's XML, fed chunk by chunk: the rows each chunk completes, and the hidden columns. */
export interface SheetXmlReader {
  feed(text: string): RawRow[];
  end(): RawRow[];
  readonly hiddenColumns: ReadonlySet<number>;
}

/** The scanner when the sheet's XML is the usual unprefixed markup, else saxes; decided on the first chunk. A row
 * (a cell, for saxes) is held to `bound` characters (rowXmlBound). */
export function sheetXmlReader(onError: (error: Error) => never, bound = Number.POSITIVE_INFINITY): SheetXmlReader {
  let chosen: SheetXmlReader | undefined;
  return {
    feed(text) {
      // A prefixed root (`<x:worksheet>`, as some libraries write) is left to the full parser.
      chosen ??= /<[\w.-]+:worksheet[\s>]/.test(text.slice(0, 4096))
        ? saxesSheetReader(onError, bound)
        : new SheetScanner(bound);
      return chosen.feed(text);
    },
    end: () => chosen?.end() ?? [],
    get hiddenColumns() {
      return chosen?.hiddenColumns ?? new Set<number>();
    },
  };
}

/** The reference reader: every event of saxes, kept for what a row needs; a cell's text is held to `bound`. */
export function saxesSheetReader(onError: (error: Error) => never, bound = Number.POSITIVE_INFINITY): SheetXmlReader {
  const parser = new SaxesParser({ position: false });
  const rows: RawRow[] = [];
  const hiddenColumns = new Set<number>();
  let row: RawRow | undefined;
  let cell: RawCell | undefined;
  let inValue = false;
  let inPhonetic = false;
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    const name = tag.name.slice(tag.name.indexOf(':') + 1);
    if (name === 'row') {
      row = {
        row: attributes.r === undefined ? undefined : Number(attributes.r),
        hidden: isTrue(attributes.hidden),
        cells: [],
      };
    } else if (name === 'c' && row) {
      cell = {
        column: attributes.r === undefined ? undefined : referenceColumn(attributes.r),
        type: attributes.t ?? 'n',
        style: Number(attributes.s ?? 0),
        value: '',
        formula: false,
      };
    } else if ((name === 'v' || name === 't') && cell) inValue = !inPhonetic;
    else if (name === 'rPh') inPhonetic = true;
    else if (name === 'f' && cell) cell.formula = true;
    else if (name === 'col' && isTrue(attributes.hidden)) addColumns(hiddenColumns, attributes.min, attributes.max);
  });
  const addText = (text: string) => {
    if (inValue && cell) cell.value += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', (tag) => {
    const name = tag.name.slice(tag.name.indexOf(':') + 1);
    if (name === 'v' || name === 't') inValue = false;
    else if (name === 'rPh') inPhonetic = false;
    else if (name === 'c' && cell && row) {
      row.cells.push(cell);
      cell = undefined;
    } else if (name === 'row' && row) {
      rows.push(row);
      row = undefined;
    }
  });
  parser.on('error', onError);
  return {
    ...chunkReader(parser, rows, { bound, where: () => ({ row: row?.row, column: cell?.column }) }),
    hiddenColumns,
  };
}

/**
 * What a saxes parser was fed since its reader last came to rest (an item came out: a row, a shared string), held to
 * `bound`: saxes holds a text until the markup after it, and the reader holds the item in progress, so past the
 * bound (to a chunk's length) the item in progress (`where`) is refused. Both workbook readers keep to it.
 */
export class FedSinceRest {
  private since = 0;

  private readonly bound: number;
  constructor(bound: number) {
    this.bound = bound;
  }

  /** After a chunk of `length` characters, `rested` when an item came out of it. */
  fed(length: number, rested: boolean, where: () => OverlongXmlError['found']): void {
    this.since = rested ? 0 : this.since + length;
    if (this.since > this.bound) throw new OverlongXmlError(where(), this.since);
  }
}

/**
 * A saxes parser fed chunk by chunk: after each chunk, and at the end, what its handlers gathered into `gathered`,
 * what was fed since an item last came out held to the bound (FedSinceRest).
 */
function chunkReader<Item>(
  parser: SaxesParser,
  gathered: Item[],
  limit: { bound: number; where: () => OverlongXmlError['found'] },
): { feed(text: string): Item[]; end(): Item[] } {
  const fed = new FedSinceRest(limit.bound);
  return {
    feed(text) {
      parser.write(text);
      const items = gathered.splice(0);
      fed.fed(text.length, items.length > 0, limit.where);
      return items;
    },
    end() {
      parser.close();
      return gathered.splice(0);
    },
  };
}

/**
 * Reads the rows of a sheet by looking for its few elements (`row`, `c`, `v`, `f`, `is`/`t`) with indexOf, a whole
 * row at a time: no object per tag or attribute. Markup it does not expect in a row (a comment, CDATA) sends that
 * row to saxes.
 */
class SheetScanner implements SheetXmlReader {
  readonly hiddenColumns = new Set<number>();
  private buffer = '';
  private state: 'head' | 'rows' | 'done' = 'head';

  private readonly bound: number;
  /** `bound`: the most characters an unfinished row (or the head before `<sheetData>`) may hold. */
  constructor(bound: number = Number.POSITIVE_INFINITY) {
    this.bound = bound;
  }

  feed(text: string): RawRow[] {
    this.buffer = this.buffer === '' ? text : this.buffer + text;
    const rows: RawRow[] = [];
    if (this.state === 'head') this.readHead();
    if (this.state === 'rows') this.readRows(rows);
    if (this.state !== 'done' && this.buffer.length > this.bound) throw overlongRow(this.buffer);
    return rows;
  }

  end(): RawRow[] {
    const rows: RawRow[] = [];
    if (this.state === 'rows') this.readRows(rows);
    if (this.state !== 'done' && this.buffer.trim() !== '' && this.state === 'rows')
      throw new Error('the sheet ends inside a row');
    return rows;
  }

  /** Until `<sheetData>`: the hidden columns of `<cols>`. */
  private readHead(): void {
    const start = this.buffer.indexOf('<sheetData');
    if (start === -1) return;
    for (const match of this.buffer.slice(0, start).matchAll(/<col\s[^>]*>/g))
      if (isTrue(attributeOf(match[0], 'hidden')))
        addColumns(this.hiddenColumns, attributeOf(match[0], 'min'), attributeOf(match[0], 'max'));
    const end = this.buffer.indexOf('>', start);
    if (end === -1) return;
    this.state = this.buffer[end - 1] === '/' ? 'done' : 'rows';
    this.buffer = this.buffer.slice(end + 1);
  }

  /** Every complete row in the buffer; what follows the last one stays for the next chunk. */
  private readRows(rows: RawRow[]): void {
    const buffer = this.buffer;
    // Looked for once per chunk: the end of the rows is near the end of the sheet, after every row.
    const close = buffer.indexOf('</sheetData>');
    let position = 0;
    for (;;) {
      const start = buffer.indexOf('<row', position);
      if (close !== -1 && (start === -1 || close < start)) {
        this.state = 'done';
        this.buffer = '';
        return;
      }
      if (start === -1) break;
      const end = elementEnd(buffer, start, '</row>');
      if (end === -1) break;
      rows.push(scanRow(buffer.slice(start, end)));
      position = end;
    }
    // Text between rows is whitespace: only an unfinished row is kept.
    const unfinished = buffer.indexOf('<', position);
    this.buffer = unfinished === -1 ? '' : buffer.slice(unfinished);
  }
}

/** The refusal of the unfinished row `buffer` starts with: its `r`, and the last cell reference opened in it. */
function overlongRow(buffer: string): OverlongXmlError {
  const rowTag = buffer.startsWith('<row') ? buffer.slice(4, buffer.indexOf('>')) : '';
  const r = rowTag === '' ? undefined : attributeOf(rowTag, 'r');
  const lastCell = buffer.lastIndexOf('<c ');
  const reference =
    lastCell === -1 ? undefined : attributeOf(buffer.slice(lastCell + 2, buffer.indexOf('>', lastCell)), 'r');
  return new OverlongXmlError(
    {
      row: r === undefined || !/^\d+$/.test(r) ? undefined : Number(r),
      column: reference === undefined ? undefined : referenceColumn(reference),
    },
    buffer.length,
  );
}

/**
 * Where the element opening at `start` ends: after its `/>`, or after `closingTag`; -1 while the buffer does not
 * hold all of it yet.
 */
function elementEnd(buffer: string, start: number, closingTag: string): number {
  const tagEnd = buffer.indexOf('>', start);
  if (tagEnd === -1) return -1;
  if (buffer.charCodeAt(tagEnd - 1) === 0x2f) return tagEnd + 1;
  const closing = buffer.indexOf(closingTag, tagEnd);
  return closing === -1 ? -1 : closing + closingTag.length;
}

/** One `<row>…</row>` (or `<row/>`) element's row. */
function scanRow(segment: string): RawRow {
  if (segment.includes('<!')) return saxesRow(segment);
  const tagEnd = segment.indexOf('>');
  const rowTag = segment.slice(4, tagEnd);
  const r = attributeOf(rowTag, 'r');
  const row: RawRow = {
    row: r === undefined ? undefined : Number(r),
    hidden: isTrue(attributeOf(rowTag, 'hidden')),
    cells: [],
  };
  let position = tagEnd + 1;
  for (;;) {
    const start = segment.indexOf('<c', position);
    if (start === -1) break;
    const after = segment.charCodeAt(start + 2);
    // `<c ` or `<c>` or `<c/>`, not another element starting with c.
    if (after !== 0x20 && after !== 0x3e && after !== 0x2f && after !== 0x09 && after !== 0x0a && after !== 0x0d) {
      position = start + 2;
      continue;
    }
    const cellTagEnd = segment.indexOf('>', start);
    const selfClosing = segment.charCodeAt(cellTagEnd - 1) === 0x2f;
    const attributes = segment.slice(start + 2, selfClosing ? cellTagEnd - 1 : cellTagEnd);
    const reference = attributeOf(attributes, 'r');
    const cell: RawCell = {
      column: reference === undefined ? undefined : referenceColumn(reference),
      type: attributeOf(attributes, 't') ?? 'n',
      style: Number(attributeOf(attributes, 's') ?? 0),
      value: '',
      formula: false,
    };
    if (selfClosing) {
      position = cellTagEnd + 1;
    } else {
      const cellEnd = segment.indexOf('</c>', cellTagEnd);
      // A cell left open inside its row is no XML a spreadsheet writes (a damaged stream inflates into such text):
      // read from the row's start again, it would be found again, forever.
      if (cellEnd === -1)
        throw new Error(`${row.row === undefined ? 'a row' : `row ${row.row}`} holds a cell never closed`);
      const inner = segment.slice(cellTagEnd + 1, cellEnd);
      cell.formula = inner.includes('<f') && nextElement(inner, '<f', 0) !== -1;
      cell.value = innerValue(inner);
      position = cellEnd + 4;
    }
    row.cells.push(cell);
  }
  return row;
}

/** The reference reader of the shared strings; a string's text is held to `bound`. */
export function saxesSharedStrings(
  onError: (error: Error) => never,
  bound = Number.POSITIVE_INFINITY,
): {
  feed(text: string): string[];
  end(): string[];
} {
  const parser = new SaxesParser({ position: false });
  const strings: string[] = [];
  let count = 0;
  let text: string[] | undefined;
  let inText = false;
  // Phonetic guides (<rPh>) are reading aids of Japanese text, not part of the string.
  let inPhonetic = false;
  parser.on('opentag', (tag) => {
    const name = tag.name.slice(tag.name.indexOf(':') + 1);
    if (name === 'si') text = [];
    else if (name === 't') inText = !inPhonetic;
    else if (name === 'rPh') inPhonetic = true;
  });
  parser.on('text', (value) => {
    if (inText) text?.push(value);
  });
  parser.on('closetag', (tag) => {
    const name = tag.name.slice(tag.name.indexOf(':') + 1);
    if (name === 't') inText = false;
    else if (name === 'rPh') inPhonetic = false;
    else if (name === 'si') {
      strings.push((text ?? []).join(''));
      count++;
      text = undefined;
    }
  });
  parser.on('error', onError);
  return chunkReader(parser, strings, { bound, where: () => ({ sharedString: count }) });
}

/**
 * The strings of `xl/sharedStrings.xml` by the same scan: each `<si>`'s text runs, phonetic guides left out. An
 * `<si>` with markup the scan does not expect (a comment, CDATA) goes through saxes.
 */
export class SharedStringScanner {
  private buffer = '';
  private count = 0;

  private readonly bound: number;
  /** `bound`: the most characters an unfinished `<si>` may hold. */
  constructor(bound: number = Number.POSITIVE_INFINITY) {
    this.bound = bound;
  }

  feed(text: string): string[] {
    const buffer = this.buffer === '' ? text : this.buffer + text;
    const strings: string[] = [];
    let position = 0;
    for (;;) {
      const start = nextElement(buffer, '<si', position);
      if (start === -1) break;
      const end = elementEnd(buffer, start, '</si>');
      if (end === -1) break;
      const item = buffer.slice(start, end);
      strings.push(item.includes('<!') ? saxesSharedString(item) : innerValue(item.slice(item.indexOf('>') + 1)));
      position = end;
    }
    const unfinished = buffer.indexOf('<', position);
    this.buffer = unfinished === -1 ? '' : buffer.slice(unfinished);
    this.count += strings.length;
    if (this.buffer.length > this.bound) throw new OverlongXmlError({ sharedString: this.count }, this.buffer.length);
    return strings;
  }
}

/** The next `<name` element from `position` (`<si`, not `<sid`); -1 when none. */
function nextElement(text: string, name: string, position: number): number {
  for (let at = text.indexOf(name, position); at !== -1; at = text.indexOf(name, at + name.length)) {
    const after = text.charCodeAt(at + name.length);
    if (after === 0x20 || after === 0x3e || after === 0x2f || after === 0x09 || after === 0x0a || after === 0x0d)
      return at;
    if (Number.isNaN(after)) return -1;
  }
  return -1;
}

/** One `<si>` through saxes: its `<t>` runs outside `<rPh>`. */
function saxesSharedString(item: string): string {
  const parser = new SaxesParser({ position: false, fragment: true });
  let text = '';
  let inText = false;
  let inPhonetic = false;
  parser.on('opentag', (tag) => {
    const name = tag.name.slice(tag.name.indexOf(':') + 1);
    if (name === 't') inText = !inPhonetic;
    else if (name === 'rPh') inPhonetic = true;
  });
  parser.on('closetag', (tag) => {
    const name = tag.name.slice(tag.name.indexOf(':') + 1);
    if (name === 't') inText = false;
    else if (name === 'rPh') inPhonetic = false;
  });
  parser.on('text', (value) => {
    if (inText) text += value;
  });
  parser.on('cdata', (value) => {
    if (inText) text += value;
  });
  parser.write(item).close();
  return text;
}

/** A cell's text: its `<v>`, or the `<t>` runs of its inline string without phonetic guides. */
export function innerValue(inner: string): string {
  // The usual cell or string: one <v> or one <t>, no rich-text runs (<r>) nor phonetic guides (<rPh>).
  if (!inner.includes('<r')) {
    const value = nextElement(inner, '<v', 0);
    const at = value === -1 ? nextElement(inner, '<t', 0) : value;
    if (at === -1) return '';
    const tagEnd = inner.indexOf('>', at);
    if (inner.charCodeAt(tagEnd - 1) === 0x2f) return '';
    const end = inner.indexOf(value === -1 ? '</t>' : '</v>', tagEnd);
    return decodeText(inner.slice(tagEnd + 1, end));
  }
  let value = '';
  const withoutPhonetics = inner.includes('<rPh') ? inner.replace(/<rPh[\s>][\s\S]*?<\/rPh>/g, '') : inner;
  for (const match of withoutPhonetics.matchAll(/<(v|t)(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/\1>)/g))
    value += match[2] ?? '';
  return decodeText(value);
}

/** The text of XML content: entities and character references decoded, line ends normalised as a parser does. */
function decodeText(text: string): string {
  let decoded = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (decoded.includes('&'))
    decoded = decoded.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, entity: string) => {
      if (entity[0] === '#')
        return String.fromCodePoint(
          entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)),
        );
      return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[entity.toLowerCase()] as string;
    });
  return decoded;
}

/** An attribute's value in a tag's attribute text; undefined when absent. */
function attributeOf(attributes: string, name: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = attributes.indexOf(`${name}=`, from);
    if (at === -1) return undefined;
    const before = attributes.charCodeAt(at - 1);
    // A whole attribute name: preceded by blank space (not `customFormat` for `t`, not `x:r` for `r`).
    if (at > 0 && before !== 0x20 && before !== 0x09 && before !== 0x0a && before !== 0x0d) {
      from = at + name.length;
      continue;
    }
    const quote = attributes[at + name.length + 1];
    const start = at + name.length + 2;
    const end = attributes.indexOf(quote as string, start);
    const value = attributes.slice(start, end);
    return value.includes('&') ? decodeText(value) : value;
  }
}

/** A row with markup the scanner does not read (a comment, CDATA), through saxes. */
function saxesRow(segment: string): RawRow {
  const reader = saxesSheetReader((error) => {
    throw error;
  });
  const rows = [...reader.feed(segment), ...reader.end()];
  return rows[0] as RawRow;
}

function isTrue(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

function addColumns(columns: Set<number>, min: string | undefined, max: string | undefined): void {
  for (let index = Number(min) - 1; index < Number(max) && index < 16_384; index++) columns.add(index);
}
