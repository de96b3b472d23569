/**
 * "Wait longer after each failure", written once for every caller: the platform client's retries, the receiver's
 * hand-off and `webhook replay`, the `orders poll --watch` loop. Each keeps its own first wait and ceiling.
 */

/** The steps of a back-off: `baseMs` after the first failure, doubling after each one, never above `maxMs`. */
export interface BackoffSettings {
  baseMs: number;
  maxMs: number;
}

/**
 * The most doublings counted: a hand-off failing for 72 h reaches attempt 8,000, and `2 ** 7999` is Infinity, which
 * a first wait of 0 would turn into NaN. Any step is at its ceiling long before.
 */
const mostDoublings = 1000;

/** The step after failure number `attempt` (from 1): `baseMs`, doubled `attempt - 1` times, at most `maxMs`. */
export function backoffStep(attempt: number, settings: BackoffSettings): number {
  const doublings = Math.min(mostDoublings, Math.max(0, attempt - 1));
  return Math.min(settings.maxMs, settings.baseMs * 2 ** doublings);
}

/**
 * Milliseconds to wait after failure number `attempt` (from 1), with "equal jitter" ("Exponential Backoff And
 * Jitter", AWS Architecture Blog, 2015): half the step fixed, half drawn at random, so that many clients failing at
 * once do not retry at once, while none retries sooner than half its step. `random` is a number in [0, 1), as
 * Math.random gives: a test passes its own to pin the wait. A loop that runs alone and names its wait exactly (one
 * `orders poll --watch` per cursor) waits the step itself.
 */
export function backoffDelay(attempt: number, settings: BackoffSettings, random: () => number): number {
  const step = backoffStep(attempt, settings);
  return Math.round(step / 2 + random() * (step / 2));
}

/** The same back-off for a caller that counts its own failures: each `take()` is the wait after one more. */
export class Backoff {
  private failures = 0;

  private readonly settings: BackoffSettings;
  private readonly random: () => number;
  constructor(settings: BackoffSettings, random: () => number = Math.random) {
    this.settings = settings;
    this.random = random;
  }

  /** The wait before the next try: the step, for a log line to name, and the jittered wait, to sleep. */
  take(): { nominalMs: number; waitMs: number } {
    this.failures++;
    return {
      nominalMs: backoffStep(this.failures, this.settings),
      waitMs: backoffDelay(this.failures, this.settings, this.random),
    };
  }
}
