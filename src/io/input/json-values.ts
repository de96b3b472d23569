import { InputError } from '../../errors.js';
import { type JsonValue, parseRecordJson } from './json-record.js';

export { type JsonValue, parseJsonAt } from './json-record.js';

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
