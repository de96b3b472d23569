/** Formula injection (issue 10, item 12): what b2bctl writes for Excel, and reading its own errors file back. */
import { describe, expect, it } from 'vitest';
import { csvLine, neutralizeFormula, restoreFormula } from '../../../../src/io/output/csv-format.js';

describe('neutralizeFormula and restoreFormula', () => {
  it.each([
    ['=HYPERLINK("http://x";"y")', `'=HYPERLINK("http://x";"y")`],
    ['+55 11 98765-4321', `'+55 11 98765-4321`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\t=1', `'\t'=1`],
    ['\r=1', `'\r'=1`],
  ])('%j is prefixed with a quote, and read back as written', (text, written) => {
    expect(neutralizeFormula(text)).toBe(written);
    expect(restoreFormula(written)).toBe(text);
  });

  it.each([
    // A text that starts with an apostrophe before a formula start (a password): one more is written, one read off.
    ["'@Xy9#k2", "''@Xy9#k2"],
    ["'-Maria", "''-Maria"],
    ["Fundos;'+casa", "Fundos;''+casa"],
    ["''=x", "'''=x"],
  ])('%j, already quoted by its author, keeps its apostrophe through the errors file', (text, written) => {
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

  it.each([
    [`x;=cmd|' /C calc'!A0`, `x;'=cmd|' /C calc'!A0`],
    ['a,=1+1', "a,'=1+1"],
    ['a\t@SUM(A1)', "a\t'@SUM(A1)"],
    ['=1;+2x,-3-1\t@4', "'=1;'+2x,'-3-1\t'@4"],
    ['x;"=1+1"', `x;"'=1+1"`],
    ['a;\r=1', "a;'\r'=1"],
    ['a\t\t=1', "a\t'\t'=1"],
    // After a line break: a reader at the other separator sees the quotes mid-field, and the break starts a row.
    ['Fundos\n=HYPERLINK("http://evil";"Click");', `Fundos\n'=HYPERLINK("http://evil";"Click");`],
    ['x\r\n@SUM(A1)', "x\r\n'@SUM(A1)"],
    ['x\n-2+3', "x\n'-2+3"],
    // A pt-BR spreadsheet reads a decimal comma inside the cell: `-1,5+…` is one formula, though its piece `-1` is a
    // number (a user test: DDE and HYPERLINK through the `--excel` CSV).
    [`-1,5+cmd|' /C calc'!A0`, `'-1,5+cmd|' /C calc'!A0`],
    ['-1,5+SUM(10;20)', "'-1,5+SUM(10;20)"],
    ['+0,0+HYPERLINK("http://evil.example/";"clique")', `'+0,0+HYPERLINK("http://evil.example/";"clique")`],
    ['-1,+2;3', "'-1,'+2;3"],
  ])(
    '%j: every piece a ; , tab or line-break reader would make a cell of is neutralised, and read back as written',
    (text, written) => {
      expect(neutralizeFormula(text)).toBe(written);
      expect(restoreFormula(written)).toBe(text);
    },
  );

  it.each(['1,-5', 'Rua A, 12; fundos', 'a;b;c'])('%j (numbers and words after separators) is left alone', (text) => {
    expect(neutralizeFormula(text)).toBe(text);
    expect(restoreFormula(text)).toBe(text);
  });

  it('reads back every neutralised text it wrote (seeded random cells of separators, quotes and formula starts)', () => {
    const alphabet = ['=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '"', "'", "'", '1', 'a', ' '];
    const misread: string[] = [];
    const live: string[] = [];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let round = 0; round < 20000; round++) {
      let text = '';
      const length = next() % 9;
      for (let index = 0; index < length; index++) text += alphabet[next() % alphabet.length];
      const written = neutralizeFormula(text);
      if (restoreFormula(written) !== text) misread.push(text);
      for (const piece of written.split(/[,;\t\r\n]/)) {
        const first = piece.replace(/^"*/, '');
        if (first === '') continue;
        if (/^[=+\-@\r]/.test(first) && !/^[+-]?\d+([.,]\d+)*$/.test(first)) live.push(written);
      }
    }
    expect({ misread, live }).toEqual({ misread: [], live: [] });
  });

  it('csvLine neutralises before quoting, so the quote prefix sits inside the CSV quotes', () => {
    expect(csvLine(['=1+1', 'a;b', '-5'], ';')).toBe(`'=1+1;"a;b";-5\r\n`);
    expect(csvLine(['=HYPERLINK("x")'])).toBe(`"'=HYPERLINK(""x"")"\r\n`);
  });
});
