import { describe, expect, it } from 'vitest';
import { normalizePhone } from '../../../src/domain/phone.js';

describe('normalizePhone', () => {
  it.each([
    { raw: '11987654321', digits: '11987654321', formatted: '(11) 98765-4321' },
    { raw: '(11) 98765-4321', digits: '11987654321', formatted: '(11) 98765-4321' },
    { raw: '1133334444', digits: '1133334444', formatted: '(11) 3333-4444' },
    { raw: '+55 11 98765-4321', digits: '11987654321', formatted: '(11) 98765-4321' },
    { raw: '5511987654321', digits: '11987654321', formatted: '(11) 98765-4321' },
    { raw: '551133334444', digits: '1133334444', formatted: '(11) 3333-4444' },
    // 55 is also a DDD of Rio Grande do Sul: 11 digits starting with 55 are not a country code.
    { raw: '55987654321', digits: '55987654321', formatted: '(55) 98765-4321' },
    { raw: '5532223333', digits: '5532223333', formatted: '(55) 3222-3333' },
    { raw: '21 2555.1234', digits: '2125551234', formatted: '(21) 2555-1234' },
    { raw: '(92) 5333-1234', digits: '9253331234', formatted: '(92) 5333-1234' },
  ])('$raw -> $formatted', ({ raw, digits, formatted }) => {
    expect(normalizePhone(raw)).toEqual({ ok: true, digits, formatted });
  });

  it.each([
    { raw: '', reason: 'empty' },
    { raw: '123', reason: 'a phone has 10 or 11 digits with the area code (DDD)' },
    { raw: '987654321', reason: 'a phone has 10 or 11 digits with the area code (DDD)' },
    { raw: '+1 415 555 0100', reason: 'not a Brazilian number: the country code is +55' },
    { raw: '+55 11 9876-54321 0', reason: 'a phone has 10 or 11 digits with the area code (DDD)' },
    { raw: '14155550100', reason: 'a mobile number has 9 digits and starts with 9' },
    { raw: '10987654321', reason: '10 is not a Brazilian area code (DDD)' },
    { raw: '20987654321', reason: '20 is not a Brazilian area code (DDD)' },
    { raw: '(23) 3333-4444', reason: '23 is not a Brazilian area code (DDD)' },
    { raw: '(52) 3333-4444', reason: '52 is not a Brazilian area code (DDD)' },
    { raw: '(72) 3333-4444', reason: '72 is not a Brazilian area code (DDD)' },
    { raw: '11887654321', reason: 'a mobile number has 9 digits and starts with 9' },
    { raw: '1193334444', reason: 'a landline number has 8 digits and starts with 2 to 5' },
    { raw: '1163334444', reason: 'a landline number has 8 digits and starts with 2 to 5' },
    { raw: '11 98765-4321 ramal 2', reason: 'a phone holds only digits, spaces and + ( ) - .' },
    // The long-distance prefix an ERP keeps: named, with the number as the platform writes it.
    {
      raw: '(011) 3333-4444',
      reason: 'the leading 0 is the long-distance prefix, which the number does not take: write (11) 3333-4444',
    },
    {
      raw: '011 98765-4321',
      reason: 'the leading 0 is the long-distance prefix, which the number does not take: write (11) 98765-4321',
    },
    { raw: '(010) 3333-4444', reason: '01 is not a Brazilian area code (DDD)' },
  ])('rejects $raw', ({ raw, reason }) => {
    expect(normalizePhone(raw)).toEqual({ ok: false, reason });
  });

  it('accepts exactly the 67 area codes of the pattern', () => {
    const accepted = Array.from({ length: 90 }, (_, index) => String(index + 10)).filter(
      (ddd) => normalizePhone(`${ddd}987654321`).ok,
    );
    expect(accepted).toHaveLength(67);
    expect(accepted).toEqual(
      expect.arrayContaining(['11', '21', '27', '31', '38', '51', '61', '71', '79', '81', '91', '99']),
    );
    expect(accepted).not.toEqual(expect.arrayContaining(['20']));
  });
});
