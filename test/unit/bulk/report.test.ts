import { parse } from 'csv-parse/sync';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  doneOutcomes,
  ErrorsWriter,
  type Outcome,
  ReportWriter,
  siblingPath,
  withoutErrorsColumns,
} from '../../../src/bulk/report.js';
import { temporaryFolder } from '../../support/temporary.js';

let folder: string;
beforeAll(() => {
  folder = temporaryFolder('b2bctl-report-');
});

let fileCount = 0;
const nextPath = (name: string) => join(folder, `${++fileCount}-${name}`);
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('siblingPath', () => {
  const startedAt = new Date('2026-11-22T02:15:09.123Z');

  it.each<[string, 'report' | 'errors', string, number | undefined, string]>([
    ['data/customers.csv', 'report', '.csv', undefined, join('data', 'customers.report-20261122-021509.csv')],
    ['data/customers.csv', 'errors', '.csv', undefined, join('data', 'customers.errors-20261122-021509.csv')],
    ['/srv/erp/customers.json', 'errors', '.ndjson', undefined, '/srv/erp/customers.errors-20261122-021509.ndjson'],
    ['customers.csv', 'report', '.csv', undefined, 'customers.report-20261122-021509.csv'],
    ['estoque.2026-11-22.csv', 'report', '.csv', undefined, 'estoque.2026-11-22.report-20261122-021509.csv'],
    ['data/customers', 'report', '.csv', undefined, join('data', 'customers.report-20261122-021509.csv')],
    ['-', 'report', '.csv', undefined, 'stdin.report-20261122-021509.csv'],
    ['-', 'errors', '.ndjson', undefined, 'stdin.errors-20261122-021509.ndjson'],
    ['data/customers.csv', 'report', '.csv', 1, join('data', 'customers.report-20261122-021509.csv')],
    ['data/customers.csv', 'report', '.csv', 2, join('data', 'customers.report-20261122-021509-2.csv')],
    ['data/customers.csv', 'errors', '.csv', 3, join('data', 'customers.errors-20261122-021509-3.csv')],
  ])('%s %s %s (sequence %s) → %s', (input, kind, extension, sequence, expected) => {
    expect(siblingPath(input, kind, startedAt, extension, sequence)).toBe(expected);
  });
});

describe('doneOutcomes', () => {
  it.each<[Outcome, boolean]>([
    ['created', true],
    ['updated', true],
    ['unchanged', true],
    ['applied', true],
    ['queued', true],
    ['skipped', true],
    ['invalid', false],
    ['failed', false],
    ['rejected', false],
  ])('%s → %s', (outcome, done) => {
    expect(doneOutcomes.has(outcome)).toBe(done);
  });
});

describe('ReportWriter', () => {
  it('writes the header, then one escaped row per result, mode 0600', () => {
    const path = nextPath('customers.report.csv');
    const writer = new ReportWriter(path);
    writer.write([
      { line: 2, key: '111.444.777-35', outcome: 'created', status: 201, id: 42 },
      {
        line: 3,
        key: '11.222.333/0001-81',
        outcome: 'failed',
        status: 400,
        message: 'Property [username] with value [a,b] does not pass validation',
      },
    ]);
    writer.write([]);
    writer.write([
      { line: 4, key: 'k"q', outcome: 'failed', message: 'He said "no"\nthen left' },
      { line: 5, key: ' padded ', outcome: 'invalid', message: 'a;b' },
    ]);
    writer.close();
    expect(writer.rows).toBe(4);
    expect(readFileSync(path, 'utf8')).toBe(
      [
        'line,key,outcome,status,id,message',
        '2,111.444.777-35,created,201,42,',
        '3,11.222.333/0001-81,failed,400,,"Property [username] with value [a,b] does not pass validation"',
        '4,"k""q",failed,,,"He said ""no""\nthen left"',
        '5," padded ",invalid,,,a;b',
        '',
      ].join('\r\n'),
    );
    expect(modeOf(path)).toBe(0o600);
  });

  it('reads back as the same cells', () => {
    const path = nextPath('roundtrip.report.csv');
    const message = 'line one\r\nline "two", with, commas';
    const writer = new ReportWriter(path);
    writer.write([{ line: 7, key: 'x', outcome: 'failed', status: 503, message }]);
    writer.close();
    expect(parse(readFileSync(path, 'utf8'), { columns: true })).toEqual([
      { line: '7', key: 'x', outcome: 'failed', status: '503', id: '', message },
    ]);
  });

  it('reopened on a report whose last row a full disk cut short, drops that piece before appending', () => {
    const path = nextPath('cut.report.csv');
    writeFileSync(path, 'line,key,outcome,status,id,message\r\n412,GEN-412,queued,202,b-1,\r\n413,GEN-4');
    const resumed = new ReportWriter(path);
    resumed.write([{ line: 413, key: 'GEN-413', outcome: 'queued', status: 202, id: 'b-2' }]);
    resumed.close();
    expect(readFileSync(path, 'utf8')).toBe(
      'line,key,outcome,status,id,message\r\n412,GEN-412,queued,202,b-1,\r\n413,GEN-413,queued,202,b-2,\r\n',
    );
  });

  it('reopened on the same file (a resumed run), appends without a second header', () => {
    const path = nextPath('resumed.report.csv');
    const first = new ReportWriter(path);
    first.write([{ line: 2, key: 'a', outcome: 'created' }]);
    first.close();
    const second = new ReportWriter(path);
    expect(second.rows).toBe(0);
    second.write([{ line: 3, key: 'b', outcome: 'updated' }]);
    second.close();
    expect(readFileSync(path, 'utf8')).toBe(
      'line,key,outcome,status,id,message\r\n2,a,created,,,\r\n3,b,updated,,,\r\n',
    );
  });

  it('a report of CSV input ends every row with the spreadsheet row; the line cell stays the file line', () => {
    const path = nextPath('rows.report.csv');
    const writer = new ReportWriter(path, { spreadsheetRows: true });
    writer.write([
      { line: 2, key: 'a', outcome: 'created' },
      { line: 4, row: 3, key: 'b', outcome: 'invalid', message: 'bad' },
    ]);
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe(
      'line,key,outcome,status,id,message,row\r\n2,a,created,,,,2\r\n4,b,invalid,,,bad,3\r\n',
    );
  });

  it('a resumed report keeps its own columns: rows are added to one without the row column as it was written', () => {
    const older = nextPath('older.report.csv');
    writeFileSync(older, 'line,key,outcome,status,id,message\r\n2,a,created,,,\r\n');
    const resumedOlder = new ReportWriter(older, { spreadsheetRows: true });
    expect(resumedOlder.withRows).toBe(false);
    resumedOlder.write([{ line: 4, row: 3, key: 'b', outcome: 'created' }]);
    resumedOlder.close();
    expect(readFileSync(older, 'utf8')).toBe(
      'line,key,outcome,status,id,message\r\n2,a,created,,,\r\n4,b,created,,,\r\n',
    );

    const newer = nextPath('newer.report.csv');
    new ReportWriter(newer, { spreadsheetRows: true }).close();
    const resumedNewer = new ReportWriter(newer, { spreadsheetRows: true });
    resumedNewer.write([{ line: 4, row: 3, key: 'b', outcome: 'created' }]);
    resumedNewer.close();
    expect(readFileSync(newer, 'utf8')).toBe('line,key,outcome,status,id,message,row\r\n4,b,created,,,,3\r\n');
  });

  it('a report saved again by LibreOffice, its header cells quoted, still has its row column: resumed rows fill it', () => {
    const saved = nextPath('calc.report.csv');
    writeFileSync(saved, '"line","key","outcome","status","id","message","row"\n2,"a","created",200,7,,2\n');
    const resumed = new ReportWriter(saved, { spreadsheetRows: true });
    expect(resumed.withRows).toBe(true);
    resumed.write([{ line: 4, row: 3, key: 'b', outcome: 'created' }]);
    resumed.close();
    expect(readFileSync(saved, 'utf8').split(/\r?\n/).at(-2)).toBe('4,b,created,,,,3');
  });

  it('an empty file left by a crash before the header gets the header', () => {
    const path = nextPath('empty.report.csv');
    writeFileSync(path, '');
    new ReportWriter(path).close();
    expect(readFileSync(path, 'utf8')).toBe('line,key,outcome,status,id,message\r\n');
  });

  it('every row is on disk as soon as write() returns, before close()', () => {
    const path = nextPath('flushed.report.csv');
    const writer = new ReportWriter(path);
    writer.write([{ line: 2, key: 'a', outcome: 'created' }]);
    expect(readFileSync(path, 'utf8')).toBe('line,key,outcome,status,id,message\r\n2,a,created,,,\r\n');
    writer.close();
  });
});

describe('ErrorsWriter', () => {
  it('CSV: a BOM, the input delimiter, the input headers plus row and error; short rows padded, long rows kept whole (decision 0031)', () => {
    const path = nextPath('customers.errors.csv');
    const writer = new ErrorsWriter(path, { kind: 'csv', headers: ['document', 'name', 'lat'], delimiter: ';' });
    writer.write(
      ['111.444.777-35', 'Ana; "Aninha"', '-23,5'],
      'Property [document] with value [111.444.777-35] does not pass validation',
      2,
    );
    writer.write(['2'], 'two;problems\nhere', 3);
    writer.write(['3', 'Bia', '1,0', 'extra'], 'too many cells', 7);
    writer.close();
    expect(writer.rows).toBe(3);
    expect(readFileSync(path, 'utf8')).toBe(
      [
        '\uFEFFdocument;name;lat;row;error',
        '111.444.777-35;"Ana; ""Aninha""";-23,5;2;Property [document] with value [111.444.777-35] does not pass validation',
        '2;;;3;"two;problems\nhere"',
        // Cut to the headers, a split `6;5` would come back `6` and pass when fed back.
        '3;Bia;1,0;extra;7;too many cells',
        '',
      ].join('\r\n'),
    );
    expect(modeOf(path)).toBe(0o600);
  });

  it('CSV with a comma delimiter quotes the decimal commas', () => {
    const path = nextPath('comma.errors.csv');
    const writer = new ErrorsWriter(path, { kind: 'csv', headers: ['sku', 'price'], delimiter: ',' });
    writer.write(['A', '1,5'], 'bad', 2);
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe('\uFEFFsku,price,row,error\r\nA,"1,5",2,bad\r\n');
  });

  it("CSV: a code a spreadsheet would lose (000123) is written behind a ' in a text column, never in a number's", () => {
    const path = nextPath('zeros.errors.csv');
    const writer = new ErrorsWriter(path, {
      kind: 'csv',
      headers: ['sku', 'quantity', 'price', 'warehouse'],
      delimiter: ';',
      textColumns: [0, 3],
    });
    writer.write(['000123', '0010', '0012', '007'], 'SKU not found', 6);
    writer.write(['REJ-1', '5', '2,50', 'CD-SP'], 'SKU not found', 8);
    writer.write(['7891234567895', '1', '1,00', ''], 'SKU not found', 9);
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe(
      [
        '\uFEFFsku;quantity;price;warehouse;row;error',
        "'000123;0010;0012;'007;6;SKU not found",
        'REJ-1;5;2,50;CD-SP;8;SKU not found',
        "'7891234567895;1;1,00;;9;SKU not found",
        '',
      ].join('\r\n'),
    );
  });

  it('creates no file when nothing failed', () => {
    const path = nextPath('none.errors.csv');
    new ErrorsWriter(path, { kind: 'csv', headers: ['a'], delimiter: ',' }).close();
    expect(() => statSync(path)).toThrow(/ENOENT/);
  });

  it('CSV reopened on a file that has rows appends without a second header', () => {
    const path = nextPath('again.errors.csv');
    for (const value of ['1', '2']) {
      const writer = new ErrorsWriter(path, { kind: 'csv', headers: ['document'], delimiter: ',' });
      writer.write([value], 'bad', Number(value) + 1);
      writer.close();
    }
    expect(readFileSync(path, 'utf8')).toBe('\uFEFFdocument,row,error\r\n1,2,bad\r\n2,3,bad\r\n');
  });

  it("CSV appended to an errors file written before the row column keeps that file's columns", () => {
    const path = nextPath('older.errors.csv');
    writeFileSync(path, '\uFEFFdocument;error\r\n1;bad\r\n');
    const writer = new ErrorsWriter(path, { kind: 'csv', headers: ['document'], delimiter: ';' });
    writer.write(['2'], 'worse', 5);
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe('\uFEFFdocument;error\r\n1;bad\r\n2;worse\r\n');
  });

  it('withoutErrorsColumns: an errors file fed back loses its row and error columns (error alone, written before rows; row alone, error deleted)', () => {
    expect(withoutErrorsColumns(['sku', 'price', 'row', 'error'])).toEqual(['sku', 'price']);
    expect(withoutErrorsColumns(['sku', 'price', 'error'])).toEqual(['sku', 'price']);
    expect(withoutErrorsColumns(['sku', 'price', 'row'])).toEqual(['sku', 'price']);
    expect(withoutErrorsColumns(['sku', 'row', 'price'])).toEqual(['sku', 'row', 'price']);
    expect(withoutErrorsColumns(['sku', 'error', 'row'])).toEqual(['sku', 'error']);
  });

  it('NDJSON: the record with an error field; a value that is no object is wrapped', () => {
    const path = nextPath('customers.errors.ndjson');
    const writer = new ErrorsWriter(path, { kind: 'ndjson' });
    writer.write({ document: '1', address: { zipcode: '0131' } }, 'bad zipcode');
    writer.write({ document: '2', error: 'old error', name: 'x' }, 'new error');
    writer.write(5, 'expected a JSON object, found 5');
    writer.write(['a'], 'expected a JSON object, found an array');
    writer.write(null, 'expected a JSON object, found null');
    writer.close();
    expect(writer.rows).toBe(5);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { document: '1', address: { zipcode: '0131' }, error: 'bad zipcode' },
      { document: '2', error: 'new error', name: 'x' },
      { value: 5, error: 'expected a JSON object, found 5' },
      { value: ['a'], error: 'expected a JSON object, found an array' },
      { value: null, error: 'expected a JSON object, found null' },
    ]);
    expect(readFileSync(path, 'utf8').startsWith('{')).toBe(true);
    expect(modeOf(path)).toBe(0o600);
  });
});
