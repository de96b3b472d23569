import { describe, expect, it } from 'vitest';
import { cyrb53 } from '../../../src/lib/compact-key-set.js';
import { KeyFingerprintSet } from '../../../src/lib/key-fingerprints.js';

describe('KeyFingerprintSet', () => {
  it('says a key is new once, and repeated every time after, across every growth', () => {
    const set = new KeyFingerprintSet();
    const keys = Array.from({ length: 200_000 }, (_, index) => `key-${index}`);
    expect(keys.filter((key) => !set.add(key))).toEqual([]);
    expect(keys.filter((key) => set.add(key))).toEqual([]);
    expect(set.size).toBe(keys.length);
  });

  it('matches two keys with the same 53-bit hash: only the keys can tell them apart', () => {
    const set = new KeyFingerprintSet(() => 12345);
    expect(set.add('a')).toBe(true);
    expect(set.add('b')).toBe(false);
  });

  it('tells apart keys with the same 32-bit fingerprint in different regions (the hash’s top 12 bits)', () => {
    const hashes: Record<string, number> = { a: 99, b: 99 + 2 ** 41, c: 99 + 2 ** 52, d: 99 + 2 ** 45 + 2 ** 41 };
    const set = new KeyFingerprintSet((key) => hashes[key] as number);
    expect(['a', 'b', 'c', 'd'].map((key) => set.add(key))).toEqual([true, true, true, true]);
    expect(['a', 'b', 'c', 'd'].map((key) => set.add(key))).toEqual([false, false, false, false]);
  });

  it('keeps the fingerprint 0 (an empty slot’s mark) as a key', () => {
    const set = new KeyFingerprintSet((key) => (key === 'zero' ? 2 ** 41 : cyrb53(key)));
    expect(set.add('zero')).toBe(true);
    expect(set.add('zero')).toBe(false);
  });

  it('hands its memory back at once when released (the exact index replaces it)', () => {
    const set = new KeyFingerprintSet();
    for (let index = 0; index < 10_000; index++) set.add(String(index));
    expect(set.byteLength).toBeGreaterThan(40_000);
    set.release();
    // Its per-region counts (1 KB a group) stay.
    expect(set.byteLength).toBe(16 * 1024);
  });

  it('holds a million keys in under 7 bytes a key', () => {
    const set = new KeyFingerprintSet();
    for (let index = 0; index < 1_000_000; index++) set.add(`${index}@example.com`);
    expect(set.size).toBe(1_000_000);
    expect(set.byteLength / set.size).toBeLessThan(7);
    expect(set.byteLength / set.size).toBeGreaterThan(4);
  });
});
