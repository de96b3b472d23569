import { quotedJson } from '../../base/quoted-answer.js';
import { ExitCode, PlatformError } from '../../base/errors.js';
import { WrittenNumber } from '../../lib/written-json.js';
import { refusalSignOf } from './refusal-signs.js';
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

/**
 * The records of a listing page, or undefined when no recognised place holds an array, or when the answer is no page
 * at all (notAListingPage: the caller that checks it first names the answer).
 */
export function readListingPage(body: unknown, setting?: string): unknown[] | undefined {
  if (body === undefined || body === null) return [];
  if (notAListingPage(body, recognisedListPaths, setting) !== undefined) return undefined;
  const found = firstAt(body, candidatePaths(setting, recognisedListPaths), isArray)?.value;
  if (found) return found;
  // An envelope holding no records at all (`{}`, `{"total":0,"items":null}`) is an empty page; one
  // holding objects we cannot place is not guessed at.
  const holdsRecords =
    isRecord(body) && Object.values(body).some((value) => value !== null && typeof value === 'object');
  return isRecord(body) && !holdsRecords ? [] : undefined;
}

/**
 * How an answer that is JSON but neither an array nor an object is named (`null`, `false`, `a number`, `a JSON
 * string`); undefined for an array, an object or no body at all. No such answer is a page of a listing, nor its end
 * (the end is an empty page): a `null` answered with 200 in mid-listing, a backend's failed query serialised as
 * nothing, was read as the end, and the rest of the listing lost with exit 0 (a user test).
 */
export function notAPageValue(body: unknown): string | undefined {
  if (body === null || typeof body === 'boolean') return String(body);
  if (typeof body === 'number' || body instanceof WrittenNumber) return 'a number';
  return typeof body === 'string' ? 'a JSON string' : undefined;
}

/** A listing page's entries split into the records b2bctl can read and a count of the others. */
export interface ListingRecords<T> {
  records: T[];
  /** Entries that are no JSON object (`null`, a string, a number, an array): nothing to read of them. */
  notRecords: number;
}

/**
 * The entries of a listing page that are JSON objects. A listing holding a `null` or a bare string where a record
 * belongs (a deleted row a gateway or ORM could not load) is still the platform's 2xx: such entries are left out and
 * counted, for one warning a run (as orders poll does with entries it cannot read), never read as records.
 */
export function recordsOfListing<T>(entries: readonly unknown[]): ListingRecords<T> {
  const records = entries.filter(isRecord) as T[];
  return { records, notRecords: entries.length - records.length };
}

/**
 * Names a listing's envelope gives its records and figures under, beside (or instead of) its records: counts and
 * positions, links to other pages, Spring's page fields, a `meta` or `pagination` object. Compared lower case,
 * letters only (`total_count`, `totalCount`).
 */
const pagingFigures = new Set([
  'total',
  'count',
  'totalcount',
  'totalelements',
  'totalitems',
  'totalpages',
  'pages',
  'page',
  'size',
  'perpage',
  'pagesize',
  'currentpage',
  'lastpage',
  'number',
  'numberofelements',
  'first',
  'last',
  'empty',
  'sort',
  'pageable',
  'offset',
  'limit',
  'from',
  'to',
  'hasmore',
  'hasnext',
  'next',
  'previous',
  'prev',
  'nextpage',
  'prevpage',
  'nextcursor',
  'cursor',
  'nextpagetoken',
  'links',
  'link',
  'meta',
  'pagination',
  'paging',
  'items',
  'data',
  'content',
  'results',
  'records',
  'rows',
  'list',
  'sellers',
]);

const isPagingName = (key: string) => pagingFigures.has(key.toLowerCase().replace(/[^a-z]/g, ''));

/**
 * readListingPage for a route b2bctl knows nothing of (`b2bctl api`): an envelope is a page only when every field
 * it has, on the way to its records, is a paging figure (`{"content":[…],"totalElements":9}`, `{}`,
 * `{"total":0,"items":null}`). Another object is no listing: an order's detail with its lines in `items`, a queued
 * batch's `{"batchId":…}` or a 200 `{"status":"ERROR","message":…}`, read as its list or as "no items", would lose
 * what it says.
 */
export function readListingPageStrictly(body: unknown): unknown[] | undefined {
  const page = readListingPage(body);
  if (page === undefined || !isRecord(body)) return page;
  const found = firstAt(body, candidatePaths(undefined, recognisedListPaths), isArray);
  if (found === undefined) return Object.keys(body).every(isPagingName) ? page : undefined;
  // Each object from the root to the array: `data.items` checks the root's fields and then data's.
  let envelope: unknown = body;
  for (const name of found.path.split('.')) {
    if (!isRecord(envelope) || !Object.keys(envelope).every(isPagingName)) return undefined;
    envelope = envelope[name];
  }
  return page;
}

/**
 * Why readListingPageStrictly read no page from an object that holds a list where a listing's goes: the list's path
 * and the fields on the way to it that are no paging figure (`{"status":"ok","data":[…]}`: `status`). Undefined when
 * the object holds no such list.
 */
export function fieldsBesideList(body: unknown): { path: string; others: string[] } | undefined {
  if (!isRecord(body)) return undefined;
  const found = firstAt(body, candidatePaths(undefined, recognisedListPaths), isArray);
  if (found === undefined) return undefined;
  const others: string[] = [];
  let envelope: unknown = body;
  const names = found.path.split('.');
  for (const [depth, name] of names.entries()) {
    if (!isRecord(envelope)) break;
    const where = names.slice(0, depth).join('.');
    for (const field of Object.keys(envelope))
      if (!isPagingName(field)) others.push(where ? `${where}.${field}` : field);
    envelope = envelope[name];
  }
  return others.length > 0 ? { path: found.path, others } : undefined;
}

/** The fields an envelope states its listing's whole count in (`total_count`, `totalElements`), compared as letters. */
const totalFigures = new Set(['total', 'totalcount', 'totalelements', 'totalitems']);

/**
 * The whole listing's count an envelope states at its top (`{"data":[…],"total":45}`), a whole number, when it
 * states one; `count` is left out, as some routes count the page's items in it.
 */
export function statedListingTotal(body: unknown): number | undefined {
  if (!isRecord(body)) return undefined;
  for (const [field, value] of Object.entries(body)) {
    if (!totalFigures.has(letters(field))) continue;
    const total = Number(String(value));
    if (Number.isSafeInteger(total) && total >= 0 && String(value).trim() !== '') return total;
  }
  return undefined;
}

/** Where a listing page holds its array, for `b2bctl doctor`: `''` for a bare array. */
export function locateListingPage(body: unknown, setting?: string): { path: string; count: number } | undefined {
  if (body === undefined || body === null) return { path: '(empty body)', count: 0 };
  const found = firstAt(body, candidatePaths(setting, recognisedListPaths), isArray);
  return found ? { path: found.path, count: found.value.length } : undefined;
}

/** The fields a listing counts its records in, compared as paging figures are (`total_count`, `totalElements`). */
const countFigures = new Set(['total', 'count', 'totalcount', 'totalelements', 'totalitems']);

/**
 * Why a listing answer is no page at all, as words for the line that names it; undefined when it is a page (its
 * records, an empty list, `{}`, `{"total":0,"items":null}`) or holds objects b2bctl cannot place (readListingPage's
 * undefined: the `answers.*` setting is named). A 2xx is never refused for its shape, but these are not a shape of a
 * page: a gateway's or a Java platform's error answered with 200. Read as an empty page, one would end the listing
 * and move a cursor past every record not read (a user test). Judged as `b2bctl api --paginate` and `doctor` judge: an
 * answer that says it failed (refusalSignOf: `"success": false`, `"error": …`) beside no records; a count above 0
 * and no list (`{"totalElements":"40"}`); no list and words that are no paging figure (`{"mensagem":…}`,
 * `{"status":500,…}`), or text where the list belongs (`{"content":"erro"}`).
 */
export function notAListingPage(body: unknown, listPaths: readonly string[], setting?: string): string | undefined {
  if (!isRecord(body)) return undefined;
  const paths = candidatePaths(setting, listPaths);
  const found = firstAt(body, paths, isArray)?.value;
  if (found !== undefined && found.length > 0) return undefined;
  if (refusalSignOf(body) !== undefined) return 'it says it failed';
  if (found !== undefined) return undefined;
  const counted = Object.entries(body).find(
    ([field, value]) => countFigures.has(letters(field)) && Number(String(value)) > 0,
  );
  if (counted) return `it counts ${String(counted[1])} and lists none`;
  if (Object.values(body).some((value) => value !== null && typeof value === 'object')) return undefined;
  const listPlaces = new Set(paths.map((path) => letters(path.split('.')[0] ?? '')));
  const isEmptyPageField = ([field, value]: [string, unknown]) =>
    isPagingName(field) && (value === null || !listPlaces.has(letters(field)));
  return Object.entries(body).every(isEmptyPageField) ? undefined : 'it holds no list';
}

const letters = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

/**
 * A 2xx to a listing that is no page (notAListingPage). Exit 69, as for a detail that holds no order or a proxy's
 * page: the platform did not give the list, whatever the status said, and a later try may get it.
 */
export class NotAListingPage extends PlatformError {
  override readonly exitCode: ExitCode = ExitCode.unavailable;
  constructor(status: number, url: string, body: unknown, why: string, records: string) {
    const shown = quotedJson(JSON.stringify(body) ?? String(body), 200);
    super(status, { method: 'GET', url }, body, `the answer is no page of ${records} (${why}): ${shown}`);
  }
}
