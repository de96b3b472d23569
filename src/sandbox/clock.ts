/**
 * The sandbox's time. Routes read it instead of `Date.now()` so a test can put the platform's clock where it
 * needs it (`PUT /_sandbox/clock`): fixed at an instant, or the real time shifted by an offset.
 */
export class SandboxClock {
  private fixedAt: number | undefined;
  private offsetMs = 0;

  private readonly realNow: () => number;
  constructor(realNow: () => number = Date.now) {
    this.realNow = realNow;
  }

  now(): number {
    return this.fixedAt ?? this.realNow() + this.offsetMs;
  }

  /** Stops the clock at `instant` (milliseconds since the epoch). */
  fixAt(instant: number): void {
    this.fixedAt = instant;
  }

  /** Runs the clock at the real time plus `offsetMs` (negative: behind). */
  shiftBy(offsetMs: number): void {
    this.fixedAt = undefined;
    this.offsetMs = offsetMs;
  }

  /** Moves a fixed clock forward; a running clock moves by its offset. */
  advance(ms: number): void {
    if (this.fixedAt === undefined) this.offsetMs += ms;
    else this.fixedAt += ms;
  }

  describe(): { now: string; fixed: boolean; offsetMs: number } {
    return { now: new Date(this.now()).toISOString(), fixed: this.fixedAt !== undefined, offsetMs: this.offsetMs };
  }
}
