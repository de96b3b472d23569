import { describe, expect, it } from 'vitest';
import {
  entryDigest,
  stampCoarserThanMillisecond,
  stampMayLieIn,
  stampSpanMs,
} from '../../../src/domain/coarse-stamps.js';
import { mayBeListedFrom, newVersions, rememberedKeys } from '../../../src/domain/orders-window.js';

describe('stampCoarserThanMillisecond: a stamp two updates within it cannot be told apart by', () => {
  it.each([
    ['2026-11-30T23:04Z', true],
    ['2026-11-30T23:04:53Z', true],
    ['2026-11-30T23:04:53-03:00', true],
    ['2026-11-30 23:04:53', true],
    ['2026-11-30T23:04:53.000Z', true],
    ['2026-11-30', true],
    ['2026-11-30T23:04:53.417Z', false],
    ['2026-11-30T23:04:53,4Z', false],
    ['2026-11-30T23:04:53.000417Z', false],
  ])('%s: %s', (written, coarse) => {
    expect(stampCoarserThanMillisecond(written)).toBe(coarse);
  });

  it('epoch seconds are coarse; epoch milliseconds only on a whole second', () => {
    expect(stampCoarserThanMillisecond(1_796_079_893)).toBe(true);
    expect(stampCoarserThanMillisecond(1_796_079_893_000)).toBe(true);
    expect(stampCoarserThanMillisecond(1_796_079_893_417)).toBe(false);
  });
});

describe('entryDigest and rememberedKeys', () => {
  it('the same entry whatever the order of its fields; another status is another digest', () => {
    const entry = { id: 2, status: 'AWAITING_PAYMENT', totals: { total: 102, items: 1 } };
    expect(entryDigest({ totals: { items: 1, total: 102 }, status: 'AWAITING_PAYMENT', id: 2 })).toBe(
      entryDigest(entry),
    );
    expect(entryDigest({ ...entry, status: 'CANCELED' })).not.toBe(entryDigest(entry));
  });

  it('a version under a coarse stamp is keyed by its digest too; mayBeListedFrom still reads its instant', () => {
    const keys = rememberedKeys({ id: 2, lastUpdated: '2026-11-30T23:04:00.000Z', contentDigest: 'abc' });
    // The first as a release before this one reads it; the second tells entries under the same stamp apart.
    expect(keys).toEqual(['2@2026-11-30T23:04:00.000Z', '2@2026-11-30T23:04:00.000Z#abc']);
    const key = keys[1] as string;
    // Remembered a minute past its stamp: a listing filtering by the true instant lists it that long.
    expect(mayBeListedFrom(key, Date.parse('2026-11-30T23:05:00.000Z'))).toBe(true);
    expect(mayBeListedFrom(key, Date.parse('2026-11-30T23:05:00.001Z'))).toBe(false);
    expect(mayBeListedFrom(keys[0] as string, Date.parse('2026-11-30T23:04:00.001Z'))).toBe(false);
  });
});

describe('newVersions under coarse stamps', () => {
  const at = '2026-11-30T23:04:00.000Z';
  it('a changed entry under the same stamp is new; the same entry again is not', () => {
    const emitted = new Set<string>();
    expect(newVersions([{ id: 2, lastUpdated: at, contentDigest: 'a' }], emitted)).toHaveLength(1);
    expect(newVersions([{ id: 2, lastUpdated: at, contentDigest: 'a' }], emitted)).toHaveLength(0);
    expect(newVersions([{ id: 2, lastUpdated: at, contentDigest: 'b' }], emitted)).toHaveLength(1);
  });

  it('a key without a digest (an older cursor) stands for the first entry met, then the digest counts', () => {
    const emitted = new Set([`2@${at}`]);
    expect(newVersions([{ id: 2, lastUpdated: at, contentDigest: 'a' }], emitted)).toHaveLength(0);
    expect([...emitted]).toEqual([`2@${at}`, `2@${at}#a`]);
    expect(newVersions([{ id: 2, lastUpdated: at, contentDigest: 'b' }], emitted)).toHaveLength(1);
  });
});

const window = (from: string, to: string) => ({ from: Date.parse(from), to: Date.parse(to) });

describe('stampSpanMs and stampMayLieIn: the span a coarse stamp stands for', () => {
  it.each([
    ['2026-11-30T23:04Z', 60_000],
    ['2026-11-30T23:04-03:00', 60_000],
    ['2026-11-30T23:04:53Z', 1000],
    ['2026-11-30T23:04:53.000Z', 1000],
    ['2026-11-30', 86_400_000],
    ['2026-11-30T23:04:53.417Z', 1],
  ])('%s: %i ms', (written, span) => {
    expect(stampSpanMs(written)).toBe(span);
  });

  it('an order stamped 23:35 may lie in a window starting at 23:35:14, not in one starting at 23:36', () => {
    const stamp = Date.parse('2026-11-30T23:35:00.000Z');
    expect(stampMayLieIn(stamp, 60_000, window('2026-11-30T23:35:14Z', '2026-11-30T23:40:00Z'))).toBe(true);
    expect(stampMayLieIn(stamp, 60_000, window('2026-11-30T23:36:00Z', '2026-11-30T23:40:00Z'))).toBe(false);
    expect(stampMayLieIn(stamp, 1, window('2026-11-30T23:35:14Z', '2026-11-30T23:40:00Z'))).toBe(false);
    expect(stampMayLieIn(stamp, 60_000, window('2026-11-30T23:30:00Z', '2026-11-30T23:34:59.999Z'))).toBe(false);
  });
});
