import { posix } from 'node:path';
import { SaxesParser } from 'saxes';
import { InputError, InterruptedError } from '../../base/errors.js';
import {
  maxMergedRanges,
  overlongRefusal,
  partChunks,
  tooManyMergesRefusal,
  unbounded,
  type WorkbookReading,
} from './workbook-bounds.js';
import {
  isCurrencyFormat,
  isDateFormat,
  isPercentFormat,
  paddedNumberText,
  zeroPaddedDigits,
  type NumberStyle,
  parseCellReference,
  serialDate,
  type SheetEntry,
  type WorkbookCell,
  type WorkbookRow,
} from './workbook-cells.js';
import { type MergedRange, MergedCells } from './workbook-merges.js';
import { chooseSheet, type SheetChoice, type SheetReader } from './workbook-sheet.js';
import {
  OverlongXmlError,
  type RawCell,
  type RawRow,
  saxesSharedStrings,
  SharedStringScanner,
  sheetXmlReader,
} from './workbook-xlsx-rows.js';
import { damaged, type WorkbookZip } from './workbook-zip.js';

type Attributes = Record<string, string>;

/** Opens the chosen sheet of an Office Open XML workbook (.xlsx): its parts read first, its rows streamed. */
export async function openXlsxSheet(
  zip: WorkbookZip,
  file: string,
  choice: SheetChoice,
  reading: WorkbookReading = unbounded,
): Promise<SheetReader> {
  const book = await workbookParts(zip, file);
  const chosen = book.sheets[chooseSheet(book.sheets, choice, file)] as SheetEntry & { path: string };
  if (!zip.has(chosen.path)) throw damaged(file, new Error(`it has no ${chosen.path}`));
  const sharedStrings = zip.has('xl/sharedStrings.xml')
    ? await readSharedStrings(zip, file, reading)
    : new SharedStrings();
  const numberStyles = zip.has('xl/styles.xml') ? numberStylesOf(await zip.text('xl/styles.xml'), file) : [];
  // Merged ranges are listed after the rows: found by a scan of the bytes first, so the rows can be filled as they stream.
  const merges = new MergedCells(await mergedRanges(zip, chosen, file, reading));
  const hiddenColumns = new Set<number>();
  const context = { sharedStrings, numberStyles, date1904: book.date1904, hiddenColumns, sheet: chosen.name };
  return {
    sheet: chosen,
    merges,
    hiddenColumns,
    rows: () => sheetRows(zip, chosen.path, file, context, reading),
    otherSheets: () => book.sheets.filter((sheet) => sheet !== chosen && !sheet.hidden).map((sheet) => sheet.name),
    activeSheet: () => book.active,
    close: () => zip.close(),
  };
}

/** The sheets in tab order with their parts, and the workbook's date system. */
async function workbookParts(
  zip: WorkbookZip,
  file: string,
): Promise<{ sheets: (SheetEntry & { path: string })[]; date1904: boolean; active: string | undefined }> {
  if (!zip.has('xl/workbook.xml'))
    throw new InputError(
      `${file}: a zip file, but not an Excel workbook (it has no xl/workbook.xml). Export the data as .xlsx, .ods or CSV.`,
      { file },
    );
  const targets = new Map<string, string>();
  if (zip.has('xl/_rels/workbook.xml.rels'))
    eachTag(await zip.text('xl/_rels/workbook.xml.rels'), file, (name, attributes) => {
      if (name === 'Relationship' && attributes.Id && attributes.Target) {
        const target = attributes.Target;
        targets.set(attributes.Id, target.startsWith('/') ? target.slice(1) : posix.join('xl', target));
      }
    });
  const sheets: (SheetEntry & { path: string })[] = [];
  let date1904 = false;
  let activeTab = 0;
  eachTag(await zip.text('xl/workbook.xml'), file, (name, attributes) => {
    if (name === 'workbookPr') date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
    if (name === 'workbookView' && attributes.activeTab !== undefined) activeTab = Number(attributes.activeTab) || 0;
    if (name !== 'sheet') return;
    const id = attributes['r:id'] ?? Object.entries(attributes).find(([key]) => key.endsWith(':id'))?.[1] ?? '';
    sheets.push({
      name: attributes.name ?? `Sheet${sheets.length + 1}`,
      hidden: attributes.state === 'hidden' || attributes.state === 'veryHidden',
      path: targets.get(id) ?? `xl/worksheets/sheet${sheets.length + 1}.xml`,
    });
  });
  return { sheets, date1904, active: sheets[activeTab]?.name };
}

/** Calls `visit` with each element's name (without its prefix) and attributes; for the small parts only. */
function eachTag(xml: string, file: string, visit: (name: string, attributes: Attributes) => void): void {
  const parser = new SaxesParser({ position: false });
  parser.on('opentag', (tag) => visit(tag.name.slice(tag.name.indexOf(':') + 1), tag.attributes as Attributes));
  parser.on('error', (error) => {
    throw damaged(file, error);
  });
  parser.write(xml).close();
}

/**
 * A workbook's shared strings, held compactly: a million separate strings cost about 50 MB of headers and pointers,
 * so they are kept joined in blocks with the end of each, and cut out when a cell asks (docs/decisions/0019-workbook-reader.md).
 */
export class SharedStrings {
  private static readonly blockSize = 4096;
  private readonly blocks: string[] = [];
  private readonly ends: number[] = [];
  private pending: string[] = [];
  private pendingLength = 0;

  push(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    this.ends.push(this.pendingLength);
    if (this.pending.length === SharedStrings.blockSize) this.seal();
  }

  /** Ends the reading: the last block is joined. */
  seal(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
  }

  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.ends.length)) return undefined;
    const block = this.blocks[Math.floor(index / SharedStrings.blockSize)] as string;
    const start = index % SharedStrings.blockSize === 0 ? 0 : (this.ends[index - 1] as number);
    return block.slice(start, this.ends[index]);
  }
}

/** The shared strings, streamed: a sheet of a million rows holds most of its text here. */
async function readSharedStrings(zip: WorkbookZip, file: string, reading: WorkbookReading): Promise<SharedStrings> {
  const strings = new SharedStrings();
  const head = await zip.open('xl/sharedStrings.xml');
  const decoder = new TextDecoder('utf-8');
  let reader: { feed(text: string): string[] } | undefined;
  try {
    for await (const chunk of partChunks(head, file, reading, () => "the workbook's shared strings")) {
      const text = decoder.decode(chunk, { stream: true });
      // A prefixed root (`<x:sst>`) is left to saxes; the usual markup is scanned (workbook-xlsx-rows.ts).
      reader ??= /<[\w.-]+:sst[\s>]/.test(text.slice(0, 4096))
        ? saxesSharedStrings((error) => {
            throw damaged(file, error);
          }, reading.bound)
        : new SharedStringScanner(reading.bound);
      for (const item of reader.feed(text)) strings.push(item);
    }
  } catch (error) {
    if (error instanceof OverlongXmlError) throw overlongRefusal(file, '', error);
    if (error instanceof InterruptedError) throw error;
    throw damaged(file, error);
  } finally {
    head.destroy();
  }
  strings.seal();
  return strings;
}

/** For each cell style (the `s` of a cell), whether its number format shows a date, a percentage, or neither. */
function numberStylesOf(xml: string, file: string): NumberStyle[] {
  const formats = new Map<number, string>();
  const styles: NumberStyle[] = [];
  const pending: number[] = [];
  let inCellFormats = false;
  const parser = new SaxesParser({ position: false });
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Attributes;
    if (tag.name === 'numFmt') formats.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
    else if (tag.name === 'cellXfs') inCellFormats = true;
    else if (tag.name === 'xf' && inCellFormats) pending.push(Number(attributes.numFmtId ?? 0));
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'cellXfs') inCellFormats = false;
  });
  parser.on('error', (error) => {
    throw damaged(file, error);
  });
  parser.write(xml).close();
  for (const id of pending) {
    const code = formats.get(id);
    const zeroPaddedTo = zeroPaddedDigits(code);
    styles.push(
      isDateFormat(id, code)
        ? 'date'
        : isPercentFormat(id, code)
          ? 'percent'
          : isCurrencyFormat(id, code)
            ? 'currency'
            : zeroPaddedTo === undefined
              ? undefined
              : { zeroPaddedTo },
    );
  }
  return styles;
}

const mergeMark = Buffer.from('<mergeCell ');

/**
 * The sheet's merged ranges: `<mergeCell ref="A2:A4"/>` follows the rows, so its bytes are looked for, not parsed.
 * From the first mark on, each chunk's whole elements are read and only an unfinished one is kept: the text after
 * the ranges (or a damaged stream's) is never held.
 */
async function mergedRanges(
  zip: WorkbookZip,
  sheet: { name: string; path: string },
  file: string,
  reading: Omit<WorkbookReading, 'bound'>,
): Promise<MergedRange[]> {
  let carry: Buffer = Buffer.alloc(0);
  let pending: string | undefined;
  const ranges: MergedRange[] = [];
  const stream = await zip.open(sheet.path);
  for await (const chunk of partChunks(stream, file, reading, () => 'the sheet')) {
    if (pending === undefined) {
      // Markup cannot appear inside a cell's text (it is escaped there), so the mark is the element itself.
      const joined = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      const at = joined.indexOf(mergeMark);
      if (at === -1) {
        carry = joined.subarray(Math.max(0, joined.length - mergeMark.length));
        continue;
      }
      pending = '';
      carry = joined.subarray(at);
    }
    // A reference is ASCII: latin1 cuts no character in two at a chunk's edge.
    pending = rangesIn(pending + (carry.length > 0 ? carry : chunk).toString('latin1'), ranges);
    carry = Buffer.alloc(0);
    // All of them are held before the rows are read: a chunk adds at most some 1,600 before this stops them.
    if (ranges.length > maxMergedRanges) throw tooManyMergesRefusal(file, sheet.name);
  }
  return ranges;
}

/** Adds the merged ranges of whole elements in `text`; what follows the last `<` is kept, if an element may start there. */
function rangesIn(text: string, ranges: MergedRange[]): string {
  for (const match of text.matchAll(/<mergeCell ref="([A-Z]+\d+):([A-Z]+\d+)"/g)) {
    const start = parseCellReference(match[1] as string);
    const end = parseCellReference(match[2] as string);
    if (start && end) ranges.push({ top: start.row, left: start.column, bottom: end.row, right: end.column });
  }
  const last = text.lastIndexOf('<');
  const rest = last === -1 ? '' : text.slice(last);
  // A mergeCell element is some 40 characters: a longer unfinished one is none, and is not kept.
  return rest.length > 256 || rest.includes('/>') || /^<mergeCell ref="[A-Z]+\d+:[A-Z]+\d+"/.test(rest) ? '' : rest;
}

interface SheetContext {
  sheet: string;
  sharedStrings: SharedStrings;
  numberStyles: readonly NumberStyle[];
  date1904: boolean;
  hiddenColumns: Set<number>;
}

/** The sheet's rows as the XML is inflated: a cell's type and style decide what its `<v>` means. */
async function* sheetRows(
  zip: WorkbookZip,
  path: string,
  file: string,
  context: SheetContext,
  reading: WorkbookReading,
): AsyncGenerator<WorkbookRow[]> {
  const reader = sheetXmlReader((error) => {
    throw damaged(file, error);
  }, reading.bound);
  const stream = await zip.open(path);
  const decoder = new TextDecoder('utf-8');
  const typed = rowTyper(context, reader);
  const feed = (text: string, last: boolean): RawRow[] => {
    try {
      return last ? [...reader.feed(text), ...reader.end()] : reader.feed(text);
    } catch (error) {
      if (error instanceof OverlongXmlError) throw overlongRefusal(file, context.sheet, error, typed.nextRow);
      throw damaged(file, error);
    }
  };
  try {
    const where = () => `the rows from row ${typed.nextRow}`;
    for await (const chunk of partChunks(stream, file, reading, where)) {
      const rows = typed.rows(feed(decoder.decode(chunk, { stream: true }), false));
      if (rows.length > 0) yield rows;
    }
    const rows = typed.rows(feed(decoder.decode(), true));
    if (rows.length > 0) yield rows;
  } finally {
    stream.destroy();
  }
}

/** Turns raw rows into typed ones, numbering those without `r` after the row before; `nextRow` follows the last. */
function rowTyper(
  context: SheetContext,
  reader: { readonly hiddenColumns: ReadonlySet<number> },
): { rows(raws: RawRow[]): WorkbookRow[]; readonly nextRow: number } {
  let nextRow = 1;
  return {
    get nextRow() {
      return nextRow;
    },
    rows(raws) {
      for (const column of reader.hiddenColumns) context.hiddenColumns.add(column);
      const rows: WorkbookRow[] = [];
      for (const raw of raws) {
        const row: WorkbookRow = { row: raw.row ?? nextRow, cells: [] };
        if (raw.hidden) row.hidden = true;
        nextRow = row.row + 1;
        let nextColumn = 0;
        for (const rawCell of raw.cells) {
          const column = rawCell.column ?? nextColumn;
          nextColumn = column + 1;
          const cell = typedCell(rawCell, context);
          if (cell) row.cells[column] = cell;
        }
        if (row.cells.length > 0) rows.push(row);
      }
      return rows;
    },
  };
}

/**
 * A string as Excel meant it: Office Open XML writes a character XML cannot hold, or one that would be mistaken for
 * such an escape, as `_xHHHH_` (a CR `_x000D_`, a tab `_x0009_`, a literal `_x` as `_x005F_x`). Read left to right,
 * so `_x005F_x000D_` stays the text `_x000D_`.
 */
export function unescapedText(text: string): string {
  return text.includes('_x')
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
}

/** A cell as its type and number format say; undefined for an empty one. */
function typedCell(cell: RawCell, context: SheetContext): WorkbookCell | undefined {
  const { value } = cell;
  switch (cell.type) {
    case 's': {
      const text = context.sharedStrings.get(Number(value));
      return text === undefined || text === '' ? undefined : { kind: 'text', text: unescapedText(text) };
    }
    case 'str':
    case 'inlineStr':
      if (cell.formula && value === '' && cell.type === 'str') return undefined;
      return value === '' ? undefined : { kind: 'text', text: unescapedText(value) };
    case 'b':
      return value === '' ? undefined : { kind: 'boolean', value: value === '1' || value === 'true' };
    case 'e':
      return { kind: 'error', text: value };
    case 'd':
      return value === '' ? undefined : { kind: 'date', text: value.replace(/(?:\.\d+)?Z?$/, '') };
    default: {
      if (value === '') return cell.formula ? { kind: 'uncalculated' } : undefined;
      const number = Number(value);
      const style = context.numberStyles[cell.style];
      if (style === 'date') return { kind: 'date', text: serialDate(number, context.date1904) };
      if (style === 'percent') return { kind: 'number', number, text: value, percent: true };
      if (style === 'currency') return { kind: 'number', number, text: value, currency: true };
      const padded = typeof style === 'object' ? paddedNumberText(number, style.zeroPaddedTo) : undefined;
      return padded === undefined
        ? { kind: 'number', number, text: value }
        : { kind: 'number', number, text: value, padded };
    }
  }
}
