/**
 * The report and the errors file opened as people open them: LibreOffice Calc with formulas evaluated, splitting at
 * `,` and at `;` (pt-BR Excel splits a comma file at `;`). A hostile cell must come out as text in either.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorsWriter, ReportWriter } from '../../../src/bulk/report.js';
import { requireTools } from '../../support/external-tools.js';
import { convertedByCalc } from '../../support/libreoffice.js';
import { temporaryFolder } from '../../support/temporary.js';

const soffice = requireTools('soffice');
const folder = temporaryFolder('b2bctl-formulas-');

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
  // A line break inside the cell: a reader at the other separator starts a row there.
  'Fundos\n=HYPERLINK("http://evil";"Click");',
  'f\n=8+8;',
  'g\r\n@SUM(9;9)',
];

/** The cells Calc makes of each of `paths` split at `separator` (one soffice run for all), with whether each is a formula. */
function calcCells(paths: string[], separator: ';' | ','): Map<string, { text: string; formula: boolean }[]> {
  const out = mkdtempSync(join(folder, 'calc-'));
  // Tokens: separator, quote, UTF-8, first line, formats, language, quoted field as text (no), special numbers,
  // -, -, trim spaces (no), -, evaluate formulas (yes: as Excel does).
  const options = `${separator.charCodeAt(0)},34,76,1,,1033,false,true,false,false,false,-1,true`;
  convertedByCalc({
    folder,
    infilter: `Text - txt - csv (StarCalc):${options}`,
    convertTo: 'fods',
    outdir: out,
    files: paths,
    timeoutMs: 540_000,
  });
  const cells = new Map<string, { text: string; formula: boolean }[]>();
  for (const path of paths) {
    const document = readFileSync(join(out, basename(path).replace(/\.csv$/, '.fods')), 'utf8');
    cells.set(
      path,
      // An empty cell is self-closing: read as an opening tag, it would take the next cell's attributes as its text.
      [...document.matchAll(/<table:table-cell([^>]*?)(?:\/>|>(.*?)<\/table:table-cell>)/gs)].map((match) => ({
        text: (match[2] ?? '').replace(/<[^>]+>/g, ''),
        formula: (match[1] ?? '').includes('table:formula='),
      })),
    );
  }
  return cells;
}

/** A report and an errors file as a run writes them with `delimiter`, every row hostile. */
function writeFiles(delimiter: ',' | ';'): string[] {
  const name = delimiter === ',' ? 'comma' : 'semicolon';
  const reportPath = join(folder, `${name}.report.csv`);
  const report = new ReportWriter(reportPath, { excel: delimiter === ';' });
  report.write(hostile.map((text, index) => ({ line: index + 2, key: text, outcome: 'failed', message: text })));
  report.close();
  const errorsPath = join(folder, `${name}.errors.csv`);
  const errors = new ErrorsWriter(errorsPath, { kind: 'csv', headers: ['document', 'name'], delimiter });
  for (const [index, text] of hostile.entries()) errors.write([text, text], text, index + 2);
  errors.close();
  return [reportPath, errorsPath];
}

describe.skipIf(soffice.missing)(`hostile cells opened in LibreOffice Calc at both separators${soffice.note}`, () => {
  // Two soffice runs of four files each: minutes on a loaded machine, seconds on a quiet one.
  it(
    'reports and errors files written with , and with ; hold no formula for a , or a ; reader',
    { timeout: 1_200_000 },
    () => {
      const paths = [...writeFiles(','), ...writeFiles(';')];
      for (const separator of [',', ';'] as const) {
        for (const [path, cells] of calcCells(paths, separator)) {
          // The hostile texts did reach the sheet (the conversion read the file), and none became a formula.
          expect(cells.some((cell) => cell.text.includes('=cmd|'))).toBe(true);
          expect({ path, separator, formulas: cells.filter((cell) => cell.formula) }).toEqual({
            path,
            separator,
            formulas: [],
          });
        }
      }
    },
  );
});
