import { describe, expect, it } from 'vitest';
import { fieldsBesideList, readListingPageStrictly } from '../../../src/platform/answers/listing.js';

describe('a listing page read strictly (b2bctl api on a route it does not know)', () => {
  it('takes a bare array, and an envelope whose other fields are paging figures', () => {
    expect(readListingPageStrictly([{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(readListingPageStrictly({ items: [{ id: 1 }], total: 9, offset: 0, limit: 1 })).toEqual([{ id: 1 }]);
    // Spring's page, Laravel's, a cursor's, one nested under data.
    const spring = { content: [{ id: 1 }], pageable: {}, totalElements: 9, last: false, number: 0, sort: {} };
    expect(readListingPageStrictly(spring)).toEqual([{ id: 1 }]);
    const laravel = { data: [{ id: 1 }], current_page: 1, per_page: 1, last_page: 9, links: [], meta: {} };
    expect(readListingPageStrictly(laravel)).toEqual([{ id: 1 }]);
    expect(readListingPageStrictly({ results: [{ id: 1 }], next_cursor: 'x', has_more: true })).toEqual([{ id: 1 }]);
    expect(readListingPageStrictly({ data: { items: [{ id: 1 }], total: 1 } })).toEqual([{ id: 1 }]);
    expect(readListingPageStrictly({ total: 0, items: null })).toEqual([]);
    expect(readListingPageStrictly({})).toEqual([]);
  });

  it('refuses a record that holds a list among its own fields: an order and its lines, a batch, an error', () => {
    expect(readListingPageStrictly({ id: 217, status: 'PAID', items: [{ sku: 'A' }] })).toBeUndefined();
    expect(readListingPageStrictly({ data: { id: 217, items: [{ sku: 'A' }] } })).toBeUndefined();
    expect(readListingPageStrictly({ batchId: 'b-1' })).toBeUndefined();
    expect(readListingPageStrictly({ status: 'ERROR', message: 'no' })).toBeUndefined();
  });
});

describe('the fields that keep an object with a list from being a page (the line of api --paginate)', () => {
  it('names the list and every field beside it on the way that is no paging figure', () => {
    expect(fieldsBesideList({ status: 'ok', data: [{ id: 1 }] })).toEqual({ path: 'data', others: ['status'] });
    expect(fieldsBesideList({ data: [], success: true, total: 1 })).toEqual({ path: 'data', others: ['success'] });
    expect(fieldsBesideList({ data: { items: [{ id: 1 }], state: 'x' }, code: 0 })).toEqual({
      path: 'data.items',
      others: ['code', 'data.state'],
    });
  });

  it('is undefined for a page (only paging figures beside its list) and for an object with no list', () => {
    expect(fieldsBesideList({ items: [{ id: 1 }], total: 9, offset: 0 })).toBeUndefined();
    expect(fieldsBesideList({ status: 'ok', message: 'no list' })).toBeUndefined();
    expect(fieldsBesideList([{ id: 1 }])).toBeUndefined();
  });
});
