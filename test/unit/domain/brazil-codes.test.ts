import { describe, expect, it } from 'vitest';
import {
  checkCnae,
  checkStateRegistration,
  federativeUnits,
  isFederativeUnit,
} from '../../../src/domain/brazil-codes.js';

describe('federative units', () => {
  it('lists the 27 UFs', () => {
    expect(federativeUnits).toHaveLength(27);
    expect(new Set(federativeUnits).size).toBe(27);
  });

  it.each([
    { value: 'SP', expected: true },
    { value: 'DF', expected: true },
    { value: 'TO', expected: true },
    { value: 'sp', expected: false },
    { value: 'São Paulo', expected: false },
    { value: 'XX', expected: false },
  ])('$value -> $expected', ({ value, expected }) => {
    expect(isFederativeUnit(value)).toBe(expected);
  });
});

describe('checkStateRegistration', () => {
  it.each([
    { raw: 'ISENTO', expected: { ok: true, exempt: true, digits: '' } },
    { raw: 'isento', expected: { ok: true, exempt: true, digits: '' } },
    { raw: '110.042.490.114', expected: { ok: true, exempt: false, digits: '110042490114' } },
    { raw: '12', expected: { ok: true, exempt: false, digits: '12' } },
    { raw: '12345678901234', expected: { ok: true, exempt: false, digits: '12345678901234' } },
    { raw: '1', expected: { ok: false, reason: 'a state registration has 2 to 14 digits, or is ISENTO' } },
    {
      raw: '123456789012345',
      expected: { ok: false, reason: 'a state registration has 2 to 14 digits, or is ISENTO' },
    },
    {
      raw: 'P-01100424.3/002',
      expected: { ok: false, reason: 'a state registration has 2 to 14 digits, or is ISENTO' },
    },
  ])('$raw', ({ raw, expected }) => {
    expect(checkStateRegistration(raw)).toEqual(expected);
  });
});

describe('checkCnae', () => {
  it.each([
    { raw: '6201-5/00', expected: { ok: true, formatted: '6201-5/00' } },
    { raw: '6201500', expected: { ok: true, formatted: '6201-5/00' } },
    { raw: '62015', expected: { ok: false, reason: 'a CNAE subclass has 7 digits, written NNNN-N/NN' } },
    { raw: '6201-5', expected: { ok: false, reason: 'a CNAE subclass has 7 digits, written NNNN-N/NN' } },
    { raw: 'abc', expected: { ok: false, reason: 'a CNAE subclass has 7 digits, written NNNN-N/NN' } },
  ])('$raw', ({ raw, expected }) => {
    expect(checkCnae(raw)).toEqual(expected);
  });
});
