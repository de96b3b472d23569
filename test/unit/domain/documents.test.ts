import { describe, expect, it } from 'vitest';
import {
  checkDocument,
  documentInPath,
  documentKindOfType,
  documentLookupKey,
  documentTypeOfKind,
  looksLikeDocument,
} from '../../../src/domain/documents.js';

describe('checkDocument: the vectors of docs/brazil.md', () => {
  it.each([
    { raw: '529.982.247-25', kind: 'cpf', normalized: '52998224725', formatted: '529.982.247-25' },
    { raw: '111.444.777-35', kind: 'cpf', normalized: '11144477735', formatted: '111.444.777-35' },
    // Valid check digits; cpf-cnpj-validator rejects it through a blocklist, the platform does not.
    { raw: '123.456.789-09', kind: 'cpf', normalized: '12345678909', formatted: '123.456.789-09' },
    { raw: '12.ABC.345/01DE-35', kind: 'cnpj', normalized: '12ABC34501DE35', formatted: '12.ABC.345/01DE-35' },
    { raw: '11.222.333/0001-81', kind: 'cnpj', normalized: '11222333000181', formatted: '11.222.333/0001-81' },
    { raw: '00.360.305/0001-04', kind: 'cnpj', normalized: '00360305000104', formatted: '00.360.305/0001-04' },
    { raw: 'A1.B2C.3D4/1A2B-62', kind: 'cnpj', normalized: 'A1B2C3D41A2B62', formatted: 'A1.B2C.3D4/1A2B-62' },
  ])('$raw is a valid $kind', ({ raw, kind, normalized, formatted }) => {
    expect(checkDocument(raw)).toEqual({ ok: true, kind, normalized, formatted });
  });

  it.each([
    { raw: '529.982.247-24', reason: 'CPF check digits do not match' },
    { raw: '123.456.789-10', reason: 'CPF check digits do not match' },
    { raw: '111.111.111-11', reason: 'repeated digits are not a valid CPF' },
    { raw: '11.222.333/0001-80', reason: 'CNPJ check digits do not match' },
    { raw: '12.ABC.345/01DE-36', reason: 'CNPJ check digits do not match' },
    { raw: '12.ABC.345/01DE-3A', reason: 'CNPJ check digits are always digits' },
    { raw: '00.000.000/0000-00', reason: 'repeated digits are not a valid CNPJ' },
  ])('$raw is rejected: $reason', ({ raw, reason }) => {
    expect(checkDocument(raw)).toEqual({ ok: false, reason });
  });
});

describe('checkDocument: more cases', () => {
  it.each([
    {
      name: 'every repeated-digit CPF',
      raws: Array.from({ length: 10 }, (_, digit) => String(digit).repeat(11)),
      reason: 'repeated digits are not a valid CPF',
    },
    {
      name: 'every repeated-digit CNPJ',
      raws: Array.from({ length: 10 }, (_, digit) => String(digit).repeat(14)),
      reason: 'repeated digits are not a valid CNPJ',
    },
  ])('$name', ({ raws, reason }) => {
    for (const raw of raws) expect(checkDocument(raw)).toEqual({ ok: false, reason });
  });

  it.each([
    { name: 'CPF without punctuation', raw: '52998224725', formatted: '529.982.247-25' },
    {
      name: 'CPF check digits 91 (Banco do Brasil-like low number)',
      raw: '000.000.001-91',
      formatted: '000.000.001-91',
    },
    { name: 'CNPJ of Banco do Brasil, leading zeros kept', raw: '00000000000191', formatted: '00.000.000/0001-91' },
    { name: 'CNPJ of Petrobras', raw: '33.000.167/0001-01', formatted: '33.000.167/0001-01' },
    { name: 'surrounding and inner spaces', raw: ' 529 982 247 25 ', formatted: '529.982.247-25' },
    { name: 'punctuation anywhere is ignored', raw: '5299.82247/25', formatted: '529.982.247-25' },
    // The spaces a web page, a spreadsheet's number format or a copy from a PDF puts between digits.
    { name: 'a no-break space (U+00A0) between digits', raw: '100.007.919\u00A089', formatted: '100.007.919-89' },
    { name: 'a narrow no-break space (U+202F)', raw: '100\u202F007\u202F919-89', formatted: '100.007.919-89' },
    { name: 'a figure space (U+2007)', raw: '100.007.919\u200789', formatted: '100.007.919-89' },
    { name: 'a thin space (U+2009) in a CNPJ', raw: '33\u2009000\u2009167/0001-01', formatted: '33.000.167/0001-01' },
    { name: 'a tab between digits', raw: '100.007.919\t89', formatted: '100.007.919-89' },
    { name: 'an ideographic space (U+3000)', raw: '\u3000529982247\u300025', formatted: '529.982.247-25' },
    { name: 'alphanumeric CNPJ without punctuation', raw: '12ABC34501DE35', formatted: '12.ABC.345/01DE-35' },
  ])('accepts $name', ({ raw, formatted }) => {
    const check = checkDocument(raw);
    expect(check.ok && check.formatted).toBe(formatted);
  });

  it.each([
    {
      name: 'lower-case letters are not upper-cased silently',
      raw: '12.abc.345/01de-35',
      reason: 'CNPJ letters must be upper case',
    },
    { name: 'a CPF with a lower-case letter is told as a CPF', raw: '123.456.789-0x', reason: 'a CPF has only digits' },
    {
      name: 'a CPF with a word before it',
      raw: 'cpf 123.456.789-09',
      reason: 'a CPF has only digits: take the letters out',
    },
    {
      name: 'lower-case letters in a text of neither length',
      raw: 'abc123',
      reason: 'a CPF has 11 digits and a CNPJ 14 characters (digits and upper-case letters)',
    },
    {
      name: 'the A = 10 mapping of some libraries',
      raw: '12.ABC.345/01DE-45',
      reason: 'CNPJ check digits do not match',
    },
    { name: '10 digits', raw: '5299822472', reason: 'a CPF has 11 digits and a CNPJ 14 characters' },
    { name: '12 digits', raw: '529982247251', reason: 'a CPF has 11 digits and a CNPJ 14 characters' },
    {
      name: 'CNPJ that lost its leading zeros in a spreadsheet',
      raw: '191',
      reason:
        'a CPF has 11 digits and a CNPJ 14 characters; a leading zero was probably lost in a spreadsheet: 000.000.001-91 or 00.000.000/0001-91 would be valid',
    },
    { name: 'letters in a CPF', raw: '529.982.247-2A', reason: 'a CPF has only digits' },
    {
      name: 'other symbols',
      raw: '529*982*247-25',
      reason: 'a document holds only digits, upper-case letters and the punctuation . - /',
    },
    // Invisible but no space: the invisible-characters check names it before a document is read.
    {
      name: 'a zero-width space (U+200B) between digits',
      raw: '100.007.919\u200B89',
      reason: 'a document holds only digits, upper-case letters and the punctuation . - /',
    },
    { name: 'empty', raw: ' ', reason: 'empty' },
    { name: 'only no-break spaces', raw: '\u00A0\u202F', reason: 'empty' },
  ])('rejects $name', ({ raw, reason }) => {
    expect(checkDocument(raw)).toEqual({ ok: false, reason });
  });
});

describe('documentKindOfType', () => {
  it.each([
    { documentType: 'cpf', kind: 'cpf' },
    { documentType: 'pf', kind: 'cpf' },
    { documentType: 'cnpj', kind: 'cnpj' },
    { documentType: 'pj', kind: 'cnpj' },
    { documentType: 'CPF', kind: undefined },
    { documentType: 'PJ', kind: undefined },
    { documentType: ' pf', kind: undefined },
    { documentType: 'individual', kind: undefined },
    { documentType: '', kind: undefined },
  ])('$documentType -> $kind', ({ documentType, kind }) => {
    expect(documentKindOfType(documentType)).toBe(kind);
  });

  it('answers pf/pj for a kind', () => {
    expect([documentTypeOfKind('cpf'), documentTypeOfKind('cnpj')]).toEqual(['pf', 'pj']);
  });
});

describe('documentLookupKey', () => {
  it.each([
    { raw: '529.982.247-25', key: '52998224725' },
    { raw: '12.ABC.345/01DE-35', key: '12ABC34501DE35' },
    { raw: '12ABC34501DE35', key: '12ABC34501DE35' },
    { raw: '123', key: '123' },
    { raw: '100.007.919\u00A089', key: '10000791989' },
    { raw: '100\u202F007\u2007919-89', key: '10000791989' },
  ])('$raw -> $key', ({ raw, key }) => {
    expect(documentLookupKey(raw)).toBe(key);
  });
});

describe('looksLikeDocument: a word meant as a CPF or CNPJ rather than a file name', () => {
  it.each([
    ['529.982.247-25', true],
    ['52998224725', true],
    ['12345678909', true],
    ['10.314.187/0001-51', true],
    ['12.ABC.345/01DE-35', true],
    ['12ABC34501DE35', true],
    // Invalid, but typed as a document: its own check says what is wrong.
    ['123', true],
    ['12.ABC.345/01DE-3X', false],
    ['12abc34501de35', false],
    ['clientes.csv', false],
    ['2024-status', false],
    ['-', false],
    ['./-', false],
    ['', false],
  ])('%s: %s', (text, meant) => {
    expect(looksLikeDocument(text)).toBe(meant);
  });
});

describe('documentInPath', () => {
  it.each([
    ['11.222.333/0001-81', 'as-written', '11.222.333/0001-81'],
    ['11.222.333/0001-81', 'digits', '11222333000181'],
    ['111.444.777-35', 'digits', '11144477735'],
    ['12.ABC.345/01DE-35', 'digits', '12ABC34501DE35'],
    ['11222333000181', 'digits', '11222333000181'],
    ['./-', 'digits', './-'],
  ] as const)('%s %s: %s', (document, spelling, expected) => {
    expect(documentInPath(document, spelling)).toBe(expected);
  });
});
