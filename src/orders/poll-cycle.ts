import { quotedJson } from '../base/quoted-answer.js';
import { once } from '../lib/once.js';
import { countOf } from '../lib/plural.js';
import { hiddenColumnsNote, terminalColumns } from '../io/output/table.js';
import { wordWrap } from '../lib/word-wrap.js';
import { existsSync } from 'node:fs';
import { checkOrdersFolderSafety } from '../config/folder-safety.js';
import type { Context } from '../context.js';
import {
  cursorAheadOfClock,
  newVersions,
  rememberedKeys,
  parseInstantOrDuration,
  runWindow,
  type TimeWindow,
  versionKey,
} from '../domain/orders-window.js';
import { readOrderStatus } from '../platform/answers/orders.js';
import type { StoreStatusWords } from '../domain/store-status-words.js';
import { isIdLike } from '../platform/answers/shapes.js';
import {
  B2bctlError,
  ExitCode,
  InterruptedError,
  OutputClosedError,
  PartialFailureError,
  UsageError,
} from '../base/errors.js';
import type { PlatformClient } from '../platform/client.js';
import { orderAnswers, orderListingPageSize } from '../platform/orders.js';
import { clearCutShort, type CutShortRun, readCursor, readCutShort, writeCutShort } from './cursor-file.js';
import { createOrderSink, type OrderSink } from './order-output.js';
import { PollProgress } from './poll-progress.js';
import { StatusFilter } from './status-filter.js';
import { coarseListingNote } from './unfiltered-listing.js';
import { scanWindow } from './window-scan.js';
import { fetchDetails, versionShown } from './order-details.js';
import { FailedDetail } from './failed-detail.js';
import { namePendingOrders, pendingSummary, writePendingOrders } from './pending-details.js';
import { listingPages, type PolledOrder } from './listing-pages.js';
import { printable } from '../lib/printable.js';
import { sameBaseUrl } from '../net/base-url.js';

export interface OrdersPollOptions {
  since?: string;
  until?: string;
  statuses: string[];
  /**
   * The `status` filters the listing is sent, when they are not `statuses`: on a store with words of its own, the
   * store's words for a stage asked (statusFilterOfStore).
   */
  listingStatuses?: string[];
  /** The store's own status words (answers.order.statusWords), which --status is checked in. */
  statusWords?: StoreStatusWords;
  detail: boolean;
  outDir?: string;
  cursor?: string;
  watch: boolean;
  intervalSeconds: number;
  concurrency: number;
  /** Requests per second; undefined for as fast as the concurrency allows. */
  rate?: number;
}

/** What a cycle reads from the profile's settings, and what a watch is told of its cursor. */
export interface PollSettings {
  lookbackMs: number;
  lagMs: number;
  /**
   * `--watch` only: told of a cursor further ahead of this machine's clock than the look-back, which the watch keeps
   * and polls from (held there) instead of stopping: its own cursor, after this clock stepped back.
   */
  cursorAheadHeld?: (aheadMessage: string | undefined) => void;
}

/**
 * The window a run reads: from --since on a first run (checked always), else from the saved cursor, less the look-back
 * and up to the lag; refused (exit 2) when it cannot be read.
 */
export function planWindow(
  options: OrdersPollOptions,
  nowMs: number,
  cursor: { saved: { cursor: string; floor?: string } | undefined; path: string },
  settings: PollSettings,
): TimeWindow {
  const { saved } = cursor;
  const { cursorAheadHeld, ...reach } = settings;
  const since = options.since === undefined ? undefined : parseInstantOrDuration(options.since, nowMs);
  if (since !== undefined && typeof since !== 'number') throw new UsageError(`--since: ${since.problem}.`);
  const until = options.until === undefined ? undefined : parseInstantOrDuration(options.until, nowMs);
  if (until !== undefined && typeof until !== 'number') throw new UsageError(`--until: ${until.problem}.`);
  // --since is checked always (a bad value is exit 2 even with a cursor) but used only for the first run: a crontab
  // line that keeps --since would otherwise re-read and re-emit the same orders every minute.
  if (since !== undefined || saved === undefined) {
    const first = runWindow({ nowMs, since, until, ...reach });
    if ('problem' in first) throw new UsageError(`orders poll: ${withFilter(first.problem, options.statuses)}.`);
    if (saved === undefined) return first;
  }
  const floor = saved.floor === undefined ? undefined : Date.parse(saved.floor);
  const input = {
    nowMs,
    until,
    cursor: Date.parse(saved.cursor),
    floor,
    cursorFile: cursor.path,
    ...reach,
    cursorAhead: cursorAheadHeld === undefined ? ('refused' as const) : ('held' as const),
  };
  const window = runWindow(input);
  if ('problem' in window) throw new UsageError(`orders poll: ${window.problem}.`);
  if (cursorAheadHeld !== undefined)
    cursorAheadHeld(
      cursorAheadOfClock(input)
        ? `orders poll: the cursor in ${printable(cursor.path)} (${saved.cursor}) is ahead of this machine's clock (${new Date(nowMs).toISOString()}) by more than orders.lookback: this clock was most likely set back (an NTP step, a VM restored). The watch keeps its cursor and polls from it, reading nothing past it, until the clock passes it.`
        : undefined,
    );
  return window;
}

/** Whose cursor a run reads and writes: its profile's, for the store it polls (the base URL, normalised). */
export interface CursorOwner {
  profile: string;
  baseUrl: string;
}

/**
 * The saved cursor, refused (exit 2, nothing emitted) when it was written for another store: a run of the profile
 * against another store (--base-url, B2BCTL_BASE_URL, a login that re-pointed it) read it and moved it on, and the
 * profile's own store lost every order updated in between (a user test). A cursor of an older b2bctl names no store.
 */
export function readOwnCursor(path: string, owner: CursorOwner) {
  const saved = readCursor(path, owner.profile);
  if (saved?.baseUrl === undefined || sameBaseUrl(saved.baseUrl, owner.baseUrl)) return saved;
  throw new UsageError(
    `orders poll: the orders cursor ${printable(path)} counts the orders of ${printable(saved.baseUrl)}, not of ${printable(owner.baseUrl)}, the store this run polls; nothing was emitted. A run from it would skip every order of ${printable(owner.baseUrl)} updated before ${saved.cursor}, and move it past orders of ${printable(saved.baseUrl)} no run has read. Poll this store with a cursor of its own (--cursor FILE, with --since for its first run); if the profile moved to this store for good, move the cursor aside and run again with --since.`,
  );
}

/** A first run's problem said of the --status filter, which keeps a cursor of its own (the profile may have another). */
function withFilter(problem: string, statuses: readonly string[]): string {
  if (statuses.length === 0) return problem;
  return problem.replace(
    'the first run of this profile',
    `the first run of this profile with --status ${statuses.join(' --status ')} (a filter keeps a cursor of its own)`,
  );
}

/** One run: scan the window, write the new versions window by window, move the cursor over what is flushed. */
export async function pollOnce(
  options: OrdersPollOptions,
  context: Context,
  client: PlatformClient,
  cursorPath: string,
  owner: CursorOwner,
  settings: PollSettings,
): Promise<number> {
  const saved = readOwnCursor(cursorPath, owner);
  const window = planWindow(options, context.clock.now(), { saved, path: cursorPath }, settings);
  if (saved !== undefined && options.since !== undefined) {
    context.log.info(
      `orders poll: continuing from the cursor in ${printable(cursorPath)} (${saved.cursor}); --since counts only for a first run. To read again from --since, move the cursor aside.`,
    );
  }
  const cutShort = readCutShort(cursorPath);
  if (cutShort && saved)
    context.log.info(
      `orders poll: the last run (${cutShort.at}) was cut short: its output closed after ${orderCount(cutShort.written)}; the cursor was not moved, so this run starts from ${saved.cursor} again.`,
    );
  const progress = new PollProgress({ path: cursorPath, ...owner }, window, settings.lookbackMs, saved);
  const sink = createOrderSink(context, options.outDir);
  // Again at each run, not only at start: a --watch runs for weeks, and the folder may be handed to others meanwhile.
  // Refused, the cycle fails and is tried again once the folder is safe; nothing of this run was fetched.
  if (options.outDir !== undefined) checkOrdersFolderSafety(options.outDir, '--out-dir');
  const filter = new StatusFilter(options.statuses, { detail: options.detail, words: options.statusWords });
  const runStartMs = context.clock.now();
  let interrupted = false;
  // Ctrl-C aborts the requests in flight (the HTTP client's rule); the window being fetched is then not written,
  // and what was written before it stays, with the cursor over what was flushed.
  try {
    interrupted = await writeWindows(window, options, context, client, { sink, filter }, progress, settings);
  } catch (error) {
    // A clock behind is often why a window could not be read (its new stamps land inside it): said before the error.
    if (!context.interrupt.aborted) {
      warnPlatformClock(progress, context);
      throw error;
    }
    interrupted = true;
  }
  await sink.end();
  if (sink.closed()) outputClosed(context, cursorPath, { saved, window, written: progress.written });
  warnUnreadable(progress, context);
  noteNeverUpdated(progress, context);
  for (const line of filter.warnings()) context.log.warn(line);
  warnPlatformClock(progress, context);
  warnZoneless(progress, context);
  if (progress.coarseListing !== undefined) context.log.warn(coarseListingNote(progress.coarseListing));
  if (interrupted || context.interrupt.aborted) {
    const written = `orders poll interrupted: ${countOf(progress.written, 'order versions')} written`;
    // A first run stopped before its first window was flushed saved no cursor: the next must be told where to start.
    throw new InterruptedError(
      existsSync(cursorPath)
        ? `${written}; the cursor covers what was flushed, so the next run continues from there.`
        : `${written}; no cursor was saved (a first run), the next run starts from --since ${new Date(window.from).toISOString()}.`,
    );
  }
  // A pipe or a terminal gives no proof of what was read: the cursor moves only once the whole run is written.
  progress.save(window.to);
  if (cutShort) clearCutShort(cursorPath);
  context.log.info(
    `orders poll: ${countOf(progress.written, 'new order versions')} updated ${new Date(window.from).toISOString()} … ${new Date(progress.readTo()).toISOString()}; cursor ${new Date(progress.current()).toISOString()}${progress.unreadable() ? ' (not moved past what could not be read: see the warning)' : ''}.`,
  );
  noteHiddenColumns(sink.hiddenColumns(), context);
  refuseNothingReadable(progress);
  // An order listed with a status asked, left out because its detail showed another, proves the spelling right.
  if (saved === undefined && progress.written === 0 && !filter.sawStatusAsked)
    warnEmptyFilter(options.statuses, context);
  // Named last, where a reader of the log looks; a --watch names them every cycle and goes on at its interval.
  const pending = namePendingOrders(progress, runStartMs, (line) => context.log.warn(line));
  if (pending > 0 && !options.watch) throw new PartialFailureError(pendingSummary(pending));
  return progress.written;
}

/**
 * A filter's first run that lists nothing at all, most often a status spelled otherwise than the platform spells it
 * (`shipped`, `SHIPED`): a cron job with it would emit nothing for ever. Said once; the statuses are the platform's
 * to name, so none is refused.
 */
function warnEmptyFilter(statuses: readonly string[], context: Context): void {
  if (statuses.length === 0) return;
  const unlike = statuses.filter((status) => !/^[A-Z][A-Z0-9_]*$/.test(status));
  context.log.warn(
    `warning: no order has ${statuses.length === 1 ? 'the status' : 'any of the statuses'} ${statuses.join(', ')} in this window. Check the spelling against what the platform lists (b2bctl orders get ID shows an order's status)${unlike.length > 0 ? `; the platform writes statuses in capitals, such as AWAITING_PAYMENT` : ''}.`,
  );
}

/**
 * Scans the window and writes each scanned piece's new versions of the statuses asked as it comes, in time order,
 * moving the cursor over what is flushed (over the orders left out too: the piece was read whole; with --detail, the
 * status checked is the detail's); resolves to true when Ctrl-C stopped it between pieces.
 */
async function writeWindows(
  window: TimeWindow,
  options: OrdersPollOptions,
  context: Context,
  client: PlatformClient,
  { sink, filter }: { sink: OrderSink; filter: StatusFilter },
  progress: PollProgress,
  settings: PollSettings,
): Promise<boolean> {
  const answers = orderAnswers(client);
  const saidStampUnread = once((line) => context.log.warn(line));
  const fetchPage = listingPages({ options, context, client, answers }, progress, settings);
  // The interrupt stops the scan whatever it is doing: its requests carry the scan's own signal, not the client's.
  const scan = {
    pageSize: orderListingPageSize,
    concurrency: options.concurrency,
    fetchPage,
    signal: context.interrupt,
  };
  const pendingRun = {
    client,
    sink,
    filter,
    answers,
    concurrency: options.concurrency,
    saidStampUnread,
    warn: (line: string) => context.log.warn(line),
    nowMs: context.clock.now(),
  };
  // The orders pending from earlier runs first, oldest first, before the newer versions the window holds.
  if ((await writePendingOrders(pendingRun, progress)) > 0 && (await sink.flush())) progress.save(progress.current());
  for await (const scanned of scanWindow<PolledOrder>(window, scan)) {
    // Filtered after the scan, which needs every listed order to tell that its pages tiled the window.
    const fresh = newVersions(filter.keep(scanned.orders), progress.emitted);
    // Listed again or for the first time: remembered while the platform may list it (an instant without a zone).
    for (const order of scanned.orders)
      if (order.listedUpTo !== undefined)
        for (const key of rememberedKeys(order)) progress.noteListed(key, order.listedUpTo);
    const records = options.detail
      ? await fetchDetails(client, fresh, { concurrency: options.concurrency, answers, saidStampUnread }, (line) =>
          context.log.warn(line),
        )
      : fresh.map((order) => order.record);
    for (const [index, listed] of fresh.entries()) {
      if (sink.closed()) return false;
      const record = records[index];
      // Its detail kept failing: pending in the cursor, which moves past it, so that it holds back no other order.
      if (record instanceof FailedDetail) {
        progress.holdPending(listed, record, pendingRun.nowMs);
        continue;
      }
      if (options.detail) progress.settlePending(listed.id);
      // What is written is the detail, read after the listing: the status checked is the one it shows.
      if (options.detail && !filter.keepShown(listed, readOrderStatus(record))) continue;
      const version = options.detail ? versionShown(listed, record, answers, progress) : listed;
      if (version.neverUpdated !== undefined) progress.neverUpdated.set(versionKey(version), version.neverUpdated);
      await sink.write(version, record);
      progress.written++;
    }
    if (await sink.flush()) progress.save(scanned.window.to);
    progress.forgetBefore(scanned.window.to);
    if (context.interrupt.aborted) return true;
  }
  return false;
}

/**
 * Instants written without a zone, said once a run, with what they change: nothing of what is emitted (each version
 * once, kept by its listing), only the instant in --out-dir's file names, which is read in this machine's zone. TZ
 * names the platform's zone when it is another, as for --since.
 */
function warnZoneless(progress: PollProgress, context: Context): void {
  const { example, elsewhere } = progress.zoneless;
  if (example === undefined) return;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const kept =
    'b2bctl keeps such an order in the window the platform lists it in, and remembers it while the platform lists it';
  const fileNames = `Only the instant in --out-dir's file names is read in this machine's zone (${zone})`;
  const tz = "run b2bctl with TZ set to the platform's zone (TZ=America/Sao_Paulo for Brasília)";
  if (elsewhere === undefined) {
    context.log.warn(
      `warning: the platform writes update instants without a time zone ("${example}"): ${kept}, so each version is emitted once whatever the platform's zone. ${fileNames}; if the platform's zone is another, ${tz} to have it read in the platform's.`,
    );
    return;
  }
  const { from, to } = elsewhere.window;
  context.log.warn(
    `warning: the platform writes update instants without a time zone, and in a zone other than this machine's (${zone}): it listed "${elsewhere.written}" among the orders updated ${new Date(from).toISOString()} … ${new Date(to).toISOString()}. Each version is still emitted once: ${kept}. ${fileNames}; ${tz} to have it read in the platform's.`,
  );
}

/**
 * What a run has said of the platform's clock: a --watch said it again every cycle (every minute, for as long as the
 * clocks differ); now once, and again when the difference moves by 10 s or more.
 */
const clockSaid = new WeakMap<Context, { ahead?: number; behind?: number; unreadableDate?: true }>();
const clockMovedMs = 10_000;

function saysAgain(before: number | undefined, now: number): boolean {
  return before === undefined || Math.abs(now - before) >= clockMovedMs;
}

function warnPlatformClock(progress: PollProgress, context: Context): void {
  const said = clockSaid.get(context) ?? {};
  clockSaid.set(context, said);
  // A Date header no HTTP date is no clock: read as one (`01/12/2026 02:24:13` as January 12) it held the window
  // months back and emitted nothing, run after run (a user test). Said once a run, even a --watch.
  if (progress.unreadableDate !== undefined && said.unreadableDate === undefined) {
    said.unreadableDate = true;
    context.log.warn(
      `warning: the platform's Date header (${shownValue(progress.unreadableDate)}) is no HTTP date, so its clock is not known: this machine's clock is used for the window. Fix the header at whatever writes it (a gateway or proxy before the platform) to compare the clocks (b2bctl doctor).`,
    );
  }
  const ahead = progress.platformAheadMs;
  if (ahead !== undefined && saysAgain(said.ahead, ahead)) {
    said.ahead = ahead;
    context.log.warn(
      `warning: the platform's clock is ${Math.round(ahead / 1000)} s ahead of this machine's (its Date header): each update it stamps is emitted that much later, once this machine's clock reaches the stamp. Set the right time on whichever clock is wrong (b2bctl doctor compares them).`,
    );
  }
  const behind = progress.platformBehindMs;
  if (behind === undefined || !saysAgain(said.behind, behind)) return;
  said.behind = behind;
  context.log.warn(
    `warning: the platform's clock is ${Math.round(behind / 1000)} s behind this machine's (its Date header), more than half of orders.lookback: the cursor is held at the platform's time so that no update it stamps is missed. Set the right time on whichever clock is wrong (b2bctl doctor compares them).`,
  );
}

/**
 * The reader closed stdout early (`| head`): the cursor stays where it was, so no order is lost; a note beside it
 * lets the next run say so (and, for a first run, which --since starts it here again). Exit 141, as a shell expects.
 */
function outputClosed(
  context: Context,
  cursorPath: string,
  cut: { saved: { cursor: string } | undefined; window: TimeWindow; written: number },
): never {
  const since = new Date(cut.window.from).toISOString();
  const note: CutShortRun = { at: new Date(context.clock.now()).toISOString(), written: cut.written, since };
  writeCutShort(cursorPath, note);
  throw new OutputClosedError(
    cut.saved
      ? `output closed after ${orderCount(cut.written)}; the cursor was not moved, the next run starts from ${cut.saved.cursor} again.`
      : `output closed after ${orderCount(cut.written)}; no cursor was saved (a first run), the next run starts from --since ${since}.`,
  );
}

export function orderCount(count: number): string {
  return `${count} ${count === 1 ? 'order' : 'orders'}`;
}

function warnUnreadable(progress: PollProgress, context: Context): void {
  const unreadableStamps = progress.unreadableStamps();
  const example = progress.unreadableStamp;
  // The field is found and its value is what no setting reads: naming a setting would send the operator nowhere.
  if (unreadableStamps > 0 && example !== undefined) {
    const order = isIdLike(example.id) ? `order ${String(example.id)}'s` : "the first one's";
    context.log.warn(
      `warning: ${countOf(unreadableStamps, 'listed entries')} had an update stamp b2bctl cannot read: ${order} ${printable(example.field)} holds ${shownValue(example.value)}, which is no instant b2bctl reads (ISO-8601 text such as 2026-11-30T14:22:18-03:00, or epoch seconds or milliseconds); they were not emitted and the cursor was not moved past them. No setting reads such a stamp: the platform must write its update stamps in one of those forms.`,
    );
  }
  const unrecognised = progress.untrackable - unreadableStamps;
  if (unrecognised > 0) {
    context.log.warn(
      `warning: ${unrecognised} listed entries had no id or update instant b2bctl recognises; they were not emitted and the cursor was not moved past them. Set answers.orders.id or answers.orders.lastUpdated to the fields that hold them (b2bctl doctor shows the answer).`,
    );
  }
  if (progress.unrecognisedPages > 0) {
    context.log.warn(
      `warning: ${progress.unrecognisedPages} order listing answers held no array b2bctl recognises and were read as empty, so the cursor was not moved; set answers.orders.items to the field that holds the orders (b2bctl doctor shows the answer).`,
    );
  }
}

/** A value a warning quotes: as JSON, on one line, at most 60 characters of it. */
function shownValue(value: unknown): string {
  return quotedJson(printable(JSON.stringify(value) ?? String(value)), 60);
}

/**
 * Orders listed with their update stamp unset (null, blank, `0000-00-00 00:00:00`: never updated since created),
 * emitted as of their creation instant: said once a run, as a note (it is how such a platform lists new orders,
 * nothing to mend), naming the fields read.
 */
function noteNeverUpdated(progress: PollProgress, context: Context): void {
  const [first] = progress.neverUpdated.values();
  if (first === undefined) return;
  context.log.info(
    `orders poll: ${countOf(progress.neverUpdated.size, 'order versions')} listed with ${first.updateField} unset (never updated since created), emitted as of the creation instant (${first.createdField}); each order's first update is a new version.`,
  );
}

/**
 * A run in which the platform listed entries and b2bctl could read none of them (every update stamp in a form it does
 * not read, every entry without an id) emitted nothing and holds the cursor where it was: run after run, a silent
 * stall. It ends non-zero, 69 as for a listing that ignores the window: the platform's answer is what no wait nor
 * setting of this run mends, and the warning before it says what to change. --watch says so each cycle and goes on.
 */
function refuseNothingReadable(progress: PollProgress): void {
  if (progress.readableListed > 0 || progress.untrackable === 0) return;
  throw new B2bctlError(
    `orders poll: none of the ${countOf(progress.untrackable, 'entries')} the platform listed could be read (see the warning): nothing was emitted, and the cursor stays at ${new Date(progress.current()).toISOString()}.`,
    ExitCode.unavailable,
  );
}

/** After the count, the columns the table left out to fit the terminal, as prose wrapped at spaces to its width. */
function noteHiddenColumns(hidden: readonly string[], context: Context): void {
  if (hidden.length === 0) return;
  const note = hiddenColumnsNote(hidden, terminalColumns(context.io.stdout), '-o csv or -o ndjson');
  for (const line of wordWrap(`orders poll: ${note}`, terminalColumns(context.io.stderr))) context.log.info(line);
}
