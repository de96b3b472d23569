import { candidatePaths, firstAt, isArray, isRecord } from './shapes.js';

/**
 * Listings. The document shows the sales rep listing as a bare array ending with `[]`; a gateway
 * may wrap pages in an envelope (`{"content":[...]}`, `{"data":[...]}`). An empty 200 ends the listing.
 */

export const recognisedListPaths = [
  '',
  'data',
  'items',
  'content',
  'results',
  'records',
  'rows',
  'sellers',
  'list',
  'data.items',
  'data.content',
] as const;

/** The records of a listing page, or undefined when no recognised place holds an array. */
export function readListingPage(body: unknown, setting?: string): unknown[] | undefined {
  if (body === undefined || body === null) return [];
  const found = firstAt(body, candidatePaths(setting, recognisedListPaths), isArray)?.value;
  if (found) return found;
  // An envelope holding no records at all (`{}`, `{"total":0,"items":null}`) is an empty page; one
  // holding objects we cannot place is not guessed at.
  const holdsRecords =
    isRecord(body) && Object.values(body).some((value) => value !== null && typeof value === 'object');
  return isRecord(body) && !holdsRecords ? [] : undefined;
}

/** Names a listing's envelope gives its figures under, beside (or instead of) its records. */
const pagingFigures = new Set([
  'total',
  'count',
  'totalcount',
  'totalelements',
  'totalpages',
  'pages',
  'page',
  'size',
  'offset',
  'limit',
  'hasmore',
  'next',
  'previous',
  'items',
  'data',
  'content',
  'results',
  'records',
]);

/**
 * readListingPage for a route b2bctl knows nothing of (`b2bctl api`): an envelope is an empty page only when every
 * field it has is a paging figure (`{}`, `{"total":0,"items":null}`). Another object is no listing: a queued batch's
 * `{"batchId":…}` or a 200 `{"status":"ERROR","message":…}` read as "no items" would lose what it says.
 */
export function readListingPageStrictly(body: unknown): unknown[] | undefined {
  const page = readListingPage(body);
  if (page === undefined || page.length > 0 || !isRecord(body)) return page;
  if (firstAt(body, candidatePaths(undefined, recognisedListPaths), isArray) !== undefined) return page;
  return Object.keys(body).every((key) => pagingFigures.has(key.toLowerCase().replace(/[^a-z]/g, '')))
    ? page
    : undefined;
}

/** Where a listing page holds its array, for `b2bctl doctor`: `''` for a bare array. */
export function locateListingPage(body: unknown, setting?: string): { path: string; count: number } | undefined {
  if (body === undefined || body === null) return { path: '(empty body)', count: 0 };
  const found = firstAt(body, candidatePaths(setting, recognisedListPaths), isArray);
  return found ? { path: found.path, count: found.value.length } : undefined;
}
