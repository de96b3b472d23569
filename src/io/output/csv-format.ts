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
  if (text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim())
    return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/**
 * Every CSV b2bctl writes is opened by people in Excel, where a cell starting with `=`, `+`, `-`,
 * `@`, tab or CR is a formula (`=HYPERLINK(...)` from an input would be live): such a cell gets
 * OWASP's `'` prefix, which Excel shows as text. Plain numbers (`-5`, `+3,5`) stay as they are.
 */
export function neutralizeFormula(text: string): string {
  return formulaStart.test(text) && !plainNumber.test(text) ? `'${text}` : text;
}

/** The reverse, for a CSV b2bctl wrote and the user feeds back (the errors file): `'=x` is read as `=x`. */
export function restoreFormula(text: string): string {
  return text.startsWith("'") && formulaStart.test(text.slice(1)) && !plainNumber.test(text.slice(1))
    ? text.slice(1)
    : text;
}

const formulaStart = /^[=+\-@\t\r]/;
const plainNumber = /^[+-]?\d+([.,]\d+)*$/;

export function csvLine(cells: readonly string[], delimiter = ','): string {
  return `${cells.map((cell) => escapeCsvCell(neutralizeFormula(cell), delimiter)).join(delimiter)}\r\n`;
}
