/**
 * The `'` an errors file puts before a code a spreadsheet would store as a number and lose (`000123` saved back as
 * `123`, a 13-digit EAN as `7,89123E+12`), and the reading that takes it off: whether b2bctl wrote it or an ERP did.
 */
import { describe, expect, it } from 'vitest';
import { guardDigitsText, restoreDigitsGuard } from '../../../../src/io/output/csv-format.js';
import { readFormulaGuard } from '../../../../src/io/input/cell-values.js';

describe('guardDigitsText', () => {
  it.each([
    ['000123', "'000123"],
    ['007890', "'007890"],
    ['00', "'00"],
    // 12 digits and more: Excel shows them in scientific notation and saves what it shows.
    ['789123456789', "'789123456789"],
    ['7891234567895', "'7891234567895"],
    ['12345678901234567890', "'12345678901234567890"],
    // A value that already starts with ' before such digits gets one more, so reading takes off only one.
    ["'000123", "''000123"],
  ])('%s is written %s', (text, written) => {
    expect(guardDigitsText(text)).toBe(written);
    expect(restoreDigitsGuard(written)).toBe(text);
  });

  it.each([
    '0',
    '123',
    '78912345678',
    'REJ-1',
    'A0001',
    '0001A',
    '00012,5',
    '000.123',
    '-0001',
    ' 000123',
    '',
    "'",
    "'123",
  ])('%j is left as it is, and read as it is', (text) => {
    expect(guardDigitsText(text)).toBe(text);
    expect(restoreDigitsGuard(text)).toBe(text);
  });
});

describe('readFormulaGuard with a code guarded', () => {
  it.each([true, false])(
    "'000123 reads 000123 (in an errors file: %s), as an ERP that writes it so means",
    (errors) => {
      expect(readFormulaGuard('sku', "'000123", errors)).toEqual({ text: '000123' });
      expect(readFormulaGuard('sku', "''000123", errors)).toEqual({ text: "'000123" });
    },
  );

  it('the formula guard is read as before', () => {
    expect(readFormulaGuard('name', "'=1+1", true)).toEqual({ text: '=1+1' });
    expect(readFormulaGuard('name', "'=1+1", false).problem).toMatch(/a ' before = \+ - @ is the mark/);
  });
});
