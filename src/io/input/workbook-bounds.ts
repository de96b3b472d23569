import { InputError, InterruptedError } from '../../base/errors.js';
import { cellReference } from './workbook-cells.js';
import { nothingSent } from './nothing-sent.js';
import type { OverlongXmlError } from './workbook-xlsx-rows.js';
import { damaged } from './workbook-zip.js';

/**
 * What both workbook readers (.xlsx, .ods) hold a workbook to, so that a damaged or hostile file ends in one line
 * naming the file instead of growing until the heap is gone (a user test): a row's XML (or a shared string) within
 * rowXmlBound, a row's values within input.maxColumns, a sheet's merged ranges within maxMergedRanges, and Ctrl-C
 * heard at every chunk inflated.
 */
export interface WorkbookReading {
  /** The most characters of XML a row or a shared string is read into (rowXmlBound). */
  bound: number;
  /** The most columns a row's values may reach (input.maxColumns): an .ods repeats a cell over columns. */
  maxColumns?: number;
  interrupt?: AbortSignal;
  /** Whether the command sends what it reads: an interrupted reading then says nothing was sent. */
  sends?: boolean;
}

export const unbounded: WorkbookReading = { bound: Number.POSITIVE_INFINITY };

/**
 * The most merged ranges a sheet may hold at once: a merged range for every fourth row of the largest sheet Excel or
 * Calc holds (1,048,576 rows), about 18 MB. A sheet of records merges a few cells (a warehouse down its rows); the
 * ranges of an .xlsx are all held before its rows are read, and a hostile file of kilobytes can list millions.
 */
export const maxMergedRanges = 262_144;

/** The most sheets a Calc workbook holds: an .ods lists each as a `<table:table>`, a few bytes each. */
export const maxSheets = 10_000;

/** The last row of a sheet in Excel and in Calc: an .ods row repeated past it is no sheet a spreadsheet saved. */
export const lastSheetRow = 1_048_576;

/**
 * The chunks of a part as they are inflated; the inflating's own failure (a damaged or cut stream) is the damaged
 * workbook's line, and a Ctrl-C stops the reading at the next chunk, `where` saying what was being read.
 */
export async function* partChunks(
  stream: AsyncIterable<unknown>,
  file: string,
  reading: Omit<WorkbookReading, 'bound'>,
  where: () => string,
): AsyncGenerator<Buffer> {
  const chunks = stream[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<unknown>;
    try {
      next = await chunks.next();
    } catch (error) {
      throw damaged(file, error);
    }
    stopIfInterrupted(file, reading, where);
    if (next.done) return;
    yield next.value as Buffer;
  }
}

/** Ctrl-C or SIGTERM: the reading stops here, `where` saying what was being read. */
export function stopIfInterrupted(file: string, reading: Omit<WorkbookReading, 'bound'>, where: () => string): void {
  if (reading.interrupt?.aborted)
    throw new InterruptedError(`Interrupted while reading ${file} (${where()})${nothingSent(reading.sends)}.`);
}

/** The end of every refusal of a workbook holding more than any sheet of records: what it is, and the way out. */
function damagedOr(what: string, wayOut: string): string {
  return `the workbook is damaged (a bad copy or disk), or ${what}. Open it in the spreadsheet program and save it again; ${wayOut}`;
}

/**
 * A row or shared string past the bound: by its cell (`Plan1!E2`) when the XML names it. What ran on is a damaged
 * part (inflated into text that never ends its row) or a cell far longer than any row input.maxRowChars allows.
 */
export function overlongRefusal(file: string, sheet: string, error: OverlongXmlError, nextRow = 1): InputError {
  const { row, column, sharedString, part } = error.found;
  const length = error.length.toLocaleString('en-US');
  const where =
    part !== undefined
      ? `the workbook's ${part}`
      : sharedString !== undefined
        ? `shared string ${(sharedString + 1).toLocaleString('en-US')} of the workbook`
        : row !== undefined && column !== undefined
          ? `cell ${cellReference(sheet, column, row)}`
          : `row ${row ?? nextRow} of sheet "${sheet}"`;
  const inRow = sharedString === undefined && part === undefined;
  const place = inRow ? `:${row ?? nextRow}` : '';
  return new InputError(
    `${file}${place}: ${where} runs on for more than ${length} characters of the workbook's XML without ending, more than a row within the input.maxRowChars setting can take: ${damagedOr('holds a cell far longer than a spreadsheet row', 'if it is meant to be this long, raise the setting: b2bctl config set input.maxRowChars NUMBER.')}`,
    inRow ? { file, line: row ?? nextRow } : { file },
  );
}

/** A row whose values reach past input.maxColumns (an .ods cell repeated over columns): by its last cell. */
export function tooWideRefusal(
  file: string,
  sheet: string,
  place: { row: number; column: number },
  maxColumns: number,
): InputError {
  return new InputError(
    `${file}:${place.row}: row ${place.row} of sheet "${sheet}" has values up to cell ${cellReference(sheet, place.column, place.row)}, column ${(place.column + 1).toLocaleString('en-US')}, more than the ${maxColumns.toLocaleString('en-US')} columns the input.maxColumns setting allows: ${damagedOr('holds a row far wider than a sheet of records', 'if it is meant to be this wide, raise the setting: b2bctl config set input.maxColumns NUMBER.')}`,
    { file, line: place.row },
  );
}

/** An .ods row with values repeated past the last row a sheet holds (`table:number-rows-repeated`). */
export function repeatedPastLastRowRefusal(file: string, sheet: string, row: number, repeat: number): InputError {
  return new InputError(
    `${file}:${row}: row ${row} of sheet "${sheet}" is repeated ${repeat.toLocaleString('en-US')} times, past row ${lastSheetRow.toLocaleString('en-US')}, the last a sheet of Excel or Calc holds: ${damagedOr('was not saved by a spreadsheet program', 'if the sheet is meant to be this long, save it as CSV and pass that file.')}`,
    { file, line: row },
  );
}

/** A sheet listing more merged ranges than maxMergedRanges. */
export function tooManyMergesRefusal(file: string, sheet: string): InputError {
  return new InputError(
    `${file}: sheet "${sheet}" merges more than ${maxMergedRanges.toLocaleString('en-US')} ranges of cells, more than b2bctl holds: ${damagedOr('merges far more cells than a sheet of records', 'if its cells are meant to be merged so, unmerge them, fill each value down its rows, and save it again.')}`,
    { file },
  );
}

/** An .ods listing more sheets than Calc holds. */
export function tooManySheetsRefusal(file: string): InputError {
  return new InputError(
    `${file}: the workbook lists more than ${maxSheets.toLocaleString('en-US')} sheets, the most Calc holds: ${damagedOr('was not saved by a spreadsheet program', 'or export the sheet as CSV and pass that file.')}`,
    { file },
  );
}
