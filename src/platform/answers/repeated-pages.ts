import { createHash } from 'node:crypto';

/**
 * Answers of a one-item page at the next offsets, in a row, that stop a read: an item added at the head of a listing
 * between two requests moves a one-item page down one, so the next page answers it again. Five in a row is no
 * listing moving; a larger page answered again at the next offset is (orders poll's rule too).
 */
const oneItemPageRepeatsToStop = 5;

/**
 * A page read at an offset, to a listing read page by page: a new page; the page before answered again (written
 * already, to be read past); or the same page answered so often that the route ignores the offset.
 */
export type PageRepeat = { kind: 'new' } | { kind: 'again' | 'notPagingByOffset'; firstOffset: number };

/**
 * Watches a listing read by offset for a route that ignores the offset, which would be read for ever (a short page
 * ends nothing: only an empty page ends a listing). Pages are compared by their length and their first and last
 * items: pages of one listing never share both ends. A page of two items or more stops the read at its first answer
 * again when read page after page; a reader jumping over offsets (the order number search) passes 2: an offset as
 * far on as the jump, reached by exactly that many items added meanwhile, is no listing moving twice in a row.
 */
export function watchForRepeatedPages(
  largerPageRepeatsToStop = 1,
): (items: readonly unknown[], offset: number) => PageRepeat {
  let previous: { fingerprint: string; offset: number; repeats: number } | undefined;
  return (items, offset) => {
    const fingerprint = createHash('sha256')
      .update(`${items.length}\n${JSON.stringify(items[0])}\n${JSON.stringify(items.at(-1))}`)
      .digest('base64');
    if (previous?.fingerprint !== fingerprint) {
      previous = { fingerprint, offset, repeats: 0 };
      return { kind: 'new' };
    }
    previous.repeats++;
    const stuck = previous.repeats >= (items.length === 1 ? oneItemPageRepeatsToStop : largerPageRepeatsToStop);
    return { kind: stuck ? 'notPagingByOffset' : 'again', firstOffset: previous.offset };
  };
}

/** The line that stops a read whose route answered the same page at `url` as at `firstOffset`. */
export function notPagingByOffsetLine(url: string, firstOffset: number, itemsWord: string): string {
  return `GET ${url} answered the same page as offset ${firstOffset}: the route does not seem to page by offset; stopped instead of looping (the ${itemsWord} of offset ${firstOffset} were written once).`;
}
