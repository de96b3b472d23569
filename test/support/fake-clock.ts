import type { Clock } from '../../src/base/clock.js';

/** A Clock for tests: time moves only when the test advances it or when someone sleeps, and every sleep is recorded. */
export class FakeClock implements Clock {
  /** Milliseconds asked of each sleep(), in order. */
  readonly waits: number[] = [];
  /** The time each sleep() ended at. */
  readonly wakeTimes: number[] = [];

  /** How far the wall clock was stepped (stepWallClock): now() less the time waits are measured on. */
  private stepped = 0;

  private time;
  constructor(time = 0) {
    this.time = time;
  }

  now(): number {
    return this.time;
  }

  monotonic(): number {
    return this.time - this.stepped;
  }

  /** Sets the wall clock `ms` on (back when negative), as NTP or an operator does: waits are not moved by it. */
  stepWallClock(ms: number): void {
    this.time += ms;
    this.stepped += ms;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.waits.push(ms);
    this.time += ms;
    this.wakeTimes.push(this.time);
  }

  advance(ms: number): void {
    this.time += ms;
  }
}
