import { fieldSpelledAs } from '../../domain/header-aliases.js';
import type { TextKind } from '../../domain/spreadsheet-numbers.js';
import { pathSegments } from '../../domain/validation.js';
import { closestName } from '../../lib/suggest.js';
import {
  type DecimalSeparator,
  parseActiveState,
  parseBoolean,
  parseDecimal,
  isSeparatorsOnly,
  parseList,
  parseWholeNumber,
} from './cell-values.js';

export type FieldType = 'string' | 'boolean' | 'number' | 'integer' | 'list';

/**
 * How a field's cell is read where its type alone does not say; each field catalogue declares it
 * (FieldCatalogue.readingOf), not a path's name.
 * - `active state`: a yes/no that also takes a state's words (ativo/inativo, bloqueado/liberado), as `customer
 *   status` reads them: one sheet's state column is taken by either command.
 * - `exact text`: sent exactly as written, its spaces part of the value (a password); other text loses the padding
 *   spreadsheets leave.
 */
export type CellReading = 'active state' | 'exact text';

/** The fields a kind of record has: the type of each dot path, and every known path for suggestions. */
export interface FieldCatalogue {
  typeOf(path: string): FieldType | undefined;
  /** What a text field holds, where its type does not say (a code, an address number, an NCM): see TextKind. */
  textKindOf?(path: string): TextKind | undefined;
  /** How a field's cell is read, where its type does not say (an active state, a password's exact text): see CellReading. */
  readingOf?(path: string): CellReading | undefined;
  /**
   * Whether a field's value is a secret (a customer's password): what validate and a bulk run print of its problems
   * (a CSV or JSON `value`, a log line's fields and message) never quotes it.
   */
  isSecret?(path: string): boolean;
  knownPaths: readonly string[];
  /** Columns without which no row can be valid (a stock file's `sku`): one error at the header, not one per row. */
  requiredColumns?: readonly string[];
  /**
   * Its text fields hold what people type as text (a name, a complement, a phone), never a number with a fraction:
   * a workbook's number cell with one there (1500,5 typed, stored 1500.5) is refused, as a money cell is. Not set
   * where text columns hold numbers on purpose (a tax table reads its rates as text to keep every digit).
   */
  refusesFractionCellsInText?: boolean;
  /**
   * Fields of the record that this command's route does not take, with why (`customer update` and `username`): such a
   * column is named for what it is, not as an unknown one to map.
   */
  notTaken?: Readonly<Record<string, string>>;
}

/**
 * The textKindOf or readingOf of a catalogue whose paths are its fields' names (a stock or orders file, the top of a
 * customer): the kind each field declares, none for any other.
 */
export function kindsByField<Kind extends string>(
  kinds: Readonly<Partial<Record<string, Kind>>>,
): (path: string) => Kind | undefined {
  return (path) => (Object.hasOwn(kinds, path) ? kinds[path] : undefined);
}

export interface ColumnPlan {
  index: number;
  header: string;
  path: string;
  /** The path split once, numeric segments as numbers: shaping a million rows must not split it a million times. */
  segments: readonly (string | number)[];
  type: FieldType;
  /** The catalogue's textKindOf, asked once per column. */
  textKind?: TextKind;
  /** The catalogue's readingOf, asked once per column. */
  reading?: CellReading;
  /** A text column of a catalogue that refuses a number cell with a fraction in it (refusesFractionCellsInText). */
  refusesFractionCell?: true;
}

export interface HeaderProblems {
  unknown: { header: string; column: number; suggestion: string | undefined }[];
  repeated: { path: string; columns: number[] }[];
  missing: string[];
  /** Headers no record may have: a list index beyond the cap, or a name of JavaScript's object machinery. */
  unreadable: { header: string; column: number; reason: string }[];
}

/** The default cap on a list index in a header (`addressList.300.zipcode`): no store has more addresses per customer. */
export const defaultMaxListIndex = 300;

const maxSuggestions = 20;
const maxSuggestedLength = 64;

const reservedSegments = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Why a field path cannot be read, or undefined: an index beyond the cap would build a sparse list
 * of millions of holes from one header; `__proto__` and its kin would reach into the object machinery.
 */
export function unreadablePath(path: string, maxListIndex: number): string | undefined {
  for (const segment of path.split('.')) {
    if (reservedSegments.has(segment)) return `"${segment}" is not a field name b2bctl can read; rename it`;
    if (/^\d+$/.test(segment) && Number(segment) > maxListIndex)
      return `list index ${segment.length > 12 ? `${segment.slice(0, 12)}…` : segment} is above ${maxListIndex} (the input.maxListIndex setting); number the items from 0`;
  }
  return undefined;
}

/** A `--map`: the ERP's own header (or JSON key) to our field path, or `null` for a column left out on purpose. */
export type HeaderMap = Record<string, string | null>;

/** Whether the map leaves this header (or key) out: `null` in a map file, or `--ignore-column`. */
export function ignoredByMap(headerMap: Readonly<HeaderMap> | undefined, key: string): boolean {
  return headerMap !== undefined && Object.hasOwn(headerMap, key) && headerMap[key] === null;
}

/** The field path a `--map` gives for a header or key; only the map's own entries count, never inherited members. */
export function mappedPath(headerMap: Readonly<HeaderMap> | undefined, key: string): string {
  if (!headerMap || !Object.hasOwn(headerMap, key)) return key;
  const mapped = headerMap[key];
  return typeof mapped === 'string' ? mapped : key;
}

/** Which columns feed which fields: headers renamed by `--map`, checked against the catalogue. */
export function planColumns(
  headers: readonly string[],
  catalogue: FieldCatalogue,
  headerMap: Readonly<HeaderMap> | undefined = undefined,
  maxListIndex = defaultMaxListIndex,
): { columns: ColumnPlan[]; problems: HeaderProblems } {
  const columns: ColumnPlan[] = [];
  const problems: HeaderProblems = { unknown: [], repeated: [], missing: [], unreadable: [] };
  const seen = new Map<string, number[]>();
  const errorsColumns = errorsFileColumns(headers);
  headers.forEach((rawHeader, index) => {
    const header = rawHeader.trim();
    if (header === '' || ignoredByMap(headerMap, header)) return;
    const written = mappedPath(headerMap, header).trim();
    // `SKU`, `Quantity`: a known field spelled in another case or spacing is that field.
    const path =
      catalogue.typeOf(written) || written.length > maxSuggestedLength * 4
        ? written
        : (fieldSpelledAs(written, catalogue.knownPaths) ?? written);
    const unreadable = unreadablePath(path, maxListIndex);
    if (unreadable) {
      problems.unreadable.push({ header, column: index + 1, reason: unreadable });
      return;
    }
    // The last columns of an errors file that b2bctl wrote (errorsFileColumns): feeding that file back is what it
    // is for.
    if (index >= headers.length - errorsColumns && !catalogue.typeOf(path)) return;
    seen.set(path, [...(seen.get(path) ?? []), index + 1]);
    const type = catalogue.typeOf(path);
    if (!type) {
      // "Did you mean" costs an edit distance per known path: bounded, so a 100,000-column or 8 MB header answers at once.
      const worthSuggesting = problems.unknown.length < maxSuggestions && path.length <= maxSuggestedLength;
      problems.unknown.push({
        header,
        column: index + 1,
        suggestion: worthSuggesting ? closestName(path, catalogue.knownPaths) : undefined,
      });
      return;
    }
    const textKind = catalogue.textKindOf?.(path);
    const reading = catalogue.readingOf?.(path);
    columns.push({
      index,
      header,
      path,
      segments: pathSegments(path),
      type,
      ...(textKind ? { textKind } : {}),
      ...(reading ? { reading } : {}),
      ...(catalogue.refusesFractionCellsInText && (type === 'string' || type === 'list')
        ? { refusesFractionCell: true as const }
        : {}),
    });
  });
  for (const [path, positions] of seen) if (positions.length > 1) problems.repeated.push({ path, columns: positions });
  problems.missing = (catalogue.requiredColumns ?? []).filter((path) => !seen.has(path));
  return {
    columns: columns.filter((column) => !problems.repeated.some((repeat) => repeat.path === column.path)),
    problems,
  };
}

/**
 * A row's cells as the request body they describe: dot paths nested (`addressList.0.zipcode`), lists
 * split on `|`, booleans and numbers typed, and an empty cell left out, never sent as "". A cell
 * that does not convert keeps its text, so validation can quote it back to the user.
 */
export function shapeRow(
  cells: readonly string[],
  columns: readonly ColumnPlan[],
  decimal: DecimalSeparator,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (let index = 0; index < columns.length; index++) {
    const column = columns[index] as ColumnPlan;
    const text = cells[column.index];
    if (text === undefined || text === '' || text.trim() === '') continue;
    const value = typedValue(text, column.type, decimal, column.reading);
    // Most columns name a top-level field (`sku`, `price`): set it without walking a path.
    const segments = column.segments;
    if (segments.length === 1) record[segments[0] as string] = value;
    else setSegments(record, segments, value);
  }
  return record;
}

/** A cell's text as its field's value (see CellReading for `reading`); text that does not convert is kept. */
export function typedValue(text: string, type: FieldType, decimal: DecimalSeparator, reading?: CellReading): unknown {
  switch (type) {
    case 'boolean':
      return (reading === 'active state' ? parseActiveState(text) : parseBoolean(text)) ?? text;
    case 'number':
      return parseDecimal(text, decimal) ?? text;
    case 'integer':
      return parseWholeNumber(text, decimal) ?? text;
    case 'list':
      // Separators only (`|`) are kept as text, which the rules refuse, never an empty list sent (a user test); the readers
      // refuse such a cell first, in its own words (separatorsOnlyProblem).
      return isSeparatorsOnly(text) ? text.trim() : parseList(text);
    case 'string':
      return reading === 'exact text' ? text : text.trim();
  }
}

/** A dot path as segments: `addressList.0.zipcode` → ['addressList', 0, 'zipcode']. */
export { pathSegments };

/** Sets a dot path in a nested object, creating arrays for numeric segments. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  setSegments(target, pathSegments(path), value);
}

function setSegments(target: Record<string, unknown>, segments: readonly (string | number)[], value: unknown): void {
  let container = target as Record<string | number, unknown>;
  const last = segments.length - 1;
  for (let index = 0; index < last; index++) {
    const key = segments[index] as string | number;
    let next = container[key];
    if (next === undefined || next === null || typeof next !== 'object') {
      next = typeof segments[index + 1] === 'number' ? [] : {};
      container[key] = next;
    }
    container = next as Record<string | number, unknown>;
  }
  container[segments[last] as string | number] = value;
}

/**
 * How many of the last columns are the ones b2bctl's errors file adds to the input's (`row` and `error`; `error`
 * alone, as written before rows were named; `row` alone, once a person deleted the long `error` column): 0 when the
 * file does not end like an errors file. Such a file is b2bctl's own, fed back: its `'` formula guard is taken off.
 */
export function errorsFileColumns(headers: readonly string[]): number {
  const last = headers.at(-1)?.trim();
  if (last === 'row') return 1;
  if (last !== 'error') return 0;
  return headers.at(-2)?.trim() === 'row' ? 2 : 1;
}

/**
 * The columns whose field is text or a list of texts (a SKU, a document, a code, a tag), never a number or a yes/no:
 * the errors file keeps their codes' leading zeros as text (guardDigitsText), and no quantity's or price's digits.
 */
export function textColumnIndexes(columns: readonly ColumnPlan[]): number[] {
  return columns.filter((column) => column.type === 'string' || column.type === 'list').map((column) => column.index);
}
