/** The one duration grammar, at its edges (every flag and setting that takes a time reads it). */
import { describe, expect, it } from 'vitest';
import { millisecondsIn, parseDuration, spokenDuration } from '../../../src/domain/duration.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['90s', 90_000],
    ['1.5s', 1_500],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['1.5h', 5_400_000],
    ['7d', 604_800_000],
    ['1w', 604_800_000],
    [' 3 H ', 10_800_000],
    ['0s', 0],
  ])('%j is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '15', 'm', '15x', '-2h', '2h ago', 'x2h', '1e3s', '.5s', '1.s'])('%j is no duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('a bare number counts in the unit the caller gives, and a written unit wins over it', () => {
    expect(parseDuration('30', 's')).toBe(30_000);
    expect(parseDuration('2500', 'ms')).toBe(2_500);
    expect(parseDuration('2m', 's')).toBe(120_000);
    expect(parseDuration('30')).toBeUndefined();
  });

  it('rounds to whole milliseconds and refuses what is past a safe integer', () => {
    expect(parseDuration('0.0004s')).toBe(0);
    expect(parseDuration('1.0006s')).toBe(1_001);
    expect(parseDuration(`${Number.MAX_SAFE_INTEGER}w`)).toBeUndefined();
  });

  it('knows each unit', () => {
    expect(['ms', 's', 'm', 'h', 'd', 'w'].map((unit) => millisecondsIn(unit as 'ms'))).toEqual([
      1, 1_000, 60_000, 3_600_000, 86_400_000, 604_800_000,
    ]);
  });
});

describe('spokenDuration', () => {
  it.each([
    [500, '0.5 s'],
    [30_000, '30 s'],
    [720_000, '12 min'],
    [72 * 3_600_000, '72 h'],
    [7 * 86_400_000, '7 days'],
    [500 * 86_400_000, '500 days'],
  ])('%d ms -> %s', (ms, spoken) => {
    expect(spokenDuration(ms)).toBe(spoken);
  });
});
