import { InputError } from '../../errors.js';

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

/**
 * Streams the elements of a top-level JSON array one at a time (or yields the single object of a
 * JSON file), so a 100,000-customer export is never held whole. It finds each element's extent by
 * tracking strings and nesting, then hands the element to JSON.parse; syntax errors carry line:column.
 */
export async function* readJsonValues(text: AsyncIterable<string>, file: string): AsyncGenerator<JsonValue> {
  let line = 1;
  let column = 0;
  let mode: 'start' | 'array' | 'single' | 'done' = 'start';
  // Inside the array: between elements, expecting an element, or inside one.
  let expect: 'elementOrEnd' | 'element' | 'commaOrEnd' = 'elementOrEnd';
  let element = '';
  let elementLine = 0;
  let elementColumn = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let single = '';
  let singleLine = 1;
  let singleColumn = 1;

  const fail = (message: string, atLine = line, atColumn = column): never => {
    throw new InputError(`${file}:${atLine}:${atColumn}: ${message}`, { file, line: atLine });
  };
  // Minified JSON puts every element on line 1, where `:1` places nothing: an element that starts on the
  // line where the one before it ended is placed by its column and index instead. The first element is
  // held until the second starts, to know whether the two share a line.
  let elementIndex = 0;
  let previousEndLine = 0;
  let first: (JsonValue & { column: number; endLine: number }) | undefined;
  const finishElement = (): JsonValue | undefined => {
    const value: JsonValue = { line: elementLine, ...parseRecordJson(element, file, elementLine, elementColumn) };
    element = '';
    if (elementIndex === 0) first = { ...value, column: elementColumn, endLine: line };
    else if (elementLine === previousEndLine) {
      value.column = elementColumn;
      value.element = elementIndex;
    }
    previousEndLine = line;
    elementIndex++;
    return elementIndex === 1 ? undefined : value;
  };
  /** The first element, placed when the second starts on its last line. */
  const releaseFirst = (sharedLine: boolean): JsonValue | undefined => {
    if (!first) return undefined;
    const { column: firstColumn, endLine, ...value } = first;
    first = undefined;
    void endLine;
    return sharedLine ? { ...value, column: firstColumn, element: 0 } : value;
  };

  for await (const chunk of text) {
    for (let index = 0; index < chunk.length; index++) {
      // Inside an element (or the single object), ordinary text is taken in runs up to the next character
      // that matters: one character at a time, a 600 KB element took a second.
      if (mode === 'single' || (mode === 'array' && (depth > 0 || inString) && !escaped)) {
        const stops = mode === 'single' ? newlineStop : elementStops;
        stops.lastIndex = index;
        const stop = stops.exec(chunk)?.index ?? chunk.length;
        if (stop > index) {
          const run = chunk.slice(index, stop);
          if (mode === 'single') single += run;
          else element += run;
          column += stop - index;
          index = stop;
          if (index >= chunk.length) break;
        }
      }
      const character = chunk[index] as string;
      if (character === '\n') {
        line++;
        column = 0;
      } else {
        column++;
      }
      if (mode === 'single') {
        single += character;
        continue;
      }
      if (mode === 'done') {
        if (!/\s/.test(character)) fail(`unexpected ${JSON.stringify(character)} after the end of the top-level array`);
        continue;
      }
      if (mode === 'start') {
        if (/\s/.test(character) || character === '\uFEFF') continue;
        if (character === '[') {
          mode = 'array';
          continue;
        }
        if (character === '{') {
          mode = 'single';
          single = character;
          singleLine = line;
          singleColumn = column;
          continue;
        }
        fail(`expected a JSON array of records or one object, found ${JSON.stringify(character)}`);
      }
      // mode === 'array'
      if (depth > 0 || inString) {
        element += character;
        if (inString) {
          if (escaped) escaped = false;
          else if (character === '\\') escaped = true;
          else if (character === '"') inString = false;
        } else if (character === '"') inString = true;
        else if (character === '{' || character === '[') depth++;
        else if (character === '}' || character === ']') {
          depth--;
          if (depth === 0) {
            const finished = finishElement();
            if (finished) yield finished;
            expect = 'commaOrEnd';
          }
        }
        continue;
      }
      if (/\s/.test(character)) {
        if (element !== '') {
          const finished = finishElement();
          if (finished) yield finished;
          expect = 'commaOrEnd';
        }
        continue;
      }
      if (character === ',' || character === ']') {
        if (element !== '') {
          const finished = finishElement();
          if (finished) yield finished;
          expect = 'commaOrEnd';
        }
        if (character === ']') {
          if (expect === 'element') fail('a comma before "]" leaves an empty element');
          const only = releaseFirst(false);
          if (only) yield only;
          mode = 'done';
        } else {
          if (expect !== 'commaOrEnd') fail('unexpected ","; an element is missing');
          expect = 'element';
        }
        continue;
      }
      if (expect === 'commaOrEnd') fail(`expected "," or "]" between elements, found ${JSON.stringify(character)}`);
      if (element === '') {
        elementLine = line;
        elementColumn = column;
        const held = first && releaseFirst(first.endLine === line);
        if (held) yield held;
      }
      element += character;
      if (character === '"') inString = true;
      else if (character === '{' || character === '[') depth++;
    }
  }
  // An array never closed: its first element is still read before the error says so.
  const unclosed = releaseFirst(false);
  if (unclosed) yield unclosed;
  if (mode === 'single') {
    yield { line: singleLine, ...parseRecordJson(single.trimEnd(), file, singleLine, singleColumn) };
    return;
  }
  if (mode === 'start') fail('the file is empty: expected a JSON array of records or one object', 1, 1);
  if (mode === 'array') fail('the top-level array is never closed with "]"');
}

const elementStops = /["\\{}[\]\n]/g;
const newlineStop = /\n/g;

/** Parses one JSON text found at line:column of a file; a syntax error names the file's own line:column. */
export function parseJsonAt(text: string, file: string, line: number, column: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = Number(/position (\d+)/.exec(message)?.[1]);
    let errorLine = line;
    let errorColumn = column;
    if (Number.isFinite(position)) {
      const before = text.slice(0, position);
      const newlines = before.split('\n').length - 1;
      errorLine = line + newlines;
      errorColumn = newlines === 0 ? column + position : position - before.lastIndexOf('\n');
    }
    // The position is the element's, already turned into the file's line:column; V8's quoted snippet of
    // the text may span lines, and an error is one line.
    const reason = message
      .replace(/^JSON\.parse: /, '')
      .replace(/ (?:in JSON )?at position \d+.*$/s, '')
      .replace(/ \(line \d+ column \d+\)$/, '')
      .replace(/\s*[\r\n]+\s*/g, ' ');
    throw new InputError(`${file}:${errorLine}:${errorColumn}: invalid JSON: ${reason}.`, { file, line: errorLine });
  }
}

/** Streams NDJSON: one JSON value per non-empty line. */
export async function* readNdjsonValues(text: AsyncIterable<string>, file: string): AsyncGenerator<JsonValue> {
  let line = 0;
  let rest = '';
  const parseLine = (content: string): JsonValue | undefined => {
    line++;
    const trimmed = content.replace(/^\uFEFF/, '');
    if (trimmed.trim() === '') return undefined;
    return { line, ...parseRecordJson(trimmed, file, line, 1) };
  };
  for await (const chunk of text) {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) {
      const value = parseLine(part);
      if (value) yield value;
    }
  }
  const value = parseLine(rest);
  if (value) yield value;
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
  if (/\d{16}/.test(text))
    value = JSON.parse(
      text.replace(stringOrNumber, (token) =>
        token.startsWith('"') || significantDigits(token) <= 15 ? token : `"${token}"`,
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
