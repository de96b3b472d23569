import type { Readable } from 'node:stream';
import { forbiddenCharacter, forbiddenCharacterProblem } from '../../domain/invisible-characters.js';
import { InputError, UsageError } from '../../base/errors.js';
import { fieldForHeader, headerKey } from '../../domain/header-aliases.js';
import { restoreFormula } from '../output/csv-format.js';
import { inputName, openBytes, peekBytes, unreadable as unreadableInput } from './byte-source.js';
import type { DecimalSeparator } from './cell-values.js';
import { type CsvRow, type CsvRowBatch, readCsvRowBatches } from './csv-rows.js';
import type { RowBounds } from './row-bounds.js';
import { type JsonValue, readJsonValues, readNdjsonValues } from './json-values.js';
import {
  type ColumnPlan,
  defaultMaxListIndex,
  type FieldCatalogue,
  type HeaderMap,
  ignoredByMap,
  mappedPath,
  unreadablePath,
  type HeaderProblems,
  planColumns,
  setPath,
  shapeRow,
  typedValue,
} from './record-shape.js';
import {
  byteOrderMark,
  delimiterLine,
  formatFromContent,
  formatFromExtension,
  type InputFormat,
  looksBinary,
  nulInText,
  sniffDecimal,
  sniffDelimiter,
  sniffEncoding,
  type TextEncoding,
} from './sniff.js';
import { decodeText } from './decode-text.js';
import { type HeaderProposalOptions, planWithProposal } from './header-proposal.js';
import { shortRowProblem, shortValue, unnamedColumnCheck, wrongDelimiterCheck } from './row-shape-problems.js';
import { unmappedDataCheck, withIgnoredColumns } from './unmapped-columns.js';
import { binaryKind, markupKind } from './binary-kinds.js';

export interface InputOptions {
  path: string;
  /** The name messages give the input when `path` is a spooled copy of stdin or of a pipe. */
  displayName?: string;
  stdin: NodeJS.ReadableStream;
  catalogue: FieldCatalogue;
  encoding?: TextEncoding;
  delimiter?: string;
  decimal?: DecimalSeparator;
  /** `--map`: the ERP's own header (or JSON key) to our field path, or `null` for a column left out. */
  headerMap?: Readonly<HeaderMap>;
  /** `--ignore-column`: headers whose data is left out on purpose (else data under an unknown header stops the run). */
  ignoredColumns?: readonly string[];
  /** The highest list index a header may name (`addressList.N.zipcode`); the input.maxListIndex setting. */
  maxListIndex?: number;
  /** The most columns and characters a CSV row may hold: the input.maxColumns and input.maxRowChars settings. */
  rowBounds?: RowBounds;
  /** The run's Ctrl-C: a long parse of one huge row stops on it. */
  interrupt?: AbortSignal;
  /** `--strict`: an unknown column is an error instead of a warning. */
  strict?: boolean;
  /** `--write-map`: read the columns named as an ERP names them as proposed, and save the map (header-proposal.ts). */
  adoptHeaderMap?: HeaderProposalOptions['adoptHeaderMap'];
  /** `--sheet NAME|N`: the sheet of a workbook to read (the first visible one by default). */
  sheet?: string;
  warn(message: string): void;
}

/** One record of the input, shaped as a request body, with where it came from. */
export interface InputRecord {
  line: number;
  values: Record<string, unknown>;
  /** The record as the user wrote it: CSV cells, or the JSON value. For the errors file. */
  original: readonly string[] | unknown;
  /** Problems of shape found while reading (a row with too many cells, a JSON value that is no object). */
  problems: string[];
  /** CSV: the spreadsheet's row, when a line break inside a cell above made it differ from the line. */
  row?: number;
  /** JSON with several records on one line (minified): where the record starts on it, and its index (from 0). */
  column?: number;
  element?: number;
  /** CSV: how the cells became fields, shared by every record, to quote a value back as it was written. */
  cells?: WrittenCells;
}

/** How a CSV input's cells map to fields, and its decimal separator. */
export interface WrittenCells {
  columns: readonly ColumnPlan[];
  decimal: DecimalSeparator;
}

/** Where a record is, after `file:`: `8`, `8 (row 7)` below a cell with a line break, `1:2345 (element 17)` in minified JSON. */
export function recordPlace(record: Pick<InputRecord, 'line' | 'row' | 'column' | 'element'>): string {
  if (record.element !== undefined) return `${record.line}:${record.column ?? 1} (element ${record.element})`;
  return record.row === undefined ? String(record.line) : `${record.line} (row ${record.row})`;
}

export interface OpenedInput {
  file: string;
  format: InputFormat;
  encoding: TextEncoding;
  /** CSV only: the delimiter, decimal separator and header cells as read. */
  csv?: { delimiter: string; decimal: DecimalSeparator; headers: string[] };
  /** A workbook (.xlsx, .ods): the sheet read. */
  workbook?: { sheet: string };
  /** The records one by one. Read these or recordBatches(), not both: both take from the one reader of the input. */
  records: AsyncGenerator<InputRecord>;
  /**
   * The same records in batches, as the reader makes them (a CSV reader: a batch of rows per read, so a pass over a
   * million rows pays an await per batch instead of one per record); batches of one for JSON.
   */
  recordBatches(): AsyncGenerator<InputRecord[]>;
  /** Rows that were not records, counted as the records stream: Excel's trailing `;;;;` rows. */
  skipped?: { blankRows: number };
  /**
   * About how many records a CSV file holds, from its size and the lines of its first 64 KB: a hint for sizing
   * tables once instead of growing them, never a count to show. Undefined for stdin, pipes and JSON.
   */
  estimatedRecords?: number;
}

/** `, 3 blank rows skipped` for a summary line, or nothing. */
export function skippedNote(input: Pick<OpenedInput, 'skipped'>): string {
  const blank = input.skipped?.blankRows ?? 0;
  return blank === 0 ? '' : `, ${blank} blank ${blank === 1 ? 'row' : 'rows'} skipped`;
}

/** The problems of a record without any, shared by all of them (frozen: nothing adds to a record's problems). */
const noProblems = Object.freeze([]) as unknown as string[];

/** A row whose cells are all empty or blank, as spreadsheets write below the data: not a record. */
function isBlankRow(cells: readonly string[]): boolean {
  // A loop, not every(): it runs on each of a million rows, and nearly always stops at the first cell.
  for (let index = 0; index < cells.length; index++) {
    const cell = cells[index] as string;
    if (cell !== '' && cell.trim() !== '') return false;
  }
  return true;
}

const sniffBytes = 64 * 1024;

/** Past this, a table sized from an estimate would hold more than it could save (and an odd head misleads). */
const maxEstimatedLines = 2 ** 21;

/** The lines of a file of `size` bytes, extrapolated from those of its first bytes; undefined without a size. */
function estimatedLines(size: number | undefined, head: Buffer): number | undefined {
  if (size === undefined) return undefined;
  let lines = 0;
  for (let at = head.indexOf(10); at !== -1; at = head.indexOf(10, at + 1)) lines++;
  return Math.min(maxEstimatedLines, Math.round((lines * size) / Math.max(1, head.length)));
}

/**
 * Opens a CSV, JSON (array or one object) or NDJSON input, from a file or `-` for stdin, and streams
 * its records (docs/input-files.md). Format, encoding and delimiter are sniffed unless given.
 */
export async function openInput(options: InputOptions): Promise<OpenedInput> {
  const file = options.displayName ?? inputName(options.path);
  const bytes = await openBytes(options.path, options.stdin);
  // A file that opens but cannot be read (a failing disk, /proc, a revoked network share) fails here, at its first bytes.
  const peeked = await peekBytes(bytes.stream, sniffBytes).catch((error: unknown) => {
    throw unreadableInput(options.path, error);
  });
  const head = peeked.head;
  // An empty export means nothing to do tonight, as a header-only file does: the command says so and exits 0.
  if (head.length === 0)
    return withBatchesOfOne({
      file,
      format: (options.path === '-' ? undefined : formatFromExtension(options.path)) ?? 'csv',
      encoding: options.encoding ?? 'utf-8',
      records: noRecords(),
      skipped: { blankRows: 0 },
    });
  const bom = byteOrderMark(head);
  // "Unicode text" is UTF-16 with a BOM (or named by --encoding): its NUL bytes are no sign of a binary file.
  const utf16 = bom?.encoding.startsWith('utf-16') || /^utf-?16/i.test(options.encoding ?? '');
  if (options.sheet !== undefined)
    throw new UsageError(`--sheet ${options.sheet}: ${file} is text, not a workbook (.xlsx, .ods); drop --sheet.`);
  const kind = utf16 ? undefined : binaryKind(head);
  if (kind) throw new InputError(`${file}: ${kind}`, { file });
  if (!utf16 && looksBinary(head)) {
    const nul = nulInText(head);
    if (nul)
      throw new InputError(
        `${file}:${nul.line}: a NUL byte (0x00, byte ${nul.byte} of the file), which no text holds; the rest reads as text, so the export is probably damaged there. Delete it (or export the data again) and run again.`,
        { file, line: nul.line },
      );
    throw new InputError(`${file}: looks like a binary file, not CSV or JSON text. Export the data as CSV or JSON.`, {
      file,
    });
  }

  const sniffed = options.encoding === undefined;
  const encoding = options.encoding ?? (bom?.encoding.startsWith('utf-16') ? bom.encoding : sniffEncoding(head));
  const headText = await decodeHead(head, encoding);
  const markup = markupKind(headText);
  if (markup) throw new InputError(`${file}: ${markup}`, { file });
  const format = (options.path === '-' ? undefined : formatFromExtension(options.path)) ?? formatFromContent(headText);
  // A JSON export saved under a .csv name reads as one absurd column: say what the file is instead.
  if (
    format === 'csv' &&
    formatFromContent(headText) !== 'csv' &&
    /^\s*(?:\[\s*)?\{\s*"/.test(headText.replace(/^\uFEFF/, ''))
  )
    throw new InputError(
      `${file}: holds JSON (it starts with "${headText
        .replace(/^\uFEFF/, '')
        .trimStart()
        .slice(
          0,
          1,
        )}"), not CSV, though its name says CSV. Rename it to .${formatFromContent(headText) === 'ndjson' ? 'ndjson' : 'json'}, or pipe it on stdin (-), where the format is read from the content.`,
      { file },
    );
  const text = decodeText(peeked.stream as Readable, encoding, file, { sniffed });

  if (format === 'csv') {
    const declared = delimiterLine(headText);
    const delimiter = options.delimiter ?? declared ?? sniffDelimiter(headText);
    const decimal = options.decimal ?? sniffDecimal(headText, delimiter);
    const opened = await openCsv(file, text, {
      ...options,
      delimiter,
      decimal,
      encoding,
      hasDelimiterLine: declared !== undefined,
      delimiterGiven: options.delimiter !== undefined,
    });
    return { ...opened, estimatedRecords: estimatedLines(bytes.size, head) };
  }
  const values = format === 'json' ? readJsonValues(text, file) : readNdjsonValues(text, file);
  return withBatchesOfOne({ file, format, encoding, records: jsonRecords(values, options), skipped: { blankRows: 0 } });
}

/** The first bytes as text, for sniffing format and delimiter only: a cut character or bad byte does not matter here. */
async function decodeHead(head: Buffer, encoding: TextEncoding): Promise<string> {
  if (/^utf-?8$/i.test(encoding)) return new TextDecoder('utf-8').decode(head);
  const { default: iconv } = await import('iconv-lite');
  if (!iconv.encodingExists(encoding))
    throw new UsageError(
      `--encoding ${encoding}: not an encoding b2bctl knows; use a name such as utf-8, windows-1252, cp850, macintosh or utf-16le.`,
    );
  return iconv.decode(head, encoding);
}

type CsvOptions = InputOptions & {
  delimiter: string;
  decimal: DecimalSeparator;
  encoding: TextEncoding;
  hasDelimiterLine: boolean;
  /** `--delimiter` was given: a header that does not split on it is probably the flag's fault. */
  delimiterGiven?: boolean;
};

async function openCsv(file: string, text: AsyncIterable<string>, options: CsvOptions): Promise<OpenedInput> {
  // Filled once the header is read: a row too long is then named by its column's header.
  const columnNames: { headers?: readonly string[] } = {};
  const rows = new CsvRowCursor(
    readCsvRowBatches(text, {
      delimiter: options.delimiter,
      file,
      bounds: options.rowBounds,
      interrupt: options.interrupt,
      columnNames,
    }),
  );
  const skipped = { blankRows: 0 };
  const header = await readHeaderRow(rows, options, skipped);
  columnNames.headers = header?.headers;
  // Only blank lines or a BOM (Excel's "CSV UTF-8" of an empty sheet): no header, and no records either.
  if (!header)
    return withBatchesOfOne({ file, format: 'csv', encoding: options.encoding, records: noRecords(), skipped });
  const { headers, hiddenLines } = header;
  const hint = headerHint(headers, options);
  const headerMap = withIgnoredColumns(options.headerMap, headers, options.ignoredColumns ?? [], {
    file,
    at: recordPlace(header.place),
    warn: options.warn,
  });
  const { columns, problems } = hint
    ? planColumns(headers, options.catalogue, headerMap, options.maxListIndex ?? defaultMaxListIndex)
    : await planWithProposal(file, recordPlace(header.place), headers, {
        ...options,
        headerMap,
        maxListIndex: options.maxListIndex ?? defaultMaxListIndex,
        sampleOf: (name) => firstValueUnder(headers, name, rows),
      });
  reportHeaderProblems(file, header.place, { ...problems, headers }, { ...options, hint });
  // Trailing unnamed columns (Excel's `;;` at the end of the header) may be missing from the rows without harm.
  const namedColumns = headers.findLastIndex((name) => name.trim() !== '') + 1;
  const unnamedData = unnamedColumnCheck(headers, file);
  const wrongDelimiter = wrongDelimiterCheck(namedColumns, options.delimiter, file);
  const checkRow = (row: CsvRow) => {
    unnamedData(row);
    wrongDelimiter(row);
    return shortRowProblem(row.cells, namedColumns);
  };
  const unmappedData = unmappedDataCheck(file, problems.unknown, options.catalogue.knownPaths);
  const shapeRecords = csvRecordShaper(
    { columns, decimal: options.decimal },
    headers.length,
    hiddenLines,
    skipped,
    checkRow,
  );
  // A batch with data under a header no field reads is refused before any of its records is judged.
  const shape = (batch: CsvRowBatch, from: number) => {
    unmappedData(batch.rows, from);
    return shapeRecords(batch, from);
  };
  const batched = shapedBatches(rows, shape);
  return {
    file,
    format: 'csv',
    encoding: options.encoding,
    csv: { delimiter: options.delimiter, decimal: options.decimal, headers },
    records: oneAtATime(batched),
    recordBatches: () => batched,
    skipped,
  };
}

/** The first value under a header in the rows read with it (the rest of the header's batch), shortened; for prompts. */
function firstValueUnder(headers: readonly string[], name: string, rows: CsvRowCursor): string | undefined {
  const index = headers.findIndex((header) => header.trim() === name);
  if (index === -1) return undefined;
  for (let position = rows.position; position < rows.batch.rows.length; position++) {
    const cell = rows.batch.rows[position]?.cells[index]?.trim();
    if (cell) return shortValue(cell);
  }
  return undefined;
}

/** Hands out the rows of a CSV reader's batches one by one, for the header; the rest are taken a batch at a time. */
class CsvRowCursor {
  batch: CsvRowBatch = { rows: [], clean: true };
  position = 0;

  constructor(readonly batches: AsyncGenerator<CsvRowBatch>) {}

  async next(): Promise<CsvRow | undefined> {
    while (this.position >= this.batch.rows.length) {
      const next = await this.batches.next();
      if (next.done) return undefined;
      this.batch = next.value;
      this.position = 0;
    }
    return this.batch.rows[this.position++];
  }
}

/** The header row, after Excel's hidden `sep=` line and any blank rows; undefined when the text has none. */
async function readHeaderRow(
  rows: CsvRowCursor,
  options: CsvOptions,
  skipped: { blankRows: number },
): Promise<{ headers: string[]; place: { line: number; row?: number }; hiddenLines: number } | undefined> {
  let first = await rows.next();
  // Excel's `sep=;` line is an instruction to the reader, not the header. Excel hides it, so its rows
  // are one lower than the file's lines from there on: the rows messages and reports name follow Excel.
  let hiddenLines = 0;
  if (options.hasDelimiterLine && first && /^\uFEFF?sep=$/i.test(first.cells[0] ?? '')) {
    first = await rows.next();
    hiddenLines = 1;
  }
  while (first && isBlankRow(first.cells.map((cell) => cell.replace(/^\uFEFF/, '')))) {
    skipped.blankRows++;
    first = await rows.next();
  }
  if (!first) return undefined;
  const place =
    first.row - hiddenLines === first.line ? { line: first.line } : { line: first.line, row: first.row - hiddenLines };
  return { headers: first.cells.map((cell) => cell.replace(/^\uFEFF/, '')), place, hiddenLines };
}

/** Makes the records of a batch of rows, from its row `from` on; blank rows are counted in `skipped`, not records. */
function csvRecordShaper(
  written: WrittenCells,
  headerCount: number,
  hiddenLines: number,
  skipped: { blankRows: number },
  /** A row's problem of shape beyond too many cells (too few, another delimiter), if any. */
  checkRow: (row: CsvRow) => string | undefined,
): (batch: CsvRowBatch, from: number) => InputRecord[] {
  return ({ rows, clean }, from) => {
    const shaped: InputRecord[] = [];
    for (let index = from; index < rows.length; index++) {
      const row = rows[index] as CsvRow;
      if (isBlankRow(row.cells)) {
        skipped.blankRows++;
        continue;
      }
      // A cell b2bctl neutralised against formulas when it wrote the errors file being fed back.
      const cells = restoreFormulas(row.cells);
      let problems: string[] | undefined;
      if (row.cells.length > headerCount && row.cells.slice(headerCount).some((cell) => cell.trim() !== ''))
        problems = [
          `the row has ${row.cells.length} cells but the header has ${headerCount} columns; check the delimiter and quotes`,
        ];
      const short = checkRow(row);
      if (short) problems = [...(problems ?? []), short];
      const values = shapeRow(cells, written.columns, written.decimal);
      // Every field is cut from the cells, so a batch whose text has no forbidden character needs no look per field.
      if (!clean) {
        const invisible = invisibleProblems(values);
        if (invisible.length > 0) problems = [...(problems ?? []), ...invisible];
      }
      // Nearly every row has no problem: one shared empty list rather than an array per row.
      const record: InputRecord = {
        line: row.line,
        values,
        original: cells,
        problems: problems ?? noProblems,
        cells: written,
      };
      const sheetRow = row.row - hiddenLines;
      if (sheetRow !== row.line) record.row = sheetRow;
      shaped.push(record);
    }
    return shaped;
  };
}

/** The records of every row after the header, a batch of rows at a time: a million rows are a thousand awaits. */
async function* shapedBatches(
  rows: CsvRowCursor,
  shape: (batch: CsvRowBatch, from: number) => InputRecord[],
): AsyncGenerator<InputRecord[]> {
  try {
    // The rest of the batch that held the header first, then every batch as it comes.
    const afterHeader = shape(rows.batch, rows.position);
    rows.position = rows.batch.rows.length;
    if (afterHeader.length > 0) yield afterHeader;
    for (;;) {
      const next = await rows.batches.next();
      if (next.done) return;
      const shaped = shape(next.value, 0);
      if (shaped.length > 0) yield shaped;
    }
  } finally {
    // A consumer that stops early (an error, Ctrl-C) closes the reader and its file, as for-await did.
    await rows.batches.return(undefined);
  }
}

/** The records of batches one at a time. */
async function* oneAtATime(batches: AsyncGenerator<InputRecord[]>): AsyncGenerator<InputRecord> {
  try {
    for await (const batch of batches) for (const record of batch) yield record;
  } finally {
    await batches.return(undefined);
  }
}

/** Records as batches of one, for inputs read record by record (JSON, or records a caller filters). */
export async function* batchesOfOne(records: AsyncIterable<InputRecord>): AsyncGenerator<InputRecord[]> {
  for await (const record of records) yield [record];
}

/** An input read record by record, given its recordBatches(). */
function withBatchesOfOne(input: Omit<OpenedInput, 'recordBatches'>): OpenedInput {
  return { ...input, recordBatches: () => batchesOfOne(input.records) };
}

/**
 * The cells with b2bctl's formula guard taken off; the same array when no cell holds a `'` (nearly
 * every row), so a million rows do not make a million copies.
 */
function restoreFormulas(cells: string[]): string[] {
  for (let index = 0; index < cells.length; index++) {
    if ((cells[index] as string).includes("'")) return cells.map(restoreFormula);
  }
  return cells;
}

/** Every string of a shaped record that holds a control, invisible or bidi character, or a lone surrogate. */
export function invisibleProblems(values: unknown): string[] {
  const problems: string[] = [];
  collectInvisibleProblems(values, '', problems);
  return problems;
}

/** invisibleProblems, adding to `problems` in place: no array per field. */
function collectInvisibleProblems(values: unknown, path: string, problems: string[]): void {
  if (typeof values === 'string') {
    const found = forbiddenCharacter(values);
    if (found) problems.push(forbiddenCharacterProblem(path, found));
    return;
  }
  if (values === null || typeof values !== 'object') return;
  if (Array.isArray(values)) {
    for (let index = 0; index < values.length; index++)
      collectInvisibleProblems(values[index], path === '' ? String(index) : `${path}.${index}`, problems);
    return;
  }
  for (const key in values) {
    if (!Object.hasOwn(values, key)) continue;
    collectInvisibleProblems((values as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, problems);
  }
}

/** A header or key as a message quotes it: at most 80 characters, so an 8 MB header line is not echoed back. */
function shortText(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} characters)` : text;
}

async function* noRecords(): AsyncGenerator<InputRecord> {}

/**
 * What the header row says about the reading itself, told before any column is named missing: a `--delimiter` the
 * header does not contain while it holds another one.
 */
function headerHint(
  headers: readonly string[],
  options: { delimiter: string; delimiterGiven?: boolean },
): string | undefined {
  if (!options.delimiterGiven || headers.length !== 1) return undefined;
  const header = headers[0] ?? '';
  const other = [';', ',', '\t', '|'].find(
    (candidate) => candidate !== options.delimiter && header.includes(candidate),
  );
  if (!other) return undefined;
  return `the header has no ${delimiterName(options.delimiter)} (--delimiter) but has ${delimiterName(other)}: the file is probably ${delimiterName(other)}-separated. Drop --delimiter (b2bctl finds it) or pass --delimiter ${other === '\t' ? "$'\\t'" : `"${other}"`}`;
}

/** A delimiter as a message names it. */
function delimiterName(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `"${delimiter}"`;
}

/** A header named as ERPs name the field (`CNPJ` for document): the --map entry that reads it. */
function aliasHint(
  problems: HeaderProblems & { headers: readonly string[] },
  knownPaths: readonly string[],
  field: string,
): string {
  const header = problems.unknown
    .map((unknown) => unknown.header)
    .find((name) => fieldForHeader(name, knownPaths) === field);
  return header === undefined
    ? ''
    : ` Your column "${shortText(header)}" looks like it: rename it "${field}", or pass --map with a JSON file such as {${JSON.stringify(header)}:${JSON.stringify(field)}}.`;
}

/** Stops at the header for what no record can survive (a repeated or missing column); warns of unknown columns. */
export function reportHeaderProblems(
  file: string,
  { line, row }: { line: number; row?: number },
  problems: HeaderProblems & { headers: readonly string[] },
  options: InputOptions & { hint?: string },
): void {
  const at = recordPlace({ line, row });
  if (options.hint) throw new InputError(`${file}:${at}: ${options.hint}.`, { file, line });
  const unreadable = problems.unreadable[0];
  if (unreadable)
    throw new InputError(
      `${file}:${at}: column ${unreadable.column} "${shortText(unreadable.header)}": ${unreadable.reason}.`,
      { file, line, field: shortText(unreadable.header) },
    );
  const repeated = problems.repeated[0];
  if (repeated) {
    throw new InputError(
      `${file}:${at}: column "${repeated.path}" appears ${repeated.columns.length} times (columns ${repeated.columns.join(', ')}). Keep one, or rename the other with --map.`,
      {
        file,
        line,
        field: repeated.path,
      },
    );
  }
  const missing = problems.missing[0];
  if (missing) {
    throw new InputError(
      `${file}:${at}: no "${missing}" column (the columns are ${headersText(problems)}).${aliasHint(problems, options.catalogue.knownPaths, missing) || ` Name the column "${missing}", or map yours to it with --map.`}`,
      { file, line, field: missing },
    );
  }
  for (const unknown of problems.unknown.slice(0, maxUnknownWarnings)) {
    const meant = fieldForHeader(unknown.header, options.catalogue.knownPaths);
    const hint = meant
      ? ` (it looks like "${meant}": rename it, or put {${JSON.stringify(unknown.header)}:${JSON.stringify(meant)}} in a --map file)`
      : unknown.suggestion
        ? ` (did you mean "${unknown.suggestion}"?)`
        : '';
    const message = `${file}:${at}: unknown column "${shortText(unknown.header)}"${hint}`;
    if (options.strict)
      throw new InputError(`${message}. Rename it with --map, or drop --strict to ignore it.`, {
        file,
        line,
        field: shortText(unknown.header),
      });
    options.warn(
      `warning: ${message}: no field reads it, and the run stops if it holds data (map it with --map, or leave it out with --ignore-column).`,
    );
  }
  const more = problems.unknown.length - maxUnknownWarnings;
  if (more > 0) options.warn(`warning: ${file}:${at}: ${more} more unknown columns.`);
}

/** Unknown columns warned about one by one; a file with 100,000 of them is not a wall of text. */
const maxUnknownWarnings = 10;

function headersText(problems: { headers: readonly string[] }): string {
  const named = problems.headers.filter((header) => header.trim() !== '');
  const shown = named.slice(0, 20).map(shortText).join(', ');
  return named.length > 20 ? `${shown} and ${named.length - 20} more` : shown || 'none';
}

/** Repeated JSON keys warned about one by one; a file with 10,000 of them is not a wall of text. */
const maxDuplicateKeyWarnings = 10;

async function* jsonRecords(values: AsyncIterable<JsonValue>, options: InputOptions): AsyncGenerator<InputRecord> {
  const warned = new Set<string>();
  const file = options.displayName ?? inputName(options.path);
  const maxListIndex = options.maxListIndex ?? defaultMaxListIndex;
  let duplicateWarnings = 0;
  // `--ignore-column` names keys as it names headers: case, accents, spaces and punctuation aside.
  const ignoredKeys = new Set((options.ignoredColumns ?? []).map(headerKey));
  for await (const { line, value, column, element, duplicateKeys } of values) {
    const place = element === undefined ? {} : { column, element };
    const where = recordPlace({ line, ...place });
    for (const duplicate of duplicateKeys ?? []) {
      if (++duplicateWarnings > maxDuplicateKeyWarnings) break;
      const at = element === undefined ? String(duplicate.line) : where;
      options.warn(
        `warning: ${file}:${at}: key "${shortText(duplicate.key)}" appears twice in one object; the last one is read. Keep one.${duplicateWarnings === maxDuplicateKeyWarnings ? ' (Further repeated keys are not listed.)' : ''}`,
      );
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield {
        line,
        ...place,
        values: {},
        original: value,
        problems: [
          `expected a JSON object, found ${Array.isArray(value) ? 'an array' : shortText(JSON.stringify(value))}`,
        ],
      };
      continue;
    }
    const wrapped = wrappedList(value);
    if (wrapped !== undefined && !options.catalogue.typeOf(wrapped) && !hasKnownChildren(wrapped, options.catalogue))
      throw new InputError(
        `${file}:${where}: the records are inside "${shortText(wrapped)}" ({"${shortText(wrapped)}": [...]}); pass a file whose top level is the list itself: [{...}, {...}].`,
        { file, line, field: shortText(wrapped) },
      );
    const record: Record<string, unknown> = {};
    const entries = Object.entries(value);
    for (const [position, [key, inner]] of entries.entries()) {
      if (ignoredByMap(options.headerMap, key)) continue;
      const path = mappedPath(options.headerMap, key);
      const unreadable = unreadablePath(path, maxListIndex);
      if (unreadable)
        throw new InputError(`${file}:${where}: key "${shortText(key)}": ${unreadable}.`, {
          file,
          line,
          field: shortText(key),
        });
      // The last field of an errors file that b2bctl wrote: feeding that file back is what it is for.
      if (path === 'error' && position === entries.length - 1 && !options.catalogue.typeOf(path)) continue;
      if (!options.catalogue.typeOf(path) && !hasKnownChildren(path, options.catalogue)) {
        if (ignoredKeys.size > 0 && ignoredKeys.has(headerKey(key))) continue;
        if (!warned.has(key)) {
          warned.add(key);
          const message = `${file}:${where}: unknown field "${shortText(key)}"`;
          if (options.strict)
            throw new InputError(`${message}. Rename it with --map, or drop --strict to ignore it.`, {
              file,
              line,
              field: key,
            });
          options.warn(`warning: ${message}; it is ignored (--strict makes this an error).`);
        }
        continue;
      }
      if (inner === null || inner === '') continue;
      // ERP exports often quote numbers and booleans ("quantity": "5"); read them as a CSV cell of that field would be.
      const type = options.catalogue.typeOf(path);
      const typed =
        typeof inner === 'string' && type !== undefined && type !== 'string' && type !== 'list'
          ? typedValue(inner, type, '.', path)
          : inner;
      setPath(record, path, typed);
    }
    yield { line, ...place, values: record, original: value, problems: invisibleProblems(record) };
  }
}

/** The key of an object that only wraps the list of records (`{"customers": [{...}]}`), else undefined. */
function wrappedList(value: object): string | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const inner = (value as Record<string, unknown>)[keys[0] as string];
  return Array.isArray(inner) && inner.length > 0 && inner.every((item) => item !== null && typeof item === 'object')
    ? keys[0]
    : undefined;
}

/** An object field such as `customerRegistrationAddress`, whose children are the known paths. */
function hasKnownChildren(path: string, catalogue: FieldCatalogue): boolean {
  return catalogue.knownPaths.some((known) => known.startsWith(`${path}.`));
}

/** Parses a `--map` file's JSON: an object from the ERP's header to our field path. */
export function parseHeaderMap(json: unknown, file: string): HeaderMap {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new UsageError(`${file}: a --map file holds one JSON object such as {"CNPJ":"document"}.`);
  // No inherited members: a header named "constructor" must not find Object's constructor here.
  const map = Object.create(null) as HeaderMap;
  for (const [key, value] of Object.entries(json)) {
    if (value !== null && (typeof value !== 'string' || value === ''))
      throw new UsageError(
        `${file}: the mapping of "${shortText(key)}" must be a field name such as "document", or null to leave the column out.`,
      );
    map[key] = value;
  }
  return map;
}
