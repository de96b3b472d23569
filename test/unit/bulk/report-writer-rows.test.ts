import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ReportRow, ReportWriter, reportColumns, rowColumn } from '../../../src/bulk/report.js';
import { recordPlace } from '../../../src/io/input/open-input.js';
import { csvLine, guardDigitsText } from '../../../src/io/output/csv-format.js';
import { temporaryFolder } from '../../support/temporary.js';

// ReportWriter builds its rows without csvLine's array of cells per row (issue 14); the bytes must be csvLine's.
let folder: string;
beforeAll(() => {
  folder = temporaryFolder('b2bctl-report-rows-');
});

/** The row as the report wrote it before: every cell through csvLine. */
function csvLineOf(row: ReportRow, withRows: boolean, delimiter = ','): string {
  return csvLine(
    [
      recordPlace({ line: row.line, column: row.column, element: row.element }),
      // An --excel report guards a key a spreadsheet would rewrite, as the errors file does.
      delimiter === ';' ? guardDigitsText(row.key) : row.key,
      row.outcome,
      row.status === undefined ? '' : String(row.status),
      row.id === undefined ? '' : String(row.id),
      row.message ?? '',
      ...(withRows ? [String(row.row ?? row.line)] : []),
    ],
    delimiter,
  );
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

describe('ReportWriter rows with --excel', () => {
  it.each([true, false])('are csvLine with `;` after a BOM (spreadsheet rows %s)', (spreadsheetRows) => {
    const path = join(folder, `report-excel-${spreadsheetRows}.csv`);
    const writer = new ReportWriter(path, { spreadsheetRows, excel: true });
    writer.write(rows.slice(0, 3));
    writer.close();
    // A resumed run appends in the report's own dialect, --excel given again or not.
    const resumed = new ReportWriter(path, { spreadsheetRows });
    expect(resumed.delimiter).toBe(';');
    resumed.write(rows.slice(3));
    resumed.close();
    const header = csvLine([...reportColumns, ...(spreadsheetRows ? [rowColumn] : [])], ';');
    expect(readFileSync(path, 'utf8')).toBe(
      `\uFEFF${header}${rows.map((row) => csvLineOf(row, spreadsheetRows, ';')).join('')}`,
    );
  });

  it('writes a decimal id with a decimal comma, and whole numbers and statuses as they are', () => {
    const path = join(folder, 'report-excel-numbers.csv');
    const writer = new ReportWriter(path, { excel: true });
    writer.write([
      { line: 2, key: 'A', outcome: 'created', status: 201, id: 12.5 },
      { line: 3, key: 'B', outcome: 'created', status: 201, id: 4711 },
      { line: 4, key: '01234567890', outcome: 'failed', status: 422 },
    ]);
    writer.close();
    expect(readFileSync(path, 'utf8').split('\r\n').slice(1)).toEqual([
      '2;A;created;201;12,5;',
      '3;B;created;201;4711;',
      // A CPF whose leading zero a spreadsheet would drop: guarded as the errors file guards it.
      "4;'01234567890;failed;422;;",
      '',
    ]);
  });

  it('a report without --excel appended to with --excel keeps its commas and has no BOM', () => {
    const path = join(folder, 'report-plain-then-excel.csv');
    new ReportWriter(path).close();
    const resumed = new ReportWriter(path, { excel: true });
    resumed.write(rows.slice(0, 1));
    resumed.close();
    expect(readFileSync(path, 'utf8')).toBe(csvLine([...reportColumns]) + csvLineOf(rows[0] as ReportRow, false));
  });
});
