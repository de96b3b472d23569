import type { EventStore } from './store/types.js';

export interface RetentionOptions {
  /** Delivered events older than this are removed; undefined keeps them. */
  retainMs: number | undefined;
  /** De-duplication keys are kept this long, whatever the retention. */
  dedupWindowMs: number;
  now: () => number;
  log: (message: string) => void;
  everyMs?: number;
}

/** Runs a retention pass soon after start (never before the port is bound) and then every hour. */
export function startRetention(store: EventStore, options: RetentionOptions): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const pass = () => {
    running = running.then(async () => {
      const now = options.now();
      const eventsBefore = options.retainMs === undefined ? undefined : now - options.retainMs;
      try {
        const pruned = await store.prune(eventsBefore, now - options.dedupWindowMs);
        if (pruned.events > 0 || pruned.keys > 0)
          options.log(`Retention: removed ${pruned.events} delivered events and ${pruned.keys} de-duplication keys.`);
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
    await running;
  };
}
