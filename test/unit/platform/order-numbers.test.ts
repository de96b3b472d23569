/**
 * The search of an order number over seeded random listings: any size, gaps in the numbering, a store that caps
 * its pages below the 25 asked, orders created while the search runs, and numbers out of listing order. Every
 * number is found (or its absence told) in a logarithmic number of requests when the numbers fall with the listing.
 */
import { describe, expect, it } from 'vitest';
import type { PlatformClient } from '../../../src/platform/client.js';
import { furthestSearchedOffset, OrderNumberIndex } from '../../../src/platform/order-numbers.js';
import { seededRandom } from '../../support/seeded-text.js';

interface Listed {
  id: number;
  orderId: number;
  lastUpdated: string;
}

/** A store's listing, newest first, behind the one call the index makes; `beforeEach` may change the store. */
function storeOf(newestFirst: Listed[], pageCap: number, beforeEach: () => void = () => undefined) {
  let requests = 0;
  const client = {
    session: { get: () => undefined },
    route: () => '/v1/orders',
    send: async ({ query }: { query: { limit: number; offset: number } }) => {
      requests++;
      beforeEach();
      const limit = Math.min(query.limit, pageCap);
      return { status: 200, body: newestFirst.slice(query.offset, query.offset + limit) };
    },
  } as unknown as PlatformClient;
  return { client, requests: () => requests };
}

/** `count` orders numbered upwards from 100,001 with gaps of 0 to `maxGap`, listed newest first. */
function listingOf(random: () => number, count: number, maxGap: number): Listed[] {
  let number = 100_000;
  const oldestFirst = Array.from({ length: count }, (_, index) => {
    number += 1 + Math.floor(random() * (maxGap + 1));
    return { id: index + 1, orderId: number, lastUpdated: '2026-11-28T10:00:00.000Z' };
  });
  return oldestFirst.toReversed();
}

describe('OrderNumberIndex', () => {
  it('finds every number, or says why not, in a logarithmic number of requests (seeded random listings)', async () => {
    const random = seededRandom(32);
    for (let round = 0; round < 60; round++) {
      const count = Math.floor(random() * 3000);
      const listing = listingOf(random, count, round % 3);
      const pageCap = [25, 20, 7][round % 3]!;
      // Gallop and bisection over pages of 25, then a page narrower than asked read again where it stopped.
      const bound = 2 * Math.ceil(Math.log2(count / 25 + 2)) + 4 + 2 * Math.ceil(25 / pageCap);
      const newest = listing[0]?.orderId ?? 100_000;
      const targets: { id?: number; orderId: number }[] = [
        ...Array.from({ length: 5 }, () => listing[Math.floor(random() * count)]).filter(
          (order) => order !== undefined,
        ),
        { id: undefined, orderId: 100_000 + Math.floor(random() * (newest - 99_990)) },
        { id: undefined, orderId: newest + 1 },
        { id: undefined, orderId: 100_000 },
      ];
      for (const target of targets) {
        const { client, requests } = storeOf(listing, pageCap);
        const found = await new OrderNumberIndex(client).find(String(target.orderId));
        const listed = listing.find((order) => order.orderId === target.orderId);
        const context = `round ${round}: ${count} orders, pages of ${pageCap}, number ${target.orderId}`;
        // The context rides in each compared object, so a failure names the round that failed.
        expect({ context, id: found.id }).toEqual({
          context,
          id: listed === undefined ? undefined : String(listed.id),
        });
        const searchedSaid = listed === undefined ? /^the (newest|oldest|listing)/.test(found.searched ?? '') : true;
        expect({ context, searchedSaid }).toEqual({ context, searchedSaid: true });
        expect({ context, withinBound: requests() <= bound }).toEqual({ context, withinBound: true });
      }
    }
  });

  it('finds a number while orders are created at the top of the listing during the search', async () => {
    const random = seededRandom(7);
    for (let round = 0; round < 30; round++) {
      const listing = listingOf(random, 2000, 1);
      let nextId = 2001;
      const { client } = storeOf(listing, 25, () => {
        for (let created = Math.floor(random() * 40); created > 0; created--)
          listing.unshift({ id: nextId++, orderId: listing[0]!.orderId + 1, lastUpdated: '2026-11-28T10:00:00.000Z' });
      });
      const target = listing[Math.floor(random() * listing.length)]!;
      const index = new OrderNumberIndex(client);
      expect((await index.find(String(target.orderId))).id, `round ${round}`).toBe(String(target.id));
      // A second search in the same run starts from the pages read, which the creations have pushed on.
      const older = listing[listing.length - 1 - Math.floor(random() * 500)]!;
      expect((await index.find(String(older.orderId))).id, `round ${round}, second`).toBe(String(older.id));
    }
  });

  it('an order that shows no number is passed over: its id is no number, and the others are still bisected', async () => {
    const listing: { id: number; orderId?: number; lastUpdated: string }[] = listingOf(seededRandom(5), 2000, 0);
    // Every tenth order without its number, on every page (the listing of a store that gives some none).
    for (let index = 5; index < listing.length; index += 10) delete listing[index]!.orderId;
    const numberless = listing[1055]!;
    const { client, requests } = storeOf(listing as Listed[], 25);
    const index = new OrderNumberIndex(client);
    const target = listing[1500]!;
    expect((await index.find(String(target.orderId))).id).toBe(String(target.id));
    // Bisected: far fewer than the 81 pages of a whole read.
    expect(requests()).toBeLessThan(20);
    // The id of a numberless order is not found as a number (no order has the number 945).
    expect((await index.find(String(numberless.id))).id).toBeUndefined();
  });

  it.each([
    ['the oldest 60 of 300, pages of 25', 300, 25, (index: number) => index >= 240],
    ['the oldest 60 of 300, pages of 10', 300, 10, (index: number) => index >= 240],
    ['the newest and the oldest of 40, pages of 1', 40, 1, (index: number) => index === 0 || index === 39],
    ['the newest 30 of 300, pages of 25', 300, 25, (index: number) => index < 30],
  ])('orders without a number, %s: every numbered order is found, the rest read to the end', async (...args) => {
    const [, count, pageCap, numberless] = args;
    const listing: { id: number; orderId?: number; lastUpdated: string }[] = listingOf(seededRandom(7), count, 0);
    listing.forEach((order, index) => numberless(index) && delete order.orderId);
    // A page of numberless orders bounds nothing: taken for newer orders, the search jumped past the target.
    for (const target of listing.filter((order) => order.orderId !== undefined)) {
      const found = await new OrderNumberIndex(storeOf(listing as Listed[], pageCap).client).find(
        String(target.orderId),
      );
      expect(found, `number ${target.orderId}`).toEqual({ id: String(target.id) });
    }
    expect(await new OrderNumberIndex(storeOf(listing as Listed[], pageCap).client).find('99999')).toEqual({
      searched: `the listing was read to its end: ${count} orders`,
    });
  });

  it('numbers out of listing order: the whole listing read, with a progress line every 1,000 orders', async () => {
    const random = seededRandom(11);
    const listing = listingOf(random, 2600, 0);
    const numbers = listing.map((order) => order.orderId);
    for (let index = numbers.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [numbers[index], numbers[other]] = [numbers[other]!, numbers[index]!];
    }
    listing.forEach((order, index) => (order.orderId = numbers[index]!));
    const lines: string[] = [];
    const { client, requests } = storeOf(listing, 20);
    const index = new OrderNumberIndex(client, (line) => lines.push(line));
    const last = listing.at(-1)!;
    expect((await index.find(String(last.orderId))).id).toBe(String(last.id));
    expect(await index.find('99999')).toEqual({ searched: 'the listing was read to its end: 2,600 orders' });
    expect(lines).toEqual([
      `order numbers are not in listing order: reading the whole listing for number ${last.orderId}, 800 orders read`,
      `order numbers are not in listing order: reading the whole listing for number ${last.orderId}, 1,600 orders read`,
      `order numbers are not in listing order: reading the whole listing for number ${last.orderId}, 2,400 orders read`,
    ]);
    // Pages of 20: 130 of them to the end, one empty page to know it, and the first page that showed the disorder.
    expect(requests()).toBe(1 + 130 + 1);
  });

  it('an order created before every request of a whole read: stopped as outrun, not as a listing ignoring the offset', async () => {
    // Numbers out of listing order (read in turn), and one order created at the head before every request: the last
    // order is answered again one place further down each time, on a listing that did page by offset until then.
    const listing = listingOf(seededRandom(3), 60, 0).map((order, index) => ({
      ...order,
      orderId: 200_000 + (index % 2) * 7 + index,
    }));
    let nextId = 61;
    const { client, requests } = storeOf(listing, 25, () => {
      listing.unshift({ id: nextId, orderId: 300_000 + nextId, lastUpdated: '2026-11-28T10:00:00.000Z' });
      nextId++;
    });
    const search = new OrderNumberIndex(client).find('99999');
    await expect(search).rejects.toThrow(
      /again at offset \d+, 5 times in a row: orders are created as fast as it is read; stopped the search for order number 99999/,
    );
    await expect(search).rejects.not.toThrow(/does not seem to page by offset/);
    expect(requests()).toBeLessThan(20);
  });

  it('a listing in number order that never ends: the search stops past the furthest offset, asking none beyond', async () => {
    // Every offset answers 25 orders, their numbers falling by one down the listing from 10^15: never the target.
    const asked: number[] = [];
    const client = {
      session: { get: () => undefined },
      route: () => '/v1/orders',
      send: async ({ query }: { query: { limit: number; offset: number } }) => {
        asked.push(query.offset);
        // A search that does not stop fails here rather than running on for ever.
        if (asked.length > 1000) throw new Error('the search went on past 1,000 requests');
        const body = Array.from({ length: query.limit }, (_, index) => ({
          id: query.offset + index + 1,
          orderId: String(10n ** 15n - BigInt(query.offset + index)),
          lastUpdated: '2026-11-28T10:00:00.000Z',
        }));
        return { status: 200, body };
      },
    } as unknown as PlatformClient;
    await expect(new OrderNumberIndex(client).find('5')).rejects.toThrow(
      'the order listing holds orders past offset 2,147,483,647: it does not seem to page by offset; stopped the search for order number 5 instead of reading it for ever.',
    );
    // The gallop (0, 25, 75, …) to the furthest offset, which is read too: 28 requests.
    expect(asked.at(-1)).toBe(furthestSearchedOffset);
    expect(asked).toHaveLength(28);
  });
});
