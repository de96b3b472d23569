/** Signals this close to the first are the same interruption delivered twice; a person's second Ctrl-C comes later. */
export const sameInterruptionMs = 200;

/**
 * Tells a person's second Ctrl-C (stop at once) from one interruption delivered twice: GNU timeout, and a service
 * manager stopping a process group, send the signal to the process and to its group, microseconds apart. Taken for
 * a second Ctrl-C, that ended a bulk run at once (exit 130 or 143, its requests in flight unreported) where it
 * should have finished them and exited 75.
 */
export class Interruptions {
  private firstAt: number | undefined;

  private readonly now: () => number;
  constructor(now: () => number) {
    this.now = now;
  }

  /** What a signal that just came is: the first, a repeat of it to ignore, or a second one. */
  receive(): 'first' | 'repeat' | 'second' {
    const at = this.now();
    if (this.firstAt === undefined) {
      this.firstAt = at;
      return 'first';
    }
    return at - this.firstAt < sameInterruptionMs ? 'repeat' : 'second';
  }
}
