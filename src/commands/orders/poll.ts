import { existsSync } from 'node:fs';
import { devNull } from 'node:os';
import { UsageError } from '../../base/errors.js';
import { checkCursorFileSafety, checkOrdersFolderSafety } from '../../config/folder-safety.js';
import { acquireProfileLock } from '../../config/lock.js';
import type { Context } from '../../context.js';
import { statusAsAsked } from '../../domain/order-stages.js';
import { parseInstantOrDuration } from '../../domain/orders-window.js';
import { statusFilterOfStore } from '../../domain/store-status-words.js';
import type { Session } from '../../config/session.js';
import { deviceKeepingNothing } from '../../io/output/device-keeping-nothing.js';
import { specialFileKind } from '../../lib/file-owners.js';
import { statOrUndefined } from '../../lib/file-status.js';
import { makePrivateFolder } from '../../lib/private-file.js';
import { printable } from '../../lib/printable.js';
import {
  cursorLockName,
  defaultCursorPath,
  readCutShort,
  refuseUnwritableCursorFolder,
} from '../../orders/cursor-file.js';
import {
  orderCount,
  type OrdersPollOptions,
  planWindow,
  pollOnce,
  type PollSettings,
  readOwnCursor,
} from '../../orders/poll-cycle.js';
import { watch } from '../../orders/poll-watch.js';
import { Pacer } from '../../platform/pacer.js';

export type { OrdersPollOptions } from '../../orders/poll-cycle.js';

/**
 * `orders poll`: emits each order version `(id, lastUpdated)` once across normal runs, continuing from the
 * profile's cursor (docs/orders-poll.md). One poller per profile (a lock); the cursor moves only over what was written and
 * flushed; Ctrl-C stops after the window being written and exits 75.
 */
export async function run(given: OrdersPollOptions, context: Context): Promise<void> {
  // One spelling of each status from here on: the listing's filter, the cursor's name, the check and the messages.
  const session = await context.session();
  session.requireBaseUrl();
  const options = { ...given, statuses: given.statuses.map(statusAsAsked), ...storeStatusFilter(given, session) };
  const store = await context.profiles();
  const profileCursor = defaultCursorPath(store.directory, session.profileName);
  const cursorPath = options.cursor ?? defaultCursorPath(store.directory, session.profileName, options.statuses);
  const lockName = cursorLockName(cursorPath, profileCursor);
  const settings: PollSettings = {
    lookbackMs: session.get('orders.lookback'),
    lagMs: session.get('orders.lag'),
    ...(options.watch ? { cursorAheadHeld: cursorAheadWarning(context) } : {}),
  };
  // Bad flags and a bad cursor stop the run before the lock is taken or anything is sent.
  checkCursorFileSafety(cursorPath);
  refuseUnwritableCursorFolder(cursorPath, options.cursor !== undefined);
  const owner = { profile: session.profileName, baseUrl: session.requireBaseUrl() };
  const saved = readOwnCursor(cursorPath, owner);
  const takeLock = () =>
    acquireProfileLock(
      store.directory,
      session.profileName,
      lockName,
      `b2bctl orders poll (profile ${session.profileName}${lockName === 'orders-poll' ? '' : `, cursor ${printable(cursorPath)}`})`,
      context.log.warn,
    );
  const startedAt = context.clock.now();
  try {
    const cutShort = readCutShort(cursorPath);
    if (cutShort && !saved && options.since === undefined)
      throw new UsageError(
        `orders poll: the last run (${cutShort.at}) was cut short: its output closed after ${orderCount(cutShort.written)}, before a cursor was saved. Run again with --since ${cutShort.since} to start where it started.`,
      );
    planWindow(options, startedAt, { saved, path: cursorPath }, settings);
  } catch (error) {
    // No cursor yet may mean a first run still catching up: a cron line started meanwhile meets its lock (exit 75),
    // not a refusal that reads as a broken set-up.
    if (saved === undefined) takeLock()();
    throw error;
  }
  refuseWatchedDocument(options, context);
  refuseNullOutput(options, context);
  refuseOutDirThatIsNoFolder(options.outDir);
  checkOutDirSafety(options.outDir);
  const release = takeLock();
  try {
    const pacer = new Pacer(
      context.clock,
      options.rate,
      (message) => context.log.debug(`orders poll: ${message}`),
      (message) => context.log.info(`orders poll: ${message}`),
    );
    const client = await context.platform({ connections: options.concurrency, pace: pacer });
    let current = { ...options, since: sinceFixedAt(options.since, startedAt) };
    const poll = async () => {
      try {
        return await pollOnce(current, context, client, cursorPath, owner, settings);
      } finally {
        // Once a cursor exists, later --watch cycles continue from it without repeating the note about --since.
        if (existsSync(cursorPath)) current = { ...options, since: undefined };
      }
    };
    if (!options.watch) {
      await poll();
      return;
    }
    await watch(options, context, poll);
  } finally {
    release();
  }
}

/**
 * --status on a store with words of its own (answers.order.statusWords): checked in them, a word that is neither the
 * store's nor a stage refused (exit 2) before anything is fetched, and sent to the listing as the store writes it.
 * The cursor's name keeps the values as asked, so a filter polled before keeps its cursor.
 */
function storeStatusFilter(
  given: OrdersPollOptions,
  session: Session,
): Pick<OrdersPollOptions, 'listingStatuses' | 'statusWords'> {
  const words = session.get('answers.order.statusWords');
  if (words === undefined || given.statuses.length === 0) return {};
  const filter = statusFilterOfStore(given.statuses, words);
  if ('problem' in filter) throw new UsageError(`orders poll ${filter.problem}.`);
  return { listingStatuses: filter.listed, statusWords: words };
}

/**
 * --since as the one instant it names when the command starts (`7d`: seven days before this run began). Every
 * `--watch` cycle until a cursor exists starts there: counted again at each cycle, a first cycle that fails (an
 * outage) would move the start forward with the clock, past orders updated meanwhile, which no run would emit.
 */
function sinceFixedAt(since: string | undefined, startedAt: number): string | undefined {
  if (since === undefined) return undefined;
  const instant = parseInstantOrDuration(since, startedAt);
  return typeof instant === 'number' ? new Date(instant).toISOString() : since;
}

/**
 * What a watch says of its cursor ahead of this clock: once until the clock has caught up (a later step back is
 * said again), naming the clock step as the likely cause, since the watch wrote the cursor itself.
 */
function cursorAheadWarning(context: Context): (aheadMessage: string | undefined) => void {
  let said = false;
  return (aheadMessage) => {
    if (aheadMessage === undefined) said = false;
    else if (!said) {
      said = true;
      context.log.warn(aheadMessage);
    }
  };
}

/**
 * `--watch` writes each cycle's orders as they come: `-o json` would be an array a cycle (no JSON reader takes the
 * file) and `-o csv` a header a cycle. NDJSON, the table and `--out-dir` are written order by order.
 */
function refuseWatchedDocument(options: OrdersPollOptions, context: Context): void {
  if (!options.watch || options.outDir !== undefined) return;
  const format = context.outputFormat('ndjson');
  if (format !== 'json' && format !== 'csv') return;
  throw new UsageError(
    `orders poll --watch -o ${format}: each cycle would write ${format === 'json' ? 'an array of its own, and the output would be no one JSON document' : 'its own header line'}. Use -o ndjson (one order a line), or --out-dir DIR (one file an order).`,
  );
}

/** An --out-dir that is a file or a device: refused before anything is fetched, as every unusable output path is. */
function refuseOutDirThatIsNoFolder(outDir: string | undefined): void {
  const stats = outDir === undefined ? undefined : statOrUndefined(outDir);
  if (stats === undefined || stats.isDirectory()) return;
  const kind = stats.isFile() ? 'a file' : specialFileKind(stats);
  throw new UsageError(
    `--out-dir ${printable(outDir!)}: it is ${kind}, not a folder. Give a folder (it is made if it is missing).`,
  );
}

/**
 * The folder the ERP imports the orders from, made when missing (0700): one another user owns, reached through their
 * link, or one its group or others may write would let them swap an order for a forged one between two runs. Refused
 * at start as `webhook listen --fetch-orders` refuses its orders folder (exit 77, docs/security.md).
 */
function checkOutDirSafety(outDir: string | undefined): void {
  if (outDir === undefined) return;
  makePrivateFolder(outDir);
  checkOrdersFolderSafety(outDir, '--out-dir');
}

/**
 * A stdout on a device that keeps nothing (`> /dev/null`, closed with `>&-`, `> /dev/zero`) takes every order and
 * keeps none: the cursor would move past orders no one read. Refused before anything is fetched.
 */
function refuseNullOutput(options: OrdersPollOptions, context: Context): void {
  if (options.outDir !== undefined) return;
  const device = deviceKeepingNothing(context.io.stdout);
  if (device === undefined) return;
  throw new UsageError(
    `orders poll: stdout is ${device} (or was closed, which reaches b2bctl as ${devNull}), which keeps nothing: the orders would go nowhere while the cursor moved past them; nothing was fetched. Send them to a file (> orders.ndjson), to a program (| reader), or to --out-dir DIR.`,
  );
}
