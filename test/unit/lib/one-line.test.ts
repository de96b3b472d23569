import { describe, expect, it } from 'vitest';
import { collapsedOneLine, lineBreaksAsSpaces, printableOnOneLine } from '../../../src/lib/one-line.js';

// One text through the three folds: they agree on line breaks and differ on every other invisible character.
const text = 'Rua A,\r\n  12\tfundos\u001b[31m\u2028x ';

describe('the one-line folds', () => {
  it('lineBreaksAsSpaces takes each break with the white space around it, and keeps the rest', () => {
    expect(lineBreaksAsSpaces(text)).toBe('Rua A, 12\tfundos\u001b[31m\u2028x ');
  });

  it('printableOnOneLine folds the breaks and escapes every other invisible character', () => {
    expect(printableOnOneLine(text)).toBe('Rua A, 12\\tfundos\\u{1B}[31m\\u{2028}x ');
  });

  it('collapsedOneLine makes every control character and run of white space one space, and trims', () => {
    expect(collapsedOneLine(text)).toBe('Rua A, 12 fundos [31m x');
  });

  it.each([lineBreaksAsSpaces, printableOnOneLine, collapsedOneLine])('%o leaves a plain line as it is', (fold) => {
    expect(fold('HTTP 422: ok')).toBe('HTTP 422: ok');
  });
});
