/** Waits that double from `initialMs` up to `maxMs`, each drawn within ±20% so that receivers do not retry in step. */
export class Backoff {
  private nextMs: number;

  constructor(
    private readonly initialMs = 500,
    private readonly maxMs = 30_000,
    /** A number in [0, 1), as Math.random gives: a test passes its own to pin the wait. */
    private readonly random: () => number = Math.random,
  ) {
    this.nextMs = initialMs;
  }

  /** The wait before the next try (the nominal figure, for logs, and the jittered one, to sleep). */
  take(): { nominalMs: number; waitMs: number } {
    const nominalMs = this.nextMs;
    this.nextMs = Math.min(this.nextMs * 2, this.maxMs);
    return { nominalMs, waitMs: nominalMs * (0.8 + this.random() * 0.4) };
  }

  reset(): void {
    this.nextMs = this.initialMs;
  }
}
