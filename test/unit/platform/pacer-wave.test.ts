import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/clock.js';
import { Pacer } from '../../../src/platform/pacer.js';
import { FakeClock } from '../../support/fake-clock.js';
import { seededRandom } from '../../support/seeded-text.js';

/**
 * `count` requests started 20 ms apart and answered `latencyMs` after they start, and the 429 answered as the
 * next would start. Returns when those still on the wire then started.
 */
function burst(pacer: Pacer, clock: FakeClock, count: number, latencyMs: number): number[] {
  const begin = clock.now();
  const starts = Array.from({ length: count }, (_, index) => begin + index * 20);
  const throttledAt = begin + count * 20;
  const answeredBefore = (started: number) => started + latencyMs <= throttledAt;
  for (const started of starts.filter(answeredBefore)) {
    clock.advance(started + latencyMs - clock.now());
    pacer.succeeded(started);
  }
  clock.advance(throttledAt - clock.now());
  return starts.filter((started) => !answeredBefore(started));
}

describe('Pacer: the wave a limit is learned from', () => {
  it('a request in flight when the first 429 came and accepted after it counts in the allowance', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 50);
    // 20 accepted, the 20th still on the wire when the 21st is answered 429.
    const onTheWire = burst(pacer, clock, 20, 30);
    expect(onTheWire).toHaveLength(1);
    pacer.throttled(1000);
    expect(pacer.currentRate).toBeCloseTo(19 * 0.98, 9);
    clock.advance(10);
    pacer.succeeded(onTheWire[0]);
    expect(pacer.currentRate).toBeCloseTo(20 * 0.98, 9);
  });

  it('a request started after the 429 does not: it belongs to the next window', async () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 50);
    expect(burst(pacer, clock, 19, 10)).toEqual([]);
    pacer.throttled(1000);
    const started = await pacer.take(); // waits out the pause
    expect(started).toBe(clock.now());
    clock.advance(10);
    pacer.succeeded(started);
    expect(pacer.currentRate).toBeCloseTo(19 * 0.98, 9);
  });

  it('late answers never take the pace above the pace before the cut', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 10);
    const onTheWire = burst(pacer, clock, 12, 50);
    expect(onTheWire).toHaveLength(2);
    pacer.throttled(1000);
    expect(pacer.currentRate).toBeCloseTo(9.8, 9);
    for (const started of onTheWire) pacer.succeeded(started);
    expect(pacer.currentRate).toBe(10);
  });

  it('a wave that learned nothing (nothing accepted) is not raised by a late answer', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 8);
    const started = clock.now();
    clock.advance(5000);
    pacer.throttled(1000);
    expect(pacer.currentRate).toBe(4);
    pacer.succeeded(started);
    expect(pacer.currentRate).toBe(4);
  });
});

/**
 * A clock whose sleepers wake in time order when the simulation runs; nothing else moves time. `lateMs` says
 * how late a sleeper wakes (a busy event loop), from 0 by default.
 */
class SimulatedClock implements Clock {
  private time = 0;
  private readonly sleepers: { at: number; wake: () => void }[] = [];

  constructor(private readonly lateMs: () => number = () => 0) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise((wake) => this.sleepers.push({ at: this.time + Math.max(0, ms) + this.lateMs(), wake }));
  }

  async runUntil(end: number): Promise<void> {
    while (this.time < end) {
      // Let every woken task run to its next sleep before the next one wakes.
      for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
      this.sleepers.sort((first, second) => first.at - second.at);
      const next = this.sleepers.shift();
      if (!next) return;
      this.time = next.at;
      next.wake();
    }
  }
}

/**
 * A platform with a fixed one-second window that starts at the first request after the last one ended
 * (as our sandbox's --rate-limit does), and clients that call the pacer as the HTTP client does.
 */
async function pacedRun(options: {
  limit: number;
  latencyMs: number;
  concurrency: number;
  rate: number;
  /** Sleepers wake up to this late, at random (seeded). */
  lateMs?: number;
}) {
  const random = seededRandom(14);
  const clock = new SimulatedClock(() => random() * (options.lateMs ?? 0));
  const pacer = new Pacer(clock, options.rate);
  let windowStartedAt = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  const answers: { at: number; status: number }[] = [];
  const runSeconds = 40;
  const client = async () => {
    while (clock.now() < runSeconds * 1000) {
      const startedAt = await pacer.take();
      await clock.sleep(1); // on the wire
      const arrivedAt = clock.now();
      if (arrivedAt - windowStartedAt >= 1000) {
        windowStartedAt = arrivedAt;
        inWindow = 0;
      }
      const accepted = ++inWindow <= options.limit;
      // A 429 is answered at once; an accepted batch is applied first.
      await clock.sleep(accepted ? options.latencyMs : 1);
      answers.push({ at: clock.now(), status: accepted ? 200 : 429 });
      if (accepted) pacer.succeeded(startedAt);
      else pacer.throttled(Math.max(1, Math.ceil((windowStartedAt + 1000 - arrivedAt) / 1000)) * 1000);
    }
  };
  const clients = Array.from({ length: options.concurrency }, client);
  await clock.runUntil(runSeconds * 1000);
  void clients;
  const later = answers.filter((answer) => answer.at >= 5000 && answer.at < 30_000);
  return {
    acceptedPerSecond: later.filter((answer) => answer.status === 200).length / 25,
    throttledShare: later.filter((answer) => answer.status === 429).length / later.length,
  };
}

describe('Pacer against a fixed one-second window (the bench of issue 14, simulated)', () => {
  // 30 ms to apply a batch, and 20 ms between starts at --rate 50: the 20th request is on the wire when the
  // 21st is refused. Counting only what had been answered learned 19 and kept 93% of the limit.
  it.each([
    { latencyMs: 30, concurrency: 4, keeps: 0.97 },
    { latencyMs: 10, concurrency: 4, keeps: 0.97 },
    { latencyMs: 45, concurrency: 8, keeps: 0.97 },
    // Timers up to 25 ms late, as on a loaded machine: late turns must not crowd the turns after them into
    // the window (21 in a second), nor push the pace back for good. Before: 93% (with 25 ms) and 87%, 0.5% 429s.
    { latencyMs: 30, concurrency: 8, lateMs: 25, keeps: 0.97 },
    // Two connections, each sleep up to 40 ms late: they cannot always keep the pace.
    { latencyMs: 10, concurrency: 2, lateMs: 40, keeps: 0.95 },
  ])('keeps its share of a limit of 20 after the first 5 s, with at most 1% 429s: %o', async ({ keeps, ...shape }) => {
    const run = await pacedRun({ limit: 20, rate: 50, ...shape });

    expect(run.acceptedPerSecond).toBeGreaterThanOrEqual(20 * keeps);
    expect(run.acceptedPerSecond).toBeLessThanOrEqual(20);
    expect(run.throttledShare).toBeLessThanOrEqual(0.01);
  });
});

describe('Pacer: requests waiting for their turn when a 429 comes', () => {
  it('wait out the pause and go at the new pace, not at the turns they were given before it', async () => {
    const clock = new SimulatedClock();
    const pacer = new Pacer(clock, 10);
    const starts: number[] = [];
    const taker = async () => starts.push(await pacer.take());
    const takers = [taker(), taker(), taker()];
    const throttle = (async () => {
      await clock.sleep(50);
      pacer.throttled(1000);
    })();
    await clock.runUntil(5000);
    await Promise.all([...takers, throttle]);
    expect(starts[0]).toBe(0);
    // Nothing was accepted before the 429: the pace halves to 5/s, 200 ms apart after the pause.
    expect(starts.slice(1)).toEqual([1050, 1250]);
  });
});
