import { describe, expect, it } from 'vitest';
import { ExitCode, InputError } from '../../../../src/base/errors.js';
import { type JsonValue, parseJsonAt, readJsonValues, readNdjsonValues } from '../../../../src/io/input/json-values.js';

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let index = 0; index < text.length; index += size) yield text.slice(index, index + size);
}

type Reader = (text: AsyncIterable<string>, file: string) => AsyncGenerator<JsonValue>;

async function valuesOf(reader: Reader, text: string, chunk = Math.max(1, text.length)): Promise<JsonValue[]> {
  const values: JsonValue[] = [];
  for await (const value of reader(pieces(text, chunk), 'customers.json')) values.push(value);
  return values;
}

async function failureOf(reader: Reader, text: string, chunk?: number): Promise<InputError> {
  const error = await valuesOf(reader, text, chunk).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

const chunkSizes = (text: string) => [Math.max(1, text.length), 1, 2, 5];

/** The 1-based lines on which JSON.stringify(list, null, indent) starts each element: `{` indented once. */
function elementStartLines(text: string, indent = '  '): number[] {
  return text.split('\n').flatMap((content, index) => (content === `${indent}{` ? [index + 1] : []));
}

describe('readJsonValues', () => {
  const customers = [
    { document: '111.444.777-35', name: 'Ana "Aninha" Souza', tags: ['a,b', '[x]', '{y}'] },
    {
      document: '11.222.333/0001-81',
      customerRegistrationAddress: { zipcode: '01310-100', number: '10' },
      addressList: [{ main: true }, { main: false, note: 'back\\slash' }],
    },
    { document: '3', note: 'ends with a backslash \\', quote: '"', brace: '}' },
  ];

  it.each<[string, string, JsonValue[]]>([
    [
      'a pretty-printed array',
      JSON.stringify(customers, null, 2),
      customers.map((value, index) => ({
        line: elementStartLines(JSON.stringify(customers, null, 2))[index] as number,
        value,
      })),
    ],
    [
      // Minified: every element on line 1, so each is placed by its column and index (issue 10, item 15).
      'a compact array',
      JSON.stringify(customers),
      customers.map((value, index) => ({
        line: 1,
        value,
        column: 2 + customers.slice(0, index).reduce((total, item) => total + JSON.stringify(item).length + 1, 0),
        element: index,
      })),
    ],
    [
      'an array after a BOM and blank lines',
      `\uFEFF\n\n[\n${JSON.stringify(customers[0])}\n]\n`,
      [{ line: 4, value: customers[0] }],
    ],
    [
      'strings with brackets, commas and escaped quotes',
      '[{"a":"x],[\\"y\\"}{"}, {"b":"\\\\"}]',
      [
        { line: 1, value: { a: 'x],["y"}{' }, column: 2, element: 0 },
        { line: 1, value: { b: '\\' }, column: 23, element: 1 },
      ],
    ],
    [
      'nested objects and arrays',
      '[\n  {"a":[1,{"b":"}"},[[]]],"c":{"d":{"e":[]}}}\n]',
      [{ line: 2, value: { a: [1, { b: '}' }, [[]]], c: { d: { e: [] } } } }],
    ],
    [
      'scalars in the array',
      '["a\\"b", "c],[", 5, true, null, -1.5e3]',
      [
        { line: 1, value: 'a"b', column: 2, element: 0 },
        { line: 1, value: 'c],[', column: 10, element: 1 },
        { line: 1, value: 5, column: 18, element: 2 },
        { line: 1, value: true, column: 21, element: 3 },
        { line: 1, value: null, column: 27, element: 4 },
        { line: 1, value: -1500, column: 33, element: 5 },
      ],
    ],
    [
      'numbers each on their own line',
      '[1,\n2 ,\n  3\n]',
      [
        { line: 1, value: 1 },
        { line: 2, value: 2 },
        { line: 3, value: 3 },
      ],
    ],
    ['an empty array', '[]', []],
    ['an empty array with blank space', ' [ \n ] \n', []],
    [
      'CRLF line ends',
      '[\r\n  {"a":1},\r\n  {"a":2}\r\n]\r\n',
      [
        { line: 2, value: { a: 1 } },
        { line: 3, value: { a: 2 } },
      ],
    ],
    ['one object', '{"document":"1","name":"Ana"}', [{ line: 1, value: { document: '1', name: 'Ana' } }]],
    [
      'one pretty-printed object after blank lines',
      '\n\n{\n  "document": "1"\n}\n',
      [{ line: 3, value: { document: '1' } }],
    ],
  ])('%s', async (_name, text, expected) => {
    for (const chunk of chunkSizes(text))
      expect({ chunk, values: await valuesOf(readJsonValues, text, chunk) }).toEqual({ chunk, values: expected });
  });

  it('streams a large array split into tiny chunks', async () => {
    const records = Array.from({ length: 3000 }, (_, index) => ({
      document: String(index),
      name: `Cliente, "${index}" [${index}]`,
      nested: { list: [index, { deep: '}]' }] },
    }));
    const text = JSON.stringify(records, null, 1);
    const values = await valuesOf(readJsonValues, text, 3);
    expect(values.length).toBe(3000);
    expect(values.map((value) => value.value)).toEqual(records);
    const starts = elementStartLines(text, ' ');
    expect(starts.length).toBe(3000);
    expect(starts.slice(0, 2)).toEqual([2, 14]);
    expect(values.map((value) => value.line)).toEqual(starts);
  });

  it('yields records as they complete, before the array is closed', async () => {
    const reader = readJsonValues(
      (async function* () {
        yield '[{"a":1},';
        yield '{"a":2}';
        throw new Error('the stream broke');
      })(),
      'customers.json',
    );
    expect((await reader.next()).value).toEqual({ line: 1, value: { a: 1 }, column: 2, element: 0 });
    expect((await reader.next()).value).toEqual({ line: 1, value: { a: 2 }, column: 10, element: 1 });
    await expect(reader.next()).rejects.toThrow('the stream broke');
  });

  it.each<[string, string, string]>([
    ['an empty file', '', 'customers.json:1:1: the file is empty: expected a JSON array of records or one object'],
    [
      'a file of blank space',
      '  \n \n',
      'customers.json:1:1: the file is empty: expected a JSON array of records or one object',
    ],
    [
      'CSV in a .json file',
      'document,name\n',
      'customers.json:1:1: this looks like CSV, not JSON: its first line reads "document,name". Rename the file .csv, or pipe it on stdin (-), where the format is read from the content.',
    ],
    [
      'a bare word',
      'documents\n',
      'customers.json:1:1: expected a JSON array of records or one object, found "d" (near: documents); a JSON input is a list of records ([{...}, {...}]) or one record ({...}).',
    ],
    [
      'a number at the top level',
      '4\n',
      'customers.json:1:1: the file holds a number (4), not records: a JSON input is a list of records ([{...}, {...}]) or one record ({...}).',
    ],
    [
      'a string at the top level',
      '"clientes"',
      'customers.json:1:1: the file holds a string ("clientes"), not records: a JSON input is a list of records ([{...}, {...}]) or one record ({...}).',
    ],
    [
      'null at the top level',
      'null',
      'customers.json:1:1: the file holds null, not records: a JSON input is a list of records ([{...}, {...}]) or one record ({...}).',
    ],
    [
      'a trailing comma',
      '[\n  {"a":1},\n  {"a":2},\n]',
      'customers.json:4:1: a comma before "]" leaves an empty element',
    ],
    ['a leading comma', '[,{"a":1}]', 'customers.json:1:2: unexpected ","; an element is missing'],
    ['two commas', '[{"a":1},,{"a":2}]', 'customers.json:1:10: unexpected ","; an element is missing'],
    [
      'a missing comma between objects',
      '[\n  {"a":1}\n  {"a":2}\n]',
      'customers.json:3:3: expected "," or "]" between elements, found "{"',
    ],
    ['a missing comma between numbers', '[1 2]', 'customers.json:1:4: expected "," or "]" between elements, found "2"'],
    ['an extra closing brace', '[{"a":1}}]', 'customers.json:1:9: expected "," or "]" between elements, found "}"'],
    [
      'text after the array',
      '[{"a":1}]\n\nx',
      'customers.json:3:1: unexpected "x" after the end of the top-level array',
    ],
    ['a second array', '[{"a":1}][]', 'customers.json:1:10: unexpected "[" after the end of the top-level array'],
    [
      'an array never closed',
      '[\n  {"a":1},\n  {"a":2}\n',
      'customers.json:4:0: the top-level array is never closed with "]"',
    ],
    ['an element never closed', '[{"a":1', 'customers.json:1:7: the top-level array is never closed with "]"'],
    [
      'a missing value inside an element',
      '[\n  {"a": 1},\n  {"b": 1,}\n]',
      'customers.json:3:11: invalid JSON: Expected double-quoted property name (near: {"b": 1,}).',
    ],
    [
      'a missing comma inside an element',
      `[ {"a":"${'x'.repeat(300)}" "b":1}]`,
      "customers.json:1:311: invalid JSON: Expected ',' or '}' after property value (near: xxxxxxxxxxxxxxxxxx\" \"b\":1}).",
    ],
    ['a bad number', '[\n\n    01]', 'customers.json:3:6: invalid JSON: Unexpected number (near: 01).'],
    [
      'NDJSON saved as .json',
      '{"a":1}\n{"b":2}\n',
      'customers.json:2:1: invalid JSON: Unexpected non-whitespace character after JSON (near: {"a":1} {"b":2}).',
    ],
    [
      'one object with a missing comma, indented',
      '\n  {"a":1 "b":2}',
      'customers.json:2:10: invalid JSON: Expected \',\' or \'}\' after property value (near: {"a":1 "b":2}).',
    ],
  ])('%s', async (_name, text, message) => {
    for (const chunk of chunkSizes(text)) {
      const error = await failureOf(readJsonValues, text, chunk);
      expect({ chunk, message: error.message }).toEqual({ chunk, message });
      expect(error.file).toBe('customers.json');
      expect(error.line).toBe(Number(message.split(':')[1]));
      expect(error.exitCode).toBe(ExitCode.dataInvalid);
    }
  });

  it.each<[string, string, RegExp]>([
    [
      'a bad literal inside an element',
      '[\n  {"a": 1},\n  {"b": tru}\n]',
      /^customers\.json:3:3: invalid JSON: Unexpected token/,
    ],
    [
      'a bad token inside an element spread over lines',
      '[\n  {\n    "a": [1,\n      2,,]\n  }\n]',
      /^customers\.json:2:3: invalid JSON: Unexpected token/,
    ],
  ])('%s names the line and column where the element starts, in one line', async (_name, text, message) => {
    const error = await failureOf(readJsonValues, text);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
  });
});

describe('parseJsonAt', () => {
  it.each<[string, string, number, number, unknown]>([
    ['an object', '{"a":[1,2]}', 5, 3, { a: [1, 2] }],
    ['a string', '"x"', 1, 1, 'x'],
    ['a number with blank space around it', ' 42\r\n', 1, 1, 42],
  ])('parses %s', (_name, text, line, column, expected) => {
    expect(parseJsonAt(text, 'in.json', line, column)).toEqual(expected);
  });

  it.each<[string, string, number, number, string]>([
    [
      'an error on the first line is offset by the start column',
      '{"a" 1}',
      7,
      5,
      'in.json:7:10: invalid JSON: Expected \':\' after property name (near: {"a" 1}).',
    ],
    [
      'an error on a later line counts columns from that line',
      '{\n  "a": 1\n  "b": 2\n}',
      10,
      4,
      'in.json:12:3: invalid JSON: Expected \',\' or \'}\' after property value (near: { "a": 1 "b": 2 }).',
    ],
    ['the end of the input', '{"a":', 2, 1, 'in.json:2:1: invalid JSON: Unexpected end of JSON input.'],
  ])('%s', (_name, text, line, column, message) => {
    expect(() => parseJsonAt(text, 'in.json', line, column)).toThrow(message);
  });

  it('throws an InputError carrying the file and the line', () => {
    const error = (() => {
      try {
        parseJsonAt('{\n\n x}', 'in.json', 3, 1);
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).file).toBe('in.json');
    expect((error as InputError).line).toBe(5);
  });
});

describe('readNdjsonValues', () => {
  it.each<[string, string, JsonValue[]]>([
    [
      'one value per line',
      '{"a":1}\n{"a":2}\n',
      [
        { line: 1, value: { a: 1 } },
        { line: 2, value: { a: 2 } },
      ],
    ],
    [
      'blank lines skipped, line numbers kept',
      '\n{"a":1}\n\n   \n{"a":2}\r\n\t\n{"a":3}',
      [
        { line: 2, value: { a: 1 } },
        { line: 5, value: { a: 2 } },
        { line: 7, value: { a: 3 } },
      ],
    ],
    ['a BOM on the first line', '\uFEFF{"a":1}\n', [{ line: 1, value: { a: 1 } }]],
    [
      'CRLF',
      '{"a":1}\r\n{"a":2}\r\n',
      [
        { line: 1, value: { a: 1 } },
        { line: 2, value: { a: 2 } },
      ],
    ],
    [
      'strings holding braces and escaped newlines',
      '{"a":"}\\n{"}\n["x"]\n7\n',
      [
        { line: 1, value: { a: '}\n{' } },
        { line: 2, value: ['x'] },
        { line: 3, value: 7 },
      ],
    ],
    ['an empty file', '', []],
  ])('%s', async (_name, text, expected) => {
    for (const chunk of chunkSizes(text))
      expect({ chunk, values: await valuesOf(readNdjsonValues, text, chunk) }).toEqual({ chunk, values: expected });
  });

  it.each<[string, string, RegExp]>([
    [
      'a record cut off on the last line',
      '{"a":1}\n\n{"a":',
      /^customers\.json:3:1: invalid JSON: Unexpected end of JSON input\.$/,
    ],
    [
      'a missing comma on line 2',
      '{"a":1}\n{"a":1 "b":2}\n',
      /^customers\.json:2:8: invalid JSON: Expected ',' or '}' after property value \(near: \{"a":1 "b":2\}\)\.$/,
    ],
    ['a pretty-printed object is not NDJSON', '{\n  "a": 1\n}\n', /^customers\.json:1:2: invalid JSON: /],
  ])('%s', async (_name, text, message) => {
    const error = await failureOf(readNdjsonValues, text, 4);
    expect(error.message).toMatch(message);
  });
});
