import type { Session } from '../../config/session.js';
import type { RouteSettingKey } from '../../config/settings.js';
import { B2bctlError, ExitCode } from '../../base/errors.js';
import { parseJsonKeepingNumbers } from '../../lib/written-json.js';
import { readListingPageStrictly } from '../../platform/answers/listing.js';
import { notPagingByOffsetLine, watchForRepeatedPages } from '../../platform/answers/repeated-pages.js';
import { proxyPageOf } from '../../platform/answers/shapes.js';
import type { PlatformClient } from '../../platform/client.js';
import type { HttpResponse } from '../../platform/http-client.js';
import { type ListingRoute, recogniseListing } from '../../platform/listing-routes.js';
import { redactUrl } from '../../platform/redact.js';
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
 * The listing's pages in order, each fetched once it is needed (memory holds one page). A page is the last when it
 * is empty (`[]`, `{}`, an empty body) or the documented 400 `no record found` of the cashback balance listing;
 * a short page is read on from where it ended, since a store may cap its pages below the limit asked (the platform
 * document ends a listing with an empty page only). A page equal to the one before stops with an error instead of
 * looping (a page of one item, answered again five times in a row).
 */
export async function* listingPages(
  client: PlatformClient,
  request: PlannedRequest,
  paging: PagingPlan,
  refuse: (response: HttpResponse) => Promise<never>,
  warn: (line: string) => void,
): AsyncGenerator<unknown[]> {
  let offset = paging.startOffset;
  const repeatOf = watchForRepeatedPages();
  let answeredAgain: { offset: number; at: number } | undefined;
  for (;;) {
    const query: Record<string, string[]> = { ...request.query, offset: [String(offset)] };
    if (paging.pageSize !== undefined) query.limit = [String(paging.pageSize)];
    const response = await client.exchange({ ...request, query });
    const items = await itemsOf(response, request, paging, refuse);
    if (items.length === 0) {
      if (answeredAgain)
        warn(
          `warning: the listing changed while it was read (the item at offset ${answeredAgain.offset} was answered again at offset ${answeredAgain.at}, and written once): an item added or removed meanwhile may be missing; run it again for a settled list.`,
        );
      return;
    }
    const repeat = repeatOf(items, offset);
    if (repeat.kind === 'notPagingByOffset')
      throw new B2bctlError(
        notPagingByOffsetLine(redactUrl(response.url), repeat.firstOffset, 'items'),
        ExitCode.someRecordsFailed,
      );
    if (repeat.kind === 'again') answeredAgain ??= { offset: repeat.firstOffset, at: offset };
    else yield items;
    offset += items.length;
  }
}

/** The items of one answer: none at the listing's end (an empty page, the cashback balance 400 `no record found`). */
async function itemsOf(
  response: HttpResponse,
  request: PlannedRequest,
  paging: PagingPlan,
  refuse: (response: HttpResponse) => Promise<never>,
): Promise<unknown[]> {
  if (response.status === 400 && paging.route?.endsWithNoRecordFound && /no record found/i.test(response.text))
    return [];
  // A redirect is not followed (it would take the token elsewhere): not a page, and not an empty one.
  if (response.status >= 300) await refuse(response);
  // A captive portal's or proxy's login page with a 200: a network problem (exit 69), as without --paginate.
  const proxyPage = proxyPageOf(request, response);
  if (proxyPage) throw proxyPage;
  return pageItems(response);
}

/** The items of a page: a bare array or a recognised envelope; an empty body or `{}` is an empty page. */
function pageItems(response: HttpResponse): unknown[] {
  if (response.text.trim() === '') return [];
  let body: unknown;
  try {
    body = parseJsonKeepingNumbers(response.text);
  } catch {
    throw new B2bctlError(
      `GET ${redactUrl(response.url)} answered HTTP ${response.status} with a body that is not JSON; --paginate reads JSON listings only (run without --paginate to see it).`,
      ExitCode.someRecordsFailed,
    );
  }
  const items = readListingPageStrictly(body);
  if (items) return items;
  throw new B2bctlError(
    `GET ${redactUrl(response.url)} answered an object with no list b2bctl recognises (a bare array, or one under data, items, content, results…); run without --paginate to see it.`,
    ExitCode.someRecordsFailed,
  );
}
