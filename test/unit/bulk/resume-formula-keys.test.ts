/**
 * The report guards a key that Excel would run as a formula (`=1+1` is written `'=1+1`, issue 10 item 12);
 * --resume reads that cell back as the record's own key, or every resume of such a file was refused as
 * "the report of another file".
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportWriter } from '../../../src/bulk/report.js';
import { PlaceKeys, PlaceSet, readDoneLines } from '../../../src/bulk/resume.js';
import { temporaryFolder } from '../../support/temporary.js';

let folder: string;
beforeAll(() => {
  folder = temporaryFolder('b2bctl-resume-formula-');
});

describe('readDoneLines and formula-guarded keys', () => {
  it("a key written as '=1+1 matches the record =1+1; a key the user wrote with a quote stays as written", async () => {
    const path = join(folder, 'stock.report.csv');
    const writer = new ReportWriter(path, { spreadsheetRows: true });
    writer.write([
      { line: 2, key: '=1+1', outcome: 'applied' },
      { line: 3, key: '@SUM(1)', outcome: 'rejected' },
      { line: 4, key: "'quoted", outcome: 'applied' },
      { line: 5, key: '-5', outcome: 'applied' },
    ]);
    writer.close();
    const keys = new PlaceKeys();
    const done = await readDoneLines(path, new PlaceSet(), keys);
    expect([2, 3, 4, 5].map((line) => done.has({ line }))).toEqual([true, false, true, true]);
    expect(keys.matches({ line: 2 }, '=1+1')).toBe(true);
    expect(keys.matches({ line: 3 }, '@SUM(1)')).toBe(true);
    expect(keys.matches({ line: 4 }, "'quoted")).toBe(true);
    expect(keys.matches({ line: 5 }, '-5')).toBe(true);
    expect(keys.matches({ line: 2 }, "'=1+1")).toBe(false);
  });
});
