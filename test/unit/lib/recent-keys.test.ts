import { describe, expect, it } from 'vitest';
import { RecentKeys } from '../../../src/lib/recent-keys.js';

describe('RecentKeys', () => {
  it('remembers the last keys noted up to its bound, forgetting the oldest first', () => {
    const keys = new RecentKeys(3);
    for (const key of ['a', 'b', 'c', 'd']) keys.note(key);
    expect(['a', 'b', 'c', 'd'].map((key) => keys.has(key))).toEqual([false, true, true, true]);
  });

  it('a key noted again becomes the newest, so it outlives older ones', () => {
    const keys = new RecentKeys(2);
    keys.note('a');
    keys.note('b');
    keys.note('a');
    keys.note('c');
    expect(['a', 'b', 'c'].map((key) => keys.has(key))).toEqual([true, false, true]);
  });
});
