import { InputError } from '../../errors.js';

/** One value of a JSON or NDJSON input with the line where it starts. */
export interface JsonValue {
  line: number;
  value: unknown;
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
  const finishElement = (): JsonValue => {
    const parsed = parseJsonAt(element, file, elementLine, elementColumn);
    element = '';
    return { line: elementLine, value: parsed };
  };

  for await (const chunk of text) {
    for (let index = 0; index < chunk.length; index++) {
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
            yield finishElement();
            expect = 'commaOrEnd';
          }
        }
        continue;
      }
      if (/\s/.test(character)) {
        if (element !== '') {
          yield finishElement();
          expect = 'commaOrEnd';
        }
        continue;
      }
      if (character === ',' || character === ']') {
        if (element !== '') {
          yield finishElement();
          expect = 'commaOrEnd';
        }
        if (character === ']') {
          if (expect === 'element') fail('a comma before "]" leaves an empty element');
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
      }
      element += character;
      if (character === '"') inString = true;
      else if (character === '{' || character === '[') depth++;
    }
  }
  if (mode === 'single') {
    yield { line: singleLine, value: parseJsonAt(single.trimEnd(), file, singleLine, singleColumn) };
    return;
  }
  if (mode === 'start') fail('the file is empty: expected a JSON array of records or one object', 1, 1);
  if (mode === 'array') fail('the top-level array is never closed with "]"');
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
    return { line, value: parseJsonAt(trimmed, file, line, 1) };
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
