import { describe, expect, it } from 'vitest';
import { correiosCheckDigit, trackingCodeProblem, trackingUrlProblem } from '../../../src/domain/tracking.js';

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

  it('takes other carriers’ codes as free text, capped', () => {
    expect(trackingCodeProblem('JD-0001-XYZ', 'Jadlog')).toBeUndefined();
    // A Correios-looking code of another carrier is that carrier's business.
    expect(trackingCodeProblem('SS123456784BR', 'Total Express')).toBeUndefined();
    expect(trackingCodeProblem('x'.repeat(65), 'Jadlog')).toContain('at most 64');
  });
});

describe('tracking links', () => {
  it('accepts https', () => {
    expect(
      trackingUrlProblem('https://rastreamento.correios.com.br/app/index.php?objeto=SS123456785BR'),
    ).toBeUndefined();
  });

  it.each([
    ['http://example.com/t/1', 'must be https'],
    ['rastreio/1', 'not a URL'],
    ['https://user:pw@example.com/', 'user name or password'],
    ['javascript:alert(1)', 'must be https'],
  ])('refuses %s', (url, reason) => {
    expect(trackingUrlProblem(url)).toContain(reason);
  });
});
