import { closestName } from '../../domain/suggest.js';
import { type DecimalSeparator, parseBoolean, parseDecimal, parseList, parseWholeNumber } from './cell-values.js';

export type FieldType = 'string' | 'boolean' | 'number' | 'integer' | 'list';

/** The fields a kind of record has: the type of each dot path, and every known path for suggestions. */
export interface FieldCatalogue {
  typeOf(path: string): FieldType | undefined;
  knownPaths: readonly string[];
  /** Columns without which no row can be valid (a stock file's `sku`): one error at the header, not one per row. */
  requiredColumns?: readonly string[];
}

export interface ColumnPlan {
  index: number;
  header: string;
  path: string;
  type: FieldType;
}

export interface HeaderProblems {
  unknown: { header: string; column: number; suggestion: string | undefined }[];
  repeated: { path: string; columns: number[] }[];
  missing: string[];
}

/** Which columns feed which fields: headers renamed by `--map`, checked against the catalogue. */
export function planColumns(headers: readonly string[], catalogue: FieldCatalogue, headerMap: Readonly<Record<string, string>> = {}): { columns: ColumnPlan[]; problems: HeaderProblems } {
  const columns: ColumnPlan[] = [];
  const problems: HeaderProblems = { unknown: [], repeated: [], missing: [] };
  const seen = new Map<string, number[]>();
  headers.forEach((rawHeader, index) => {
    const header = rawHeader.trim();
    if (header === '') return;
    const path = (headerMap[header] ?? header).trim();
    seen.set(path, [...(seen.get(path) ?? []), index + 1]);
    const type = catalogue.typeOf(path);
    if (!type) {
      problems.unknown.push({ header, column: index + 1, suggestion: closestName(path, catalogue.knownPaths) });
      return;
    }
    columns.push({ index, header, path, type });
  });
  for (const [path, positions] of seen) if (positions.length > 1) problems.repeated.push({ path, columns: positions });
  problems.missing = (catalogue.requiredColumns ?? []).filter((path) => !seen.has(path));
  return { columns: columns.filter((column) => !problems.repeated.some((repeat) => repeat.path === column.path)), problems };
}

/**
 * A row's cells as the request body they describe: dot paths nested (`addressList.0.zipcode`), lists
 * split on `|`, booleans and numbers typed, and an empty cell left out, never sent as "". A cell
 * that does not convert keeps its text, so validation can quote it back to the user.
 */
export function shapeRow(cells: readonly string[], columns: readonly ColumnPlan[], decimal: DecimalSeparator): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const column of columns) {
    const text = cells[column.index];
    if (text === undefined || text.trim() === '') continue;
    setPath(record, column.path, typedValue(text, column.type, decimal, column.path));
  }
  return record;
}

export function typedValue(text: string, type: FieldType, decimal: DecimalSeparator, path = ''): unknown {
  switch (type) {
    case 'boolean':
      return parseBoolean(text) ?? text;
    case 'number':
      return parseDecimal(text, decimal) ?? text;
    case 'integer':
      return parseWholeNumber(text, decimal) ?? text;
    case 'list':
      return parseList(text);
    case 'string':
      // A password is sent exactly as written; other text loses the padding spreadsheets leave.
      return /password/i.test(path) ? text : text.trim();
  }
}

/** Sets a dot path in a nested object, creating arrays for numeric segments. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let current: Record<string, unknown> | unknown[] = target;
  parts.forEach((part, index) => {
    const last = index === parts.length - 1;
    const key: string | number = /^\d+$/.test(part) ? Number(part) : part;
    const container = current as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(parts[index + 1] ?? '');
    if (container[key] === undefined || container[key] === null || typeof container[key] !== 'object') container[key] = nextIsIndex ? [] : {};
    current = container[key] as Record<string, unknown> | unknown[];
  });
}
