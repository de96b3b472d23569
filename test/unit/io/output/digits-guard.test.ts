/**
 * The `'` an errors file puts before a code a spreadsheet would read as a value of its own and save back otherwise
 * (`000123` as `123`, a 13-digit EAN as `7,89123E+12`, `2.10` as `2.1`, `+123` as `123`, `1/2` as a date), and the reading that takes it off: whether b2bctl wrote it or an ERP did.
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
    // Calc (pt-BR or en-US) reads every one of these as a number, a date, a time, a percentage, an amount or a
    // boolean, and saves it back written its own way (the round trip in errors-file-leading-zeros.test.ts).
    ['2.10', "'2.10"],
    ['+123', "'+123"],
    ['-0001', "'-0001"],
    ['1,50', "'1,50"],
    ['1.500', "'1.500"],
    ['00012,5', "'00012,5"],
    ['000.123', "'000.123"],
    ['1.234,5', "'1.234,5"],
    ['1,234.5', "'1,234.5"],
    ['1E5', "'1E5"],
    ['1e-5', "'1e-5"],
    ['.5', "'.5"],
    [',5', "',5"],
    ['1/2', "'1/2"],
    ['1/2/3', "'1/2/3"],
    ['01/02/2026', "'01/02/2026"],
    ['2026-01-01', "'2026-01-01"],
    ['2026-01-01 10:00', "'2026-01-01 10:00"],
    ['12:30', "'12:30"],
    ['12:30 PM', "'12:30 PM"],
    ['1 PM', "'1 PM"],
    ['3 jan', "'3 jan"],
    ['jan 3', "'jan 3"],
    ['3-Jan-2026', "'3-Jan-2026"],
    ['50%', "'50%"],
    ['1.5 %', "'1.5 %"],
    ['(123)', "'(123)"],
    ['$5', "'$5"],
    ['R$ 5', "'R$ 5"],
    [' 000123', "' 000123"],
    [' 12', "' 12"],
    ['12 ', "'12 "],
    ['true', "'true"],
    ['FALSE', "'FALSE"],
    ['verdadeiro', "'verdadeiro"],
    ["'2.10", "''2.10"],
    // Calc with "detect special numbers" reads a trailing sign as the number's and a month with a year as a date.
    ['123-', "'123-"],
    ['1.5-', "'1.5-"],
    ['Dec 2026', "'Dec 2026"],
    ['March 2026', "'March 2026"],
    ['dez/2026', "'dez/2026"],
    ['março 2026', "'março 2026"],
    ['dezembro 2026', "'dezembro 2026"],
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
    '1A',
    'E5',
    '1E',
    'AB-1',
    // A CPF, a CEP, a CNPJ: marks no number or date has.
    '529.982.247-25',
    '01310-100',
    '11.222.333/0001-81',
    'MARCA-1',
    'CAFE',
    'P-10',
    // An integer Calc and Excel write back digit for digit.
    '-123',
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

  it.each(['2.10', '+123', '2026-01-01', '3 jan'])("'%s reads as it was written, in any file", (code) => {
    for (const errors of [true, false]) expect(readFormulaGuard('sku', `'${code}`, errors)).toEqual({ text: code });
  });

  it('a text the formula guard writes is read by that guard, not taken for a value (-5-5 is no number)', () => {
    expect(guardDigitsText('-5-5')).toBe('-5-5');
    expect(readFormulaGuard('sku', "'-5-5", true)).toEqual({ text: '-5-5' });
    expect(readFormulaGuard('sku', "'-5-5", false).problem).toMatch(/a ' before = \+ - @ is the mark/);
  });

  it('the formula guard is read as before', () => {
    expect(readFormulaGuard('name', "'=1+1", true)).toEqual({ text: '=1+1' });
    expect(readFormulaGuard('name', "'=1+1", false).problem).toMatch(/a ' before = \+ - @ is the mark/);
  });
});
