import { createHash } from 'node:crypto';
import { countOf } from '../../lib/plural.js';
import { type AskedUrl, shownUrl } from '../redact.js';

/**
 * Answers of a one-item page at the next offsets, in a row, that stop a read: an item added at the head of a listing
 * between two requests moves a one-item page down one, so the next page answers it again. Five in a row is no
 * listing moving; a larger page answered again at the next offset is (orders poll's rule too).
 */
const oneItemPageRepeatsToStop = 5;

/**
 * A page read at an offset, to a listing read page by page: a new page; the page before answered again (written
 * already, to be read past); the same page answered so often that the route ignores the offset; or, on a route
 * that has shown it pages by offset, answered so often that items are added at the listing's head as fast as it is
 * read (each new one moves the page down as far as the reader moved on).
 */
export type PageRepeat =
  | { kind: 'new' }
  | { kind: 'again' | 'notPagingByOffset' | 'outrun' | 'lastPageAgain'; firstOffset: number; repeats: number };

/**
 * Watches a listing read by offset for a route that ignores the offset, which would be read for ever (a short page
 * ends nothing: only an empty page ends a listing). Pages are compared whole, by their length and their first and
 * last items: pages of one listing never share both ends, and a page shifted by items added at the head (its first
 * items the last of the page before) is a new page, whose items already written its reader skips. A page of two
 * items or more stops the read at its first answer again when read page after page; a reader jumping over offsets
 * (the order number search) passes 2: an offset as far on as the jump, reached by exactly that many items added
 * meanwhile, is no listing moving twice in a row.
 *
 * A route that ignores the offset answers, at the second offset, the same page or (when an item was added at its
 * head meanwhile) the same items one place down, so a page at a later offset ending on an item the page before did
 * not hold shows the route pages by offset. After that, a page of any length answered again is the listing moving,
 * and five in a row a listing outrun (items added at its head as fast as it is read), not a route to blame.
 *
 * With `lastPageAgainEnds` (a listing read page after page), a page of two items or more answered again whole (the
 * same items in the same order) at the very next offset, on a route that has paged by offset, is `lastPageAgain`:
 * the route answers its last page again past the end (it clamps the offset) instead of an empty page. Every item was
 * read; the listing ended (a user test). The listing moving could give it only if exactly a page of items were added at its
 * head between two requests, which a later request would not repeat anyway: read on, it was five requests more and
 * an error blaming a busy store that a quieter one answers the same. Only items that each have an id are the same
 * items: a reader holds a page of items without one answered so and asks the next offset (againAtTwoOffsetsLine).
 */
export function watchForRepeatedPages(
  largerPageRepeatsToStop = 1,
  lastPageAgainEnds = false,
): (items: readonly unknown[], offset: number, listed?: readonly unknown[]) => PageRepeat {
  let previous:
    | { fingerprint: string; whole: string; offset: number; listed: number; repeats: number; items: Set<string> }
    | undefined;
  let pagesByOffset = false;
  // `listed` is the page as answered, when it held entries that are no item (`null`s the reader leaves out): the
  // offset moves by all of them, so it is what "the very next offset" and "the same page whole" are judged by. A page
  // of reps and `null`s answered again past the end was read as a listing moving, five requests more and exit 1.
  return (items, offset, listed = items) => {
    const fingerprint = createHash('sha256')
      .update(`${items.length}\n${JSON.stringify(items[0])}\n${JSON.stringify(items.at(-1))}`)
      .digest('base64');
    // The whole page's digest, only where a last page answered again may end the read (api, sellers list).
    const wholeOf = () => createHash('sha256').update(JSON.stringify(listed)).digest('base64');
    if (previous?.fingerprint !== fingerprint) {
      if (previous && offset > previous.offset && !previous.items.has(JSON.stringify(items.at(-1))))
        pagesByOffset = true;
      const itemsSeen = new Set(items.map((item) => JSON.stringify(item)));
      const whole = lastPageAgainEnds ? wholeOf() : '';
      previous = { fingerprint, whole, offset, listed: listed.length, repeats: 0, items: itemsSeen };
      return { kind: 'new' };
    }
    const atNextOffset = offset === previous.offset + previous.listed && previous.repeats === 0;
    if (lastPageAgainEnds && pagesByOffset && listed.length > 1 && atNextOffset && wholeOf() === previous.whole)
      return { kind: 'lastPageAgain', firstOffset: previous.offset, repeats: 1 };
    const repeats = ++previous.repeats;
    // Paged by offset, any page answered again is the listing moving (its reader skips what it wrote): only five in a
    // row, every request finding it moved down as far as the read moved on, is a listing growing faster than it is read.
    const repeatsToStop = items.length === 1 || pagesByOffset ? oneItemPageRepeatsToStop : largerPageRepeatsToStop;
    const kind = repeats < repeatsToStop ? 'again' : pagesByOffset ? 'outrun' : 'notPagingByOffset';
    return { kind, firstOffset: previous.offset, repeats };
  };
}

/**
 * The line that stops a read whose route answered the same page at `asked` (the answer, or the URL asked and the
 * request's secrets: shown masked, shownUrl) as at `firstOffset`.
 */
export function notPagingByOffsetLine(asked: AskedUrl, firstOffset: number, itemsWord: string): string {
  return `GET ${shownUrl(asked)} answered the same page as offset ${firstOffset}: the route does not seem to page by offset; stopped instead of looping (the ${itemsWord} of offset ${firstOffset} were written once).`;
}

/**
 * The line that stops a read whose listing, paged by offset until then, answered the page of `firstOffset` again
 * `repeats` times in a row (the last at `asked`, shown masked): items are added at its head as fast as it is read.
 * Every item read was written once; the end of the listing was not answered, so the run fails.
 */
export function outrunLine(asked: AskedUrl, firstOffset: number, repeats: number, itemsWord: string): string {
  return `GET ${shownUrl(asked)} answered the page of offset ${firstOffset} again, ${countOf(repeats, 'times')} in a row: ${itemsWord} are added at the head of the listing as fast as it is read (each answer found that page moved down as far as the read moved on); stopped instead of chasing it (every one of the ${itemsWord} read was written once; ${itemsWord} added meanwhile are not in this read). Run it again when the store is quieter.`;
}

/**
 * The warning that ends a read whose route answered the page of `firstOffset` again, whole, at the next offset (the
 * last at `asked`, shown masked): the route answers its last page past the end instead of an empty page, so the
 * listing ended there.
 */
export function lastPageAgainLine(
  asked: AskedUrl,
  firstOffset: number,
  count: number,
  itemsWord: string,
  read = `every one of the ${itemsWord} answered was written once`,
): string {
  return `warning: GET ${shownUrl(asked)} answered the page of offset ${firstOffset} again (the same ${count} ${itemsWord}, in the same order), as a route that answers its last page past the end of the listing does instead of an empty page: read as the end (${read}).`;
}

/**
 * The line that stops a read whose route answered the page of `firstOffset` again, whole, at the next two offsets
 * (the last at `asked`, shown masked), its items not each with an id. A route answering its last page past the end
 * answers so, and so does a listing holding equal items in a row (two ledger lines of one amount on one day, twice,
 * in pages of two: a user test): without ids, no answer tells the two apart. Read as the end, the second would lose
 * the items after the equal ones with exit 0, so the run fails instead; the pages answered again are not written
 * (either reading would write them otherwise), every item before them was.
 */
export function againAtTwoOffsetsLine(
  asked: AskedUrl,
  firstOffset: number,
  heldOffset: number,
  count: number,
  itemsWord: string,
  itemWord: string,
): string {
  return `GET ${shownUrl(asked)} answered the page of offset ${firstOffset} again at the next two offsets (the same ${count} ${itemsWord}, in the same order, not each with an id): a route answering its last page past the end of the listing and equal ${itemsWord} in a row that b2bctl cannot tell apart give the same answers, so it cannot tell whether the listing goes on; stopped (every ${itemWord} before offset ${heldOffset} was written once, the pages answered again were not).`;
}

/**
 * The warning of a read that ended on an answer with no body (a 204, an empty 200) after entries were listed (the
 * last at `asked`, shown masked, from `offset` on). Documented as an end and kept one, exit 0 (a route may end its
 * listings so, and `gh api --paginate` ends where the pages stop too); but the platform document ends a listing with
 * `[]` only, and a backend whose query failed may answer nothing with a 2xx, so the reader is told that what follows
 * may be missing (a user test). The first page so answered is an empty listing and says nothing.
 */
export function noBodyEndLine(asked: AskedUrl, status: number, offset: number, itemsWord: string): string {
  return `warning: GET ${shownUrl(asked)} answered HTTP ${status} with no body, read as the end of the listing as an empty page is; the platform document ends a listing with [] only, so if this route does too, this answer may be a failure that left out the ${itemsWord} from offset ${offset} on: run it again, or compare the count with the store's.`;
}
