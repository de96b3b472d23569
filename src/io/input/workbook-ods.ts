import { SaxesParser } from 'saxes';
import { InputError } from '../../errors.js';
import type { SheetEntry, WorkbookCell, WorkbookRow } from './workbook-cells.js';
import { MergedCells } from './workbook-merges.js';
import { noSuchSheet, parsedBatches, type SheetChoice, type SheetReader } from './workbook-sheet.js';
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
  const state: { sheet: SheetEntry | undefined } = { sheet: undefined };
  return {
    get sheet() {
      return state.sheet;
    },
    merges,
    hiddenColumns,
    rows: () => contentRows(zip, file, choice, { merges, hiddenColumns, state }),
    close: () => zip.close(),
  };
}

interface Reading {
  merges: MergedCells;
  hiddenColumns: Set<number>;
  state: { sheet: SheetEntry | undefined };
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
  const parser = new SaxesParser({ position: false });
  const hiddenTableStyles = new Set<string>();
  const sheets: SheetEntry[] = [];
  let styleName: string | undefined;
  let inChosen = false;
  let done = false;
  const rows: WorkbookRow[] = [];
  let row: WorkbookRow | undefined;
  let rowRepeat = 1;
  let nextRow = 1;
  let column = 0;
  let cell: OpenCell | undefined;
  // Comments (office:annotation) hold paragraphs too: they are not the cell's text.
  let annotationDepth = 0;
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Attributes;
    const name = tag.name;
    if (done) return;
    if (!inChosen) {
      if (name === 'style:style' && attributes['style:family'] === 'table') styleName = attributes['style:name'];
      else if (name === 'style:table-properties' && attributes['table:display'] === 'false' && styleName)
        hiddenTableStyles.add(styleName);
      else if (name === 'table:table') {
        const sheet = {
          name: attributes['table:name'] ?? `Sheet${sheets.length + 1}`,
          hidden: hiddenTableStyles.has(attributes['table:style-name'] ?? ''),
        };
        sheets.push(sheet);
        if (isChosen(sheet, sheets.length, choice)) {
          inChosen = true;
          reading.state.sheet = sheet;
        }
      }
      return;
    }
    switch (name) {
      case 'table:table-column': {
        const repeat = Math.min(Number(attributes['table:number-columns-repeated'] ?? 1), maxRepeats);
        if (attributes['table:visibility'] === 'collapse' || attributes['table:visibility'] === 'filter')
          for (let index = 0; index < repeat; index++) reading.hiddenColumns.add(column + index);
        column += repeat;
        return;
      }
      case 'table:table-row':
        row = { row: nextRow, cells: [] };
        rowRepeat = Number(attributes['table:number-rows-repeated'] ?? 1);
        if (attributes['table:visibility'] === 'collapse' || attributes['table:visibility'] === 'filter')
          row.hidden = true;
        column = 0;
        return;
      case 'table:table-cell':
      case 'table:covered-table-cell':
        cell = {
          attributes,
          paragraphs: [],
          repeat: Number(attributes['table:number-columns-repeated'] ?? 1),
        };
        spanOf(attributes, nextRow, column, reading.merges);
        return;
      case 'office:annotation':
        annotationDepth++;
        return;
      case 'text:p':
        if (cell && annotationDepth === 0) cell.paragraphs.push('');
        return;
      case 'text:s':
        appendText(cell, annotationDepth, ' '.repeat(Number(attributes['text:c'] ?? 1)));
        return;
      case 'text:tab':
        appendText(cell, annotationDepth, '\t');
        return;
      case 'text:line-break':
        appendText(cell, annotationDepth, '\n');
    }
  });
  parser.on('text', (text) => {
    if (inChosen && !done) appendText(cell, annotationDepth, text);
  });
  parser.on('closetag', (tag) => {
    if (!inChosen || done) return;
    switch (tag.name) {
      case 'office:annotation':
        annotationDepth--;
        return;
      case 'table:table-cell':
      case 'table:covered-table-cell': {
        if (!cell || !row) return;
        const value = tag.name === 'table:table-cell' ? typedCell(cell) : undefined;
        // A value repeated over many columns is written once; empty ones only move the column on.
        if (value)
          for (let index = 0; index < Math.min(cell.repeat, maxRepeats); index++) row.cells[column + index] = value;
        column += cell.repeat;
        cell = undefined;
        return;
      }
      case 'table:table-row':
        if (!row) return;
        if (row.cells.length > 0) {
          for (let index = 0; index < Math.min(rowRepeat, maxRepeats); index++)
            rows.push(index === 0 ? row : { ...row, row: row.row + index, cells: [...row.cells] });
        }
        nextRow += rowRepeat;
        row = undefined;
        return;
      case 'table:table':
        done = true;
    }
  });
  parser.on('error', (error) => {
    throw damaged(file, error);
  });
  yield* parsedBatches(await zip.open('content.xml'), parser, () => rows.splice(0));
  if (!reading.state.sheet) throw noSuchSheet(sheets, choice ?? '1', file);
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

function appendText(cell: OpenCell | undefined, annotationDepth: number, text: string): void {
  if (!cell || annotationDepth > 0 || cell.paragraphs.length === 0) return;
  cell.paragraphs[cell.paragraphs.length - 1] += text;
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
      return { kind: 'number', number: Number(value) };
    }
    case 'date': {
      const value = attributes['office:date-value'];
      return value ? { kind: 'date', text: value.replace(/(?:\.\d+)?$/, '').replace(/T00:00:00$/, '') } : undefined;
    }
    case 'time':
      return text === '' ? undefined : { kind: 'text', text: attributes['office:time-value'] ?? text };
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
