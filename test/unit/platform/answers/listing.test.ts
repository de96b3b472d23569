import { describe, expect, it } from 'vitest';
import { locateListingPage, readListingPage } from '../../../../src/platform/answers/listing.js';

describe('readListingPage: listings bare or in an envelope', () => {
  const reps = [{ id: '1' }, { id: '2' }];
  it.each([
    ['a bare array', reps, ''],
    ['content (Spring pages)', { content: reps, totalElements: 2 }, 'content'],
    ['data', { data: reps }, 'data'],
    ['items', { items: reps, total: 2 }, 'items'],
  ])('%s', (_name, body, path) => {
    expect(readListingPage(body)).toEqual(reps);
    expect(locateListingPage(body)).toEqual({ path, count: 2 });
  });

  it('an empty 200, or an envelope holding no records, is an empty page: the end of the listing', () => {
    expect(readListingPage(undefined)).toEqual([]);
    expect(readListingPage({})).toEqual([]);
    expect(readListingPage({ total: 0, items: null })).toEqual([]);
  });

  it('an object without a recognised array is undefined; answers.sellers.items names its field', () => {
    const body = { page: { reps } };
    expect(readListingPage(body)).toBeUndefined();
    expect(readListingPage(body, 'page.reps')).toEqual(reps);
  });
});
