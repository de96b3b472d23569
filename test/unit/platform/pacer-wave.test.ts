import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/clock.js';
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

  private readonly lateMs: () => number;
  constructor(lateMs: () => number = () => 0) {
    this.lateMs = lateMs;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise((wake, fail) => {
      const sleeper = { at: this.time + Math.max(0, ms) + this.lateMs(), wake };
      this.sleepers.push(sleeper);
      // An aborted sleeper wakes at once, refused, as with the system clock's timers.
      signal?.addEventListener('abort', () => {
        const index = this.sleepers.indexOf(sleeper);
        if (index < 0) return;
        this.sleepers.splice(index, 1);
        fail(signal.reason);
      });
    });
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
 * Where a platform counts its limit: a one-second window that starts at the first request after the last one
 * ended (our sandbox's --rate-limit), a window sliding over the last second, or windows on the clock's seconds.
 */
type Window = 'sandbox' | 'sliding' | 'aligned';

/** A 429's Retry-After in ms: the rest of the window, in whole seconds, at least one. */
const retryAfter = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000)) * 1000;

/**
 * Admits requests to one of those windows; says how long a refused one should wait (Retry-After, whole seconds).
 * `admittedBefore` are the times of requests the sliding window admitted before the run (another client's).
 */
function platformWindow(
  kind: Window,
  limit: number,
  admittedBefore: number[] = [],
): (arrivedAt: number) => number | undefined {
  let windowStartedAt = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  const admitted: number[] = [...admittedBefore];
  return (now) => {
    if (kind === 'sliding') {
      while (admitted.length > 0 && (admitted[0] as number) <= now - 1000) admitted.shift();
      if (admitted.length < limit) return void admitted.push(now);
      return retryAfter((admitted[0] as number) + 1000, now);
    }
    const start =
      kind === 'aligned' ? Math.floor(now / 1000) * 1000 : now - windowStartedAt >= 1000 ? now : windowStartedAt;
    if (start !== windowStartedAt) {
      windowStartedAt = start;
      inWindow = 0;
    }
    if (++inWindow <= limit) return undefined;
    return retryAfter(windowStartedAt + 1000, now);
  };
}

/** Clients that call the pacer as the HTTP client does, against a platform's window; 40 simulated seconds. */
async function pacedRun(options: {
  window?: Window;
  limit: number;
  /** Each way on the network. */
  travelMs?: number;
  /** The platform's work on an accepted request before it answers (a 429 is answered at once). */
  applyMs: number;
  concurrency: number;
  /** The requested pace (`--rate`); undefined for an unpaced run, the default. */
  rate: number | undefined;
  /** Sleepers wake up to this late, at random (seeded). */
  lateMs?: number;
  /** Requests reach the platform up to this much later than they started, at random (a busy client or platform). */
  arrivalJitterMs?: number;
  /** How long the run lasts, and the stretch of it measured (default: 5 s to 30 s, before the pacer probes its limit). */
  runSeconds?: number;
  measured?: [fromMs: number, toMs: number];
  /** Requests of the run before (a sliding window's), admitted in the second before this run's first request. */
  admittedBefore?: number[];
}) {
  const random = seededRandom(14);
  const clock = new SimulatedClock(() => random() * (options.lateMs ?? 0));
  const pacer = new Pacer(clock, options.rate);
  const admit = platformWindow(options.window ?? 'sandbox', options.limit, options.admittedBefore);
  const travelMs = options.travelMs ?? 1;
  const answers: { at: number; status: number }[] = [];
  const runSeconds = options.runSeconds ?? 40;
  const [from, to] = options.measured ?? [5000, 30_000];
  const client = async () => {
    while (clock.now() < runSeconds * 1000) {
      const startedAt = await pacer.take();
      await clock.sleep(travelMs + (options.arrivalJitterMs ? random() * options.arrivalJitterMs : 0));
      const refusedFor = admit(clock.now());
      if (refusedFor === undefined) await clock.sleep(options.applyMs);
      await clock.sleep(travelMs);
      answers.push({ at: clock.now(), status: refusedFor === undefined ? 200 : 429 });
      if (refusedFor === undefined) pacer.succeeded(startedAt);
      else pacer.throttled(refusedFor, startedAt);
    }
  };
  const clients = Array.from({ length: options.concurrency }, client);
  await clock.runUntil(runSeconds * 1000);
  void clients;
  const later = answers.filter((answer) => answer.at >= from && answer.at < to);
  return {
    acceptedPerSecond: (later.filter((answer) => answer.status === 200).length * 1000) / (to - from),
    throttledShare: later.filter((answer) => answer.status === 429).length / later.length,
    throttled: later.filter((answer) => answer.status === 429).length,
  };
}

describe("Pacer against a platform's one-second window (the bench of issue 14, simulated)", () => {
  it.each([
    // 30 ms to apply a batch, and 20 ms between starts at --rate 50: the 20th request is on the wire when the
    // 21st is refused. Counting only what had been answered learned 19 and kept 93% of the limit.
    { applyMs: 30, concurrency: 4, keeps: 0.97 },
    { applyMs: 10, concurrency: 4, keeps: 0.97 },
    { applyMs: 45, concurrency: 8, keeps: 0.97 },
    // Timers up to 25 ms late, as on a loaded machine: late turns must not crowd the turns after them into
    // the window (21 in a second), nor push the pace back for good. Before: 93% (with 25 ms) and 87%, 0.5% 429s.
    { applyMs: 30, concurrency: 8, lateMs: 25, keeps: 0.97 },
    // Two connections, each sleep up to 40 ms late: they cannot always keep the pace.
    { applyMs: 10, concurrency: 2, lateMs: 40, keeps: 0.9 },
    // Answers 200-800 ms on the way, other windows: the second before the refused request started is what the
    // platform counted. Counting the answers of the last second (and those that came after the 429) learned 21
    // to 27 against 20: a wave of 429s every few seconds, 12.5 accepted a second.
    { window: 'sliding' as const, travelMs: 100, applyMs: 0, concurrency: 8, keeps: 0.95 },
    { window: 'sliding' as const, travelMs: 150, applyMs: 0, concurrency: 8, keeps: 0.95 },
    { window: 'aligned' as const, travelMs: 400, applyMs: 0, concurrency: 16, keeps: 0.9 },
    { window: 'aligned' as const, travelMs: 100, applyMs: 5, concurrency: 8, keeps: 0.95 },
  ])('keeps its share of a limit of 20, with at most 1% 429s, from 5 s to 30 s: %o', async ({ keeps, ...shape }) => {
    const run = await pacedRun({ limit: 20, rate: 50, ...shape });
    expect(run.acceptedPerSecond).toBeGreaterThanOrEqual(20 * keeps);
    expect(run.acceptedPerSecond).toBeLessThanOrEqual(20);
    expect(run.throttledShare).toBeLessThanOrEqual(0.01);
  });
});

describe('Pacer asked for a pace far above the limit', () => {
  // Counted over a whole second, 20 accepted against --rate 200 was "too few to tell" (under a quarter of the
  // pace): the pace came down 2% a wave, 200 to 192 over a minute of 429s (review).
  it.each([{ rate: 200 }, { rate: 1000 }])('learns the limit at the first wave: %o', async (shape) => {
    const run = await pacedRun({ limit: 20, applyMs: 30, concurrency: 8, ...shape });
    expect(run.acceptedPerSecond).toBeGreaterThanOrEqual(20 * 0.95);
    expect(run.acceptedPerSecond).toBeLessThanOrEqual(20);
    expect(run.throttledShare).toBeLessThanOrEqual(0.01);
  });
});

describe('Pacer of an unpaced run (no --rate, the default)', () => {
  // Every connection starts at once; the platform refuses the ones over its limit at once and answers the others
  // after applying them, so the first 429 comes back before any accepted answer. That halved the pace from 1 to
  // 0.5/s, which rose 2% every two seconds: 0.5-0.7 requests/s for the first minute (review).
  it.each([
    { limit: 5, concurrency: 8 },
    { limit: 20, concurrency: 16 },
    { limit: 20, concurrency: 32 },
    { limit: 20, concurrency: 32, window: 'sliding' as const },
  ])('learns the limit from the answers that follow the first 429: %o', async (shape) => {
    const run = await pacedRun({ rate: undefined, applyMs: 30, ...shape });
    expect(run.acceptedPerSecond).toBeGreaterThanOrEqual(shape.limit * 0.9);
    expect(run.acceptedPerSecond).toBeLessThanOrEqual(shape.limit);
    expect(run.throttledShare).toBeLessThanOrEqual(0.01);
  });
});

describe("Pacer starting while the platform's window still holds the requests of a run that just ended", () => {
  // A nightly script's commands one after another (a user test: the same push six times, limit 5 a second, Retry-After
  // 1): the first 429 counted 1 to 3 of this run's requests, beside the last run's, and that was learned as the
  // limit: 1-3 a second for 30 s, then probed 2% a second (25-78 s for what takes 20 s at the limit).
  it.each([
    { limit: 5, concurrency: 8, admittedBefore: [-300, -200, -100] },
    { limit: 5, concurrency: 8, admittedBefore: [-400, -300, -200, -100] },
    { limit: 5, concurrency: 4, admittedBefore: [-900, -700, -500, -300, -100] },
    { limit: 20, concurrency: 16, admittedBefore: Array.from({ length: 12 }, (_, index) => -50 * (index + 1)) },
  ])('settles near the allowance once the first second is checked: %o', async (shape) => {
    // A request more a second from the end of the first pause, the turns given at the slower pace given again.
    const run = await pacedRun({
      window: 'sliding',
      rate: undefined,
      applyMs: 30,
      measured: [8000, 40_000],
      ...shape,
    });
    expect(run.acceptedPerSecond).toBeGreaterThanOrEqual(shape.limit * 0.9);
    expect(run.acceptedPerSecond).toBeLessThanOrEqual(shape.limit);
    expect(run.throttledShare).toBeLessThanOrEqual(0.01);
  });
});

describe('Pacer probing its learned limit again, every 30 quiet seconds', () => {
  // Each probe goes over the limit once and costs a wave of 429s; the wave must learn the limit again, not the
  // answers that were on the wire. Counting every answer to a request started before the 429 learned 21 against
  // 20 after the first probe (a sliding window, answers 200 ms on the way): a wave every 2 s, 12.5 a second.
  it.each([
    { window: 'sliding' as const, travelMs: 100 },
    { window: 'sliding' as const, travelMs: 150 },
    { window: 'aligned' as const, travelMs: 200 },
    { window: 'sandbox' as const, travelMs: 1 },
  ])('keeps 90% of a limit of 20 over two minutes, with at most 1% 429s: %o', async (shape) => {
    const run = await pacedRun({
      limit: 20,
      rate: 50,
      applyMs: 0,
      concurrency: 16,
      runSeconds: 120,
      measured: [10_000, 118_000],
      ...shape,
    });
    expect(run.acceptedPerSecond).toBeGreaterThanOrEqual(18);
    expect(run.acceptedPerSecond).toBeLessThanOrEqual(20);
    expect(run.throttledShare).toBeLessThanOrEqual(0.01);
  });
});

describe('Pacer over a long run: the probes of its learned limit, requests that arrive unevenly', () => {
  // Each probe over the limit costs a 429 and its Retry-After (a whole second here: ~20 requests lost). Probed every
  // 30 quiet seconds, a 12-minute `orders update` (10,000 moves against --rate-limit 20) met a 429 every ~31 s and
  // kept 94.9% of the limit, where the 31-second stock push on the same pacer ended before its first probe (96.9%):
  // 95.1-95.2% and 21-22 429s here. On a busy machine requests also reach the platform up to tens of ms later than
  // they start, unevenly: 21 arrived in its window, and each such 429 took one off the count (20 to 19 a second,
  // 5%): 91.5-91.8% with 30-60 ms of unevenness, 92.6% with the sliding window.
  it.each([
    { window: 'sandbox' as const, travelMs: 1, applyMs: 5, concurrency: 8, keeps: 0.965 },
    { window: 'sliding' as const, travelMs: 100, applyMs: 0, concurrency: 16, keeps: 0.965 },
    { window: 'aligned' as const, travelMs: 20, applyMs: 5, concurrency: 8, keeps: 0.965 },
    { window: 'sandbox' as const, travelMs: 1, applyMs: 5, concurrency: 8, arrivalJitterMs: 30, keeps: 0.955 },
    { window: 'sandbox' as const, travelMs: 1, applyMs: 5, concurrency: 8, arrivalJitterMs: 45, keeps: 0.94 },
    { window: 'sandbox' as const, travelMs: 1, applyMs: 5, concurrency: 8, arrivalJitterMs: 60, keeps: 0.925 },
    { window: 'sliding' as const, travelMs: 50, applyMs: 0, concurrency: 16, arrivalJitterMs: 30, keeps: 0.955 },
  ])('keeps its share of a limit of 20 over 12 minutes, with few 429s: %o', async ({ keeps, ...shape }) => {
    const run = await pacedRun({ limit: 20, rate: 50, runSeconds: 720, measured: [5000, 715_000], ...shape });
    expect(run.acceptedPerSecond).toBeGreaterThanOrEqual(20 * keeps);
    expect(run.acceptedPerSecond).toBeLessThanOrEqual(20);
    expect(run.throttled).toBeLessThanOrEqual(8);
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

describe("Pacer: requests waiting for their turn when a check of the first second's floor raises the pace", () => {
  // A floor of 1 gave --concurrency requests turns a second apart, and the check's raises were felt only once they
  // had all gone: 1 accepted a second for 8 s on the stand-in (a user test, 8 requests in flight).
  it('take new turns at the raised pace, not the ones given at the floor', async () => {
    const clock = new SimulatedClock();
    const pacer = new Pacer(clock, undefined);
    const first = await pacer.take();
    pacer.succeeded(first);
    pacer.throttled(1000, first); // a floor of 1: 0.98 a second, paused until 1,000 ms
    const starts: number[] = [];
    const takers = Array.from({ length: 8 }, async () => {
      starts.push(await pacer.take());
    });
    const answer = (async () => {
      await clock.sleep(1001);
      pacer.succeeded(1000); // the first request after the pause, accepted: the check raises the limit to 2
    })();
    await clock.runUntil(20_000);
    await Promise.all([...takers, answer]);
    expect(pacer.currentRate).toBeCloseTo(2 * 0.98, 9);
    // Two a held second from 1,000 ms, not one: at the floor's turns the last would start at 8,140 ms.
    expect(starts).toHaveLength(8);
    expect(Math.max(...starts)).toBeLessThan(5000);
  });
});
