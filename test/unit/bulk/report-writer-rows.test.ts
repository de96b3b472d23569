import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReportRow, ReportWriter, reportColumns, rowColumn } from '../../../src/bulk/report.js';
import { recordPlace } from '../../../src/io/input/open-input.js';
import { csvLine } from '../../../src/io/output/csv-format.js';

// ReportWriter builds its rows without csvLine's array of cells per row (issue 14); the bytes must be csvLine's.
let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'b2bctl-report-rows-'));
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The row as the report wrote it before: every cell through csvLine. */
function csvLineOf(row: ReportRow, withRows: boolean): string {
  return csvLine([
    recordPlace({ line: row.line, column: row.column, element: row.element }),
    row.key,
    row.outcome,
    row.status === undefined ? '' : String(row.status),
    row.id === undefined ? '' : String(row.id),
    row.message ?? '',
    ...(withRows ? [String(row.row ?? row.line)] : []),
  ]);
}

const awkward = [
  '',
  'SKU-1',
  '=HYPERLINK("x")',
  '-5',
  '+3,5',
  '@me',
  '\tlead',
  ' edge ',
  'a,b',
  'say "hi"',
  'two\nlines',
  'ç~ü',
  '-x',
];

const rows: ReportRow[] = [
  { line: 2, key: 'SKU-1', outcome: 'queued', status: 202, id: 'batch-1' },
  { line: 3, key: 'SKU-2', outcome: 'queued', status: 202, id: 'batch-1' },
  { line: 4, key: 'SKU-3', outcome: 'queued', status: 202, id: '=batch,2' },
  { line: 5, key: 'SKU-4', outcome: 'invalid', message: 'quantity: must be a whole number' },
  { line: 9, row: 7, key: 'SKU-5', outcome: 'applied', status: 200 },
  { line: 1, column: 345, element: 17, key: 'SKU-6', outcome: 'failed', status: 503, message: 'gone' },
  { line: 12, key: 'DOC', outcome: 'created', status: 201, id: 4711 },
  ...awkward.flatMap((text, index): ReportRow[] => [
    { line: 20 + index, key: text, outcome: 'rejected', status: 422, message: text },
    { line: 40 + index, key: 'K', outcome: 'queued', status: 202, id: text },
  ]),
];

describe('ReportWriter rows', () => {
  it.each([true, false])('are csvLine byte for byte (spreadsheet rows %s)', (spreadsheetRows) => {
    const path = join(folder, `report-${spreadsheetRows}.csv`);
    const writer = new ReportWriter(path, { spreadsheetRows });
    writer.write(rows.slice(0, 3));
    writer.write(rows.slice(3));
    writer.close();
    const header = csvLine([...reportColumns, ...(spreadsheetRows ? [rowColumn] : [])]);
    expect(readFileSync(path, 'utf8')).toBe(header + rows.map((row) => csvLineOf(row, spreadsheetRows)).join(''));
    expect(writer.rows).toBe(rows.length);
  });
});
