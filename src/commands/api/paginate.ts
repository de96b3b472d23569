import type { Session } from '../../config/session.js';
import type { RouteSettingKey } from '../../config/settings.js';
import { B2bctlError, ExitCode } from '../../base/errors.js';
import { countOf } from '../../lib/plural.js';
import { forgottenRecordsLine, WrittenRecordKeys } from '../../lib/written-record-keys.js';
import { JsonNestedTooDeep, parseJsonKeepingDigits, WrittenNumber } from '../../lib/written-json.js';
import {
  fieldsBesideList,
  notAPageValue,
  readListingPageStrictly,
  statedListingTotal,
} from '../../platform/answers/listing.js';
import {
  againAtTwoOffsetsLine,
  lastPageAgainLine,
  noBodyEndLine,
  notPagingByOffsetLine,
  outrunLine,
  watchForRepeatedPages,
} from '../../platform/answers/repeated-pages.js';
import { proxyPageOf } from '../../platform/answers/shapes.js';
import type { PlatformClient } from '../../platform/client.js';
import type { HttpResponse } from '../../platform/http-client.js';
import { type ListingRoute, recogniseListing } from '../../platform/listing-routes.js';
import { shownUrl } from '../../platform/redact.js';
import type { PlannedRequest } from './request-plan.js';

/** How a listing is paged: its route when recognised, the `limit` sent (none: the platform's default), the start. */
export interface PagingPlan {
  route: ListingRoute | undefined;
  pageSize: number | undefined;
  startOffset: number;
}

/** Page size of a listing with no ceiling (sales reps) when --page-size is not given. */
const uncappedPageSize = 100;

/**
 * The page size: a recognised listing's stated cap (a larger --page-size is cut to it, as the platform would), any
 * size for one without a ceiling, and --page-size otherwise. With none, no `limit` is sent: the platform's own
 * page size.
 */
export function pagingPlan(
  request: PlannedRequest,
  pageSizeFlag: number | undefined,
  session: Session,
  warn: (line: string) => void,
): PagingPlan {
  const route = recogniseListing(request.path, (listing) => session.get(listing.settingKey as RouteSettingKey));
  const { offset, limit } = request.query;
  const startOffset = offset?.[0] && /^\d+$/.test(offset[0]) ? Number(offset[0]) : 0;
  const asked = pageSizeFlag ?? (limit?.[0] && /^\d+$/.test(limit[0]) ? Number(limit[0]) : undefined);
  if (typeof route?.cap === 'number') {
    if (asked !== undefined && asked > route.cap)
      warn(`warning: ${route.title} pages hold at most ${route.cap}; asking ${route.cap} a page.`);
    return { route, pageSize: Math.min(asked ?? route.cap, route.cap), startOffset };
  }
  return { route, pageSize: route?.cap === 'none' ? (asked ?? uncappedPageSize) : asked, startOffset };
}

/**
 * What a read has seen of its listing: items answered again further down and where the first was, the items written,
 * and the whole listing's count its last page stated (`"total": 45`), if any.
 */
interface ListingChanges {
  itemsAnsweredAgain: number;
  firstAt: number | undefined;
  itemsWritten: number;
  statedTotal: number | undefined;
}

/**
 * One answer of a listing: its items, the listing's whole count when its envelope states one, and whether it had no
 * body at all (a 204, an empty 200: an end, but not the one the platform document gives).
 */
interface ListingPage {
  items: unknown[];
  statedTotal: number | undefined;
  noBody?: boolean;
}

/**
 * The listing's pages in order, each fetched once it is needed (memory holds one page and a key of every item
 * written, WrittenRecordKeys). A page is the last when it is empty (`[]`, `{}`, an empty body, with a warning when
 * pages came before it: noBodyEndLine) or the documented 400 `no record found` of the cashback balance listing; a
 * short page is read on from where it ended, since a store may cap its pages below the limit asked (the platform
 * document ends a listing with an empty page only), and `null` is no page at all (pageItems). An item already
 * written from an earlier page (its `id` and its whole record, however far back) is skipped, and the read ends with a
 * warning that the listing changed. A page equal to the one before stops with an error instead of looping (a page of
 * one item, answered again five times in a row), or, answered again whole at the next offset on a route that paged by
 * offset until then, ends the listing with a warning (the route answers its last page past the end) when each of its
 * items has an id; without ids it may be equal items in a row, so it is held and the next offset asked: another page
 * or the end shows it was the listing's, the same page again stops the read (againAtTwoOffsetsLine).
 */
export async function* listingPages(
  client: PlatformClient,
  request: PlannedRequest,
  paging: PagingPlan,
  refuse: (response: HttpResponse) => Promise<never>,
  warn: (line: string) => void,
): AsyncGenerator<unknown[]> {
  let offset = paging.startOffset;
  const repeatOf = watchForRepeatedPages(1, true);
  const written = new WrittenRecordKeys();
  const changes: ListingChanges = {
    itemsAnsweredAgain: 0,
    firstAt: undefined,
    itemsWritten: 0,
    statedTotal: undefined,
  };
  const unwrittenOf = (items: unknown[], at: number) => unwrittenItems(items, at, written, changes);
  let held: { items: unknown[]; offset: number } | undefined;
  for (;;) {
    const query: Record<string, string[]> = { ...request.query, offset: [String(offset)] };
    if (paging.pageSize !== undefined) query.limit = [String(paging.pageSize)];
    const response = await client.exchange({ ...request, query });
    const { items, statedTotal, noBody } = await itemsOf(response, request, paging, refuse);
    changes.statedTotal = statedTotal ?? changes.statedTotal;
    const repeat = items.length === 0 ? undefined : repeatOf(items, offset);
    if (held) {
      if (repeat !== undefined && repeat.kind !== 'new')
        throw new B2bctlError(
          againAtTwoOffsetsLine(response, repeat.firstOffset, held.offset, items.length, 'items', 'item'),
          ExitCode.someRecordsFailed,
        );
      // Another page, or the end: the page held was the listing's own, equal to the one before it.
      const unwritten = unwrittenOf(held.items, held.offset);
      if (unwritten.length > 0) yield unwritten;
      held = undefined;
    }
    if (repeat === undefined) {
      warnEnd(changes, written, warn, paging.startOffset);
      if (noBody && offset > paging.startOffset) warn(noBodyEndLine(response, response.status, offset, 'items'));
      return;
    }
    if (repeat.kind === 'lastPageAgain' && items.some((item) => idOf(item) === undefined)) {
      held = { items, offset };
      offset += items.length;
      continue;
    }
    if (repeat.kind === 'lastPageAgain') {
      warnEnd(changes, written, warn, paging.startOffset);
      warn(lastPageAgainLine(response, repeat.firstOffset, items.length, 'items'));
      return;
    }
    if (repeat.kind === 'notPagingByOffset')
      throw new B2bctlError(notPagingByOffsetLine(response, repeat.firstOffset, 'items'), ExitCode.someRecordsFailed);
    if (repeat.kind === 'outrun')
      throw new B2bctlError(
        outrunLine(response, repeat.firstOffset, repeat.repeats, 'items'),
        ExitCode.someRecordsFailed,
      );
    const unwritten = unwrittenOf(items, offset);
    if (unwritten.length > 0) yield unwritten;
    offset += items.length;
  }
}

/** The items of a page at `offset` not written yet (WrittenRecordKeys), counted in `changes`. */
function unwrittenItems(
  items: unknown[],
  offset: number,
  written: WrittenRecordKeys,
  changes: ListingChanges,
): unknown[] {
  const unwritten = written.unwritten(items, idOf);
  if (unwritten.length < items.length) {
    changes.itemsAnsweredAgain += items.length - unwritten.length;
    changes.firstAt ??= offset;
  }
  changes.itemsWritten += unwritten.length;
  return unwritten;
}

/**
 * The warnings of a read that ended: items answered again, records written past what it remembers, and fewer items
 * than the listing's own stated total (a user test: a route taking `offset` as a page number answered page 20, empty,
 * after 20 of 45). A warning, exit 0, as for a listing that changed: a total is the platform's figure, which b2bctl
 * cannot check (a route may count records it does not list, or count roughly), so failing on it could fail every run.
 */
function warnEnd(
  changes: ListingChanges,
  written: WrittenRecordKeys,
  warn: (line: string) => void,
  startOffset: number,
): void {
  if (changes.itemsAnsweredAgain > 0) warn(listingChangedLine(changes));
  if (written.forgotten > 0) warn(forgottenRecordsLine(written, 'items'));
  const expected = changes.statedTotal === undefined ? 0 : changes.statedTotal - startOffset;
  if (changes.itemsWritten < expected)
    warn(
      `warning: the listing ended after ${countOf(changes.itemsWritten, 'items')}${startOffset > 0 ? ` from offset ${startOffset}` : ''}, though its answers state a total of ${String(changes.statedTotal)}: ${expected - changes.itemsWritten} may be missing. The route may not take offset as the number of records to skip (a page number instead: read it without --paginate, with its own paging), or records were removed while it was read.`,
    );
}

/** An item's `id` as text, when it has one: a string, or a number (one past 2^53 kept as written). */
function idOf(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const id: unknown = (item as Record<string, unknown>).id;
  return typeof id === 'string' || typeof id === 'number' || id instanceof WrittenNumber
    ? `${typeof id === 'string' ? 's' : 'n'}:${String(id)}`
    : undefined;
}

/** The warning that ends a read during which items already written were answered again further down. */
function listingChangedLine(changes: ListingChanges): string {
  return `warning: the listing changed while it was read (${countOf(changes.itemsAnsweredAgain, 'items')} already written answered again further down, the first in the page of offset ${changes.firstAt}, each written once): an item added or removed meanwhile may be missing; run it again for a settled list.`;
}

/** The items of one answer: none at the listing's end (an empty page, the cashback balance 400 `no record found`). */
async function itemsOf(
  response: HttpResponse,
  request: PlannedRequest,
  paging: PagingPlan,
  refuse: (response: HttpResponse) => Promise<never>,
): Promise<ListingPage> {
  if (response.status === 400 && paging.route?.endsWithNoRecordFound && /no record found/i.test(response.text))
    return { items: [], statedTotal: undefined };
  // A redirect is not followed (it would take the token elsewhere): not a page, and not an empty one.
  if (response.status >= 300) await refuse(response);
  // A captive portal's or proxy's login page with a 200: a network problem (exit 69), as without --paginate.
  const proxyPage = proxyPageOf(request, response);
  if (proxyPage) throw proxyPage;
  return pageItems(response);
}

/** Up to three field names, and how many more: an order's detail has a dozen fields beside its `items`. */
function namedFew(names: readonly string[]): string {
  const more = names.length - 3;
  return more > 0 ? `${names.slice(0, 3).join(', ')} and ${countOf(more, 'more')}` : names.join(', ');
}

/** The items of a page: a bare array or a recognised envelope; an empty body or `{}` is an empty page. */
function pageItems(response: HttpResponse): ListingPage {
  if (response.text.trim() === '') return { items: [], statedTotal: undefined, noBody: true };
  let body: unknown;
  try {
    body = parseJsonKeepingDigits(response.text);
  } catch (error) {
    // Read on, it failed with the engine's stack error (a user test): JSON, but too deep to write.
    if (error instanceof JsonNestedTooDeep)
      throw new B2bctlError(
        `GET ${shownUrl(response)} answered HTTP ${response.status} with a body ${error.message}; run without --paginate to see it as sent.`,
        ExitCode.someRecordsFailed,
      );
    throw new B2bctlError(
      `GET ${shownUrl(response)} answered HTTP ${response.status} with a body that is not JSON; --paginate reads JSON listings only (run without --paginate to see it).`,
      ExitCode.someRecordsFailed,
    );
  }
  // `null` (or `false`, a number) is no page, nor the end of the listing: read as `[]`, it ended a listing in its
  // middle with exit 0 (a user test).
  const value = notAPageValue(body);
  if (value !== undefined)
    throw new B2bctlError(
      `GET ${shownUrl(response)} answered HTTP ${response.status} with ${value}, which is no page of a listing (a bare array, or an object with one under data, items, content, results…) nor its end (an empty page); run without --paginate to see it.`,
      ExitCode.someRecordsFailed,
    );
  const items = readListingPageStrictly(body);
  if (items) return { items, statedTotal: statedListingTotal(body) };
  const beside = fieldsBesideList(body);
  // The list is there, beside fields that are no paging figure: say so, not that there is no list (a user test).
  if (beside)
    throw new B2bctlError(
      `GET ${shownUrl(response)} answered an object with a list under ${beside.path} beside fields that are no paging figure (${namedFew(beside.others)}): --paginate reads an object as a page of a listing only when every field beside its list is one (total, offset, next…); an object with other fields may be one record holding a list, or a refusal such as {"status":"ERROR","data":[]} that read as a page would end the listing. Run without --paginate to see it.`,
      ExitCode.someRecordsFailed,
    );
  throw new B2bctlError(
    `GET ${shownUrl(response)} answered an object with no list b2bctl recognises (a bare array, or one under data, items, content, results…); run without --paginate to see it.`,
    ExitCode.someRecordsFailed,
  );
}
