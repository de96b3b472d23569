import { describe, expect, it } from 'vitest';
import { accessKeyCheckDigit, checkNfeAccessKey } from '../../../src/domain/nfe-key.js';

const now = Date.parse('2026-11-25T12:00:00Z');
/** A public example key (an NFC-e of Amazonas, October 2018). */
const publicExample = '13181017921427000125650010000000309887251170';
const sampleKey = '35261011222333000181550010000012341123456787';
const alphanumericKey = '35261012ABC34501DE35550010000012351123456785';

/** The key with the character at `index` replaced by `character`. */
function changed(key: string, index: number, character: string): string {
  return key.slice(0, index) + character + key.slice(index + 1);
}

describe('accessKeyCheckDigit', () => {
  it.each([
    [publicExample, 0],
    [sampleKey, 7],
    [alphanumericKey, 5],
    ['43261000360305000104550010000099991876543210', 0],
  ])('%s ends in %i', (key, digit) => {
    expect(accessKeyCheckDigit(key.slice(0, 43))).toBe(digit);
  });
});

describe('checkNfeAccessKey', () => {
  it('reads the public example: an NFC-e of Amazonas, accepted with a warning', () => {
    const check = checkNfeAccessKey(publicExample, now);
    expect(check).toMatchObject({
      ok: true,
      key: { state: 'AM', yearMonth: '2018-10', emitter: '17921427000125', model: '65', series: '001' },
    });
    expect(check.ok && check.warnings[0]).toContain('NFC-e');
  });

  it('accepts an NF-e (55) without warnings, and spaces between the groups', () => {
    expect(checkNfeAccessKey(sampleKey.replace(/(\d{4})/g, '$1 '), now)).toMatchObject({ ok: true, warnings: [] });
  });

  it('names what was copied instead of the key: the XML Id with its NFe prefix, or the file name', () => {
    expect(checkNfeAccessKey(`NFe${sampleKey}`, now)).toEqual({
      ok: false,
      reason: `that is the XML's infNFe Id: the key is what follows NFe, ${sampleKey}`,
    });
    expect(checkNfeAccessKey(`${sampleKey}.xml`, now)).toEqual({
      ok: false,
      reason: `that is a file's name: give the file with --xml, or the key alone, ${sampleKey}`,
    });
  });

  it('accepts an alphanumeric CNPJ in the key (letters valued ASCII minus 48)', () => {
    expect(checkNfeAccessKey(alphanumericKey, now)).toMatchObject({ ok: true, key: { emitter: '12ABC34501DE35' } });
  });

  it.each([...Array(43).keys()].map((index) => [index]))('refuses the example with digit %i changed', (index) => {
    const digit = publicExample[index] === '9' ? '0' : String(Number(publicExample[index]) + 1);
    const check = checkNfeAccessKey(changed(publicExample, index, digit), now);
    expect(check.ok).toBe(false);
  });

  it.each([
    [changed(publicExample, 43, '1'), 'check digit (the last one) does not match'],
    [publicExample.slice(1), 'has 44 characters, this one has 43'],
    [changed(alphanumericKey, 8, 'a'), 'must be upper case'],
    [changed(publicExample, 30, 'X'), 'digits only'],
    // Valid check digits over a state code that no state has (00), a month 13, a month ahead, a model 57 (CT-e).
    [withDigit(`00${publicExample.slice(2, 43)}`), '00 is not the IBGE code'],
    [withDigit(`351813${publicExample.slice(6, 43)}`), 'month of issue 13'],
    [withDigit(`352612${publicExample.slice(6, 43)}`), '2026-12 is in the future'],
    // A key of 2005: before NF-e existed.
    [withDigit(`350511${publicExample.slice(6, 43)}`), 'the month of issue 2005-11 is before the first NF-e (2006-01)'],
    [withDigit(`${publicExample.slice(0, 20)}57${publicExample.slice(22, 43)}`), 'model 57 is not an NF-e'],
    [withDigit(`${publicExample.slice(0, 6)}17921427000126${publicExample.slice(20, 43)}`), 'emitter CNPJ'],
  ])('refuses %s: %s', (key, reason) => {
    const check = checkNfeAccessKey(key, now);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toContain(reason);
  });

  it("takes a key of NF-e's first month, 2006-01", () => {
    expect(checkNfeAccessKey(withDigit(`350601${publicExample.slice(6, 43)}`), now)).toMatchObject({ ok: true });
  });

  it('judges the month in Brasília time: 1 December 01:00 UTC is still November there', () => {
    const december = withDigit(`352612${sampleKey.slice(6, 43)}`);
    expect(checkNfeAccessKey(december, Date.parse('2026-12-01T01:00:00Z')).ok).toBe(false);
    expect(checkNfeAccessKey(december, Date.parse('2026-12-01T04:00:00Z')).ok).toBe(true);
  });
});

function withDigit(first43: string): string {
  return first43 + String(accessKeyCheckDigit(first43));
}
