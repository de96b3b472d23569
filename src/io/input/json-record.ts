import { InputError } from '../../base/errors.js';
import { lineBreaksAsSpaces } from '../../lib/one-line.js';

/** One value of a JSON or NDJSON input with the line where it starts. */
export interface JsonValue {
  line: number;
  value: unknown;
  /** When it shares its line with another element (minified JSON): its column, and its index in the array from 0. */
  column?: number;
  element?: number;
  /** Keys written twice in one object (JSON.parse keeps the last silently), with the line of the second. */
  duplicateKeys?: { key: string; line: number }[];
}

/** Parses one JSON text found at line:column of a file; a syntax error names the file's own line:column. */
export function parseJsonAt(text: string, file: string, line: number, column: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = Number(/position (\d+)/.exec(message)?.[1]);
    let errorLine = line;
    let errorColumn = column;
    let context = '';
    if (Number.isFinite(position)) {
      // A few characters before and at the error, as the file has them, to find it by eye or by search.
      const shown = text
        .slice(Math.max(0, position - 20), position + 10)
        .replace(/\s+/g, ' ')
        .trim();
      if (shown !== '') context = ` (near: ${shown})`;
      const before = text.slice(0, position);
      const newlines = before.split('\n').length - 1;
      errorLine = line + newlines;
      errorColumn = newlines === 0 ? column + position : position - before.lastIndexOf('\n');
    }
    // The position is the element's, already turned into the file's line:column; V8's quoted snippet of
    // the text may span lines, and an error is one line.
    const reason = lineBreaksAsSpaces(
      message
        .replace(/^JSON\.parse: /, '')
        .replace(/ (?:in JSON )?at position \d+.*$/s, '')
        .replace(/ \(line \d+ column \d+\)$/, ''),
    );
    throw new InputError(`${file}:${errorLine}:${errorColumn}: invalid JSON: ${reason}${context}.`, {
      file,
      line: errorLine,
    });
  }
}

/** A number literal of JSON, or a string (skipped whole, so digits inside it are left alone). */
const stringOrNumber = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Parses one record's JSON text: a syntax error names the file's line:column; a number with more
 * significant digits than a double holds (`9007199254740993`, `99999999999999999999.99`) is kept as
 * its text, so it is refused and quoted as written instead of rounded and sent; keys written twice in
 * one object are listed (JSON.parse silently keeps the last).
 */
export function parseRecordJson(
  text: string,
  file: string,
  line: number,
  column: number,
): Pick<JsonValue, 'value' | 'duplicateKeys'> {
  const tooDeep = nestingBeyond(text, maxNesting);
  if (tooDeep)
    throw new InputError(
      `${file}:${line + tooDeep.lines}:${tooDeep.lines === 0 ? column + tooDeep.offset : tooDeep.offset}: a record nested more than ${maxNesting} levels deep; a customer or stock record is an object with a few lists. Export the records as a flat list.`,
      { file, line: line + tooDeep.lines },
    );
  let value = parseJsonAt(text, file, line, column);
  // Beyond a double's 15 digits, or its range (`1e309` is Infinity to JSON.parse): kept as text, refused as written.
  if (/\d{16}|[eE][+-]?\d{3}/.test(text))
    value = JSON.parse(
      text.replace(stringOrNumber, (token) =>
        token.startsWith('"') || (significantDigits(token) <= 15 && Number.isFinite(Number(token)))
          ? token
          : `"${token}"`,
      ),
    );
  // Cheap first: every key is a string followed by ":", so fewer keys parsed than such pairs may mean a repeat.
  const written = text.match(/"\s*:/g)?.length ?? 0;
  if (written === 0 || written <= keyCount(value)) return { value };
  const duplicateKeys = repeatedKeys(text, line);
  return duplicateKeys.length > 0 ? { value, duplicateKeys } : { value };
}

/**
 * Levels of objects and lists a record may have. Customer bodies have three or four; a file nested
 * 100,000 deep parses, but every recursive walk after it (writing it to the errors file) overflows the stack.
 */
const maxNesting = 64;

/** Where a JSON text first opens more than `limit` levels (lines into it, and column), or undefined. */
function nestingBeyond(text: string, limit: number): { lines: number; offset: number } | undefined {
  // Cheap first: a text with few brackets cannot be deep.
  let brackets = 0;
  for (let index = text.indexOf('{'); index >= 0 && brackets <= limit; index = text.indexOf('{', index + 1)) brackets++;
  for (let index = text.indexOf('['); index >= 0 && brackets <= limit; index = text.indexOf('[', index + 1)) brackets++;
  if (brackets <= limit) return undefined;
  let depth = 0;
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"|[{}[\]]/g)) {
    const token = match[0];
    if (token === '{' || token === '[') {
      if (++depth > limit) {
        const before = text.slice(0, match.index);
        const lines = before.split('\n').length - 1;
        return { lines, offset: lines === 0 ? before.length : before.length - before.lastIndexOf('\n') };
      }
    } else if (token === '}' || token === ']') depth--;
  }
  return undefined;
}

function significantDigits(number: string): number {
  const mantissa = number.replace(/[eE].*$/, '').replace(/^-/, '');
  return mantissa.replace('.', '').replace(/^0+/, '').length;
}

/** Keys in a parsed value, counted without recursion: a hostile file nests 100,000 levels deep. */
function keyCount(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) for (const item of next) pending.push(item);
    else {
      const inner = Object.values(next);
      count += inner.length;
      for (const item of inner) pending.push(item);
    }
  }
  return count;
}

const nextCharacter = /\s*(.)/sy;

/** Keys written twice in one object of a JSON text already known to be valid, with the line of the repeat. */
function repeatedKeys(text: string, firstLine: number): { key: string; line: number }[] {
  const found: { key: string; line: number }[] = [];
  const objects: (Set<string> | undefined)[] = [];
  let line = firstLine;
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"|[{}[\]\n]/g)) {
    const token = match[0];
    if (token === '\n') line++;
    else if (token === '{') objects.push(new Set());
    else if (token === '[') objects.push(undefined);
    else if (token === '}' || token === ']') objects.pop();
    else {
      const keys = objects.at(-1);
      nextCharacter.lastIndex = (match.index ?? 0) + token.length;
      const after = nextCharacter.exec(text)?.[1];
      if (keys && after === ':') {
        const key = JSON.parse(token) as string;
        if (keys.has(key)) found.push({ key, line });
        keys.add(key);
      }
      line += token.split('\n').length - 1;
    }
  }
  return found;
}
