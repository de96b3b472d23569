import { describe, expect, it } from 'vitest';
import { LineKeys, LineSet, PlaceKeys, PlaceSet } from '../../../src/bulk/resume.js';

describe('LineKeys', () => {
  it('is FNV-1a over the key (the published 32-bit values), never 0', () => {
    expect(LineKeys.hash('')).toBe(0x811c9dc5);
    expect(LineKeys.hash('a')).toBe(0xe40c292c);
    expect(LineKeys.hash('foobar')).toBe(0xbf9cf968);
  });

  it('a line without a row matches any key; a line with one matches its key only', () => {
    const keys = new LineKeys();
    keys.set(3, 'SKU-1');
    expect(keys.matches(3, 'SKU-1')).toBe(true);
    expect(keys.matches(3, 'SKU-2')).toBe(false);
    expect(keys.matches(2, 'anything')).toBe(true);
    expect(new LineKeys().matches(1024, 'just past the first block')).toBe(true);
    expect(keys.matches(5_000_000, 'anything')).toBe(true);
  });

  it('grows past its first 1,024 lines and keeps what it held', () => {
    const keys = new LineKeys();
    keys.set(1023, 'edge');
    keys.set(1024, 'past');
    keys.set(100_000, 'far');
    expect(keys.matches(1023, 'edge')).toBe(true);
    expect(keys.matches(1024, 'edge')).toBe(false);
    expect(keys.matches(1024, 'past')).toBe(true);
    expect(keys.matches(100_000, 'near')).toBe(false);
    expect(keys.matches(100_000, 'far')).toBe(true);
  });
});

describe('PlaceKeys and PlaceSet', () => {
  it('keep lines and the elements of a minified JSON array apart', () => {
    const keys = new PlaceKeys();
    keys.set({ line: 4 }, 'line-key');
    keys.set({ line: 1, element: 4 }, 'element-key');
    expect(keys.matches({ line: 4 }, 'line-key')).toBe(true);
    expect(keys.matches({ line: 4 }, 'element-key')).toBe(false);
    expect(keys.matches({ line: 1, element: 4 }, 'element-key')).toBe(true);
    expect(keys.matches({ line: 1, element: 4 }, 'line-key')).toBe(false);

    const set = new PlaceSet();
    set.add({ line: 4 });
    set.add({ line: 1, element: 7 });
    set.add({ line: 1, element: 7 });
    expect(set.has({ line: 4 })).toBe(true);
    expect(set.has({ line: 1, element: 4 })).toBe(false);
    expect(set.has({ line: 7 })).toBe(false);
    expect(set.has({ line: 1, element: 7 })).toBe(true);
    expect(set.count).toBe(2);
  });

  it('a LineSet grown to exactly the byte a line needs holds it', () => {
    const set = new LineSet();
    set.add(1024 * 8);
    expect(set.has(1024 * 8)).toBe(true);
    expect(set.has(1024 * 8 + 1)).toBe(false);
    expect(set.has(1024 * 8 * 4)).toBe(false);
  });
});
