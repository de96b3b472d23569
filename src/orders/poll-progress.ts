import {
  type ListingMemory,
  mayBeListedFrom,
  rememberedKeyAsRead,
  versionsToRemember,
  type TimeWindow,
} from '../domain/orders-window.js';
import { type PendingOrder, writeCursor } from './cursor-file.js';
import { orderKeyOf } from '../domain/order-keys.js';
import { OutputError } from '../base/errors.js';
import { countOf } from '../lib/plural.js';
import { systemErrorCause } from '../lib/system-error-cause.js';
import { printable } from '../lib/printable.js';
import type { ListedOrder, UnreadableStamp } from '../platform/orders.js';
import type { CoarseListing } from './unfiltered-listing.js';
import type { FailedDetail } from './failed-detail.js';

/** What a run saw of update instants written without a zone (Spring's LocalDateTime: `2026-11-29T06:08:01.416`). */
export interface ZonelessInstantsSeen {
  /** The first one, as the platform wrote it. */
  example?: string;
  /** One the platform listed in a window that this machine's reading of it falls outside: its zone is another. */
  elsewhere?: { written: string; window: TimeWindow };
}

/**
 * What one poll run has emitted and may remember: the versions already emitted (to emit each once), the entries it
 * could not read (which pin the cursor), and the cursor file it moves only over what was written and flushed.
 */
export class PollProgress {
  readonly emitted: Set<string>;
  /** Listed entries without an id or update instant, each counted once however often the scan read its page. */
  untrackable = 0;
  unrecognisedPages = 0;
  /** The first listed entry whose update stamp is there but no instant b2bctl reads: the one the warning quotes. */
  unreadableStamp: UnreadableStamp | undefined;
  /** The fingerprints of the entries whose update stamp b2bctl cannot read (each is among the untrackable ones). */
  private readonly stampUnread = new Set<string>();
  /** Listed entries b2bctl could read (an id and an update instant), counted at each answer: 0 says it read none. */
  readableListed = 0;
  /** Orders listed with their update stamp empty, read as of their creation (ListedOrder.neverUpdated), by key. */
  readonly neverUpdated = new Map<string, { updateField: string; createdField: string }>();
  /** Per unreadable entry's fingerprint, the most times one answer listed it (two `null`s in a page are two entries). */
  private readonly untrackableSeen = new Map<string, number>();
  written = 0;
  /**
   * The orders whose detail kept failing, by order key (orderKeyOf), saved with the cursor until a run writes their
   * detail (decision 0046): the last run's, and those met in this one.
   */
  private readonly pending: Map<string, PendingOrder>;
  /** The pending orders whose detail failed again in this run, by order key, with its answer: what the run names. */
  readonly failedNow = new Map<string, { order: PendingOrder; failure: FailedDetail }>();
  private cursor: number | undefined;
  /** Where the first run started, while the look-back reaches behind it (OrdersCursor.floor). */
  private readonly floor: number | undefined;
  /** The start of the earliest window whose answer held something unreadable. */
  private unreadableFrom = Number.POSITIVE_INFINITY;
  /** The platform's clock less the lag, when it is well behind ours: the cursor goes no further (see holdAt). */
  private platformCeiling = Number.POSITIVE_INFINITY;
  /** How far this run reads by the platform's clock (boundReadAt), when that is behind the run's upper bound. */
  private readBound: number | undefined;
  /** Size of `emitted` after the last forgetting: it is swept again only once it has doubled, so sweeps stay rare. */
  private sweptAt: number;
  /**
   * Emitted versions whose instant has no zone, by the upper bound of the latest window the platform listed them in:
   * their instant is this machine's guess, so it is their listing that says whether the next run may list them.
   */
  private readonly listedUpTo = new Map<string, number>();
  /** The versions the last run remembered that this run has not listed yet (see listingMemory). */
  private readonly unlisted: Set<string>;

  private readonly file: { path: string; profile: string; baseUrl?: string };
  private readonly window: TimeWindow;
  private readonly lookbackMs: number;
  constructor(
    file: { path: string; profile: string; baseUrl?: string },
    window: TimeWindow,
    lookbackMs: number,
    saved: { cursor: string; emitted?: readonly string[]; floor?: string; pending?: PendingOrder[] } | undefined,
  ) {
    this.file = file;
    this.window = window;
    this.lookbackMs = lookbackMs;

    this.emitted = new Set((saved?.emitted ?? []).map(rememberedKeyAsRead));
    this.pending = new Map((saved?.pending ?? []).map((order) => [orderKeyOf(order.id), order]));
    this.unlisted = new Set(this.emitted);
    this.cursor = saved === undefined ? undefined : Date.parse(saved.cursor);
    // A first run's start, or the one a run before kept.
    this.floor = saved === undefined ? window.from : saved.floor === undefined ? undefined : Date.parse(saved.floor);
    this.sweptAt = Math.max(1_000, this.emitted.size);
    this.saved = saved !== undefined;
  }

  /** Whether a cursor file exists for the next run: one was there, or this run wrote one. */
  private saved: boolean;

  /** The orders pending from the last runs (and any this run met so far), oldest update first. */
  pendingOrders(): PendingOrder[] {
    return [...this.pending.values()].toSorted((a, b) => Date.parse(a.lastUpdated) - Date.parse(b.lastUpdated));
  }

  /**
   * `listed`'s detail answered `failure`: the order is pending from the next save on, as this version (or the newer
   * one already pending), and named at the end of the run. `nowMs` is when it first failed, if it had not before.
   */
  holdPending(listed: ListedOrder, failure: FailedDetail, nowMs: number): void {
    const key = orderKeyOf(listed.id);
    const before = this.pending.get(key);
    const newer = before !== undefined && Date.parse(before.lastUpdated) > Date.parse(listed.lastUpdated);
    const order: PendingOrder = newer
      ? { ...before, answered: failure.status }
      : {
          id: listed.id,
          ...(listed.orderNumber === undefined ? {} : { orderNumber: listed.orderNumber }),
          lastUpdated: listed.lastUpdated,
          record: listed.record,
          since: before?.since ?? new Date(nowMs).toISOString(),
          answered: failure.status,
        };
    this.pending.set(key, order);
    this.failedNow.set(key, { order, failure });
  }

  /**
   * The order `id`'s detail was read and written (or left out by --status): pending no more. The detail is read now,
   * so it is the pending version or a later one; the save that drops it comes after the write is flushed.
   */
  settlePending(id: string | number): void {
    const key = orderKeyOf(id);
    this.pending.delete(key);
    this.failedNow.delete(key);
  }

  /** How many of the untrackable entries have an update stamp b2bctl cannot read (untrackable counts the rest too). */
  unreadableStamps(): number {
    let count = 0;
    for (const [fingerprint, times] of this.untrackableSeen) if (this.stampUnread.has(fingerprint)) count += times;
    return count;
  }

  /** Entries the answers did not let us read may be orders: the cursor must not move past them. */
  unreadable(): boolean {
    return this.untrackable > 0 || this.unrecognisedPages > 0;
  }

  /**
   * A page of `part` held entries without an id or update instant (their fingerprints), or no list b2bctl
   * recognises. The scan reads some pages twice (a window's first page, overlapping pages): an entry is counted once,
   * as often as a single answer held it, so the warning gives the number the platform shows.
   */
  noteUnreadable(
    part: TimeWindow,
    untrackable: readonly string[],
    unrecognised: boolean,
    unreadableStamps: readonly UnreadableStamp[] = [],
  ): void {
    for (const stamp of unreadableStamps) {
      this.stampUnread.add(stamp.fingerprint);
      this.unreadableStamp ??= stamp;
    }
    if (untrackable.length === 0 && !unrecognised) return;
    const inPage = new Map<string, number>();
    for (const fingerprint of untrackable) inPage.set(fingerprint, (inPage.get(fingerprint) ?? 0) + 1);
    for (const [fingerprint, times] of inPage) {
      const before = this.untrackableSeen.get(fingerprint) ?? 0;
      if (times <= before) continue;
      this.untrackableSeen.set(fingerprint, times);
      this.untrackable += times - before;
    }
    if (unrecognised) this.unrecognisedPages++;
    this.unreadableFrom = Math.min(this.unreadableFrom, part.from);
  }

  /**
   * The platform stamps `lastUpdated` by its own clock. When that clock is behind ours by more than the look-back, a
   * cursor at our now less the lag is ahead of every update it stamps next, and the next run's look-back does not
   * reach them: the cursor is held at the platform's now less the lag instead, and may move back to it.
   */
  holdAt(platformCeiling: number, behindMs: number): void {
    this.platformCeiling = Math.min(this.platformCeiling, platformCeiling);
    this.platformBehindMs = Math.max(this.platformBehindMs ?? 0, behindMs);
  }

  /**
   * Reads no further than `bound` (platformReadBound: the platform's clock less the lag) when it is below the run's
   * upper bound; the first answer whose clock is behind sets it for the whole run, as our clock fixes the upper bound
   * at the start, so a window asked twice is asked the same. The cursor goes no further than what was read: the
   * orders past it are the next run's.
   */
  boundReadAt(bound: number): void {
    if (this.readBound === undefined && bound < this.window.to) this.readBound = bound;
  }

  /** The last instant this run reads: its upper bound, or the platform's clock less the lag when that is earlier. */
  readTo(): number {
    return this.readBound ?? this.window.to;
  }

  /** How far behind ours the platform's clock was when it held the cursor; undefined when it did not. */
  platformBehindMs: number | undefined;

  /** How far ahead of ours the platform's clock was (its updates then show up that much late); undefined if not. */
  platformAheadMs: number | undefined;

  /** The first `Date` header of the run that was no HTTP date, as it came; this machine's clock stood in for it. */
  unreadableDate: string | undefined;

  /** What the run saw of update instants written without a zone, for its one warning about them. */
  readonly zoneless: ZonelessInstantsSeen = {};

  /** The first answer of a listing that filters by day or hour (UnfilteredListingCheck), for its one warning. */
  coarseListing: CoarseListing | undefined;

  /**
   * The platform listed the emitted version `key`, whose instant has no zone, in a window ending at `upTo` (or b2bctl
   * read it in the order's detail, `upTo` then infinite): it is remembered while a run may list it again.
   */
  noteListed(key: string, upTo: number): void {
    if (!this.emitted.has(key)) return;
    this.listedUpTo.set(key, Math.max(upTo, this.listedUpTo.get(key) ?? upTo));
    this.unlisted.delete(key);
  }

  /**
   * Where this run has seen its remembered versions listed. Until it has read its whole window, a version the last
   * run remembered and this one has not listed yet may still be listed further on: its instant, if it has no zone,
   * does not say, so it stays remembered (a cursor saved mid-run must not lose it).
   */
  private listingMemory(readWhole: boolean): ListingMemory {
    return { listedUpTo: this.listedUpTo, undecided: readWhole ? new Set() : this.unlisted };
  }

  /** The cursor as it stands (the run's start when none was saved yet). */
  current(): number {
    return this.cursor ?? this.window.from;
  }

  /**
   * Moves the cursor to `upTo`, or no further than the earliest window holding something that could not be read
   * (never behind where it was, unless the platform's clock holds it), still remembering what was emitted since, so
   * the next run reads that window again without emitting the rest twice.
   */
  save(upTo: number): void {
    const target = Math.min(upTo, this.readTo(), this.unreadableFrom, this.platformCeiling);
    this.cursor = Math.min(Math.max(this.cursor ?? target, target), this.platformCeiling);
    const floorNeeded = this.floor !== undefined && this.floor > this.cursor - this.lookbackMs;
    const cursor = {
      profile: this.file.profile,
      ...(this.file.baseUrl === undefined ? {} : { baseUrl: this.file.baseUrl }),
      cursor: new Date(this.cursor).toISOString(),
      emitted: versionsToRemember(
        this.emitted,
        this.cursor,
        this.lookbackMs,
        this.listingMemory(upTo >= this.window.to),
      ),
      ...(floorNeeded ? { floor: new Date(this.floor as number).toISOString() } : {}),
      ...(this.pending.size > 0 ? { pending: this.pendingOrders() } : {}),
    };
    try {
      writeCursor(this.file.path, cursor);
      this.saved = true;
    } catch (error) {
      throw this.unsavedCursor(error);
    }
  }

  /**
   * A cursor that cannot be written (a full or read-only disk) once orders were: the bare system error named no file
   * and exited 1. A failed write, exit 75; the file is replaced whole or not at all, so it stays where it was last
   * saved and the next run writes again what came after it.
   */
  private unsavedCursor(error: unknown): unknown {
    const cause = systemErrorCause(error);
    if (cause === undefined) return error;
    // A first run has no cursor to fall back on: the next run needs the --since this one started from.
    const next = this.saved
      ? 'the cursor stays where it was last saved, so the next run writes again what came after it. Make room on its disk or make it writable, then run again.'
      : `no cursor was saved (a first run), so the next run must start where this one did. Make room on its disk or make it writable, then run again with --since ${new Date(this.window.from).toISOString()}.`;
    return new OutputError(
      `Cannot write the orders cursor ${printable(this.file.path)} (${cause}) after ${countOf(this.written, 'order versions')} written: ${next}`,
      { cause: error },
    );
  }

  /**
   * After the windows up to `writtenTo` were written: forgets the versions updated more than the look-back before
   * it (listed in a window ending there, for an instant without a zone; never one the last run remembered and this
   * one has not listed yet, which a later window may list). No later window of this run lists them (windows tile in
   * time order) and the cursor saved later is at least `writtenTo` (or where the platform's clock holds it) or the
   * start of a window read later, so the next run does not need them either: memory stays flat over a long catch-up.
   */
  forgetBefore(writtenTo: number): void {
    if (this.emitted.size < 2 * this.sweptAt) return;
    const floor = Math.min(writtenTo, this.readTo(), this.unreadableFrom, this.platformCeiling) - this.lookbackMs;
    const memory = this.listingMemory(false);
    for (const key of this.emitted) {
      if (mayBeListedFrom(key, floor, memory)) continue;
      this.emitted.delete(key);
      this.listedUpTo.delete(key);
    }
    this.sweptAt = Math.max(1_000, this.emitted.size);
  }
}
