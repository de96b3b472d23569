/**
 * keysChecked: the first pass's records checked against the report being resumed, by place (a line, or
 * the element of minified JSON), before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { keysChecked } from '../../../src/bulk/pending-records.js';
import type { RecordPlace } from '../../../src/bulk/report.js';
import { PlaceKeys, PlaceSet } from '../../../src/bulk/resume.js';
import { UsageError } from '../../../src/base/errors.js';
import type { InputRecord } from '../../../src/io/input/open-input.js';

type Placed = RecordPlace & { key: string };

/** Four records of minified JSON on line 1, then one on a line of its own. */
const records: Placed[] = [
  { line: 1, column: 2, element: 0, key: 'A' },
  { line: 1, column: 40, element: 1, key: 'B' },
  { line: 1, column: 80, element: 2, key: 'C' },
  { line: 1, column: 120, element: 3, key: 'D' },
  { line: 2, key: 'E' },
];

async function* inputOf(placed: readonly Placed[]): AsyncGenerator<InputRecord> {
  for (const { key, ...place } of placed) yield { ...place, values: { key }, original: { key }, problems: [] };
}

/** The report's rows as readDoneLines would have gathered them. */
function reportOf(rows: readonly Placed[]): { keys: PlaceKeys; reported: PlaceSet } {
  const keys = new PlaceKeys();
  const reported = new PlaceSet();
  for (const { key, ...place } of rows) {
    keys.set(place, key);
    reported.add(place);
  }
  return { keys, reported };
}

const job = {
  flags: { resume: 'in.report.csv' },
  newChecker: () => {
    throw new Error('not used by keysChecked');
  },
  keyOf: (record: InputRecord) => String(record.values.key),
};

/** The keys keysChecked let through, or the message it stopped with. */
async function check(rows: readonly Placed[], placed: readonly Placed[] = records): Promise<string[] | string> {
  const passed: string[] = [];
  try {
    for await (const record of keysChecked(inputOf(placed), reportOf(rows), job, 'in.json'))
      passed.push(job.keyOf(record));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return error.message;
  }
  return passed;
}

describe('keysChecked', () => {
  it('lets every record through when each row names the record at its place', async () => {
    expect(await check([records[1] as Placed, records[3] as Placed, records[4] as Placed])).toEqual([
      'A',
      'B',
      'C',
      'D',
      'E',
    ]);
  });

  it('refuses a row for an element that names another record, with the element and where it is', async () => {
    expect(await check([{ line: 1, column: 40, element: 1, key: 'X' }])).toBe(
      'Cannot resume from in.report.csv: its row for element 1 names another record than B on in.json:1:40 (element 1); it is the report of another file. Nothing was sent.',
    );
  });

  it('refuses a row for a line that names another record, in the words it always used', async () => {
    expect(await check([{ line: 2, key: 'X' }])).toBe(
      'Cannot resume from in.report.csv: its row for line 2 names another record than E on in.json:2; it is the report of another file. Nothing was sent.',
    );
  });

  it('a row whose key lost its leading zeros is said as a report re-saved by a spreadsheet, not another file', async () => {
    // It said "it is the report of another file" of the very report, opened and saved in a spreadsheet (a fresh
    // user test).
    const padded: Placed[] = [
      { line: 2, key: '0000001' },
      { line: 3, key: '0000002' },
    ];
    expect(await check([{ line: 2, key: '1' }], padded)).toBe(
      'Cannot resume from in.report.csv: its row for line 2 names 1 where in.json:2 has 0000001: its keys lost their leading zeros, as a spreadsheet drops them when it opens and saves a CSV. Resume from the report as b2bctl wrote it (or a copy whose key column was kept as text). Nothing was sent.',
    );
    expect(await check([{ line: 2, key: '7' }], padded)).toMatch(/another record than 0000001 .*another file\./);
  });

  it('refuses, once the input is read, rows for elements the input does not have', async () => {
    expect(await check([records[0] as Placed, { line: 1, column: 160, element: 4, key: 'F' }])).toBe(
      'Cannot resume from in.report.csv: it has rows for 1 place where in.json has no record; it is the report of another file. Nothing was sent.',
    );
  });

  it('refuses a report naming line 1 only for records that share it, saying why', async () => {
    const older = records.slice(0, 4).map(({ key }) => ({ line: 1, key }));
    expect(await check(older)).toBe(
      'Cannot resume from in.report.csv: it has rows for 1 place where in.json has no record (in.json holds several records on a line, and the report names lines only, as b2bctl wrote reports before it named the element; such a report cannot tell its records apart). Nothing was sent.',
    );
  });

  it('refuses rows for lines past the end of a file of one record a line', async () => {
    const lines: Placed[] = [
      { line: 2, key: 'A' },
      { line: 3, key: 'B' },
    ];
    expect(
      await check(
        [
          { line: 2, key: 'A' },
          { line: 7, key: 'Z' },
          { line: 9, key: 'Y' },
        ],
        lines,
      ),
    ).toBe(
      'Cannot resume from in.report.csv: it has rows for 2 places where in.json has no record; it is the report of another file. Nothing was sent.',
    );
  });
});
