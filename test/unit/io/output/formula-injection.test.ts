/** Formula injection (issue 10, item 12): what b2bctl writes for Excel, and reading its own errors file back. */
import { describe, expect, it } from 'vitest';
import { csvLine, neutralizeFormula, restoreFormula } from '../../../../src/io/output/csv-format.js';

describe('neutralizeFormula and restoreFormula', () => {
  it.each([
    ['=HYPERLINK("http://x";"y")', `'=HYPERLINK("http://x";"y")`],
    ['+55 11 98765-4321', `'+55 11 98765-4321`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\t=1', `'\t=1`],
    ['\r=1', `'\r=1`],
  ])('%j is prefixed with a quote, and read back as written', (text, written) => {
    expect(neutralizeFormula(text)).toBe(written);
    expect(restoreFormula(written)).toBe(text);
  });

  it.each(['-5', '+3', '-1234,50', '1.234,50', 'Ana', '', "'quoted by the user", 'a=b'])(
    '%j is left alone both ways',
    (text) => {
      expect(neutralizeFormula(text)).toBe(text);
      expect(restoreFormula(text)).toBe(text);
    },
  );

  it('csvLine neutralises before quoting, so the quote prefix sits inside the CSV quotes', () => {
    expect(csvLine(['=1+1', 'a;b', '-5'], ';')).toBe(`'=1+1;"a;b";-5\r\n`);
    expect(csvLine(['=HYPERLINK("x")'])).toBe(`"'=HYPERLINK(""x"")"\r\n`);
  });
});
