/**
 * JSON.stringify's text for the values a bulk run spools per record, without its per-call cost on Node 20
 * (docs/decisions/0002-json-text.md). Each function gives exactly JSON.stringify's text, and leaves anything but
 * plain strings and finite numbers to it; test/unit/lib/json-text.test.ts holds them to it.
 */

/** A string with nothing JSON escapes: no quote, backslash, control character or surrogate (lone ones are escaped). */
function isPlain(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}

/** JSON.stringify(text). */
export function jsonString(text: string): string {
  return isPlain(text) ? `"${text}"` : JSON.stringify(text);
}

/** JSON.stringify(value) for a value that is usually an array of strings (a CSV row's cells as written). */
export function jsonOfCells(value: unknown): string | undefined {
  if (!Array.isArray(value)) return JSON.stringify(value);
  let text = '[';
  for (let index = 0; index < value.length; index++) {
    const cell: unknown = value[index];
    if (typeof cell !== 'string') return JSON.stringify(value);
    text += index === 0 ? jsonString(cell) : `,${jsonString(cell)}`;
  }
  return `${text}]`;
}

/** A name JSON.stringify writes before the others: an array index. */
const isArrayIndex = (name: string) => /^(0|[1-9]\d*)$/.test(name) && Number(name) < 2 ** 32 - 1;

/**
 * The `"name":` prefixes JSON.stringify writes for these field names, in their order; undefined when it would
 * not write them in this order or at all: it puts names that are array indexes ("0", "12") first, and writes a
 * name given twice once.
 */
export function jsonFieldPrefixes(names: readonly string[]): string[] | undefined {
  if (new Set(names).size !== names.length || names.some(isArrayIndex)) return undefined;
  return names.map((name) => `${jsonString(name)}:`);
}

/** A number as JSON.stringify writes it, when it is finite (JSON has no NaN or Infinity). */
export function isJsonNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
