import { describe, expect, it } from 'vitest';
import {
  checkCnae,
  checkStateRegistration,
  federativeUnits,
  isFederativeUnit,
  stateAdvice,
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

describe('stateAdvice: what a state that is no UF should be (a user test)', () => {
  it.each([
    ['sp', 'write it in capitals (SP)'],
    [' rj ', 'write it in capitals (RJ)'],
    ['Sao Paulo', 'the UF of São Paulo is SP'],
    ['são  paulo', 'the UF of São Paulo is SP'],
    ['DISTRITO FEDERAL', 'the UF of Distrito Federal is DF'],
    ['Mato Grosso', 'the UF of Mato Grosso is MT'],
    ['XX', 'not one of the 27 UFs, such as SP'],
    ['Paulista', 'not one of the 27 UFs, such as SP'],
  ])('%s -> %s', (state, advice) => {
    expect(stateAdvice(state)).toBe(advice);
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
