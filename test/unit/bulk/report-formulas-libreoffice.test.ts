/**
 * The report and the errors file opened as people open them: LibreOffice Calc with formulas evaluated, splitting at
 * `,` and at `;` (pt-BR Excel splits a comma file at `;`). A hostile cell must come out as text in either.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorsWriter, ReportWriter } from '../../../src/bulk/report.js';
import { requireTools } from '../../support/external-tools.js';

const soffice = requireTools('soffice');
const folder = mkdtempSync(join(tmpdir(), 'b2bctl-formulas-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const hostile = [
  `x;=cmd|' /C calc'!A0`,
  'x,=1+1',
  'x\t=2+2',
  '=3+3',
  'a;@SUM(1;2)',
  'b,+4+4',
  'c;-5-5',
  'd;"=6+6"',
  'e;x,=7+7',
];

/** The cells Calc makes of `path` split at `separator`, each with whether it holds a formula. */
function calcCells(path: string, separator: ';' | ','): { text: string; formula: boolean }[] {
  const out = mkdtempSync(join(folder, 'calc-'));
  // Tokens: separator, quote, UTF-8, first line, formats, language, quoted field as text (no), special numbers,
  // -, -, trim spaces (no), -, evaluate formulas (yes: as Excel does).
  const options = `${separator.charCodeAt(0)},34,76,1,,1033,false,true,false,false,false,-1,true`;
  const converted = spawnSync(
    'soffice',
    [
      `-env:UserInstallation=file://${join(folder, 'profile')}`,
      '--headless',
      `--infilter=Text - txt - csv (StarCalc):${options}`,
      '--convert-to',
      'fods',
      '--outdir',
      out,
      path,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  expect({ status: converted.status, stderr: converted.status === 0 ? '' : converted.stderr }).toEqual({
    status: 0,
    stderr: '',
  });
  const name = path.replace(/^.*\//, '').replace(/\.csv$/, '.fods');
  const document = readFileSync(join(out, name), 'utf8');
  return [...document.matchAll(/<table:table-cell([^>]*)>(.*?)<\/table:table-cell>/gs)].map((match) => ({
    text: (match[2] ?? '').replace(/<[^>]+>/g, ''),
    formula: (match[1] ?? '').includes('table:formula='),
  }));
}

describe.skipIf(soffice.missing)(`hostile cells opened in LibreOffice Calc at both separators${soffice.note}`, () => {
  it.each([',', ';'] as const)(
    'a report and an errors file written with %j hold no formula for either reader',
    (delimiter) => {
      const name = delimiter === ',' ? 'comma' : 'semicolon';
      const reportPath = join(folder, `${name}.report.csv`);
      const report = new ReportWriter(reportPath, { excel: delimiter === ';' });
      report.write(hostile.map((text, index) => ({ line: index + 2, key: text, outcome: 'failed', message: text })));
      report.close();
      const errorsPath = join(folder, `${name}.errors.csv`);
      const errors = new ErrorsWriter(errorsPath, { kind: 'csv', headers: ['document', 'name'], delimiter });
      for (const [index, text] of hostile.entries()) errors.write([text, text], text, index + 2);
      errors.close();

      for (const path of [reportPath, errorsPath]) {
        for (const separator of [',', ';'] as const) {
          const cells = calcCells(path, separator);
          // The hostile texts did reach the sheet (the conversion read the file), and none became a formula.
          expect(cells.some((cell) => cell.text.includes('=cmd|'))).toBe(true);
          expect(
            cells.filter((cell) => cell.formula),
            `${path} split at ${separator}`,
          ).toEqual([]);
        }
      }
    },
  );
});
