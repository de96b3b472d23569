/** What spreadsheets do to documents typed as numbers (issue 10, item 5): lost leading zeros and scientific notation. */
import { describe, expect, it } from 'vitest';
import { checkDocument, documentWithLostZeros, type DocumentKind } from '../../../src/domain/documents.js';

describe('checkDocument on documents a spreadsheet mangled', () => {
  it.each([
    ['a CPF that lost one zero (10 digits)', '1234567890', '012.345.678-90'],
    ['a CPF that lost two zeros (9 digits)', '123456797', '001.234.567-97'],
    ['a CNPJ that lost two zeros (12 digits)', '360305000104', '00.360.305/0001-04'],
    ['a CNPJ that lost one zero (13 digits)', '1234567000195', '01.234.567/0001-95'],
    // As short as 3 digits: a CPF and a CNPJ both check, so both are named.
    ['3 digits, either document with its zeros back', '191', '000.000.001-91 or 00.000.000/0001-91'],
  ])('%s: names the valid document with its zeros back', (_name, typed, valid) => {
    for (const document of valid.split(' or ')) expect(checkDocument(document)).toMatchObject({ ok: true });
    expect(checkDocument(typed)).toEqual({
      ok: false,
      reason: `a CPF has 11 digits and a CNPJ 14 characters; a leading zero was probably lost in a spreadsheet: ${valid} would be valid`,
    });
  });

  it.each([
    ['10 digits that no zero makes valid', '1234567891'],
    ['12 characters with a letter', '12ABC3450001'],
  ])('%s: no hint', (_name, typed) => {
    expect(checkDocument(typed)).toEqual({ ok: false, reason: 'a CPF has 11 digits and a CNPJ 14 characters' });
  });

  it.each(['1,12223E+13', '1.12223E+13', '1,12223e13', '6E+10'])('%s: Excel scientific notation', (typed) => {
    expect(checkDocument(typed)).toEqual({
      ok: false,
      reason: 'Excel showed this number in scientific notation; format the column as Text and export again',
    });
  });
});

describe('documentWithLostZeros: the document of a kind the record names, its zeros put back', () => {
  it.each<[string, string, DocumentKind, string]>([
    // 00.078.057/0001-03 typed as a number: 11 digits, which checkDocument alone reads as a CPF.
    ['a CNPJ that lost three zeros', '78057000103', 'cnpj', '00.078.057/0001-03'],
    ['a CNPJ that lost five zeros', '123456797', 'cnpj', '00.000.123/4567-97'],
    ['a CNPJ that lost two zeros', '360305000104', 'cnpj', '00.360.305/0001-04'],
    ['a CPF that lost one zero', '1234567890', 'cpf', '012.345.678-90'],
    ['a CPF that lost nine zeros', '191', 'cpf', '000.000.001-91'],
    ['punctuation ignored', '78.057.000/103', 'cnpj', '00.078.057/0001-03'],
  ])('%s: %s as %s is %s', (_name, typed, kind, valid) => {
    expect(documentWithLostZeros(typed, kind)).toBe(valid);
    expect(checkDocument(valid)).toMatchObject({ ok: true, kind });
  });

  it.each<[string, string, DocumentKind]>([
    ['a whole CNPJ', '00078057000103', 'cnpj'],
    ['11 digits are no CPF short of zeros', '78057000103', 'cpf'],
    ['12 digits are no CPF', '360305000104', 'cpf'],
    ['no zeros make it valid', '12345678', 'cnpj'],
    ['a letter: no number a spreadsheet shortened', '7805700010A', 'cnpj'],
    ['empty', '', 'cnpj'],
  ])('%s: %s as %s, none', (_name, typed, kind) => {
    expect(documentWithLostZeros(typed, kind)).toBeUndefined();
  });
});
