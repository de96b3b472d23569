import { describe, expect, it } from 'vitest';
import { CompactKeySet, cyrb53 } from '../../../src/lib/compact-key-set.js';

/** Eleven-digit keys, as CPFs are: similar strings are the hard case for a hash. */
const keyOf = (index: number) => String(index).padStart(11, '0');
/** The same keys out of order (7919 is prime to every count used here): the tables, not the ascending run, hold them. */
const scrambledKeyOf = (index: number, keys: number) => keyOf((index * 7919) % keys);

describe('CompactKeySet', () => {
  it.each<[string, [string, number][], (number | undefined)[], number]>([
    [
      'new keys',
      [
        ['a', 2],
        ['b', 3],
      ],
      [undefined, undefined],
      2,
    ],
    [
      'a repeat returns the first line',
      [
        ['111.444.777-35', 2],
        ['x', 3],
        ['111.444.777-35', 9],
      ],
      [undefined, undefined, 2],
      2,
    ],
    [
      'a third repeat still returns the first line, not the second',
      [
        ['k', 5],
        ['k', 7],
        ['k', 11],
      ],
      [undefined, 5, 5],
      1,
    ],
    [
      'keys differing only in case are different',
      [
        ['Ana@x.com', 2],
        ['ana@x.com', 3],
      ],
      [undefined, undefined],
      2,
    ],
    [
      'the empty key is a key',
      [
        ['', 2],
        ['', 4],
      ],
      [undefined, 2],
      1,
    ],
    [
      'line 0 is remembered as 0',
      [
        ['z', 0],
        ['z', 1],
      ],
      [undefined, 0],
      1,
    ],
    [
      'accented keys',
      [
        ['São Paulo', 2],
        ['Sao Paulo', 3],
        ['São Paulo', 4],
      ],
      [undefined, undefined, 2],
      2,
    ],
  ])('%s', (_name, adds, expected, size) => {
    const set = new CompactKeySet();
    expect(adds.map(([key, line]) => set.addOrGetLine(key, line))).toEqual(expected);
    expect(set.size).toBe(size);
  });

  it.each([1, 100, 1024])('survives growth past an initial capacity of %i with 100,000 keys', (initialCapacity) => {
    const set = new CompactKeySet(initialCapacity);
    const reportedAsRepeats: number[] = [];
    for (let index = 0; index < 100_000; index++)
      if (set.addOrGetLine(keyOf(index), index + 2) !== undefined) reportedAsRepeats.push(index);
    expect(reportedAsRepeats).toEqual([]);
    expect(set.size).toBe(100_000);
    // Every key is still there with its own first line after every growth.
    const wrong: number[] = [];
    for (let index = 0; index < 100_000; index++)
      if (set.addOrGetLine(keyOf(index), 999_999) !== index + 2) wrong.push(index);
    expect(wrong).toEqual([]);
    expect(set.size).toBe(100_000);
    expect(set.addOrGetLine('not there', 1)).toBeUndefined();
    expect(set.size).toBe(100_001);
  });

  it.each<[string, (index: number) => string]>([
    ['ascending (noted in order, no table)', (index) => keyOf(index)],
    [
      'ascending, then one out of order (the tables filled from the run)',
      (index) => keyOf(index === 150_000 ? 3 : index),
    ],
    ['out of order from the start', (index) => scrambledKeyOf(index, 200_003)],
  ])('keys %s: each repeat gives the first line', (_name, key) => {
    const set = new CompactKeySet(1000);
    const firstLine = new Map<string, number>();
    const wrong: string[] = [];
    for (let index = 0; index < 200_003; index++) {
      const found = set.addOrGetLine(key(index), index + 2);
      if (found !== firstLine.get(key(index))) wrong.push(`${key(index)}: ${found}`);
      if (!firstLine.has(key(index))) firstLine.set(key(index), index + 2);
    }
    expect(wrong).toEqual([]);
    expect(set.size).toBe(firstLine.size);
    // Asked again, in any order, every key names its first line.
    for (const index of [0, 65_535, 65_536, 150_000, 200_002])
      expect(set.addOrGetLine(key(index), 1)).toBe(firstLine.get(key(index)));
  });

  it('an ascending run holds about 12 bytes a key; once broken, the tables at most 18', () => {
    const set = new CompactKeySet(250_000);
    for (let index = 1; index <= 250_000; index++) set.addOrGetLine(keyOf(index), index + 2);
    expect(set.byteLength / 250_000).toBeLessThanOrEqual(13);
    expect(set.addOrGetLine(keyOf(1), 9)).toBe(3);
    expect(set.byteLength / 250_000).toBeLessThanOrEqual(18);
  });

  it('lineOf looks a key up without adding it, in an ascending run and in the tables it breaks into', () => {
    const set = new CompactKeySet();
    for (let index = 1; index <= 1_000; index++) set.addOrGetLine(keyOf(index * 2), index + 1);
    // Above the run's last key: not there, and the run stays (12 bytes a key).
    expect(set.lineOf(keyOf(5_000))).toBeUndefined();
    expect(set.byteLength).toBe(65_536 * 12);
    // Below it: the tables are made to answer.
    expect(set.lineOf(keyOf(2))).toBe(2);
    expect(set.lineOf(keyOf(3))).toBeUndefined();
    expect(set.lineOf(keyOf(2_000))).toBe(1_001);
    expect(set.size).toBe(1_000);
    expect(set.addOrGetLine(keyOf(3), 7)).toBeUndefined();
    expect(set.lineOf(keyOf(3))).toBe(7);
    expect(new CompactKeySet().lineOf('none')).toBeUndefined();
  });

  it('keeps line numbers past 65,535 (a million-row file)', () => {
    const set = new CompactKeySet();
    set.addOrGetLine('late', 1_000_001);
    expect(set.addOrGetLine('late', 1_000_002)).toBe(1_000_001);
  });
});

describe('cyrb53', () => {
  it.each([
    ['', 0],
    ['a', 0],
    ['111.444.777-35', 0],
    ['111.444.777-35', 1],
    ['São Paulo', 0],
  ])('is deterministic for %j (seed %i)', (text, seed) => {
    const first = cyrb53(text, seed);
    expect(cyrb53(text, seed)).toBe(first);
    expect(Number.isSafeInteger(first)).toBe(true);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(2 ** 53);
  });

  // The examples published with the algorithm (github.com/bryc/code, jshash/experimental/cyrb53.js).
  it.each<[string, number, number]>([
    ['a', 0, 7929297801672961],
    ['b', 0, 8684336938537663],
    ['revenge', 0, 4051478007546757],
    ['revenue', 0, 8309097637345594],
    ['revenue', 1, 8697026808958300],
  ])('cyrb53(%j, %i) is the published %i', (text, seed, expected) => {
    expect(cyrb53(text, seed)).toBe(expected);
  });

  it('depends on the seed and on every character', () => {
    expect(cyrb53('abc', 1)).not.toBe(cyrb53('abc', 2));
    expect(cyrb53('abc')).not.toBe(cyrb53('abd'));
    expect(cyrb53('abc')).not.toBe(cyrb53('bac'));
  });

  it('spreads 100,000 similar keys with no collision', () => {
    const hashes = new Set<number>();
    for (let index = 0; index < 100_000; index++) hashes.add(cyrb53(`cliente${index}@example.com`));
    expect(hashes.size).toBe(100_000);
  });
});

describe('CompactKeySet memory', () => {
  it('made for the keys it is told to expect, holds them without growing', () => {
    const set = new CompactKeySet(100_000);
    set.addOrGetLine('~ after every digit', 1);
    set.addOrGetLine('0 before them: the tables are made', 1);
    const before = set.byteLength;
    for (let index = 0; index < 100_000; index++) set.addOrGetLine(keyOf(index), index + 2);
    expect(set.byteLength).toBe(before);
    set.addOrGetLine('one more than expected', 1);
    for (let index = 0; index < 10_000; index++) set.addOrGetLine(`more ${index}`, index);
    expect(set.byteLength).toBeGreaterThan(before);
  });

  // Growth by a quarter at 85% keeps every table 68-85% full: at most 12 / 0.68 ≈ 17.7 bytes a key (plus the
  // sixteen tables' rounding). Growth by half left tables 57% full at some sizes, 21 bytes a key.
  it.each([20_000, 50_000, 76_000, 100_000, 115_000, 250_000])('holds at most 18 bytes a key at %i keys', (keys) => {
    const set = new CompactKeySet();
    for (let index = 0; index < keys; index++) set.addOrGetLine(scrambledKeyOf(index, keys), index + 2);
    expect(set.byteLength / keys).toBeLessThanOrEqual(18);
    expect(set.byteLength / keys).toBeGreaterThanOrEqual(12 / 0.85);
  });
});
