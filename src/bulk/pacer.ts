import type { Clock } from '../clock.js';

/**
 * Spaces request starts to a requests-per-second pace and adapts to the platform: a 429 pauses every
 * request for its Retry-After and lowers the pace to what the platform was actually accepting; a
 * quiet stretch raises it again slowly, never above the requested rate.
 */
export class Pacer {
  private rate: number | undefined;
  private nextSlotAt = 0;
  private pausedUntil = 0;
  private lastThrottleAt = Number.NEGATIVE_INFINITY;
  private lastRaiseAt = 0;
  private readonly recentSuccesses: number[] = [];
  throttles = 0;

  constructor(
    private readonly clock: Clock,
    /** The requested pace (`--rate`); undefined for as fast as concurrency allows. */
    private readonly targetRate: number | undefined,
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
    while ((this.recentSuccesses[0] ?? now) < now - 1000) this.recentSuccesses.shift();
    if (this.rate === undefined || now - this.lastThrottleAt < 5000 || now - this.lastRaiseAt < 2000) return;
    // Probe upwards by 2% every 2 quiet seconds: slow enough that a limit is met rarely.
    this.lastRaiseAt = now;
    const raised = this.rate * 1.02;
    this.rate = this.targetRate === undefined ? raised : Math.min(this.targetRate, raised);
  }

  /** A 429: everyone waits `retryAfterMs`, and the pace drops to just under what was accepted in the last second. */
  throttled(retryAfterMs: number): void {
    const now = this.clock.now();
    this.throttles++;
    this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
    if (now - this.lastThrottleAt < retryAfterMs) return; // one cut per wave of 429s
    this.lastThrottleAt = now;
    while ((this.recentSuccesses[0] ?? now) < now - 1000) this.recentSuccesses.shift();
    const accepted = this.recentSuccesses.length;
    const current = this.rate ?? Math.max(1, accepted);
    this.rate = Math.max(0.5, accepted > 0 ? Math.min(current * 0.9, accepted * 0.95) : current / 2);
  }
}
