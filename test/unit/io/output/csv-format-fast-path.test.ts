/**
 * escapeCsvCell and neutralizeFormula read character codes instead of running regular expressions
 * (issue 14: a million-row report escapes six million cells); they must decide exactly as the
 * expressions they replaced, kept here as the reference, for every awkward cell.
 */
import { describe, expect, it } from 'vitest';
import { csvLine, escapeCsvCell, neutralizeFormula } from '../../../../src/io/output/csv-format.js';

function referenceEscape(text: string, delimiter = ','): string {
  if (text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim())
    return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/**
 * Each piece (split at `,`, `;`, tab or a line break, its opening quotes aside) that starts like a formula gets a
 * `'`; so does an empty one before a tab or a CR, as the cell a `,` or `;` reader makes of it starts with that
 * character.
 */
function referenceNeutralize(text: string): string {
  return text
    .split(/([,;\t\r\n])/)
    .map((piece, index, pieces) => {
      if (index % 2 === 1) return piece;
      const quotes = /^"*/.exec(piece)?.[0] ?? '';
      const rest = piece.slice(quotes.length);
      // Apostrophes already there before a formula start get one more, so reading back takes off only that one.
      if (/^'*$/.test(rest) && (pieces[index + 1] === '\t' || pieces[index + 1] === '\r')) return `${quotes}'${rest}`;
      const unquoted = rest.replace(/^'*/, '');
      // A number is told on the text to its line's end: a pt-BR reader makes one cell of `-1,5+x`.
      const lineRest =
        unquoted +
        pieces
          .slice(index + 1)
          .join('')
          .split(/[\r\n]/)[0];
      return /^[=+\-@\r]/.test(unquoted) && !/^[+-]?\d+([.,]\d+)*$/.test(lineRest) ? `${quotes}'${rest}` : piece;
    })
    .join('');
}

const edges = [
  '',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u200b',
  '\u0085',
  '!',
  '~',
  '\u007f',
  'é',
  '"',
  ';',
  ',',
  '=',
  '+',
  '-',
  '@',
  "'",
];
const middles = [
  '',
  'SKU-1',
  'a b',
  'a"b',
  'a\nb',
  'a\rb',
  'a,b',
  'a;b',
  '12',
  '3,5',
  '1.234,56',
  'São Paulo',
  '=HYPERLINK("x")',
  '\ud800',
];

const cells: string[] = [];
for (const before of edges)
  for (const middle of middles) for (const after of edges) cells.push(`${before}${middle}${after}`);

describe('the character-code fast paths of the CSV writer', () => {
  it(`escape and neutralise ${cells.length} awkward cells exactly as the regular expressions did`, () => {
    for (const delimiter of [',', ';', '\t']) {
      const mismatches = cells.filter((cell) => escapeCsvCell(cell, delimiter) !== referenceEscape(cell, delimiter));
      expect(mismatches.map((cell) => JSON.stringify(cell))).toEqual([]);
    }
    expect(cells.filter((cell) => neutralizeFormula(cell) !== referenceNeutralize(cell))).toEqual([]);
  });

  it('writes a report row as before', () => {
    expect(csvLine(['12', 'SKU "7"', 'queued', '202', '=1+1', ' edge'])).toBe(
      '12,"SKU ""7""",queued,202,\'=1+1," edge"\r\n',
    );
  });
});
