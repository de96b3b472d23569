import { statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type InputRecord, openInput } from '../../../../src/io/input/open-input.js';
import type { FieldCatalogue, FieldType } from '../../../../src/io/input/record-shape.js';
import { temporaryFolder } from '../../../support/temporary.js';

// InputOptions.unchanged runs after each chunk of a file is read and at its end, before the records of those bytes
// are handed out: a file another program rewrites as it is read gives no record of the rewrite (z/Z4).

const fieldTypes: Record<string, FieldType> = { sku: 'string', quantity: 'integer', price: 'number' };
const catalogue: FieldCatalogue = {
  typeOf: (path) => (Object.hasOwn(fieldTypes, path) ? fieldTypes[path] : undefined),
  knownPaths: Object.keys(fieldTypes),
};

const chunk = 32 * 1024;

/** 10,000 rows (some 240 KB, several chunks), each valid: any problem a record shows is of the rewrite. */
function exportFile(): string {
  const path = join(temporaryFolder('b2bctl-changed-while-read-'), 'stock.csv');
  const rows = Array.from({ length: 10_000 }, (_, index) => `SKU-${String(index).padStart(7, '0')},${index},9.90`);
  writeFileSync(path, `sku,quantity,price\n${rows.join('\n')}\n`);
  return path;
}

/**
 * Reads `path` with a check of its size that rewrites it (`rewrite`) right after the third chunk has passed it, as an
 * ERP would at that moment: the records handed out, and what the reading ended with.
 */
async function readWhileRewritten(
  path: string,
  rewrite: (path: string) => void,
): Promise<{ records: InputRecord[]; error: unknown }> {
  const size = statSync(path).size;
  let checks = 0;
  const unchanged = () => {
    if (statSync(path).size !== size) throw new Error(`${path} changed`);
    if (++checks === 3) rewrite(path);
  };
  const records: InputRecord[] = [];
  try {
    const input = await openInput({ path, stdin: process.stdin, catalogue, warn: () => {}, unchanged });
    try {
      for await (const record of input.records) records.push(record);
    } finally {
      input.close();
    }
  } catch (error) {
    return { records, error };
  }
  return { records, error: undefined };
}

describe('a file changed while it is read', () => {
  it.each<[string, (path: string) => void]>([
    ['rewritten with other rows', (path) => writeFileSync(path, `sku,quantity,price\n${'X;y\n'.repeat(40_000)}`)],
    // Cut at the end of what was read: the reader meets the end there, and the row it had half read was a record.
    ['cut short after what was read', (path) => truncateSync(path, 3 * chunk)],
  ])('%s: the check fails before any record of the rewrite is handed out', async (_, rewrite) => {
    const { records, error } = await readWhileRewritten(exportFile(), rewrite);
    expect((error as Error | undefined)?.message).toMatch(/stock\.csv changed$/);
    expect(records.filter((record) => record.problems.length > 0)).toEqual([]);
    expect(records.length).toBeLessThan(10_000);
  });

  it('unchanged: every record, the check run after each chunk and once at the end', async () => {
    const path = exportFile();
    let checks = 0;
    const input = await openInput({ path, stdin: process.stdin, catalogue, warn: () => {}, unchanged: () => checks++ });
    let count = 0;
    for await (const record of input.records) if (record.problems.length === 0) count++;
    input.close();
    expect(count).toBe(10_000);
    expect(checks).toBe(Math.ceil(statSync(path).size / chunk) + 1);
  });
});
