import type { SalesRep } from '../domain/sales-rep.js';
import { B2bctlError, ExitCode, PlatformError } from '../base/errors.js';
import {
  NotAListingPage,
  notAListingPage,
  notAPageValue,
  readListingPage,
  recognisedListPaths,
  recordsOfListing,
} from './answers/listing.js';
import {
  againAtTwoOffsetsLine,
  lastPageAgainLine,
  noBodyEndLine,
  notPagingByOffsetLine,
  outrunLine,
  watchForRepeatedPages,
} from './answers/repeated-pages.js';
import { isIdLike } from './answers/shapes.js';
import { type PlatformClient, quotedBodyOf } from './client.js';

export interface SellerPageQuery {
  email?: string;
  limit?: number;
  offset?: number;
}

/** One page of the sales rep listing: its reps, and how many entries it listed that were no rep at all. */
export interface SellerPage {
  reps: SalesRep[];
  /** Entries the platform listed, reps or not: a page of `null`s is no end of the listing, and the offset moves by it. */
  listed: number;
  /** Entries that are no JSON object (`null`, `"x"`): left out, for the command's one warning. */
  notReps: number;
  /** The page as listed, those entries too: what a page answered again is compared by. */
  entries: readonly unknown[];
  /** The status of an answer with no body (a 204, an empty 200): an empty page, but not the documented end (`[]`). */
  noBodyStatus?: number;
}

/** One page of `GET /sellerModule/listSellers`. */
export async function listSellers(client: PlatformClient, query: SellerPageQuery): Promise<SellerPage> {
  const path = client.route('paths.sellers');
  const asked = { limit: query.limit, offset: query.offset, email: query.email };
  // Numbers as the platform wrote them: `-o json` promises its objects unchanged (a BigDecimal commission of more
  // digits than a double holds, 1e400 that JSON.stringify writes as null), as `b2bctl api` prints them.
  const answer = await client.send<unknown>({ method: 'GET', path, query: asked, numbersAsWritten: true });
  const { status, body } = answer;
  const setting = client.session.get('answers.sellers.items');
  // The page's own URL, its offset and limit with it: the failing page of --all is known (a user test).
  const url = client.http.urlFor(path, asked).toString();
  // Text where JSON belongs (`OK`, a gateway's words): no answers.* setting can find a list in it, so none is named,
  // and it is no page, exit 69, as a 2xx HTML page is (a user test).
  if (typeof body === 'string') throw new NotAListingPage(status, url, body, 'it is text, not JSON', 'sales reps');
  // `null` (or `false`, a number) is no page either, nor the end of --all's listing: read as `[]`, a `null` in
  // mid-listing ended it with exit 0, the reps after it lost (a user test). No answers.* setting finds a list in it.
  const value = notAPageValue(body);
  if (value !== undefined) throw new NotAListingPage(status, url, body, `it is ${value}, not a list`, 'sales reps');
  // An error answered with 200 is not "no reps", nor the end of `--all`'s listing.
  const notAPage = notAListingPage(body, recognisedListPaths, setting);
  if (notAPage !== undefined) throw new NotAListingPage(status, url, quotedBodyOf(answer), notAPage, 'sales reps');
  const page = readListingPage(body, setting);
  // Nothing to list from an answer we cannot read: say which setting points at the array.
  if (!page)
    throw new PlatformError(
      status,
      { method: 'GET', url },
      'the answer holds no array of sales reps b2bctl recognises; set answers.sellers.items to the field that holds it (b2bctl doctor shows the answer)',
    );
  const { records, notRecords } = recordsOfListing<SalesRep>(page);
  return {
    reps: records,
    listed: page.length,
    notReps: notRecords,
    entries: page,
    noBodyStatus: body === undefined ? status : undefined,
  };
}

/**
 * Every sales rep from `offset` on, each page as it came (the reader remembers ids by page), until the platform
 * answers `[]` (a short page ends nothing: a store may cap its pages below the limit asked); an answer with no body
 * ends it too, with `warn`'s line when reps came before it (noBodyEndLine). A route that ignores the offset would be
 * read for ever: the same page answered again stops the read (a page of one rep, five times in a row; once, an added
 * rep moved it down one); on a route that has paged by offset, it says the listing grows as fast as it is read
 * instead of blaming the route. A page of reps answered again whole at the next offset there ends the listing with
 * `warn`'s line: the route answers its last page past the end (a user test); when its reps do not each have an id,
 * they may be equal reps in a row, so it is held and the next offset asked (againAtTwoOffsetsLine).
 */
export async function* listAllSellers(
  client: PlatformClient,
  query: { email?: string; pageSize: number; offset?: number },
  warn: (line: string) => void = () => undefined,
): AsyncGenerator<SellerPage> {
  let offset = query.offset ?? 0;
  const repeatOf = watchForRepeatedPages(1, true);
  let held: { page: SellerPage; offset: number } | undefined;
  for (;;) {
    const page = await listSellers(client, { email: query.email, limit: query.pageSize, offset });
    const repeat = page.listed === 0 ? undefined : repeatOf(page.reps, offset, page.entries);
    const asked = { limit: query.pageSize, offset, email: query.email };
    const pageAsked = { url: client.http.urlFor(client.route('paths.sellers'), asked) };
    if (held) {
      if (repeat !== undefined && repeat.kind !== 'new') {
        const line = againAtTwoOffsetsLine(
          pageAsked,
          repeat.firstOffset,
          held.offset,
          page.reps.length,
          'sales reps',
          'sales rep',
        );
        throw new B2bctlError(line, ExitCode.someRecordsFailed);
      }
      // Another page, or the end: the page held was the listing's own, equal to the one before it.
      yield held.page;
      held = undefined;
    }
    if (repeat === undefined) {
      if (page.noBodyStatus !== undefined && offset > (query.offset ?? 0))
        warn(noBodyEndLine(pageAsked, page.noBodyStatus, offset, 'sales reps'));
      return;
    }
    if (repeat.kind === 'new' || repeat.kind === 'again') {
      // Answered again, its reps are counted as seen twice by the listing's reader (each written once).
      yield page;
      offset += page.listed;
      continue;
    }
    if (repeat.kind === 'lastPageAgain' && !page.reps.every((rep) => isIdLike(rep.id))) {
      held = { page, offset };
      offset += page.listed;
      continue;
    }
    if (repeat.kind === 'lastPageAgain') {
      warn(lastPageAgainLine(pageAsked, repeat.firstOffset, page.reps.length, 'sales reps'));
      return;
    }
    const line =
      repeat.kind === 'outrun'
        ? outrunLine(pageAsked, repeat.firstOffset, repeat.repeats, 'sales reps')
        : notPagingByOffsetLine(pageAsked, repeat.firstOffset, 'sales reps');
    throw new B2bctlError(line, ExitCode.someRecordsFailed);
  }
}
