import { describe, expect, it } from 'vitest';
import {
  correiosCheckDigit,
  isCorreios,
  trackingCodeProblem,
  trackingUrlProblem,
} from '../../../src/domain/tracking.js';

/** A tracking link of exactly `length` characters. */
const link = (length: number) => `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`;

describe('Correios object codes', () => {
  it.each([
    ['12345678', 5],
    ['47312482', 9],
    ['00000000', 5],
  ])('the check digit of %s is %i', (serial, digit) => {
    expect(correiosCheckDigit(serial)).toBe(digit);
  });

  it.each(['SS123456785BR', 'PN473124829BR', 'AA000000005BR'])('%s is a valid code', (code) => {
    expect(trackingCodeProblem(code)).toBeUndefined();
    expect(trackingCodeProblem(code, 'Correios')).toBeUndefined();
  });

  it.each([
    ['SS123456784BR', undefined, 'should be 5'],
    ['PN473124820BR', 'correios', 'should be 9'],
    ['SS12345678BR', 'Correios', 'two upper-case letters, eight digits'],
    ['', undefined, 'needs its tracking code'],
  ])('%s (carrier %s) is refused: %s', (code, carrier, reason) => {
    expect(trackingCodeProblem(code, carrier)).toContain(reason);
  });

  // The S10 rule of the UPU, worked by hand: the eight serial digits times the weights 8 6 4 2 3 5 9 7, summed; the
  // remainder of that sum by 11 gives the check digit: remainder 0 gives 5, remainder 1 gives 0, any other r gives
  // 11 - r. The serials below differ in their last digit only, which weighs 7, so each remainder is reached on
  // purpose. 4731248x: 4*8 + 7*6 + 3*4 + 1*2 + 2*3 + 4*5 + 8*9 = 32 + 42 + 12 + 2 + 6 + 20 + 72 = 186, plus 7x.
  // 1234567x: 1*8 + 2*6 + 3*4 + 4*2 + 5*3 + 6*5 + 7*9 = 8 + 12 + 12 + 8 + 15 + 30 + 63 = 148, plus 7x.
  describe.each([
    // 186 + 7*8 = 242 = 22*11 + 0: remainder 0, check digit 5 (not 11 - 0 = 11, which has two digits).
    { remainder: 0, serial: '47312488', digit: 5, wrongRule: 0 },
    // 148 + 7*4 = 176 = 16*11 + 0: remainder 0, check digit 5.
    { remainder: 0, serial: '12345674', digit: 5, wrongRule: 1 },
    // 186 + 7*5 = 221 = 20*11 + 1: remainder 1, check digit 0 (not 11 - 1 = 10, which has two digits).
    { remainder: 1, serial: '47312485', digit: 0, wrongRule: 5 },
    // 148 + 7*1 = 155 = 14*11 + 1: remainder 1, check digit 0.
    { remainder: 1, serial: '12345671', digit: 0, wrongRule: 1 },
    // 186 + 7*0 = 186 = 16*11 + 10: remainder 10, check digit 11 - 10 = 1.
    { remainder: 10, serial: '47312480', digit: 1, wrongRule: 0 },
    // 148 + 7*7 = 197 = 17*11 + 10: remainder 10, check digit 1.
    { remainder: 10, serial: '12345677', digit: 1, wrongRule: 0 },
  ])('weighted sum with remainder $remainder: serial $serial', ({ serial, digit, wrongRule }) => {
    it(`has check digit ${digit}`, () => {
      expect(correiosCheckDigit(serial)).toBe(digit);
    });

    it(`PN${serial}${digit}BR is valid, for Correios named or guessed from the code`, () => {
      expect(trackingCodeProblem(`PN${serial}${digit}BR`)).toBeUndefined();
      expect(trackingCodeProblem(`PN${serial}${digit}BR`, 'Correios')).toBeUndefined();
    });

    // The digit a plausible wrong rule gives for this remainder (11 - r kept to one digit, or 0 and 5 swapped).
    it(`PN${serial}${wrongRule}BR is refused as mistyped, naming ${digit}`, () => {
      expect(trackingCodeProblem(`PN${serial}${wrongRule}BR`, 'Correios')).toBe(
        `the Correios check digit (the 11th character) should be ${digit}; a digit was mistyped`,
      );
    });
  });

  // One serial digit mistyped, the check digit left as it was: the code a hurried hand sends.
  it.each([
    // 4731248[8→5]: 221, remainder 1, so 0 is due and the 5 of 47312488 is wrong.
    ['PN473124855BR', 0],
    // 4731248[5→0]: 186, remainder 10, so 1 is due and the 0 of 47312485 is wrong.
    ['PN473124800BR', 1],
    // 4731248[0→8]: 242, remainder 0, so 5 is due and the 1 of 47312480 is wrong.
    ['PN473124881BR', 5],
  ])('%s, one serial digit mistyped, is refused naming %i', (code, digit) => {
    expect(trackingCodeProblem(code)).toBe(
      `the Correios check digit (the 11th character) should be ${digit}; a digit was mistyped`,
    );
  });

  it('takes other carriers’ codes as free text, capped', () => {
    expect(trackingCodeProblem('JD-0001-XYZ', 'Jadlog')).toBeUndefined();
    // A Correios-looking code of another carrier is that carrier's business.
    expect(trackingCodeProblem('SS123456784BR', 'Total Express')).toBeUndefined();
    expect(trackingCodeProblem('x'.repeat(65), 'Jadlog')).toContain('at most 64');
  });
});

describe('which codes are Correios codes (survivors of the mutation run)', () => {
  it.each([
    // A blank carrier names none: the code's shape decides, so a Correios code's check digit is checked.
    ['SS123456784BR', '   ', 'should be 5'],
    // The carrier's name is trimmed and its accents dropped before it is read.
    ['SS123456784BR', '  Correios ', 'should be 5'],
    ['SS123456784BR', 'Sédex 10', 'should be 5'],
    // The post's legal name is the post.
    ['SS123456784BR', 'Empresa Brasileira de Correios e Telégrafos', 'should be 5'],
    ['SS123456784BR', 'PAC', 'should be 5'],
    // A Correios code is the whole cell: nothing before it or after it.
    ['XSS123456785BR', 'Correios', 'two upper-case letters, eight digits'],
    ['SS123456785BRX', 'Correios', 'two upper-case letters, eight digits'],
  ])('%s (carrier %j) is refused: %s', (code, carrier, reason) => {
    expect(trackingCodeProblem(code, carrier)).toContain(reason);
  });

  it('reads the code trimmed, and a carrier that only mentions the Correios later in its name is another carrier', () => {
    expect(trackingCodeProblem('  SS123456785BR  ')).toBeUndefined();
    expect(isCorreios(undefined, ' ss123456785br ')).toBe(true);
    expect(trackingCodeProblem('SS123456784BR', 'Total Express via Correios')).toBeUndefined();
  });

  it('refuses a code a spreadsheet turned into a number, and control characters, for any carrier', () => {
    expect(trackingCodeProblem('1.23457E+12', 'Jadlog')).toContain('scientific');
    expect(trackingCodeProblem('JD\u00071', 'Jadlog')).toBe('a tracking code must not contain control characters');
  });

  it('takes a code of exactly 64 characters', () => {
    expect(trackingCodeProblem('x'.repeat(64), 'Jadlog')).toBeUndefined();
  });
});

describe('tracking links', () => {
  it('accepts https', () => {
    expect(
      trackingUrlProblem('https://rastreamento.correios.com.br/app/index.php?objeto=SS123456785BR'),
    ).toBeUndefined();
  });

  it('takes a link of exactly 2,048 characters, not one more', () => {
    expect(trackingUrlProblem(link(2048))).toBeUndefined();
    expect(trackingUrlProblem(link(2049))).toBe('a tracking link has at most 2048 characters');
  });

  it.each([
    ['https://user@example.com/', 'user name or password'],
    ['http://example.com/t/1', 'must be https'],
    ['rastreio/1', 'not a URL'],
    ['https://user:pw@example.com/', 'user name or password'],
    ['javascript:alert(1)', 'must be https'],
  ])('refuses %s', (url, reason) => {
    expect(trackingUrlProblem(url)).toContain(reason);
  });
});
