import type { Clock } from '../clock.js';

/** Quiet time after a 429 before the pace is raised again, and between raises. */
const quietBeforeRaiseMs = 3_000;
const raiseEveryMs = 1_000;
/** How far under a measured limit the pace is kept: room for the bunching of timers and GC pauses. */
const margin = 0.98;
/** Quiet time at the learned limit after which the limit itself is probed again (the platform may have raised it). */
const quietBeforeProbingLimitMs = 30_000;

/**
 * Spaces request starts to a requests-per-second pace and adapts to the platform. A 429 pauses every
 * request for its Retry-After and sets the pace to 98% of what the platform accepted in the last
 * second, which it remembers as the limit; quiet stretches raise the pace back towards the requested
 * rate, but not past the learned limit until it has been quiet there for a while.
 */
export class Pacer {
  private rate: number | undefined;
  private learnedLimit = Number.POSITIVE_INFINITY;
  private nextSlotAt = 0;
  private pausedUntil = 0;
  private lastThrottleAt = Number.NEGATIVE_INFINITY;
  private lastRaiseAt = Number.NEGATIVE_INFINITY;
  private lastPauseEndedAt = Number.NEGATIVE_INFINITY;
  private readonly recentSuccesses: number[] = [];
  throttles = 0;

  constructor(
    private readonly clock: Clock,
    /** The requested pace (`--rate`); undefined for as fast as concurrency allows. */
    private readonly targetRate: number | undefined,
    /** Told of every change of pace, for --verbose. */
    private readonly report: (message: string) => void = () => {},
  ) {
    this.rate = targetRate;
  }

  /** The pace in force now, in requests per second; undefined when unpaced. */
  get currentRate(): number | undefined {
    return this.rate;
  }

  /** Waits for this request's turn. */
  async take(signal?: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const interval = this.rate ? 1000 / this.rate : 0;
    const at = Math.max(now, this.nextSlotAt, this.pausedUntil);
    this.nextSlotAt = at + interval;
    if (at > now) await this.clock.sleep(at - now, signal);
  }

  /** An answer that was not a 429. */
  succeeded(): void {
    const now = this.clock.now();
    this.recentSuccesses.push(now);
    this.forgetBefore(now - 1000);
    if (
      this.rate === undefined ||
      now - this.lastThrottleAt < quietBeforeRaiseMs ||
      now - this.lastRaiseAt < raiseEveryMs
    )
      return;
    this.lastRaiseAt = now;
    if (now - this.lastThrottleAt >= quietBeforeProbingLimitMs) this.learnedLimit *= 1.05;
    const ceiling = Math.min(this.targetRate ?? Number.POSITIVE_INFINITY, this.learnedLimit * margin);
    const raised = Math.max(this.rate, Math.min(ceiling, this.rate * 1.02));
    if (raised !== this.rate) this.report(`pace: ${raised.toFixed(2)} requests/s after a quiet stretch`);
    this.rate = raised;
  }

  /**
   * A 429: everyone waits `retryAfterMs`, and the pace goes to 98% of the platform's allowance: the
   * answers accepted since the last pause ended (at most a second back). Counted, not divided by the
   * time: against a per-second window the count before the 429 is the allowance, however fast it came.
   */
  throttled(retryAfterMs: number): void {
    const now = this.clock.now();
    this.throttles++;
    this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
    if (now - this.lastThrottleAt < retryAfterMs) return; // one cut per wave of 429s
    this.lastThrottleAt = now;
    this.forgetBefore(now - 1000);
    // The paused time says nothing about what the platform accepts: count only since the pause ended.
    const since = Math.max(now - 1000, this.lastPauseEndedAt);
    const accepted = this.recentSuccesses.filter((time) => time >= since).length;
    const current = this.rate ?? Math.max(1, accepted);
    this.lastPauseEndedAt = this.pausedUntil;
    if (accepted > 0 && accepted >= current / 4) {
      this.learnedLimit = accepted;
      this.rate = Math.max(0.5, Math.min(current, accepted * margin));
    } else if (accepted === 0 && now - since >= 250) {
      this.rate = Math.max(0.5, current / 2);
    } else {
      // Too few answers since the pause to tell the allowance: step down and let the next wave tell.
      this.rate = Math.max(0.5, current * margin);
    }
    this.report(
      `pace: ${this.rate.toFixed(2)} requests/s after a 429 (${accepted} accepted in the last ${now - since} ms; pausing ${retryAfterMs} ms)`,
    );
  }

  private forgetBefore(time: number): void {
    let stale = 0;
    while (stale < this.recentSuccesses.length && (this.recentSuccesses[stale] as number) < time) stale++;
    if (stale > 0) this.recentSuccesses.splice(0, stale);
  }
}
