/**
 * The pure arithmetic of `orders poll` (docs/orders-poll.md): the run's window, how a window is split, which order
 * versions are new, and how far the cursor may move. No I/O here, so the proof of the scan can run it a thousand
 * times in a second.
 *
 * Why splitting by time cannot skip: the listing is paged by offset over a list sorted by creation while filtered by
 * update date, so between two page requests an order updated mid-scan leaves the filter and every later order moves
 * up one place: the next page silently skips one. Only an empty page ends a listing (a store may cap its pages below
 * the limit asked, or drop an entry it hides from a page), so a window is read on past a short page, and its pages
 * prove by the orders they share that nothing unchanged fell between them (`offsetCoverage`); a window they cannot
 * prove is split into smaller time windows (by `updatedFrom`/`updatedTo`), which tile the run's range without gaps. An order that changes during the
 * run gets `lastUpdated` = now, above the run's upper bound (fixed at start, minus the lag), so it is read by the next
 * run; a late commit or skewed clock that stamps it a little in the past is caught by the next run's look-back.
 */
import { coarseStampMemoryMs } from './coarse-stamps.js';
import { parseInstant } from './instants.js';
import { parseDuration } from './duration.js';
import { orderKeyOf } from './order-keys.js';

/** A time window over `lastUpdated`, both bounds inclusive, in milliseconds since the epoch. */
export interface TimeWindow {
  from: number;
  to: number;
}

/** Only what the scan needs of an order: its identity and version. */
export interface OrderVersion {
  id: number | string;
  lastUpdated: string;
  /**
   * A digest of the listed entry, set when its update stamp is coarser than a millisecond (coarse-stamps.ts): two
   * versions under one such stamp are told apart by it when deciding what was emitted (rememberedKeys).
   */
  contentDigest?: string;
  /**
   * The digest the entry had before digests read its id as one order is named (`"000007"` and `7` alike): set only
   * where it differs, so a version a cursor of an older b2bctl remembers by it is not emitted again (newVersions).
   */
  formerContentDigest?: string;
}

/** Aim for this many orders per small window, below the page size so a little churn does not overflow it. */
export const ordersPerWindowTarget = 18;
export const maximumPieces = 64;

/** `pieces` windows tiling `window` without gaps or overlaps (a window one millisecond wide cannot be split). */
export function splitWindow(window: TimeWindow, pieces: number): TimeWindow[] {
  const width = window.to - window.from + 1;
  const count = Math.max(1, Math.min(Math.floor(pieces), width));
  const result: TimeWindow[] = [];
  let from = window.from;
  for (let index = 1; index <= count; index++) {
    const to = index === count ? window.to : window.from + Math.floor((width * index) / count) - 1;
    result.push({ from, to });
    from = to + 1;
  }
  return result;
}

/**
 * Into how many pieces a full window is split: by the density of orders seen so far (orders per millisecond),
 * aiming at `ordersPerWindowTarget` per piece; without a density yet, `fallback` pieces.
 */
export function piecesForFullWindow(window: TimeWindow, density: number | undefined, fallback: number): number {
  const width = window.to - window.from + 1;
  if (density === undefined || density <= 0) return Math.max(2, Math.min(fallback, maximumPieces));
  // A full page says there are more than a page of orders, whatever the density measured elsewhere.
  const expected = Math.max(width * density, 26);
  return Math.max(2, Math.min(maximumPieces, Math.ceil(expected / ordersPerWindowTarget)));
}

/**
 * A page read by offset from one time window: where it was asked, how many entries the platform listed (0, an empty
 * page, is the only end of a listing the platform document states), the ids it held, and when it was asked and
 * answered, counted in the order of the scan's requests.
 */
export interface OffsetPage {
  offset: number;
  listed: number;
  ids: readonly string[];
  asked: number;
  answered: number;
}

/**
 * Whether `page` reached the end of the window: an empty page at or before where it ends was answered before it was
 * asked. The window only loses orders while it is read (an update stamps one after the run's upper bound), so it held
 * no more than that empty page's offset when `page` was read, and `page` holds every order from its first entry on.
 * A page that is merely shorter than asked proves nothing: a store may cap pages lower, or drop an entry it hides.
 */
function reachesEnd(page: OffsetPage, pages: readonly OffsetPage[]): boolean {
  return endingEmptyPages(pages).some(
    (empty) => empty.offset <= page.offset + page.listed && empty.answered < page.asked,
  );
}

/**
 * The empty pages that may end the listing: each one but those a page asked after it was answered contradicts by
 * listing entries past its offset. The window only loses orders while it is read, so past a true end no later page
 * lists anything; one that does shows the empty page was spurious (a store answering one empty page mid-listing, a
 * cache, a timeout read as nothing). Taken as the end, it had the read stop there and the cursor pass every order
 * after it (a user test): a page of 10 of 10 read after it, on a store capping its pages at 10, was taken as reaching the
 * end. Without it the listing is read on past it, as past any short page, to an empty page nothing contradicts.
 */
function endingEmptyPages(pages: readonly OffsetPage[]): OffsetPage[] {
  const longest = Math.max(0, ...pages.map((page) => page.listed));
  return pages.filter(
    (empty) =>
      empty.listed === 0 &&
      !pages.some(
        (later) => later.listed > 0 && later.asked > empty.answered && later.offset + later.listed > empty.offset,
      ) &&
      !unconfirmedByFullPage(empty, pages, longest),
  );
}

/**
 * Whether a full page (as long as the longest page listed) asked after `empty` ends right where it starts, and no
 * empty page was read there again since. A full page says the listing likely goes on; the empty page it meets could
 * be one more spurious answer (a store answering several in a row, a user test: three empty answers, then full pages
 * of 10 that each ended at an earlier empty offset, and the read stopped with 40 of 60 orders unread). It ends
 * nothing until that offset, read again after the full page, is empty again: one more request, and only then.
 */
function unconfirmedByFullPage(empty: OffsetPage, pages: readonly OffsetPage[], longest: number): boolean {
  const fullPagesMeetingIt = pages.filter(
    (page) =>
      page.listed >= 2 &&
      page.listed >= longest &&
      page.asked > empty.answered &&
      page.offset + page.listed === empty.offset,
  );
  return fullPagesMeetingIt.some(
    (full) => !pages.some((again) => again.listed === 0 && again.offset <= empty.offset && again.asked > full.answered),
  );
}

/** The offset of the first empty page that may end the listing (endingEmptyPages); Infinity when there is none. */
function firstEndingEmpty(pages: readonly OffsetPage[]): number {
  return Math.min(...endingEmptyPages(pages).map((page) => page.offset));
}

/**
 * Whether pages read by offset from one time window prove that every order that stayed unchanged during the reads
 * was read; when not, the offset of the furthest page that is part of the proof so far.
 *
 * Why it holds although orders leave the window between requests: the listing is sorted by creation, and an
 * order's place in that order never changes, so a page read at any moment holds every unchanged order between its
 * first and its last entry: it covers an interval of the creation order. Two pages that hold the same order cover
 * intervals that meet, and intervals joined that way cover everything between their ends. A page at offset 0
 * starts at the head; a page read after an empty page at its end (`reachesEnd`) reached the end. So once a chain of
 * pages sharing orders joins a page at offset 0 to such a page, no unchanged order can lie outside them, however the
 * pages shifted. An empty page at offset 0 is an empty window, when no page listed orders.
 */
export function offsetCoverage(pages: readonly OffsetPage[]): { proven: true } | { proven: false; frontier: number } {
  // Only when nothing was listed: an empty head page read after pages that listed orders ends nothing by itself, as
  // any empty page may be one more spurious answer (a user test: the 5th of 5 empty answers in a row, read at 0 by a
  // look further back, had the window taken as emptied); unproven, the window is split by time and read afresh.
  if (pages.some((page) => page.offset === 0 && page.listed === 0) && pages.every((page) => page.listed === 0))
    return { proven: true };
  const parent = pages.map((_, index) => index);
  const root = (index: number): number => {
    while (parent[index] !== index) index = parent[index] = parent[parent[index] as number] as number;
    return index;
  };
  const pageOfId = new Map<string, number>();
  for (const [index, page] of pages.entries()) {
    for (const id of page.ids) {
      const other = pageOfId.get(id);
      if (other === undefined) pageOfId.set(id, index);
      else parent[root(index)] = root(other);
    }
  }
  const heads = new Set(pages.flatMap((page, index) => (page.offset === 0 ? [root(index)] : [])));
  let frontier = 0;
  for (const [index, page] of pages.entries()) {
    if (!heads.has(root(index)) || page.ids.length === 0) continue;
    if (reachesEnd(page, pages)) return { proven: true };
    frontier = Math.max(frontier, page.offset);
  }
  return { proven: false, frontier };
}

/**
 * Where pages read by offset break apart, up to the first empty page: each offset whose next page (by offset) holds
 * none of its orders, with the place its last order was listed at; and the tail, when no page has reached the end yet, with
 * where the listing was last read to (`reach`) and whether an empty page was read there. Repairing each break with a
 * page read just before where the next one started, and the tail with a page read after the empty one, is what
 * `offsetCoverage` then needs; all can be repaired at once.
 */
export function offsetBreaks(pages: readonly OffsetPage[]): {
  breaks: { after: number; last: number }[];
  tail?: { reach: number; ended: boolean };
} {
  const firstEmpty = firstEndingEmpty(pages);
  const byOffset = new Map<number, { listed: number; ids: Set<string> }>();
  for (const page of pages) {
    if (page.listed === 0 || page.offset >= firstEmpty) continue;
    const group = byOffset.get(page.offset) ?? { listed: 0, ids: new Set<string>() };
    group.listed = Math.max(group.listed, page.listed);
    for (const id of page.ids) group.ids.add(id);
    byOffset.set(page.offset, group);
  }
  const offsets = [...byOffset.keys()].toSorted((left, right) => left - right);
  const breaks: { after: number; last: number }[] = [];
  for (const [index, offset] of offsets.entries()) {
    const next = offsets[index + 1];
    if (next === undefined) break;
    const current = byOffset.get(offset) as { listed: number; ids: Set<string> };
    const following = byOffset.get(next) as { ids: Set<string> };
    if (![...following.ids].some((id) => current.ids.has(id)))
      breaks.push({ after: offset, last: offset + current.listed - 1 });
  }
  const ended = (page: OffsetPage) => page.listed > 0 && page.offset < firstEmpty && reachesEnd(page, pages);
  if (offsets.length === 0 || pages.some(ended)) return { breaks };
  const reach = Math.max(...offsets.map((offset) => offset + (byOffset.get(offset) as { listed: number }).listed));
  return { breaks, tail: { reach, ended: firstEmpty <= reach } };
}

/**
 * Where to read on past the pages read so far, until an empty page ends the listing; undefined once one has, at or
 * before the furthest page's end. A page as long as the others likely has more after it: the next one overlaps it by
 * an order, which links them. One shorter than the others (or than asked, when it is the only one) likely ends the
 * listing: the next is asked where it ends, so the empty page that says so costs one request. Either way a short
 * page is read on: only an empty one ends a listing.
 */
export function readOnOffset(pages: readonly OffsetPage[], pageSize: number): number | undefined {
  const firstEmpty = firstEndingEmpty(pages);
  let furthest: OffsetPage | undefined;
  for (const page of pages) {
    if (page.listed === 0 || page.offset >= firstEmpty) continue;
    const reach = page.offset + page.listed;
    const furthestReach = furthest === undefined ? -1 : furthest.offset + furthest.listed;
    if (reach > furthestReach || (reach === furthestReach && page.offset > (furthest as OffsetPage).offset))
      furthest = page;
  }
  if (furthest === undefined) return undefined;
  const reach = furthest.offset + furthest.listed;
  if (firstEmpty <= reach) return undefined;
  const others = pages.filter((page) => page !== furthest && page.listed > 0).map((page) => page.listed);
  const expected = others.length > 0 ? Math.max(...others) : pageSize;
  return furthest.listed >= 2 && furthest.listed >= expected ? reach - 1 : reach;
}

/**
 * The offset of the empty page that ends pages read by offset from one window, when the pages before it were full up
 * to it: that empty page may be a store's limit on how deep its listing pages (`[]` at any offset past it, a user
 * test), not the window's end. Full: the page reaching furthest as long as the longest, then `[]` where the next one
 * starts, overlapping it by an order (readOnOffset), where a still listing that ends there answers that order again.
 * Judged against the store's own page size, the longest page listed, once two pages that long were read, else against
 * the limit asked: one page shorter than asked is a whole window. Undefined when no empty page ends the pages, or the
 * pages before it were not full: a window that ends as any does, at a short page.
 */
export function endFullUpTo(pages: readonly OffsetPage[], pageSize: number): number | undefined {
  const end = firstEndingEmpty(pages);
  const before = pages.filter((page) => page.listed > 0 && page.offset < end);
  if (!Number.isFinite(end) || before.length === 0) return undefined;
  const longest = Math.max(...before.map((page) => page.listed));
  const offsetsAsLong = new Set(before.filter((page) => page.listed >= longest).map((page) => page.offset));
  if (longest < pageSize && offsetsAsLong.size < 2) return undefined;
  // The furthest page, as readOnOffset takes it: of those reaching as far, the one asked deepest.
  const reach = (page: OffsetPage) => page.offset + page.listed;
  const furthest = before.reduce((far, page) =>
    reach(page) > reach(far) || (reach(page) === reach(far) && page.offset > far.offset) ? page : far,
  );
  return furthest.listed >= longest ? end : undefined;
}

/**
 * The orders in the order a poll hands them over: by update instant, oldest first, and by id within one instant
 * (whole-number ids as numbers), whatever order the listing gave them in (newest first by creation). An instant
 * that does not parse sorts as its text, after those that do.
 */
export function inUpdateOrder<T extends OrderVersion>(orders: readonly T[]): T[] {
  return timedInUpdateOrder(orders).map(({ order }) => order);
}

/** The orders in update order (inUpdateOrder), each with its update instant parsed once. */
function timedInUpdateOrder<T extends OrderVersion>(orders: readonly T[]): { order: T; instant: number }[] {
  return orders
    .map((order) => ({ order, instant: Date.parse(order.lastUpdated) }))
    .toSorted((left, right) => compareVersions(left, right));
}

function compareVersions(
  left: { order: OrderVersion; instant: number },
  right: { order: OrderVersion; instant: number },
): number {
  const leftParsed = !Number.isNaN(left.instant);
  const rightParsed = !Number.isNaN(right.instant);
  if (leftParsed !== rightParsed) return leftParsed ? -1 : 1;
  if (leftParsed && left.instant !== right.instant) return left.instant - right.instant;
  if (!leftParsed && left.order.lastUpdated !== right.order.lastUpdated)
    return left.order.lastUpdated < right.order.lastUpdated ? -1 : 1;
  const leftId = String(left.order.id);
  const rightId = String(right.order.id);
  if (/^\d+$/.test(leftId) && /^\d+$/.test(rightId) && leftId.length !== rightId.length)
    return leftId.length - rightId.length;
  return leftId < rightId ? -1 : leftId > rightId ? 1 : 0;
}

/**
 * Orders read whole from `window`, cut into windows of about `size` orders tiling it in time order, so the caller
 * can write them oldest first and move its cursor after each. Orders of one instant stay together.
 */
export function timeOrderedChunks<T extends OrderVersion>(
  window: TimeWindow,
  orders: readonly T[],
  size: number,
): { window: TimeWindow; orders: T[] }[] {
  const sorted = timedInUpdateOrder(orders);
  const chunks: { window: TimeWindow; orders: T[] }[] = [];
  let from = window.from;
  let current: T[] = [];
  for (const [index, { order, instant }] of sorted.entries()) {
    current.push(order);
    const next = sorted[index + 1];
    if (current.length >= size && next !== undefined && next.instant > instant && instant < window.to) {
      const to = Math.max(from, instant);
      chunks.push({ window: { from, to }, orders: current });
      from = to + 1;
      current = [];
    }
  }
  chunks.push({ window: { from, to: window.to }, orders: current });
  return chunks;
}

/**
 * The key of one order version, what is emitted once: the order as one order is named (orderKeyOf: `7` and `"000007"`,
 * which a store behind two gateway nodes lists for one order, are one; `"07A"` is as written) at its instant.
 */
export function versionKey(order: OrderVersion): string {
  const instant = Date.parse(order.lastUpdated);
  return `${orderKeyOf(order.id)}@${Number.isNaN(instant) ? order.lastUpdated : new Date(instant).toISOString()}`;
}

/**
 * A key a cursor remembers, its id read as versionKey reads it: a cursor an older b2bctl wrote keeps the id as the
 * listing spelled it (`000007@…`), which the next run, listing `7`, would not find.
 */
export function rememberedKeyAsRead(key: string): string {
  const at = key.lastIndexOf('@');
  return at < 0 ? key : `${orderKeyOf(key.slice(0, at))}${key.slice(at)}`;
}

/**
 * The keys a version is remembered as emitted by: its versionKey (`id@instant`, what a release before this one reads),
 * and when its stamp is coarser than a millisecond that key with the digest of its listed entry after it
 * (`217@2026-11-30T23:04:00.000Z#…`), so that an entry changed under the same stamp (canceled within the minute of a
 * run) is a new version, and an unchanged one is not emitted twice.
 */
export function rememberedKeys(order: OrderVersion): string[] {
  const key = versionKey(order);
  return order.contentDigest === undefined ? [key] : [key, `${key}#${order.contentDigest}`];
}

/**
 * Versions not yet emitted (by the previous runs' memory or earlier in this run); records the new ones. Under a coarse
 * stamp, the digest decides; a version remembered by `id@instant` alone (a cursor an older b2bctl wrote, or a version
 * written from its detail, whose listed entry was not known) stands for the first listed entry met: taken as that
 * one, and remembered by its digest from then on, so no version is emitted again for the cursor's new form.
 */
export function newVersions<T extends OrderVersion>(orders: readonly T[], emitted: Set<string>): T[] {
  const fresh: T[] = [];
  for (const order of orders) {
    const [key, withDigest] = rememberedKeys(order) as [string, string | undefined];
    if (withDigest === undefined ? emitted.has(key) : emitted.has(withDigest)) continue;
    if (order.formerContentDigest !== undefined && emitted.has(`${key}#${order.formerContentDigest}`)) {
      for (const remembered of rememberedKeys(order)) emitted.add(remembered);
      continue;
    }
    const standsForThisEntry = withDigest !== undefined && emitted.has(key) && !hasDigestKey(emitted, key);
    for (const remembered of rememberedKeys(order)) emitted.add(remembered);
    if (!standsForThisEntry) fresh.push(order);
  }
  return fresh;
}

/** Whether a version under a coarse stamp was remembered by the digest of some entry already. */
function hasDigestKey(emitted: ReadonlySet<string>, key: string): boolean {
  const prefix = `${key}#`;
  for (const remembered of emitted) if (remembered.startsWith(prefix)) return true;
  return false;
}

/**
 * What a run knows of where the platform lists the versions it remembers, beyond their instants. An instant written
 * without a zone is read in this machine's zone, a guess that may be hours from the platform's (Brasília wall clock
 * read on a UTC server is three hours early): by that guess, a version the next run lists again would be forgotten,
 * and emitted again by every run while the platform lists it. Its listing tells instead.
 */
export interface ListingMemory {
  /** Key → the upper bound of the latest window the platform listed that version in (before it was asked wider). */
  readonly listedUpTo: ReadonlyMap<string, number>;
  /** Keys whose listing the run cannot tell yet (remembered by the last run, not listed again so far). */
  readonly undecided: ReadonlySet<string>;
}

const noListingMemory: ListingMemory = { listedUpTo: new Map(), undecided: new Set() };

/**
 * How far past a window's bound the platform may list an order: each bound is asked a millisecond wider, then
 * rounded outward to whole seconds with orders.timePrecision s.
 */
const listingReachMs = 1_001;

/**
 * Whether the platform listed an order updated at `instant` (as this machine reads it) in a window it could not be in,
 * even stretched as far as the platform may stretch it: read so, its instant is not where the platform has it.
 */
export function outsideListedWindow(instant: number, window: TimeWindow): boolean {
  return instant < window.from - listingReachMs || instant > window.to + listingReachMs;
}

const dayMs = 86_400_000;

/**
 * Whether `instant` lies within the calendar days `window` touches, as a platform at UTC offset `offsetMinutes` (east
 * positive) counts days: what a listing that filters by update DATE (`DATE(updated)` between the bounds' days) lists
 * for the window, a superset of it but bounded, unlike a listing that ignores the window.
 */
export function withinWindowDays(instant: number, window: TimeWindow, offsetMinutes: number): boolean {
  const shift = offsetMinutes * 60_000;
  const firstDay = Math.floor((window.from - listingReachMs + shift) / dayMs);
  const lastDay = Math.floor((window.to + listingReachMs + shift) / dayMs);
  const day = Math.floor((instant + shift) / dayMs);
  return day >= firstDay && day <= lastDay;
}

/**
 * Whether a run reading from `floor` on may list the version `key` again: its instant is there, or the platform
 * listed it in a window reaching there (both windows as far as the platform may stretch them), or the run cannot
 * tell yet.
 */
export function mayBeListedFrom(key: string, floor: number, memory: ListingMemory = noListingMemory): boolean {
  if (memory.undecided.has(key)) return true;
  const listedUpTo = memory.listedUpTo.get(key);
  if (listedUpTo !== undefined && listedUpTo + 2 * listingReachMs >= floor) return true;
  // The instant after the id, before the digest of a version under a coarse stamp (rememberedKeys): such a version is
  // listed, by a platform filtering on the true instant, until that instant leaves the look-back, up to a minute on.
  const [stamp, digest] = key.slice(key.lastIndexOf('@') + 1).split('#') as [string, string | undefined];
  const instant = Date.parse(stamp) + (digest === undefined ? 0 : coarseStampMemoryMs);
  return !Number.isNaN(instant) && instant >= floor;
}

/** The versions worth remembering for the next run: those it may list again, inside its look-back overlap. */
export function versionsToRemember(
  emitted: Iterable<string>,
  cursor: number,
  lookbackMs: number,
  memory: ListingMemory = noListingMemory,
): string[] {
  const floor = cursor - lookbackMs;
  const kept: string[] = [];
  for (const key of emitted) if (mayBeListedFrom(key, floor, memory)) kept.push(key);
  return kept.toSorted();
}

/**
 * The cursor after a run: the upper bound of the longest run of windows, from the first, that were all written and
 * flushed; `previous` when the first is not. Windows are given in time order.
 */
export function cursorAfter(previous: number, windows: readonly (TimeWindow & { flushed: boolean })[]): number {
  let cursor = previous;
  for (const window of windows) {
    if (!window.flushed) break;
    cursor = Math.max(cursor, window.to);
  }
  return cursor;
}

/** An ISO-8601 instant, or a duration before `nowMs`; a message when it is neither. */
export function parseInstantOrDuration(text: string, nowMs: number): number | { problem: string } {
  const duration = parseDuration(text);
  if (duration !== undefined) return nowMs - duration;
  const instant = parseInstant(text);
  if (instant !== undefined) return instant;
  return {
    problem: `"${text}" is neither an ISO-8601 date or date-time (2026-01-31, 2026-01-31T12:00:00Z; local time without Z or an offset) nor a duration (15m, 2h, 7d)`,
  };
}

export interface RunWindowInput {
  nowMs: number;
  /** --since, already parsed. */
  since?: number;
  /** --until, already parsed. */
  until?: number;
  /** The saved cursor, if any. */
  cursor?: number;
  /** Where the first run started: the look-back behind the cursor reaches no further back. */
  floor?: number;
  /** The cursor's file, as messages name it. */
  cursorFile?: string;
  lookbackMs: number;
  lagMs: number;
  /**
   * What a cursor further ahead of this clock than the look-back becomes: a problem (a single run, exit 2), or, for
   * `--watch`, whose own cursor it is after this clock stepped back, a window held at the cursor (nothing skipped,
   * nothing read past it) until the clock catches up.
   */
  cursorAhead?: 'refused' | 'held';
}

/** A cursor whose run would start in the future: the file, the field and the instant, and the two ways out. */
function cursorInFuture(input: RunWindowInput, from: number): string {
  const field = from === input.floor ? 'floor' : 'cursor';
  const ahead = new Date(field === 'floor' ? from : (input.cursor ?? from)).toISOString();
  const file = input.cursorFile === undefined ? '' : ` ${input.cursorFile}`;
  // The floor is only where the first run started, and may go: the cursor is where the runs are.
  const fix = field === 'floor' ? 'remove its "floor"' : 'set its "cursor" to the last instant polled';
  return `the orders cursor${file} has its "${field}" at ${ahead}, in the future (this machine's clock: ${new Date(input.nowMs).toISOString()}), further ahead than orders.lookback reaches back: a run from it would skip every order updated until then; nothing was emitted. If this clock was set back since the cursor was written (an NTP step, a VM restored), run again once it has passed ${ahead}, or poll with --watch, which waits for it; if this clock is right, the file was copied or edited: ${fix}, or move the file aside and run again with --since to choose where to start`;
}

/** Whether a run from the saved cursor would start ahead of this clock by more than the look-back reaches back. */
export function cursorAheadOfClock(input: RunWindowInput): boolean {
  if (input.since !== undefined || input.cursor === undefined) return false;
  return Math.max(input.cursor - input.lookbackMs, input.floor ?? -Infinity) > input.nowMs;
}

/**
 * The range a run reads. The upper bound is fixed at the start, `lag` behind now (transactions commit late); the
 * lower bound is --since when given, else the cursor minus the look-back overlap. A message when they disagree.
 */
export function runWindow(input: RunWindowInput): TimeWindow | { problem: string } {
  const ceiling = input.nowMs - input.lagMs;
  if (input.since !== undefined && input.since > input.nowMs) {
    return { problem: `--since ${new Date(input.since).toISOString()} is in the future` };
  }
  if (input.until !== undefined && input.since !== undefined && input.since > input.until) {
    return {
      problem: `--since ${new Date(input.since).toISOString()} is after --until ${new Date(input.until).toISOString()}`,
    };
  }
  const from =
    input.since ??
    (input.cursor === undefined ? undefined : Math.max(input.cursor - input.lookbackMs, input.floor ?? -Infinity));
  if (from === undefined) {
    return { problem: 'the first run of this profile needs --since (an ISO-8601 date-time or a duration such as 2h)' };
  }
  // The rule --since has, for where a cursor starts the run: one further ahead than the look-back reaches back
  // (copied from another machine, edited, or this clock set back) would skip every order updated until then. Within
  // the look-back nothing is skipped, so a clock stepped back a little (NTP) does not stop a cron job.
  if (input.since === undefined && from > input.nowMs) {
    // Held: the run reads the look-back's overlap up to its cursor (what every run re-reads), nothing past it, and
    // moves the cursor nowhere; once the clock passes the cursor, the runs go on from there as before.
    if (input.cursorAhead === 'held') return { from, to: Math.max(from, input.cursor ?? from) };
    return { problem: cursorInFuture(input, from) };
  }
  const to = Math.min(ceiling, input.until ?? ceiling);
  return { from, to: Math.max(from, to) };
}

/**
 * The last instant a run reads by the platform's clock: its `Date` header less the lag. An order the platform creates
 * or updates while the run reads is stamped by that clock; one behind ours would stamp it inside a window bounded by
 * our clock, where a busy store adds orders as fast as they are read and the window never ends. The header names a
 * whole second, taken at its end: a platform in step with this machine never lowers the run's bound.
 */
export function platformReadBound(platformDateMs: number, lagMs: number): number {
  return platformDateMs + 999 - lagMs;
}

/** `part` read no further than `bound`: undefined when it lies wholly past it (nothing of it is read this run). */
export function windowUpTo(part: TimeWindow, bound: number): TimeWindow | undefined {
  if (part.from > bound) return undefined;
  return { from: part.from, to: Math.min(part.to, bound) };
}

/** An instant on a whole second as ISO-8601 without a fraction: `2026-11-30T03:55:23Z`. */
function wholeSecond(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/** How finely the listing's bounds are written: milliseconds, or whole seconds for a platform that takes no more. */
export type BoundPrecision = 'ms' | 's';

/**
 * The listing's `updatedFrom`/`updatedTo` as sent. In whole seconds the window is widened outward, the lower bound
 * rounded down and the upper one up, never inward: a wider window loses nothing, as the scan keeps only the orders
 * inside the piece it asked for (the others belong to a neighbouring piece, or to the next run), and the cursor only
 * moves over pieces, never over the rounded bounds.
 */
export function listingBounds(
  window: TimeWindow,
  precision: BoundPrecision,
): { updatedFrom: string; updatedTo: string } {
  if (precision === 'ms')
    return { updatedFrom: new Date(window.from).toISOString(), updatedTo: new Date(window.to).toISOString() };
  return {
    updatedFrom: wholeSecond(Math.floor(window.from / 1000) * 1000),
    updatedTo: wholeSecond(Math.ceil(window.to / 1000) * 1000),
  };
}
