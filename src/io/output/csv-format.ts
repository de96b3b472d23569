/** CSV cells and dot paths, as b2bctl writes them (RFC 4180, `|` between list items). Pure. */

/** The value at a dot path (`profile.name`, `addressList.0.zipcode`), or undefined. */
export function valueAtPath(record: unknown, path: string): unknown {
  let current: unknown = record;
  for (const part of path.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A value as one CSV cell's text: lists of plain values joined with `|`, nothing for null. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object'))
    return value.map((item) => cellText(item)).join('|');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Quotes a cell when it holds a delimiter, a quote, a line break or edge spaces. */
export function escapeCsvCell(text: string, delimiter = ','): string {
  if (text.includes(delimiter) || needsQuotes(text)) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/**
 * A quote, a line break, or a character trim() would take off either edge. Read by character codes:
 * a report of a million rows escapes six million cells, and a regular expression and a trimmed copy
 * per cell were a visible share of a push. Every character trim() removes is below `!` or
 * above `~`, so an edge inside that range needs no closer look.
 */
function needsQuotes(text: string): boolean {
  const length = text.length;
  if (length === 0) return false;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(length - 1);
  if (first < 33 || first > 126 || last < 33 || last > 126) {
    if (text !== text.trim()) return true;
  }
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 34 || code === 10 || code === 13) return true;
  }
  return false;
}

/**
 * Every CSV b2bctl writes is opened by people in Excel, where a cell starting with `=`, `+`, `-`,
 * `@`, tab or CR is a formula (`=HYPERLINK(...)` from an input would be live): such a cell gets
 * OWASP's `'` prefix, which Excel shows as text. Plain numbers (`-5`, `+3,5`) stay as they are.
 */
export function neutralizeFormula(text: string): string {
  return startsLikeFormula(text) && !plainNumber.test(text) ? `'${text}` : text;
}

/** formulaStart by its first character's code, without a regular expression run per cell. */
function startsLikeFormula(text: string): boolean {
  const code = text.charCodeAt(0);
  // = + - @ tab CR
  return code === 61 || code === 43 || code === 45 || code === 64 || code === 9 || code === 13;
}

/** The reverse, for a CSV b2bctl wrote and the user feeds back (the errors file): `'=x` is read as `=x`. */
export function restoreFormula(text: string): string {
  return text.startsWith("'") && formulaStart.test(text.slice(1)) && !plainNumber.test(text.slice(1))
    ? text.slice(1)
    : text;
}

const formulaStart = /^[=+\-@\t\r]/;
const plainNumber = /^[+-]?\d+([.,]\d+)*$/;

/** One cell as every CSV b2bctl writes for people has it: formula-safe, quoted when it must be. */
export function csvCell(text: string, delimiter = ','): string {
  return escapeCsvCell(neutralizeFormula(text), delimiter);
}

export function csvLine(cells: readonly string[], delimiter = ','): string {
  return `${cells.map((cell) => csvCell(cell, delimiter)).join(delimiter)}\r\n`;
}
