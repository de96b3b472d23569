/** Waits that double from `initialMs` up to `maxMs`, each drawn within ±20% so that receivers do not retry in step. */
export class Backoff {
  private nextMs: number;

  constructor(
    private readonly initialMs = 500,
    private readonly maxMs = 30_000,
  ) {
    this.nextMs = initialMs;
  }

  /** The wait before the next try (the nominal figure, for logs, and the jittered one, to sleep). */
  take(): { nominalMs: number; waitMs: number } {
    const nominalMs = this.nextMs;
    this.nextMs = Math.min(this.nextMs * 2, this.maxMs);
    return { nominalMs, waitMs: nominalMs * (0.8 + Math.random() * 0.4) };
  }

  reset(): void {
    this.nextMs = this.initialMs;
  }
}

/** `0.5 s`, `30 s`, `12 min`, `72 h`: a duration as the logs say it. */
export function spokenDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 6000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}
