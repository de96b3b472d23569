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

export function csvLine(cells: readonly string[], delimiter = ','): string {
  return `${cells.map((cell) => escapeCsvCell(cell, delimiter)).join(delimiter)}\r\n`;
}
