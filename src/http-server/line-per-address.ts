/**
 * At most one log line per client address a window, the next one saying how many of that address's were left out:
 * a platform sending every request wrong is seen at once, without a line per request of a flood. The windows are
 * fixed, each starting at the line that opens it, as FailureLimiter's are; in memory, a restart forgets them.
 */
export class LinePerAddress {
  private readonly windows = new Map<string, { start: number; leftOut: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    /** Addresses remembered at most: a flood of new addresses cannot fill memory. */
    private readonly maxAddresses = 10_000,
  ) {}

  /**
   * Whether a line of `address` is written now: undefined when its window's line was written already (this one is
   * counted), else how many of its lines were left out since its last one.
   */
  admit(address: string): number | undefined {
    const now = this.now();
    const window = this.windows.get(address);
    if (window !== undefined && now - window.start < this.windowMs) {
      window.leftOut++;
      return undefined;
    }
    this.windows.delete(address);
    this.makeRoom(now);
    this.windows.set(address, { start: now, leftOut: 0 });
    return window?.leftOut ?? 0;
  }

  /** Forgets the windows that ended with nothing left out when full, then the oldest ones. */
  private makeRoom(now: number): void {
    if (this.windows.size < this.maxAddresses) return;
    for (const [address, window] of this.windows)
      if (window.leftOut === 0 && now - window.start >= this.windowMs) this.windows.delete(address);
    for (const address of this.windows.keys()) {
      if (this.windows.size < this.maxAddresses) break;
      this.windows.delete(address);
    }
  }
}
