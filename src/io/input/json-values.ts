import { InputError } from '../../base/errors.js';
import { type JsonValue, parseRecordJson } from './json-record.js';

export { type JsonValue, parseJsonAt } from './json-record.js';

/**
 * Streams the elements of a top-level JSON array one at a time (or yields the single object of a
 * JSON file), so a 100,000-customer export is never held whole. It finds each element's extent by
 * tracking strings and nesting, then hands the element to JSON.parse; syntax errors carry line:column.
 */
export async function* readJsonValues(text: AsyncIterable<string>, file: string): AsyncGenerator<JsonValue> {
  const reader = new JsonValuesReader(file);
  const found: JsonValue[] = [];
  for await (const chunk of text) {
    let failure: unknown;
    try {
      reader.read(chunk, found);
    } catch (error) {
      failure = error;
    }
    // The elements before a syntax error are read before the error says so.
    for (const value of found) yield value;
    found.length = 0;
    if (failure !== undefined) throw failure;
  }
  let failure: unknown;
  try {
    reader.end(found);
  } catch (error) {
    failure = error;
  }
  for (const value of found) yield value;
  if (failure !== undefined) throw failure;
}

/** The state of readJsonValues between chunks of text: where it is, and the element being gathered. */
class JsonValuesReader {
  private line = 1;
  private column = 0;
  private mode: 'start' | 'array' | 'single' | 'done' | 'badStart' = 'start';
  /** What the text holds where a list or an object should start: its first line, gathered to say what it is. */
  private badStart = { text: '', line: 1, column: 1 };
  /** Inside the array: between elements, expecting an element, or inside one. */
  private expect: 'elementOrEnd' | 'element' | 'commaOrEnd' = 'elementOrEnd';
  private element = '';
  private elementLine = 0;
  private elementColumn = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private single = '';
  private singleLine = 1;
  private singleColumn = 1;
  // Minified JSON puts every element on line 1, where `:1` places nothing: an element that starts on the
  // line where the one before it ended is placed by its column and index instead. The first element is
  // held until the second starts, to know whether the two share a line.
  private elementIndex = 0;
  private previousEndLine = 0;
  private first: (JsonValue & { column: number; endLine: number }) | undefined;

  private readonly file: string;
  constructor(file: string) {
    this.file = file;
  }

  /** Reads a chunk of the text, adding the values it completes to `found`. */
  read(chunk: string, found: JsonValue[]): void {
    for (let index = 0; index < chunk.length; index++) {
      // Inside an element (or the single object), ordinary text is taken in runs up to the next character
      // that matters: one character at a time, a 600 KB element took a second.
      if (this.mode === 'single' || (this.mode === 'array' && (this.depth > 0 || this.inString) && !this.escaped)) {
        index = this.takeRun(chunk, index);
        if (index >= chunk.length) break;
      }
      const character = chunk[index] as string;
      if (character === '\n') {
        this.line++;
        this.column = 0;
      } else {
        this.column++;
      }
      if (this.mode === 'single') this.single += character;
      else if (this.mode === 'done') {
        if (!/\s/.test(character))
          this.fail(`unexpected ${JSON.stringify(character)} after the end of the top-level array`);
      } else if (this.mode === 'start') this.readStart(character);
      else if (this.mode === 'badStart') {
        if (character === '\n' || this.badStart.text.length >= 200) this.failStart();
        this.badStart.text += character;
      } else if (this.depth > 0 || this.inString) this.readInsideElement(character, found);
      else this.readBetweenElements(character, found);
    }
  }

  /** Takes the ordinary text from `index` to the next character that matters; returns the index of that character. */
  private takeRun(chunk: string, index: number): number {
    const stops = this.mode === 'single' ? newlineStop : elementStops;
    stops.lastIndex = index;
    const stop = stops.exec(chunk)?.index ?? chunk.length;
    if (stop === index) return index;
    const run = chunk.slice(index, stop);
    if (this.mode === 'single') this.single += run;
    else this.element += run;
    this.column += stop - index;
    return stop;
  }

  private readStart(character: string): void {
    if (/\s/.test(character) || character === '\uFEFF') return;
    if (character === '[') {
      this.mode = 'array';
      return;
    }
    if (character === '{') {
      this.mode = 'single';
      this.single = character;
      this.singleLine = this.line;
      this.singleColumn = this.column;
      return;
    }
    // Its first line is gathered (whatever the chunks) before saying what the file holds instead.
    this.mode = 'badStart';
    this.badStart = { text: character, line: this.line, column: this.column };
  }

  private failStart(): never {
    this.fail(topLevelProblem(this.badStart.text), this.badStart.line, this.badStart.column);
  }

  private readInsideElement(character: string, found: JsonValue[]): void {
    this.element += character;
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (character === '\\') this.escaped = true;
      else if (character === '"') this.inString = false;
    } else if (character === '"') this.inString = true;
    else if (character === '{' || character === '[') this.depth++;
    else if (character === '}' || character === ']') {
      this.depth--;
      if (this.depth === 0) this.finishElement(found);
    }
  }

  private readBetweenElements(character: string, found: JsonValue[]): void {
    if (/\s/.test(character)) {
      if (this.element !== '') this.finishElement(found);
      return;
    }
    if (character === ',' || character === ']') {
      if (this.element !== '') this.finishElement(found);
      if (character === ']') {
        if (this.expect === 'element') this.fail('a comma before "]" leaves an empty element');
        this.releaseFirst(false, found);
        this.mode = 'done';
      } else {
        if (this.expect !== 'commaOrEnd') this.fail('unexpected ","; an element is missing');
        this.expect = 'element';
      }
      return;
    }
    if (this.expect === 'commaOrEnd')
      this.fail(`expected "," or "]" between elements, found ${JSON.stringify(character)}`);
    if (this.element === '') {
      this.elementLine = this.line;
      this.elementColumn = this.column;
      if (this.first) this.releaseFirst(this.first.endLine === this.line, found);
    }
    this.element += character;
    if (character === '"') this.inString = true;
    else if (character === '{' || character === '[') this.depth++;
  }

  /** Ends the text: the single object, or an error for an array never closed (after its first element). */
  end(found: JsonValue[]): void {
    this.releaseFirst(false, found);
    if (this.mode === 'single') {
      found.push({
        line: this.singleLine,
        ...parseRecordJson(this.single.trimEnd(), this.file, this.singleLine, this.singleColumn),
      });
      return;
    }
    if (this.mode === 'start') this.fail('the file is empty: expected a JSON array of records or one object', 1, 1);
    if (this.mode === 'badStart') this.failStart();
    if (this.mode === 'array') this.fail('the top-level array is never closed with "]"');
  }

  private finishElement(found: JsonValue[]): void {
    const value: JsonValue = {
      line: this.elementLine,
      ...parseRecordJson(this.element, this.file, this.elementLine, this.elementColumn),
    };
    this.element = '';
    this.expect = 'commaOrEnd';
    if (this.elementIndex === 0) this.first = { ...value, column: this.elementColumn, endLine: this.line };
    else if (this.elementLine === this.previousEndLine) {
      value.column = this.elementColumn;
      value.element = this.elementIndex;
    }
    this.previousEndLine = this.line;
    this.elementIndex++;
    if (this.elementIndex > 1) found.push(value);
  }

  /** The first element, placed when the second starts on its last line. */
  private releaseFirst(sharedLine: boolean, found: JsonValue[]): void {
    if (!this.first) return;
    const { column: firstColumn, endLine, ...value } = this.first;
    this.first = undefined;
    void endLine;
    found.push(sharedLine ? { ...value, column: firstColumn, element: 0 } : value);
  }

  private fail(message: string, atLine = this.line, atColumn = this.column): never {
    throw new InputError(`${this.file}:${atLine}:${atColumn}: ${message}`, { file: this.file, line: atLine });
  }
}

/** A few characters of the text where a problem is, as a message quotes them: ` (near: [1 2])`. */
function near(text: string): string {
  const shown = text.replace(/\s+/g, ' ').trim();
  return shown === '' ? '' : ` (near: ${shown.length > 30 ? `${shown.slice(0, 30)}…` : shown})`;
}

/**
 * What a JSON input holds instead of records, in words, from its first characters: a number, a string, null, or
 * text that is CSV (a first line of cells separated by `;`, `,` or tabs).
 */
function topLevelProblem(start: string): string {
  const firstLine = start.split('\n')[0] ?? '';
  const records = 'a JSON input is a list of records ([{...}, {...}]) or one record ({...})';
  const value = /^(-?\d[\d.eE+-]*|"(?:[^"\\]|\\.){0,40}"?|null|true|false)/.exec(firstLine)?.[0];
  if (value !== undefined) {
    const kind = value.startsWith('"')
      ? `a string (${value.length > 40 ? `${value.slice(0, 40)}…` : value})`
      : value === 'null'
        ? 'null'
        : value === 'true' || value === 'false'
          ? `${value}`
          : `a number (${value})`;
    return `the file holds ${kind}, not records: ${records}.`;
  }
  const delimiter = [';', '\t', ','].find((candidate) => firstLine.includes(candidate));
  if (delimiter !== undefined && !/[{}[\]]/.test(firstLine))
    return `this looks like CSV, not JSON: its first line reads ${JSON.stringify(firstLine.length > 40 ? `${firstLine.slice(0, 40)}…` : firstLine)}. Rename the file .csv, or pipe it on stdin (-), where the format is read from the content.`;
  return `expected a JSON array of records or one object, found ${JSON.stringify(start[0] ?? '')}${near(firstLine)}; ${records}.`;
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
