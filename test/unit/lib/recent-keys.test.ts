import { describe, expect, it } from 'vitest';
import { RecentPageKeys, rememberedPages } from '../../../src/lib/recent-keys.js';

/** Notes `count` keys `prefix-0`… in the page being read, then turns the page. */
function notePage(keys: RecentPageKeys, prefix: string, count: number): void {
  for (let index = 0; index < count; index++) keys.note(`${prefix}-${index}`);
  keys.turnPage();
}

describe('RecentPageKeys', () => {
  it('remembers the keys of the page being read and the pages before it up to its bound, forgetting older pages whole', () => {
    const keys = new RecentPageKeys(3);
    notePage(keys, 'first', 2);
    notePage(keys, 'second', 2);
    notePage(keys, 'third', 2);
    // The fourth page is being read: the first is forgotten, the second and third are kept.
    keys.note('fourth-0');
    expect(['first-1', 'second-0', 'second-1', 'third-1', 'fourth-0'].map((key) => keys.has(key))).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it('an item shifted across a page boundary, even past a whole page, is still known', () => {
    // Pages of 5: items 0-4, then 5-9; 7 items added at the head before the third page make it start with item 3.
    const keys = new RecentPageKeys(rememberedPages);
    notePage(keys, 'item', 5);
    for (const index of [5, 6, 7, 8, 9]) keys.note(`item-${index}`);
    keys.turnPage();
    expect([3, 4, 5, 6, 7].map((index) => keys.has(`item-${index}`))).toEqual([true, true, true, true, true]);
  });

  it('holds at most its bound of pages of keys after 1,000 pages of 500', () => {
    const keys = new RecentPageKeys(rememberedPages);
    for (let page = 0; page < 1000; page++) notePage(keys, `page${page}`, 500);
    expect(rememberedPages).toBe(3);
    // The page being read is empty: the two full pages before it are all that is kept.
    expect(keys.size).toBe((rememberedPages - 1) * 500);
    keys.note('page1000-0');
    expect(keys.size).toBe((rememberedPages - 1) * 500 + 1);
    expect([keys.has('page997-0'), keys.has('page998-499'), keys.has('page999-0')]).toEqual([false, true, true]);
  });
});
