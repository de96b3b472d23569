import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportWriter, type ReportRow } from '../../../src/bulk/report.js';
import { DoneVerdicts, LineSet, PlaceKeys, PlaceSet, readDoneLines, UnknownPlaces } from '../../../src/bulk/resume.js';
import { ExitCode, InputError } from '../../../src/base/errors.js';
import { temporaryFolder } from '../../support/temporary.js';

let folder: string;
beforeAll(() => {
  folder = temporaryFolder('b2bctl-resume-');
});

let fileCount = 0;
const nextPath = (name: string) => join(folder, `${++fileCount}-${name}`);

/** A report as ReportWriter writes it. */
function writeReport(rowsToWrite: readonly ReportRow[], excel = false): string {
  const path = nextPath('customers.report.csv');
  const writer = new ReportWriter(path, { excel });
  writer.write(rowsToWrite);
  writer.close();
  return path;
}

function linesIn(set: LineSet | PlaceSet, upTo: number): number[] {
  return Array.from({ length: upTo + 1 }, (_, line) => line).filter((line) =>
    set instanceof PlaceSet ? set.has({ line }) : set.has(line),
  );
}

/** The element indexes a set holds (records of minified JSON), up to `upTo`. */
function elementsIn(set: PlaceSet, upTo: number): number[] {
  return Array.from({ length: upTo + 1 }, (_, element) => element).filter((element) =>
    set.has({ line: 1, column: 1, element }),
  );
}

describe('LineSet', () => {
  it.each<[string, number[], number[], number]>([
    ['nothing added', [], [], 0],
    ['some lines', [2, 3, 9], [2, 3, 9], 3],
    ['duplicate adds count once', [5, 5, 5, 6, 5], [5, 6], 2],
    ['line 0 and lines on byte edges', [0, 7, 8, 15, 16], [0, 7, 8, 15, 16], 5],
  ])('%s', (_name, adds, present, count) => {
    const set = new LineSet();
    for (const line of adds) set.add(line);
    expect(linesIn(set, 20)).toEqual(present);
    expect(set.count).toBe(count);
  });

  it('grows past its first 8,192 lines and keeps what it held', () => {
    const set = new LineSet();
    set.add(2);
    set.add(8191);
    set.add(8192);
    set.add(1_000_000);
    set.add(1_000_000);
    set.add(20_000);
    expect(set.count).toBe(5);
    for (const line of [2, 8191, 8192, 20_000, 1_000_000]) expect(set.has(line)).toBe(true);
    for (const line of [3, 8190, 8193, 19_999, 999_999, 1_000_001, 50_000_000]) expect(set.has(line)).toBe(false);
  });

  it('holds every other line of 100,000', () => {
    const set = new LineSet();
    for (let line = 0; line < 100_000; line += 2) set.add(line);
    expect(set.count).toBe(50_000);
    let wrong = 0;
    for (let line = 0; line < 100_000; line++) if (set.has(line) !== (line % 2 === 0)) wrong++;
    expect(wrong).toBe(0);
  });

  it('a deleted line is gone and uncounted; deleting a line it never held changes nothing', () => {
    const set = new LineSet();
    for (const line of [7, 8, 9]) set.add(line);
    set.delete(8);
    set.delete(8);
    set.delete(40_000);
    expect(linesIn(set, 20)).toEqual([7, 9]);
    expect(set.count).toBe(2);
  });
});

describe('DoneVerdicts', () => {
  it('counts the done records judged valid, less those a later record showed invalid, lines and elements apart', () => {
    const done = new PlaceSet();
    for (const place of [{ line: 2 }, { line: 4 }, { line: 5 }, { line: 1, element: 3 }]) done.add(place);
    const verdicts = new DoneVerdicts(done);
    verdicts.judged({ line: 2 }, true);
    verdicts.judged({ line: 3 }, true);
    verdicts.judged({ line: 4 }, true);
    verdicts.judged({ line: 5 }, false);
    verdicts.judged({ line: 1, element: 3 }, true);
    // Line 2's value comes again further down: both rows are invalid (a report of an earlier build has it done).
    verdicts.shownInvalid({ line: 2 });
    verdicts.shownInvalid({ line: 3 });
    expect({ valid: verdicts.valid, invalid: verdicts.invalid }).toEqual({ valid: 2, invalid: 2 });
  });

  it('counts apart the valid records whose only row is unknown, for a dry run of the resume to say', () => {
    const done = new PlaceSet();
    done.add({ line: 2 });
    const unknownOnly = new PlaceSet();
    for (const place of [{ line: 3 }, { line: 4 }, { line: 5 }]) unknownOnly.add(place);
    const verdicts = new DoneVerdicts(done, (place) => unknownOnly.has(place));
    verdicts.judged({ line: 2 }, true);
    verdicts.judged({ line: 3 }, true);
    verdicts.judged({ line: 4 }, false);
    verdicts.judged({ line: 5 }, true);
    verdicts.judged({ line: 6 }, true);
    verdicts.shownInvalid({ line: 5 });
    expect({ valid: verdicts.valid, unknownValid: verdicts.unknownValid }).toEqual({ valid: 1, unknownValid: 1 });
  });
});

describe('readDoneLines', () => {
  const rows: ReportRow[] = [
    { line: 2, key: '111.444.777-35', outcome: 'created', status: 201, id: 'c-1' },
    {
      line: 3,
      key: '11.222.333/0001-81',
      outcome: 'failed',
      status: 500,
      message: 'Internal error, "retry" later\nsecond line',
    },
    { line: 4, key: '3', outcome: 'invalid', message: 'Property [document] with value [3] does not pass validation' },
    { line: 5, key: '4', outcome: 'updated', status: 200 },
    { line: 6, key: '5', outcome: 'unchanged' },
    { line: 7, key: '6', outcome: 'skipped', message: 'done in an earlier run' },
    { line: 8, key: '7', outcome: 'rejected', status: 400 },
    { line: 9, key: 'SKU-1', outcome: 'applied' },
    { line: 10, key: 'SKU-2', outcome: 'queued' },
    // A retried record: failed first, created later; any done row makes it done.
    { line: 3, key: '11.222.333/0001-81', outcome: 'created', status: 201 },
  ];

  it('reads the done lines of a report written by ReportWriter, and every reported line', async () => {
    const path = writeReport(rows);
    const reported = new PlaceSet();
    const done = await readDoneLines(path, reported);
    expect(linesIn(done, 20)).toEqual([2, 3, 5, 6, 7, 9, 10]);
    expect(done.count).toBe(7);
    expect(linesIn(reported, 20)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('an `unknown` row is not reported (its record is unanswered) but kept apart: its resume asks before it sends', async () => {
    const path = writeReport([...rows, { line: 11, key: '8', outcome: 'unknown', message: 'the answer was lost.' }]);
    const reported = new PlaceSet();
    const unknown = new UnknownPlaces();
    const done = await readDoneLines(path, reported, new PlaceKeys(), unknown);
    expect(linesIn(done, 20)).toEqual([2, 3, 5, 6, 7, 9, 10]);
    expect(linesIn(reported, 20)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(linesIn(unknown, 20)).toEqual([11]);
  });

  it('reads a report written with --excel (BOM, `;`) the same, keys with commas and formulas included', async () => {
    const excelRows: ReportRow[] = [...rows, { line: 11, key: '=1+1', outcome: 'created', message: 'a, b; c' }];
    const path = writeReport(excelRows, true);
    expect(readFileSync(path, 'utf8').startsWith('\uFEFFline;key;outcome;')).toBe(true);
    const reported = new PlaceSet();
    const keys = new PlaceKeys();
    const done = await readDoneLines(path, reported, keys);
    expect(linesIn(done, 20)).toEqual([2, 3, 5, 6, 7, 9, 10, 11]);
    expect(linesIn(reported, 20)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(keys.matches({ line: 11 }, '=1+1')).toBe(true);
    expect(keys.matches({ line: 11 }, "'=1+1")).toBe(false);
  });

  it('failed, invalid and rejected rows are not done', async () => {
    const path = writeReport(rows.slice(1, 3).concat(rows[6] as ReportRow));
    expect(linesIn(await readDoneLines(path), 20)).toEqual([]);
  });

  it('a header-only report has nothing done', async () => {
    const path = writeReport([]);
    expect(readFileSync(path, 'utf8')).toBe('line,key,outcome,status,id,message\r\n');
    expect((await readDoneLines(path)).count).toBe(0);
  });

  it.each<[string, string, number[]]>([
    ['inside a quoted message', '11,k,failed,500,,"Server said\r\nmore', [2, 5]],
    ['after the outcome', '11,k,created,2', [2, 5, 11]],
    ['inside the outcome', '11,k,crea', [2, 5]],
    ['after the key', '11,k,', [2, 5]],
    ['after the line number', '11,', [2, 5]],
    ['inside the line number', '1', [2, 5]],
  ])('a report cut off mid-row %s: the complete rows before it still count', async (_name, tail, expected) => {
    const path = writeReport([rows[0] as ReportRow, rows[1] as ReportRow, rows[3] as ReportRow]);
    appendFileSync(path, tail);
    expect(linesIn(await readDoneLines(path), 20)).toEqual(expected);
  });

  it('a missing report is exit 66', async () => {
    const path = join(folder, 'no-such.report.csv');
    const error = await readDoneLines(path).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(`${path}: cannot read the report to resume from (ENOENT).`);
    expect((error as InputError).exitCode).toBe(ExitCode.inputMissing);
  });

  it.each<[string, string]>([
    ['the input file instead of its report', 'document,name\r\n111.444.777-35,Ana\r\n'],
    ['an errors file', '\uFEFFdocument;name;error\r\n1;Ana;bad\r\n'],
    [
      'a report with a line that is no number',
      'line,key,outcome,status,id,message\r\nabc,k,created,,,\r\n2,k,created,,,\r\n',
    ],
    [
      'a report with a short row in the middle',
      'line,key,outcome,status,id,message\r\n2,k,created,,,\r\n3\r\n4,k,created,,,\r\n',
    ],
    ['a one-line CSV with other columns', 'document,name\r\n'],
  ])('%s is not a report', async (_name, content) => {
    const path = nextPath('other.csv');
    writeFileSync(path, content);
    const error = await readDoneLines(path).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      `${path}: not a b2bctl report (expected the columns line,key,outcome,...).`,
    );
    expect((error as InputError).exitCode).toBe(ExitCode.dataInvalid);
    expect((error as InputError).file).toBe(path);
  });

  it('a header with the line but no outcome is not a report', async () => {
    const path = nextPath('no-outcome.csv');
    writeFileSync(path, 'line,key,status\r\n2,k,201\r\n');
    await expect(readDoneLines(path)).rejects.toThrow(`${path}: not a b2bctl report`);
  });

  it('a report saved again as "CSV UTF-8" (a byte order mark before commas) reads the same', async () => {
    const path = writeReport(rows);
    writeFileSync(path, `\uFEFF${readFileSync(path, 'utf8')}`);
    expect(linesIn(await readDoneLines(path), 20)).toEqual([2, 3, 5, 6, 7, 9, 10]);
  });

  it('rows a spreadsheet saved without their empty last cells still count, and so do the rows after them', async () => {
    const path = nextPath('trimmed.report.csv');
    writeFileSync(path, 'line,key,outcome,status,id,message\r\n2,k,created\r\n3,k,failed,500\r\n4,k,applied,,,\r\n');
    expect(linesIn(await readDoneLines(path), 20)).toEqual([2, 4]);
  });

  it('a folder given as the report is an error as the system gives it, not an empty report', async () => {
    await expect(readDoneLines(folder)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('readDoneLines of minified JSON (several records on line 1)', () => {
  const rows: ReportRow[] = [
    { line: 1, column: 2, element: 0, key: 'A', outcome: 'created', status: 200 },
    { line: 1, column: 310, element: 1, key: 'B', outcome: 'failed', status: 503 },
    { line: 1, column: 618, element: 2, key: 'C', outcome: 'invalid', message: 'bad' },
    { line: 1, column: 900, element: 3, key: 'D', outcome: 'created', status: 200 },
    // A record that starts on a line of its own, below them.
    { line: 2, key: 'E', outcome: 'created', status: 200 },
  ];

  it('writes the place as messages name it, so each row names one record', () => {
    const path = writeReport(rows);
    expect(readFileSync(path, 'utf8').split('\r\n').slice(1, 3)).toEqual([
      '1:2 (element 0),A,created,200,,',
      '1:310 (element 1),B,failed,503,,',
    ]);
  });

  it('keeps each element apart: the done ones are done, line 1 itself is not', async () => {
    const path = writeReport(rows);
    const reported = new PlaceSet();
    const done = await readDoneLines(path, reported);
    expect(elementsIn(done, 10)).toEqual([0, 3]);
    expect(linesIn(done, 10)).toEqual([2]);
    expect(done.count).toBe(3);
    expect(elementsIn(reported, 10)).toEqual([0, 1, 2, 3]);
    expect(reported.count).toBe(5);
  });

  it('a row cut off inside its place is a short last row, not a record', async () => {
    const path = writeReport(rows.slice(0, 1));
    appendFileSync(path, '1:310 (elem');
    const done = await readDoneLines(path);
    expect(elementsIn(done, 10)).toEqual([0]);
    expect(done.count).toBe(1);
  });
});
