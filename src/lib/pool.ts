/**
 * Runs `worker` over items with at most `concurrency` at once, pulling the next item only when a slot
 * frees, so a million-row input never sits in memory. An abort stops the pulling and waits for the
 * work in flight; an error thrown by a worker (a fatal one, such as a refused login) does the same
 * and is rethrown.
 *
 * Kept beside p-limit (the orders engine's limiter) for what p-limit does not do: it takes tasks already made,
 * so a stream would be read to its end into its queue (a closure per record), and its queued tasks still start
 * after one throws or an interrupt (`Promise.all` only rejects) unless each caller clears the queue, where a
 * refused login or Ctrl-C must stop new requests at once. For work already in hand as a list, p-limit is the one
 * to use (src/README.md).
 */
export async function runPool<T>(
  items: AsyncIterable<T>,
  worker: (item: T) => Promise<void>,
  options: { concurrency: number; signal?: AbortSignal },
): Promise<{ interrupted: boolean }> {
  const inFlight = new Set<Promise<void>>();
  // Set from the workers' callbacks, hence an object the loop reads through.
  const stop: { fatal?: { error: unknown } } = {};
  const iterator = items[Symbol.asyncIterator]();
  try {
    for (;;) {
      while (inFlight.size >= options.concurrency && !stop.fatal) await Promise.race(inFlight);
      if (stop.fatal || options.signal?.aborted) break;
      const next = await iterator.next();
      // A worker may have failed or the run been stopped while the source was reading: start nothing more.
      if (next.done || stop.fatal || options.signal?.aborted) break;
      const task: Promise<void> = worker(next.value)
        .catch((error: unknown) => {
          stop.fatal ??= { error };
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  } finally {
    await Promise.all(inFlight);
    await iterator.return?.();
  }
  if (stop.fatal) throw stop.fatal.error;
  return { interrupted: options.signal?.aborted === true };
}
