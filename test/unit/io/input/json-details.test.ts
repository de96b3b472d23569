/**
 * JSON details of issue 10, item 15: minified JSON placed by element and column, numbers beyond a
 * double's precision kept as written, repeated keys warned about with their line, lone surrogates refused.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type InputRecord, openInput, recordPlace } from '../../../../src/io/input/open-input.js';
import type { FieldCatalogue, FieldType } from '../../../../src/io/input/record-shape.js';
import { temporaryFolder } from '../../../support/temporary.js';

const fieldTypes: Record<string, FieldType> = { sku: 'string', quantity: 'integer', price: 'number' };
const catalogue: FieldCatalogue = {
  typeOf: (path) => (Object.hasOwn(fieldTypes, path) ? fieldTypes[path] : undefined),
  knownPaths: Object.keys(fieldTypes),
};
const fixture = join(__dirname, '..', '..', '..', 'fixtures', 'spreadsheets', 'estoque-minificado.json');
const folder = temporaryFolder('b2bctl-json-details-');

async function read(
  path: string,
  options: { ignoredColumns?: string[] } = {},
): Promise<{ records: InputRecord[]; warnings: string[] }> {
  const warnings: string[] = [];
  const opened = await openInput({
    path,
    stdin: Readable.from([]),
    catalogue,
    ...options,
    warn: (text) => warnings.push(text),
  });
  const records: InputRecord[] = [];
  for await (const record of opened.records) records.push(record);
  return { records, warnings };
}

function writeInput(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

describe('a minified JSON array (every record on line 1)', () => {
  it('places each record by its column and element index, not by ":1"', async () => {
    const { records } = await read(fixture);
    expect(records.map(recordPlace)).toEqual([
      '1:2 (element 0)',
      '1:44 (element 1)',
      '1:88 (element 2)',
      '1:149 (element 3)',
      '1:192 (element 4)',
    ]);
  });

  it('a pretty-printed array keeps plain line numbers', async () => {
    const path = writeInput('pretty.json', '[\n  {"sku":"A","quantity":1},\n  {"sku":"B","quantity":2}\n]\n');
    const { records } = await read(path);
    expect(records.map(recordPlace)).toEqual(['2', '3']);
  });
});

describe('numbers beyond a double’s precision', () => {
  it('are kept as their text, never rounded (9007199254740993, 99999999999999999999.99)', async () => {
    const { records } = await read(fixture);
    expect(records[1]?.values.quantity).toBe('9007199254740993');
    expect(records[2]?.values.price).toBe('99999999999999999999.99');
    expect(records[0]?.values.price).toBe(12.5);
  });

  it('digits inside a string are left alone', async () => {
    const path = writeInput('digits.json', '[{"sku":"12345678901234567890","quantity":1}]');
    const { records } = await read(path);
    expect(records[0]?.values).toEqual({ sku: '12345678901234567890', quantity: 1 });
  });
});

describe('repeated keys', () => {
  it('warn, naming the key and where it is', async () => {
    const { warnings } = await read(fixture);
    expect(warnings).toEqual([
      `warning: ${fixture}:1:149 (element 3): key "sku" appears twice in one object; the last one is read. Keep one.`,
    ]);
  });

  it('name the line of the repeat in a pretty-printed file, and NDJSON too', async () => {
    const pretty = writeInput('repeat.json', '[\n  {"sku":"A",\n   "quantity":1,\n   "sku":"B"}\n]\n');
    expect((await read(pretty)).warnings).toEqual([
      `warning: ${pretty}:4: key "sku" appears twice in one object; the last one is read. Keep one.`,
    ]);
    const ndjson = writeInput('repeat.ndjson', '{"sku":"A","quantity":1}\n{"sku":"A","quantity":1,"quantity":2}\n');
    expect((await read(ndjson)).warnings).toEqual([
      `warning: ${ndjson}:2: key "quantity" appears twice in one object; the last one is read. Keep one.`,
    ]);
  });

  it('the same key in two different objects is no repeat', async () => {
    const path = writeInput('nested.json', '[{"sku":"A","quantity":1,"x":{"sku":"C"}}]');
    // "x" holds data no field reads: left out on purpose, so the file is read to its end.
    const { records, warnings } = await read(path, { ignoredColumns: ['x'] });
    expect(records).toHaveLength(1);
    expect(warnings.filter((text) => text.includes('appears twice'))).toEqual([]);
  });

  it('10,000 repeats answer quickly with ten warnings at most', async () => {
    const keys = Array.from({ length: 10_000 }, (_, index) => `"sku":"S${index}"`).join(',');
    const path = writeInput('many.json', `[{${keys},"quantity":1}]`);
    const repeats = (await read(path)).warnings.filter((text) => text.includes('appears twice'));
    expect(repeats).toHaveLength(10);
    expect(repeats[9]).toContain('(Further repeated keys are not listed.)');
  });
});

describe('a lone surrogate', () => {
  it('is a problem of its record, not forwarded', async () => {
    const { records } = await read(fixture);
    expect(records[4]?.problems).toEqual([
      {
        field: 'sku',
        value: 'CAF-5\ud800',
        message:
          'field "sku" holds a lone surrogate (U+D800) at character 6, which is no character: the file or the program that wrote it is damaged; fix the value',
      },
    ]);
  });
});

describe('a record nested beyond any customer or stock body', () => {
  it('is an error naming where the 65th level opens, in JSON and NDJSON, before anything walks it', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const path = writeInput('deep.json', deep);
    await expect(read(path)).rejects.toThrow(
      `${path}:1:66: a record nested more than 64 levels deep; a customer or stock record is an object with a few lists. Export the records as a flat list.`,
    );
    const ndjson = writeInput('deep.ndjson', `{"sku":"A"}\n{"sku":"B","x":${'{"a":'.repeat(70)}1${'}'.repeat(70)}}\n`);
    await expect(read(ndjson)).rejects.toThrow(`${ndjson}:2:`);
  });

  it('64 levels are still read', async () => {
    const path = writeInput('deep-enough.json', `[{"sku":"A","x":${'['.repeat(62)}${']'.repeat(62)}}]`);
    const { records } = await read(path);
    expect(records).toHaveLength(1);
  });
});
