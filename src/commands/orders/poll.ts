import { existsSync } from 'node:fs';
import { Pacer } from '../../platform/pacer.js';
import { acquireProfileLock } from '../../config/lock.js';
import type { Context } from '../../context.js';
import {
  newVersions,
  parseInstantOrDuration,
  runWindow,
  versionsToRemember,
  type TimeWindow,
} from '../../domain/orders-window.js';
import { AuthError, B2bctlError, InterruptedError, UsageError } from '../../errors.js';
import type { PlatformClient } from '../../platform/client.js';
import {
  getOrder,
  listOrderPage,
  orderAnswers,
  orderListingPageSize,
  type ListedOrder,
} from '../../platform/orders.js';
import { defaultCursorPath, readCursor, writeCursor } from './cursor-file.js';
import { createOrderSink } from './order-output.js';
import { scanWindow } from './window-scan.js';

export interface OrdersPollOptions {
  since?: string;
  until?: string;
  statuses: string[];
  detail: boolean;
  outDir?: string;
  cursor?: string;
  watch: boolean;
  intervalSeconds: number;
  concurrency: number;
  /** Requests per second; undefined for as fast as the concurrency allows. */
  rate?: number;
}

/** The longest wait between two --watch cycles after repeated failures. */
const maximumBackoffMs = 10 * 60_000;

/**
 * `orders poll`: emits each order version `(id, lastUpdated)` once across normal runs, continuing from the
 * profile's cursor (DESIGN.md §8). One poller per profile (a lock); the cursor moves only over what was written and
 * flushed; Ctrl-C stops after the window being written and exits 75.
 */
export async function run(options: OrdersPollOptions, context: Context): Promise<void> {
  const session = await context.session();
  session.requireBaseUrl();
  const store = await context.profiles();
  const cursorPath = options.cursor ?? defaultCursorPath(store.directory, session.profileName, options.statuses);
  const settings = {
    lookbackMs: session.get('orders.lookback'),
    lagMs: session.get('orders.lag'),
  };
  // Bad flags and a bad cursor stop the run before the lock is taken or anything is sent.
  planWindow(options, context.clock.now(), readCursor(cursorPath, session.profileName), settings);
  const release = acquireProfileLock(
    store.directory,
    session.profileName,
    'orders-poll',
    `b2bctl orders poll (profile ${session.profileName})`,
    context.log.warn,
  );
  try {
    const pacer = new Pacer(context.clock, options.rate, (message) => context.log.debug(`orders poll: ${message}`));
    const client = await context.platform({ connections: options.concurrency, pace: pacer });
    let current = options;
    const poll = async () => {
      try {
        return await pollOnce(current, context, client, cursorPath, session.profileName, settings);
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

interface PollSettings {
  lookbackMs: number;
  lagMs: number;
}

function planWindow(
  options: OrdersPollOptions,
  nowMs: number,
  saved: { cursor: string } | undefined,
  settings: PollSettings,
): TimeWindow {
  const since = options.since === undefined ? undefined : parseInstantOrDuration(options.since, nowMs);
  if (since !== undefined && typeof since !== 'number') throw new UsageError(`--since: ${since.problem}.`);
  const until = options.until === undefined ? undefined : parseInstantOrDuration(options.until, nowMs);
  if (until !== undefined && typeof until !== 'number') throw new UsageError(`--until: ${until.problem}.`);
  // --since is checked always (a bad value is exit 2 even with a cursor) but used only for the first run: a crontab
  // line that keeps --since would otherwise re-read and re-emit the same orders every minute.
  if (since !== undefined || saved === undefined) {
    const first = runWindow({ nowMs, since, until, ...settings });
    if ('problem' in first) throw new UsageError(`orders poll: ${first.problem}.`);
    if (saved === undefined) return first;
  }
  const window = runWindow({ nowMs, until, cursor: Date.parse(saved.cursor), ...settings });
  if ('problem' in window) throw new UsageError(`orders poll: ${window.problem}.`);
  return window;
}

/** One run: scan the window, write the new versions window by window, move the cursor over what is flushed. */
async function pollOnce(
  options: OrdersPollOptions,
  context: Context,
  client: PlatformClient,
  cursorPath: string,
  profile: string,
  settings: PollSettings,
): Promise<number> {
  const saved = readCursor(cursorPath, profile);
  const window = planWindow(options, context.clock.now(), saved, settings);
  if (saved !== undefined && options.since !== undefined) {
    context.log.info(
      `orders poll: continuing from the cursor in ${cursorPath} (${saved.cursor}); --since counts only for a first run. To read again from --since, move the cursor aside.`,
    );
  }
  const emitted = new Set(saved?.emitted ?? []);
  let cursor = saved === undefined ? undefined : Date.parse(saved.cursor);
  // Entries the answers did not let us read may be orders: the cursor must not move past them. It stays where it
  // was (a first run's: its start), still remembering what was emitted, so the next run reads them again without
  // emitting the rest twice.
  const unreadable = () => untrackable > 0 || unrecognisedPages > 0;
  const save = (upTo: number) => {
    const target = unreadable() ? (cursor ?? window.from) : upTo;
    cursor = Math.max(cursor ?? target, target);
    writeCursor(cursorPath, {
      profile,
      cursor: new Date(cursor).toISOString(),
      emitted: versionsToRemember(emitted, cursor, settings.lookbackMs),
    });
  };
  let untrackable = 0;
  let unrecognisedPages = 0;
  const sink = createOrderSink(context, options.outDir);
  let written = 0;
  let interrupted = false;
  const answers = orderAnswers(client);
  // Ctrl-C aborts the requests in flight (the HTTP client's rule); the window being fetched is then not written,
  // and what was written before it stays, with the cursor over what was flushed.
  try {
    for await (const scanned of scanWindow<ListedOrder>(window, {
      pageSize: orderListingPageSize,
      concurrency: options.concurrency,
      fetchPage: async (part, offset, signal) => {
        const page = await listOrderPage(
          client,
          { window: part, offset, limit: orderListingPageSize, statuses: options.statuses, signal },
          answers,
        );
        untrackable += page.untrackable;
        if (page.unrecognised) unrecognisedPages++;
        // A full page is judged on what the platform sent; only orders inside the window are kept, so windows tile.
        const kept = page.orders.filter((order) => {
          const instant = Date.parse(order.lastUpdated);
          return instant >= part.from && instant <= part.to;
        });
        return { orders: kept, listed: page.listed };
      },
    })) {
      const fresh = newVersions(scanned.orders, emitted);
      const records = options.detail
        ? await fetchDetails(client, fresh, options.concurrency)
        : fresh.map((order) => order.record);
      for (const [index, version] of fresh.entries()) await sink.write(version, records[index]);
      written += fresh.length;
      if (await sink.flush()) save(scanned.window.to);
      if (context.interrupt.aborted) {
        interrupted = true;
        break;
      }
    }
  } catch (error) {
    if (!context.interrupt.aborted) throw error;
    interrupted = true;
  }
  await sink.end();
  if (untrackable > 0) {
    context.log.warn(
      `warning: ${untrackable} listed entries had no id or update instant b2bctl recognises; they were not emitted and the cursor was not moved past them. Set answers.orders.id or answers.orders.lastUpdated to the fields that hold them (b2bctl doctor shows the answer).`,
    );
  }
  if (unrecognisedPages > 0) {
    context.log.warn(
      `warning: ${unrecognisedPages} order listing answers held no array b2bctl recognises and were read as empty, so the cursor was not moved; set answers.orders.items to the field that holds the orders (b2bctl doctor shows the answer).`,
    );
  }
  if (interrupted || context.interrupt.aborted) {
    throw new InterruptedError(
      `orders poll interrupted: ${written} order versions written; the cursor covers what was flushed, so the next run continues from there.`,
    );
  }
  // A pipe or a terminal gives no proof of what was read: the cursor moves only once the whole run is written.
  save(window.to);
  context.log.info(
    `orders poll: ${written} new order versions updated ${new Date(window.from).toISOString()} … ${new Date(window.to).toISOString()}; cursor ${new Date(cursor ?? window.to).toISOString()}${unreadable() ? ' (not moved past what could not be read: see the warning)' : ''}.`,
  );
  return written;
}

/** The detail of each version, `concurrency` at a time, in the order given. */
async function fetchDetails(
  client: PlatformClient,
  versions: readonly ListedOrder[],
  concurrency: number,
): Promise<unknown[]> {
  const details: unknown[] = Array.from({ length: versions.length });
  let next = 0;
  const worker = async () => {
    while (next < versions.length) {
      const index = next++;
      details[index] = await getOrder(client, (versions[index] as ListedOrder).id);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, versions.length)) }, worker));
  return details;
}

/** `--watch`: a run every interval until SIGINT/SIGTERM; platform outages are waited out with growing pauses. */
async function watch(options: OrdersPollOptions, context: Context, poll: () => Promise<number>): Promise<void> {
  let failures = 0;
  while (!context.interrupt.aborted) {
    try {
      await poll();
      failures = 0;
    } catch (error) {
      if (error instanceof InterruptedError || context.interrupt.aborted) throw error;
      // Bad flags, a bad cursor or refused credentials do not heal by waiting.
      if (error instanceof UsageError || error instanceof AuthError) throw error;
      failures++;
      const message = error instanceof B2bctlError ? error.message : String((error as Error)?.message ?? error);
      context.log.warn(`orders poll: cycle failed (${message}); trying again, the cursor is unchanged.`);
    }
    const pauseMs =
      failures === 0
        ? options.intervalSeconds * 1000
        : Math.min(maximumBackoffMs, options.intervalSeconds * 1000 * 2 ** (failures - 1));
    try {
      await context.clock.sleep(pauseMs, context.interrupt);
    } catch {
      return;
    }
  }
}
