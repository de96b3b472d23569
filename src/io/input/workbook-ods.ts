import { SaxesParser } from 'saxes';
import { InputError } from '../../base/errors.js';
import { defaultRowBounds } from './row-bounds.js';
import {
  lastSheetRow,
  maxMergedRanges,
  maxSheets,
  overlongRefusal,
  partChunks,
  repeatedPastLastRowRefusal,
  stopIfInterrupted,
  tooManyMergesRefusal,
  tooManySheetsRefusal,
  tooWideRefusal,
  unbounded,
  type WorkbookReading,
} from './workbook-bounds.js';
import type { SheetEntry, WorkbookCell, WorkbookRow } from './workbook-cells.js';
import { MergedCells } from './workbook-merges.js';
import { noSuchSheet, refuseAmbiguousSheet, type SheetChoice, type SheetReader } from './workbook-sheet.js';
import { FedSinceRest, OverlongXmlError } from './workbook-xlsx-rows.js';
import type { WorkbookZip } from './workbook-zip.js';
import { damaged } from './workbook-zip.js';

type Attributes = Record<string, string>;

/**
 * The cells a batch of repeated rows is copied into before it is handed on: a row repeated a million times
 * (`table:number-rows-repeated`) is copied a batch at a time, never at once.
 */
const batchCells = 65_536;

/** The most characters saxes is fed at once: about 40 rows, when each is a value repeated over the sheet. */
const sliceChars = 4096;

/**
 * Opens the chosen sheet of an OpenDocument spreadsheet (.ods). Every sheet is in one content.xml, streamed: the
 * chosen one is found as its table starts, sheets before it are skipped, and reading stops at its end.
 */
export async function openOdsSheet(
  zip: WorkbookZip,
  file: string,
  choice: SheetChoice,
  reading: WorkbookReading = unbounded,
): Promise<SheetReader> {
  if (!zip.has('content.xml'))
    throw new InputError(
      `${file}: a zip file, but not a spreadsheet (it has no content.xml). Export the data as .ods, .xlsx or CSV.`,
      {
        file,
      },
    );
  const merges = new MergedCells();
  const hiddenColumns = new Set<number>();
  const state: { sheet: SheetEntry | undefined; sheets: SheetEntry[] } = { sheet: undefined, sheets: [] };
  // The tab the file was saved showing, in settings.xml (small): LibreOffice's ActiveTable.
  const settings = zip.has('settings.xml') ? await settingsText(zip, file, reading.bound) : '';
  const active = /config:name="ActiveTable"[^>]*>([^<]*)</.exec(settings)?.[1];
  return {
    get sheet() {
      return state.sheet;
    },
    merges,
    hiddenColumns,
    rows: () => contentRows(zip, file, choice, { merges, hiddenColumns, state }, reading),
    otherSheets: () =>
      state.sheets.filter((sheet) => sheet !== state.sheet && !sheet.hidden).map((sheet) => sheet.name),
    activeSheet: () => (active === undefined ? undefined : decodeXmlText(active)),
    close: () => zip.close(),
  };
}

/** settings.xml, a few kilobytes of view settings, held to the bound of a row: a hostile one inflates into gigabytes. */
async function settingsText(zip: WorkbookZip, file: string, bound: number): Promise<string> {
  try {
    return await zip.text('settings.xml', bound);
  } catch (error) {
    throw error instanceof OverlongXmlError ? overlongRefusal(file, '', error) : error;
  }
}

interface Found {
  merges: MergedCells;
  hiddenColumns: Set<number>;
  state: { sheet: SheetEntry | undefined; sheets: SheetEntry[] };
}

/** A cell being read: its typed value from its attributes, or its text gathered from its paragraphs. */
interface OpenCell {
  attributes: Attributes;
  paragraphs: string[];
  repeat: number;
}

/**
 * The chosen sheet's rows as content.xml is inflated, held as the .xlsx reader holds a sheet (workbook-bounds.ts):
 * the XML since a row last ended within the bound, a row's text (what `<text:s>` and a cell repeated over columns
 * stand for included) too, its values within input.maxColumns, and Ctrl-C heard at every chunk and batch.
 */
async function* contentRows(
  zip: WorkbookZip,
  file: string,
  choice: SheetChoice,
  found: Found,
  reading: WorkbookReading,
): AsyncGenerator<WorkbookRow[]> {
  const content = new OdsContent(choice, found, {
    file,
    bound: reading.bound,
    maxColumns: reading.maxColumns ?? defaultRowBounds.maxColumns,
  });
  found.state.sheets = content.sheets;
  const parser = new SaxesParser({ position: false });
  parser.on('opentag', (tag) => content.open(tag.name, tag.attributes as Attributes));
  parser.on('text', (text) => content.text(text));
  parser.on('closetag', (tag) => content.close(tag.name));
  parser.on('error', (error) => {
    throw damaged(file, error);
  });
  const fed = new FedSinceRest(reading.bound);
  const write = (text: string, last: boolean) => {
    try {
      parser.write(text);
      if (last) parser.close();
      fed.fed(text.length, content.takeRest(), () => content.where());
    } catch (error) {
      if (error instanceof OverlongXmlError) throw overlongRefusal(file, content.sheetName, error);
      throw error;
    }
  };
  const where = () => (content.reading ? `the rows from row ${content.nextRow}` : 'the sheet');
  const interrupted = () => stopIfInterrupted(file, reading, where);
  const stream = await zip.open('content.xml');
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of partChunks(stream, file, reading, where)) {
      const text = decoder.decode(chunk, { stream: true });
      // A few bytes can stand for a row of 16,384 values (one cell repeated): fed in slices, the rows are handed on
      // once they hold a batch of cells, not once a whole chunk of such rows is held.
      for (let at = 0; at < text.length; at += sliceChars) {
        write(text.slice(at, at + sliceChars), false);
        if (content.pendingCells >= batchCells) yield* content.batches(interrupted);
      }
      yield* content.batches(interrupted);
    }
    write(decoder.decode(), true);
    yield* content.batches(interrupted);
  } finally {
    stream.destroy();
  }
  if (!found.state.sheet) throw noSuchSheet(content.sheets, choice ?? '1', file);
  refuseAmbiguousSheet(content.sheets, choice, file);
}

/** What a row of the chosen sheet is held to, and the file its refusals name. */
interface RowLimits {
  file: string;
  bound: number;
  maxColumns: number;
}

/** What saxes reports of content.xml, turned into the chosen sheet's rows. */
class OdsContent {
  readonly sheets: SheetEntry[] = [];
  /** Rows closed and not yet handed on, each with how many times it repeats. */
  private readonly pending: { row: WorkbookRow; repeat: number }[] = [];
  /** The cells of the pending rows (a repeated row's copies are made as they are handed on). */
  pendingCells = 0;
  private readonly hiddenTableStyles = new Set<string>();
  private styleName: string | undefined;
  private inChosen = false;
  private done = false;
  private row: WorkbookRow | undefined;
  private rowRepeat = 1;
  /** Characters of text the row being read holds, with what `<text:s>` and repeated cells stand for. */
  private rowChars = 0;
  private column = 0;
  private cell: OpenCell | undefined;
  // Comments (office:annotation) hold paragraphs too: they are not the cell's text.
  private annotationDepth = 0;
  /** Inside a row of any sheet; and whether a row ended or a tag outside a row came since takeRest. */
  private inRow = false;
  private rested = false;
  nextRow = 1;

  private readonly choice: SheetChoice;
  private readonly found: Found;
  private readonly limits: RowLimits;
  constructor(choice: SheetChoice, found: Found, limits: RowLimits) {
    this.choice = choice;
    this.found = found;
    this.limits = limits;
  }

  /** Whether the chosen sheet's rows are being read. */
  get reading(): boolean {
    return this.inChosen && !this.done;
  }

  get sheetName(): string {
    return this.found.state.sheet?.name ?? '';
  }

  /** Where an element that runs on is: a cell or row of the chosen sheet, else the part. */
  where(): OverlongXmlError['found'] {
    if (!this.reading || !this.inRow) return { part: 'content.xml' };
    return { row: this.nextRow, column: this.cell ? this.column : undefined };
  }

  /** Whether the reader came to rest (a row ended, or a tag came outside a row) since it was last asked. */
  takeRest(): boolean {
    const rested = this.rested;
    this.rested = false;
    return rested;
  }

  open(name: string, attributes: Attributes): void {
    this.noteRest(name, true);
    if (name === 'table:table' && this.sheets.length >= maxSheets) throw tooManySheetsRefusal(this.limits.file);
    if (this.done) {
      // The tables after the chosen one: only their names, for a --sheet number that is also one of them.
      if (name === 'table:table')
        this.sheets.push({ name: attributes['table:name'] ?? `Sheet${this.sheets.length + 1}`, hidden: false });
      return;
    }
    if (!this.inChosen) this.openOutside(name, attributes);
    else this.openInside(name, attributes);
  }

  /** A row's XML is held until it ends; outside a row, saxes holds no more than the tag or text in progress. */
  private noteRest(name: string, opening: boolean): void {
    if (name === 'table:table-row') {
      this.inRow = opening;
      if (!opening) this.rested = true;
    } else if (!this.inRow) this.rested = true;
  }

  /** Before the chosen sheet: the tables' styles (which hide a sheet) and the sheets' names. */
  private openOutside(name: string, attributes: Attributes): void {
    if (name === 'style:style' && attributes['style:family'] === 'table') this.styleName = attributes['style:name'];
    else if (name === 'style:table-properties' && attributes['table:display'] === 'false' && this.styleName)
      this.hiddenTableStyles.add(this.styleName);
    else if (name === 'table:table') {
      const sheet = {
        name: attributes['table:name'] ?? `Sheet${this.sheets.length + 1}`,
        hidden: this.hiddenTableStyles.has(attributes['table:style-name'] ?? ''),
      };
      this.sheets.push(sheet);
      if (isChosen(sheet, this.sheets.length, this.choice)) {
        this.inChosen = true;
        this.found.state.sheet = sheet;
      }
    }
  }

  private openInside(name: string, attributes: Attributes): void {
    switch (name) {
      case 'table:table-column': {
        const repeat = repeatCount(attributes['table:number-columns-repeated']);
        // Only the columns a row's values may reach: Calc writes the rest of the 16,384 as one repeated column.
        if (isHidden(attributes))
          for (let index = this.column; index < Math.min(this.column + repeat, this.limits.maxColumns); index++)
            this.found.hiddenColumns.add(index);
        this.column += repeat;
        return;
      }
      case 'table:table-row':
        this.row = { row: this.nextRow, cells: [] };
        this.rowRepeat = repeatCount(attributes['table:number-rows-repeated']);
        this.rowChars = 0;
        if (isHidden(attributes)) this.row.hidden = true;
        this.column = 0;
        return;
      case 'table:table-cell':
      case 'table:covered-table-cell':
        this.openCell(attributes);
        return;
      case 'office:annotation':
        this.annotationDepth++;
        return;
      case 'text:p':
        if (this.cell && this.annotationDepth === 0) this.cell.paragraphs.push('');
        return;
      case 'text:s': {
        const spaces = repeatCount(attributes['text:c']);
        if (!this.holdsText()) return;
        // Counted before it is made: a `text:c` of a billion is refused, not allocated.
        this.hold(spaces);
        this.append(' '.repeat(spaces));
        return;
      }
      case 'text:tab':
        this.text('\t');
        return;
      case 'text:line-break':
        this.text('\n');
    }
  }

  private openCell(attributes: Attributes): void {
    this.cell = { attributes, paragraphs: [], repeat: repeatCount(attributes['table:number-columns-repeated']) };
    const merges = this.found.merges;
    spanOf(attributes, { row: this.nextRow, column: this.column }, merges, this.limits.maxColumns);
    if (merges.count > maxMergedRanges) throw tooManyMergesRefusal(this.limits.file, this.sheetName);
  }

  /** Whether text now goes into a cell of the chosen sheet. */
  private holdsText(): boolean {
    return this.reading && this.cell !== undefined && this.annotationDepth === 0 && this.cell.paragraphs.length > 0;
  }

  /** Counts `count` more characters into the row, refusing it past the bound (as its XML is). */
  private hold(count: number): void {
    this.rowChars += count;
    if (this.rowChars > this.limits.bound) throw new OverlongXmlError(this.where(), this.rowChars);
  }

  text(text: string): void {
    if (!this.holdsText()) return;
    this.hold(text.length);
    this.append(text);
  }

  /** Adds to the cell's last paragraph text already counted. */
  private append(text: string): void {
    const paragraphs = (this.cell as OpenCell).paragraphs;
    paragraphs[paragraphs.length - 1] += text;
  }

  close(name: string): void {
    this.noteRest(name, false);
    if (!this.reading) return;
    if (name === 'office:annotation') this.annotationDepth--;
    else if (name === 'table:table-cell' || name === 'table:covered-table-cell') this.closeCell(name);
    else if (name === 'table:table-row') this.closeRow();
    else if (name === 'table:table') this.done = true;
  }

  private closeCell(name: string): void {
    const { cell, row } = this;
    if (!cell || !row) return;
    const value = name === 'table:table-cell' ? typedCell(cell) : undefined;
    // A value repeated over many columns is written once; empty ones (the rest of the sheet) only move the column on.
    if (value) {
      const last = this.column + cell.repeat - 1;
      if (last >= this.limits.maxColumns)
        throw tooWideRefusal(this.limits.file, this.sheetName, { row: row.row, column: last }, this.limits.maxColumns);
      // What the copies stand for is held as the text itself would be.
      this.hold((cell.repeat - 1) * Math.max(1, cell.paragraphs.join('\n').length));
      for (let index = 0; index < cell.repeat; index++) row.cells[this.column + index] = value;
    }
    this.column += cell.repeat;
    this.cell = undefined;
  }

  private closeRow(): void {
    const row = this.row;
    if (!row) return;
    if (row.cells.length > 0) {
      // A repeated row of values is copied as it is handed on; a sheet ends at its last row.
      if (this.rowRepeat > 1 && row.row + this.rowRepeat - 1 > lastSheetRow)
        throw repeatedPastLastRowRefusal(this.limits.file, this.sheetName, row.row, this.rowRepeat);
      this.pending.push({ row, repeat: this.rowRepeat });
      this.pendingCells += row.cells.length;
    }
    this.nextRow += this.rowRepeat;
    this.row = undefined;
  }

  /** The rows closed so far, a batch of at most batchCells cells at a time; `between` runs between batches. */
  *batches(between: () => void): Generator<WorkbookRow[]> {
    let batch: WorkbookRow[] = [];
    let cells = 0;
    this.pendingCells = 0;
    for (const { row, repeat } of this.pending.splice(0))
      for (let index = 0; index < repeat; index++) {
        batch.push(index === 0 ? row : { ...row, row: row.row + index, cells: [...row.cells] });
        cells += row.cells.length;
        if (cells < batchCells) continue;
        yield batch;
        between();
        batch = [];
        cells = 0;
      }
    if (batch.length > 0) yield batch;
  }
}

/** A repeat count as written (`table:number-rows-repeated`, `text:c`): a whole number from 1, else OpenDocument's 1. */
function repeatCount(written: string | undefined): number {
  const count = Number(written ?? 1);
  return Number.isSafeInteger(count) && count >= 1 ? count : 1;
}

function isHidden(attributes: Attributes): boolean {
  return attributes['table:visibility'] === 'collapse' || attributes['table:visibility'] === 'filter';
}

/** Whether the `position`th sheet (from 1) is the one `--sheet` names, or the first visible one without it. */
function isChosen(sheet: SheetEntry, position: number, choice: SheetChoice): boolean {
  if (choice === undefined) return !sheet.hidden;
  if (sheet.name === choice || sheet.name.toLocaleLowerCase() === choice.toLocaleLowerCase()) return true;
  return /^\d+$/.test(choice) && Number(choice) === position;
}

/** A cell spanning rows or columns starts a merged range (to the last row and column a sheet may have). */
function spanOf(
  attributes: Attributes,
  at: { row: number; column: number },
  merges: MergedCells,
  maxColumns: number,
): void {
  const rows = repeatCount(attributes['table:number-rows-spanned']);
  const columns = repeatCount(attributes['table:number-columns-spanned']);
  if (rows > 1 || columns > 1)
    merges.add({
      top: at.row,
      left: at.column,
      bottom: at.row + Math.min(rows, lastSheetRow) - 1,
      right: at.column + Math.min(columns, maxColumns) - 1,
    });
}

/** A cell by its value type: the value attribute for numbers, dates and booleans (a formula's cached value too). */
function typedCell(cell: OpenCell): WorkbookCell | undefined {
  const attributes = cell.attributes;
  const text = cell.paragraphs.join('\n');
  const formula = attributes['table:formula'] !== undefined;
  // LibreOffice marks a formula's error in its own namespace; the value type it also writes is a placeholder.
  if (attributes['calcext:value-type'] === 'error') return { kind: 'error', text };
  switch (attributes['office:value-type']) {
    case 'float':
    case 'percentage':
    case 'currency': {
      const value = attributes['office:value'];
      if (value === undefined || value === '') return formula ? { kind: 'uncalculated' } : undefined;
      if (attributes['office:value-type'] === 'percentage')
        return { kind: 'number', number: Number(value), percent: true };
      if (attributes['office:value-type'] === 'currency')
        return { kind: 'number', number: Number(value), currency: true };
      // A format of zeros (`00000000`) shows the leading zero the number drops; the cell's text is what it shows.
      const number = Number(value);
      return /^0\d+$/.test(text) && Number(text) === number
        ? { kind: 'number', number, padded: text }
        : { kind: 'number', number };
    }
    case 'date': {
      const value = attributes['office:date-value'];
      return value ? { kind: 'date', text: value.replace(/(?:\.\d+)?$/, '').replace(/T00:00:00$/, '') } : undefined;
    }
    case 'time': {
      // `10:30` typed in a text column became a time (`PT10H30M00S`): a date-like cell, refused there as an xlsx's is.
      if (text === '') return undefined;
      const clock = /^PT(\d+)H(\d+)M(\d+)(?:\.\d+)?S$/.exec(attributes['office:time-value'] ?? '');
      return clock
        ? {
            kind: 'date',
            text: clock
              .slice(1)
              .map((part) => part.padStart(2, '0'))
              .join(':'),
          }
        : { kind: 'text', text };
    }
    case 'boolean':
      return { kind: 'boolean', value: attributes['office:boolean-value'] === 'true' };
    case 'string': {
      const value = attributes['office:string-value'] ?? text;
      if (formula && /^(?:#[A-Z/0!?]+[!?A]?|Err:\d+)$/.test(value)) return { kind: 'error', text: value };
      return value === '' ? undefined : { kind: 'text', text: value };
    }
    default:
      // A formula whose result is an error has no value type; its text is the error.
      if (formula && text !== '') return { kind: 'error', text };
      return text === '' ? undefined : { kind: 'text', text };
  }
}

/** An attribute's or element's text with XML's entities read (`&amp;` in a sheet named `P&D`). */
function decodeXmlText(text: string): string {
  return text.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, entity: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[entity] as string,
  );
}
