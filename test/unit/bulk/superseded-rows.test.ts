import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSupersededRows } from '../../../src/bulk/superseded-rows.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

function reportWith(text: string): string {
  const path = join(temporaryFolder('b2bctl-superseded-'), 'stock.report-20261130-013733.csv');
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

describe('dropSupersededRows', () => {
  it('removes the copies a killed rewrite of this report left, and nothing of another report', async () => {
    const path = reportWith('line,key,outcome,status,id,message,row\r\n2,A,applied,200,,,2\r\n');
    const folder = dirname(path);
    const left = join(folder, `.${basename(path)}.0123456789abcdef.tmp`);
    const another = join(folder, '.other.report-20261130-013733.csv.0123456789abcdef.tmp');
    writeFileSync(left, 'a whole night of rows');
    writeFileSync(another, 'not this report');
    expect(await dropSupersededRows(path)).toBe(0);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(another)).toBe(true);
  });

  it("keeps a record's last row, the rows kept in their order and byte for byte", async () => {
    const path = reportWith(
      [
        'line,key,outcome,status,id,message,row\r\n',
        '2,A,applied,200,,,2\r\n',
        '3,B,failed,,,"Cannot reach\r\nthe ""platform""",3\r\n',
        '4,C,unknown,,,,4\r\n',
        '3,B,applied,200,,,3\r\n',
        '5,D,failed,503,,,5\r\n',
        '4,C,applied,200,,,4\r\n',
      ].join(''),
    );
    expect(await dropSupersededRows(path)).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe(
      [
        'line,key,outcome,status,id,message,row\r\n',
        '2,A,applied,200,,,2\r\n',
        '3,B,applied,200,,,3\r\n',
        '5,D,failed,503,,,5\r\n',
        '4,C,applied,200,,,4\r\n',
      ].join(''),
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('an --excel report (BOM, `;`) and the elements of minified JSON, each its own record', async () => {
    const path = reportWith(
      [
        '\uFEFFline;key;outcome;status;id;message\r\n',
        '"1:10 (element 1)";A;failed;;;x\r\n',
        '"1:40 (element 2)";B;applied;200;;\r\n',
        '"1:10 (element 1)";A;applied;200;;\r\n',
      ].join(''),
    );
    expect(await dropSupersededRows(path)).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(
      [
        '\uFEFFline;key;outcome;status;id;message\r\n',
        '"1:40 (element 2)";B;applied;200;;\r\n',
        '"1:10 (element 1)";A;applied;200;;\r\n',
      ].join(''),
    );
  });

  it('a report with a row per record is left as it is, not rewritten', async () => {
    const text = 'line,key,outcome,status,id,message\r\n2,A,applied,200,,\r\n3,B,failed,,,x\r\n';
    const path = reportWith(text);
    const before = statSync(path).ino;
    expect(await dropSupersededRows(path)).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(statSync(path).ino).toBe(before);
  });

  it('a report of several megabytes: rows cut across the chunks it is read in, line breaks in quotes included', async () => {
    const message = '"Cannot reach\r\nthe ""platform"", twice"';
    const first = Array.from({ length: 60_000 }, (_, index) => {
      const line = index + 2;
      return line % 3 === 0
        ? `${line},K${line},failed,,,${message},${line}\r\n`
        : `${line},K${line},queued,202,b,,${line}\r\n`;
    });
    const resumed = first
      .filter((row) => row.includes(',failed,'))
      .map((row) => row.replace(/,failed,,,.*,(\d+)\r\n$/s, ',queued,202,c,,$1\r\n'));
    const header = 'line,key,outcome,status,id,message,row\r\n';
    const path = reportWith([header, ...first, ...resumed].join(''));
    expect(await dropSupersededRows(path)).toBe(resumed.length);
    expect(readFileSync(path, 'utf8')).toBe(
      [header, ...first.filter((row) => !row.includes(',failed,')), ...resumed].join(''),
    );
  });
});
