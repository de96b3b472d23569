import { SaxesParser } from 'saxes';
import { InputError } from '../../base/errors.js';
import type { SheetEntry, WorkbookCell, WorkbookRow } from './workbook-cells.js';
import { MergedCells } from './workbook-merges.js';
import {
  noSuchSheet,
  parsedBatches,
  refuseAmbiguousSheet,
  type SheetChoice,
  type SheetReader,
} from './workbook-sheet.js';
import type { WorkbookZip } from './workbook-zip.js';
import { damaged } from './workbook-zip.js';

type Attributes = Record<string, string>;

/** Past this many repeats a row or column is the sheet's empty remainder (Calc writes 1,048,000 of them), not data. */
const maxRepeats = 16_384;

/**
 * Opens the chosen sheet of an OpenDocument spreadsheet (.ods). Every sheet is in one content.xml, streamed: the
 * chosen one is found as its table starts, sheets before it are skipped, and reading stops at its end.
 */
export async function openOdsSheet(zip: WorkbookZip, file: string, choice: SheetChoice): Promise<SheetReader> {
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
  const settings = zip.has('settings.xml') ? await zip.text('settings.xml') : '';
  const active = /config:name="ActiveTable"[^>]*>([^<]*)</.exec(settings)?.[1];
  return {
    get sheet() {
      return state.sheet;
    },
    merges,
    hiddenColumns,
    rows: () => contentRows(zip, file, choice, { merges, hiddenColumns, state }),
    otherSheets: () =>
      state.sheets.filter((sheet) => sheet !== state.sheet && !sheet.hidden).map((sheet) => sheet.name),
    activeSheet: () => (active === undefined ? undefined : decodeXmlText(active)),
    close: () => zip.close(),
  };
}

interface Reading {
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

async function* contentRows(
  zip: WorkbookZip,
  file: string,
  choice: SheetChoice,
  reading: Reading,
): AsyncGenerator<WorkbookRow[]> {
  const content = new OdsContent(choice, reading);
  reading.state.sheets = content.sheets;
  const parser = new SaxesParser({ position: false });
  parser.on('opentag', (tag) => content.open(tag.name, tag.attributes as Attributes));
  parser.on('text', (text) => content.text(text));
  parser.on('closetag', (tag) => content.close(tag.name));
  parser.on('error', (error) => {
    throw damaged(file, error);
  });
  yield* parsedBatches(await zip.open('content.xml'), parser, () => content.rows.splice(0));
  if (!reading.state.sheet) throw noSuchSheet(content.sheets, choice ?? '1', file);
  refuseAmbiguousSheet(content.sheets, choice, file);
}

/** What saxes reports of content.xml, turned into the chosen sheet's rows. */
class OdsContent {
  readonly rows: WorkbookRow[] = [];
  readonly sheets: SheetEntry[] = [];
  private readonly hiddenTableStyles = new Set<string>();
  private styleName: string | undefined;
  private inChosen = false;
  private done = false;
  private row: WorkbookRow | undefined;
  private rowRepeat = 1;
  private nextRow = 1;
  private column = 0;
  private cell: OpenCell | undefined;
  // Comments (office:annotation) hold paragraphs too: they are not the cell's text.
  private annotationDepth = 0;

  constructor(
    private readonly choice: SheetChoice,
    private readonly reading: Reading,
  ) {}

  open(name: string, attributes: Attributes): void {
    if (this.done) {
      // The tables after the chosen one: only their names, for a --sheet number that is also one of them.
      if (name === 'table:table')
        this.sheets.push({ name: attributes['table:name'] ?? `Sheet${this.sheets.length + 1}`, hidden: false });
      return;
    }
    if (!this.inChosen) this.openOutside(name, attributes);
    else this.openInside(name, attributes);
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
        this.reading.state.sheet = sheet;
      }
    }
  }

  private openInside(name: string, attributes: Attributes): void {
    switch (name) {
      case 'table:table-column': {
        const repeat = Math.min(Number(attributes['table:number-columns-repeated'] ?? 1), maxRepeats);
        if (isHidden(attributes))
          for (let index = 0; index < repeat; index++) this.reading.hiddenColumns.add(this.column + index);
        this.column += repeat;
        return;
      }
      case 'table:table-row':
        this.row = { row: this.nextRow, cells: [] };
        this.rowRepeat = Number(attributes['table:number-rows-repeated'] ?? 1);
        if (isHidden(attributes)) this.row.hidden = true;
        this.column = 0;
        return;
      case 'table:table-cell':
      case 'table:covered-table-cell':
        this.cell = { attributes, paragraphs: [], repeat: Number(attributes['table:number-columns-repeated'] ?? 1) };
        spanOf(attributes, this.nextRow, this.column, this.reading.merges);
        return;
      case 'office:annotation':
        this.annotationDepth++;
        return;
      case 'text:p':
        if (this.cell && this.annotationDepth === 0) this.cell.paragraphs.push('');
        return;
      case 'text:s':
        this.text(' '.repeat(Number(attributes['text:c'] ?? 1)));
        return;
      case 'text:tab':
        this.text('\t');
        return;
      case 'text:line-break':
        this.text('\n');
    }
  }

  text(text: string): void {
    if (!this.inChosen || this.done) return;
    const cell = this.cell;
    if (!cell || this.annotationDepth > 0 || cell.paragraphs.length === 0) return;
    cell.paragraphs[cell.paragraphs.length - 1] += text;
  }

  close(name: string): void {
    if (!this.inChosen || this.done) return;
    if (name === 'office:annotation') this.annotationDepth--;
    else if (name === 'table:table-cell' || name === 'table:covered-table-cell') this.closeCell(name);
    else if (name === 'table:table-row') this.closeRow();
    else if (name === 'table:table') this.done = true;
  }

  private closeCell(name: string): void {
    const { cell, row } = this;
    if (!cell || !row) return;
    const value = name === 'table:table-cell' ? typedCell(cell) : undefined;
    // A value repeated over many columns is written once; empty ones only move the column on.
    if (value)
      for (let index = 0; index < Math.min(cell.repeat, maxRepeats); index++) row.cells[this.column + index] = value;
    this.column += cell.repeat;
    this.cell = undefined;
  }

  private closeRow(): void {
    const row = this.row;
    if (!row) return;
    if (row.cells.length > 0)
      for (let index = 0; index < Math.min(this.rowRepeat, maxRepeats); index++)
        this.rows.push(index === 0 ? row : { ...row, row: row.row + index, cells: [...row.cells] });
    this.nextRow += this.rowRepeat;
    this.row = undefined;
  }
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

/** A cell spanning rows or columns starts a merged range. */
function spanOf(attributes: Attributes, row: number, column: number, merges: MergedCells): void {
  const rows = Number(attributes['table:number-rows-spanned'] ?? 1);
  const columns = Number(attributes['table:number-columns-spanned'] ?? 1);
  if (rows > 1 || columns > 1)
    merges.add({
      top: row,
      left: column,
      bottom: row + Math.min(rows, maxRepeats) - 1,
      right: column + Math.min(columns, maxRepeats) - 1,
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
      return { kind: 'number', number: Number(value) };
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
