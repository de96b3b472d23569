import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openInput } from '../../../../src/io/input/open-input.js';
import type { FieldCatalogue, FieldType } from '../../../../src/io/input/record-shape.js';
import { temporaryFolder } from '../../../support/temporary.js';

// The reader looks for invisible characters once per batch of text and skips the per-field look for a clean batch:
// a character in any later batch, plain or quoted, must still be named on its record and no other.

const fieldTypes: Record<string, FieldType> = { sku: 'string', quantity: 'integer', tags: 'list' };
const catalogue: FieldCatalogue = {
  typeOf: (path) => (Object.hasOwn(fieldTypes, path) ? fieldTypes[path] : undefined),
  knownPaths: Object.keys(fieldTypes),
};

let folder: string;
beforeAll(() => {
  folder = temporaryFolder('b2bctl-invisible-batches-');
});

async function problemLines(content: string): Promise<[number, string[]][]> {
  const path = join(folder, `input-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, content);
  const input = await openInput({ path, stdin: process.stdin, catalogue, warn: () => {} });
  const found: [number, string[]][] = [];
  for await (const record of input.records)
    if (record.problems.length > 0)
      found.push([
        record.line,
        record.problems.map((problem) => (typeof problem === 'string' ? problem : problem.message)),
      ]);
  return found;
}

describe('invisible characters across batches', () => {
  // 30,000 plain rows are several reads of the file: the odd rows land in batches of their own.
  const rows = Array.from({ length: 30_000 }, (_, index) => `SKU-${index},${index},a|b`);

  it.each<[string, string]>([
    ['a zero-width space in a plain cell', 'SKU-\u200B25000'],
    ['a bidi override in a quoted cell', '"SKU-\u202E25000"'],
    ['a NUL inside a list item', 'SKU-25000,1,a|\u0000b'],
  ])('%s far down the file is named on its line only', async (_, cell) => {
    const lines = [...rows];
    lines[25_000] = cell.includes(',') ? cell : `${cell},1,a`;
    const found = await problemLines(`sku,quantity,tags\n${lines.join('\n')}\n`);
    expect(found.map(([line]) => line)).toEqual([25_002]);
    expect(found[0]?.[1][0]).toMatch(/invisible or control character \(U\+(200B|202E|0000)\)/);
  });

  it('names nothing in a file without such characters', async () => {
    expect(await problemLines(`sku,quantity,tags\n${rows.join('\n')}\n`)).toEqual([]);
  });
});
