import { setTimeout as delay } from 'node:timers/promises';
import { timerDelay } from '../lib/timer-delay.js';

/** Time as commands see it; tests may pass their own. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Milliseconds from an arbitrary origin on a clock that no setting of the wall clock moves (NTP stepping it back
   * an hour, a VM restored): what a wait is measured on, so a step never stretches one. A clock without it (a test's)
   * measures on now().
   */
  monotonic?(): number;
}

/** The clock waits are measured on: `clock.monotonic()`, or `now()` for a clock without one. */
export function monotonicNow(clock: Clock): number {
  return clock.monotonic?.() ?? clock.now();
}

export const systemClock: Clock = {
  now: () => Date.now(),
  // A wait worked out from two readings of the clock can come out just below 0 (-0.59 ms under a 429's pause):
  // Node then warns on stderr (TimeoutNegativeWarning), a line of no time or level in a cron log. One past 24.8 days
  // (`--watch --interval` in seconds) Node would end after 1 ms, with a TimeoutOverflowWarning: both are held.
  sleep: (ms, signal) => delay(timerDelay(ms), undefined, signal ? { signal } : undefined),
  monotonic: () => performance.now(),
};
