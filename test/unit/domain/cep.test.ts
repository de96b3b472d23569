import { describe, expect, it } from 'vitest';
import { normalizeCep } from '../../../src/domain/cep.js';

describe('normalizeCep', () => {
  it.each([
    { raw: '01310-100', cep: '01310-100' },
    { raw: '01310100', cep: '01310-100' },
    { raw: ' 70100-000 ', cep: '70100-000' },
    { raw: '99999999', cep: '99999-999' },
  ])('accepts $raw as $cep', ({ raw, cep }) => {
    expect(normalizeCep(raw)).toEqual({ ok: true, cep });
  });

  it.each([
    { raw: '1310100', reason: '7 digits: a leading zero was probably lost in a spreadsheet; store the column as text' },
    { raw: '', reason: 'empty' },
    { raw: '01310-10', reason: 'a CEP has 8 digits, written NNNNN-NNN or NNNNNNNN' },
    { raw: '013101000', reason: 'a CEP has 8 digits, written NNNNN-NNN or NNNNNNNN' },
    { raw: '01.310-100', reason: 'a CEP has 8 digits, written NNNNN-NNN or NNNNNNNN' },
    { raw: '0131-0100', reason: 'a CEP has 8 digits, written NNNNN-NNN or NNNNNNNN' },
    { raw: 'ABCDE-FGH', reason: 'a CEP has 8 digits, written NNNNN-NNN or NNNNNNNN' },
  ])('rejects $raw', ({ raw, reason }) => {
    expect(normalizeCep(raw)).toEqual({ ok: false, reason });
  });
});
