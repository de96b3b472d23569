import { countOf } from '../lib/plural.js';
import type { EventStore, SpaceReport } from './store/types.js';

export interface RetentionOptions {
  /** Delivered events older than this are removed; undefined keeps them. */
  retainMs: number | undefined;
  /** De-duplication keys are kept this long, whatever the retention. */
  dedupWindowMs: number;
  now: () => number;
  log: (message: string) => void;
  everyMs?: number;
}

/** `1.2 GB`, `340 MB`: a file size as the log says it. */
export function spokenBytes(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/** What the log says of the space a pass freed; undefined when there is nothing worth a line. */
function spaceSentence(report: SpaceReport, warned: { noVacuum: boolean }): string | undefined {
  if (report.reclaimed)
    return `The inbox file went from ${spokenBytes(report.before)} to ${spokenBytes(report.after)}.`;
  if (warned.noVacuum || report.freeBytes < 64e6) return undefined;
  warned.noVacuum = true;
  return `The inbox holds ${spokenBytes(report.freeBytes)} of free pages it cannot give back while it runs (made before incremental vacuum): stop the receiver and run b2bctl webhook inbox --compact once.`;
}

/**
 * Runs a retention pass soon after start (never before the port is bound) and then every hour. The returned stop
 * ends a pass under way after its current slice: a receiver told to stop does not wait for a year's keys to go.
 */
export function startRetention(store: EventStore, options: RetentionOptions): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const warned = { noVacuum: false };
  const stopping = new AbortController();
  const pass = () => {
    running = running.then(async () => {
      const now = options.now();
      const eventsBefore = options.retainMs === undefined ? undefined : now - options.retainMs;
      try {
        const pruned = await store.prune(eventsBefore, now - options.dedupWindowMs, stopping.signal);
        if (pruned.events === 0 && pruned.keys === 0) return;
        const stopped = stopping.signal.aborted ? ' before stopping; the next run goes on' : '';
        options.log(
          `Retention: removed ${countOf(pruned.events, 'delivered events')} and ${countOf(pruned.keys, 'de-duplication keys')}${stopped}.`,
        );
        if (stopping.signal.aborted) return;
        const space = store.reclaimSpace && spaceSentence(await store.reclaimSpace(stopping.signal), warned);
        if (space) options.log(space);
      } catch (error) {
        options.log(`Retention pass failed (${(error as Error).message}); it runs again in an hour.`);
      }
    });
  };
  const first = setTimeout(pass, 1000);
  const timer = setInterval(pass, options.everyMs ?? 3_600_000);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    stopping.abort();
    await running;
  };
}
