import { closeSync, openSync, readSync } from 'node:fs';

/**
 * How long the calling thread has waited for a core, as Linux counts it: the run queue delay of
 * /proc/thread-self/schedstat (its second field, in nanoseconds), which the scheduler adds each time the thread gets a
 * core back, so it is exact over any stretch that a wait fell in. The thread's CPU time is no substitute: Linux books
 * it at the timer's tick (4 ms here), so a 0.1 ms statement reads 0 ms or 4 ms (bench/README.md, 2026-11-29).
 */
export interface CoreWaitClock {
  /** Milliseconds waited so far; the difference of two readings is the wait between them. */
  waitedMs(): number;
}

/** This thread's clock, opened at its first use (each worker thread has its own copy of this module). */
let opened: { clock: CoreWaitClock | undefined } | undefined;

/**
 * The calling thread's clock of waits for a core, or undefined where the system does not tell it (not Linux, or no
 * /proc). One file stays open per thread that asks.
 */
export function coreWaitClock(): CoreWaitClock | undefined {
  opened ??= { clock: openCoreWaitClock() };
  return opened.clock;
}

function openCoreWaitClock(): CoreWaitClock | undefined {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
  // Read again from its start each time (one pread, ~1.4 µs): the kernel writes the figures afresh on every read.
  const buffer = Buffer.alloc(96);
  const waitedMs = (): number => {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const fields = buffer.toString('latin1', 0, length).split(' ');
    return Number(fields[1]) / 1e6;
  };
  try {
    if (!Number.isFinite(waitedMs())) throw new Error('unexpected schedstat');
  } catch {
    closeSync(fd);
    return undefined;
  }
  return { waitedMs };
}
