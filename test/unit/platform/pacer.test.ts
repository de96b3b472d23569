import { describe, expect, it } from 'vitest';
import { ThrottledTooLongError } from '../../../src/base/errors.js';
import { longestRefusalMs, Pacer } from '../../../src/platform/pacer.js';
import { FakeClock } from '../../support/fake-clock.js';

/** Takes `count` turns one after another and returns the time each request started. */
async function startTimes(pacer: Pacer, clock: FakeClock, count: number): Promise<number[]> {
  const starts: number[] = [];
  for (let index = 0; index < count; index++) {
    await pacer.take();
    starts.push(clock.now());
  }
  return starts;
}

/** `count` successes spread evenly over the `spanMs` before now, as answers arriving. */
function succeedOver(pacer: Pacer, clock: FakeClock, count: number, spanMs: number): void {
  const step = spanMs / count;
  for (let index = 0; index < count; index++) {
    clock.advance(step);
    pacer.succeeded();
  }
}

describe('Pacer spacing', () => {
  it.each<[number, number[]]>([
    [10, [0, 100, 200, 300, 400]],
    // The fifth held to a second (and the margin) after the first: never 5 starts within a second at --rate 4.
    [4, [0, 250, 500, 750, 1000 / 0.98]],
    [0.5, [0, 2000, 4000, 6000, 8000]],
    [1000, [0, 1, 2, 3, 4]],
  ])('at %s requests per second, starts are %j', async (rate, expected) => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, rate);
    expect(await startTimes(pacer, clock, 5)).toEqual(expected);
    expect(pacer.currentRate).toBe(rate);
  });

  it('callers arriving together are spaced too', async () => {
    const clock = new FakeClock(5000);
    const pacer = new Pacer(clock, 20);
    await Promise.all([pacer.take(), pacer.take(), pacer.take(), pacer.take()]);
    expect(clock.wakeTimes).toEqual([5050, 5100, 5150]);
  });

  it('a slow stretch earns no burst afterwards', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 10);
    await pacer.take();
    clock.advance(5000);
    expect(await startTimes(pacer, clock, 3)).toEqual([5000, 5100, 5200]);
  });

  it('without a rate nobody waits', async () => {
    const clock = new FakeClock(1000);
    const pacer = new Pacer(clock, undefined);
    await Promise.all(Array.from({ length: 100 }, () => pacer.take()));
    expect(clock.waits).toEqual([]);
    expect(pacer.currentRate).toBeUndefined();
    for (let index = 0; index < 50; index++) pacer.succeeded();
    expect(pacer.currentRate).toBeUndefined();
  });

  it('a take after an abort rejects', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 1);
    await pacer.take();
    const controller = new AbortController();
    controller.abort();
    await expect(pacer.take(controller.signal)).rejects.toThrow('This operation was aborted');
  });
});

describe('Pacer.throttled', () => {
  it('pauses every caller for Retry-After, then paces again', async () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 10);
    await pacer.take();
    pacer.throttled(3000);
    await Promise.all([pacer.take(), pacer.take(), pacer.take()]);
    const cutRate = pacer.currentRate as number;
    const interval = 1000 / cutRate;
    expect(clock.wakeTimes[0]).toBe(13_000);
    expect(clock.wakeTimes[1]).toBeCloseTo(13_000 + interval, 6);
    expect(clock.wakeTimes[2]).toBeCloseTo(13_000 + 2 * interval, 6);
  });

  it('an unpaced run is paused too', async () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, undefined);
    pacer.throttled(1500);
    await pacer.take();
    expect(clock.now()).toBe(11_500);
    expect(pacer.currentRate).toBeDefined();
  });

  it.each<[string, number, number]>([
    ['the platform accepted half the pace', 100, 50],
    ['the platform accepted a third of the pace', 60, 20],
    ['the platform accepted 30 of 40', 40, 30],
  ])('lowers the pace to just under what was accepted in the last second: %s', (_name, target, accepted) => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, target);
    // Older successes do not count: they are more than a second old when the 429 comes.
    succeedOver(pacer, clock, 200, 3000);
    clock.advance(1001);
    succeedOver(pacer, clock, accepted, 990);
    pacer.throttled(1000);
    const rate = pacer.currentRate as number;
    expect(rate).toBeLessThan(accepted);
    expect(rate / accepted).toBeGreaterThanOrEqual(0.94);
    expect(pacer.throttles).toBe(1);
  });

  it('never raises the pace on a 429, even when more was accepted than the pace', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 10);
    succeedOver(pacer, clock, 50, 900);
    pacer.throttled(1000);
    expect(pacer.currentRate).toBeLessThanOrEqual(10);
  });

  it('halves the pace when nothing was accepted in the last second, down to 0.5 at least', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 8);
    const rates: number[] = [];
    for (let wave = 0; wave < 6; wave++) {
      pacer.throttled(1000);
      rates.push(pacer.currentRate as number);
      // 300 ms after each pause ends: long enough to see that nothing is being accepted.
      clock.advance(1300);
    }
    expect(rates).toEqual([4, 2, 1, 0.5, 0.5, 0.5]);
  });

  it('cuts once per wave of 429s: the ones within Retry-After of the cut only extend the pause', async () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 100);
    succeedOver(pacer, clock, 60, 1000);
    pacer.throttled(2000);
    const afterFirstCut = pacer.currentRate as number;
    clock.advance(10);
    pacer.throttled(2000);
    clock.advance(1500);
    pacer.throttled(2000);
    clock.advance(489);
    pacer.throttled(2000);
    expect(pacer.currentRate).toBe(afterFirstCut);
    expect(pacer.throttles).toBe(4);
    // The pause runs to the last 429's Retry-After.
    await pacer.take();
    expect(clock.now()).toBeCloseTo(10_000 + 1000 + 10 + 1500 + 489 + 2000, 6);
  });

  it('a 429 after the wave has passed cuts again', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 100);
    succeedOver(pacer, clock, 60, 1000);
    pacer.throttled(1000);
    const first = pacer.currentRate as number;
    clock.advance(1000);
    succeedOver(pacer, clock, 30, 1000);
    pacer.throttled(1000);
    const second = pacer.currentRate as number;
    expect(second).toBeLessThan(first);
    expect(second / 30).toBeGreaterThanOrEqual(0.94);
    expect(second).toBeLessThan(30);
  });
});

/** A pacer whose platform accepted 50 in the second before a 429 at 11,000 ms; its target is `target`. */
function cutPacer(target: number | undefined = 100): { clock: FakeClock; pacer: Pacer; cut: number; cutAt: number } {
  const clock = new FakeClock(10_000);
  const pacer = new Pacer(clock, target);
  succeedOver(pacer, clock, 50, 1000);
  pacer.throttled(1000);
  return { clock, pacer, cut: pacer.currentRate as number, cutAt: clock.now() };
}

/** Quiet successes every 100 ms for `seconds`; the pace at the end of each second. */
function quietSeconds(pacer: Pacer, clock: FakeClock, seconds: number): number[] {
  const rates: number[] = [];
  for (let second = 0; second < seconds; second++) {
    succeedOver(pacer, clock, 10, 1000);
    rates.push(pacer.currentRate as number);
  }
  return rates;
}

describe('Pacer raising the pace again', () => {
  it('does not raise within 3 s of a 429', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 100);
    pacer.throttled(1000);
    expect(pacer.currentRate).toBe(50);
    succeedOver(pacer, clock, 299, 2990);
    expect(pacer.currentRate).toBe(50);
  });

  it('after a cut with nothing accepted, raises by 2% after 3 quiet seconds, then at most once a second', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 100);
    pacer.throttled(1000);
    clock.advance(3000);
    pacer.succeeded();
    expect(pacer.currentRate).toBeCloseTo(50 * 1.02, 9);
    succeedOver(pacer, clock, 9, 900);
    expect(pacer.currentRate).toBeCloseTo(50 * 1.02, 9);
    clock.advance(100);
    pacer.succeeded();
    expect(pacer.currentRate).toBeCloseTo(50 * 1.02 * 1.02, 9);
  });

  it('stays at 98% of the limit it learned while the platform has been quiet for less than 30 s', () => {
    const { clock, pacer, cut } = cutPacer();
    expect(cut).toBeCloseTo(50 * 0.98, 9);
    const rates = quietSeconds(pacer, clock, 28);
    expect(rates.every((rate) => Math.abs(rate - 50 * 0.98) < 1e-9)).toBe(true);
  });

  it('a deeper cut climbs back 2% a second, and not past 98% of the learned limit in the first 30 s', () => {
    const { clock, pacer } = cutPacer();
    clock.advance(1300);
    pacer.throttled(1000); // nothing accepted in the 300 ms since the pause ended: the pace halves
    expect(pacer.currentRate).toBeCloseTo(50 * 0.98 * 0.5, 9);
    const rates = quietSeconds(pacer, clock, 29);
    expect(rates.at(-1)).toBeCloseTo(Math.min(50 * 0.98, 50 * 0.98 * 0.5 * 1.02 ** 27), 9);
    expect(Math.max(...rates)).toBeLessThanOrEqual(50 * 0.98 + 1e-9);
  });

  it('after 30 quiet seconds probes above the learned limit, 2% at a time, up to the requested rate and never above it', () => {
    const { clock, pacer } = cutPacer(60);
    const rates = [50 * 0.98, ...quietSeconds(pacer, clock, 120)];
    expect(rates.slice(0, 29).every((rate) => Math.abs(rate - 50 * 0.98) < 1e-9)).toBe(true);
    expect(rates.at(-1)).toBe(60);
    expect(Math.max(...rates)).toBe(60);
    for (let index = 1; index < rates.length; index++) {
      const ratio = (rates[index] as number) / (rates[index - 1] as number);
      expect(ratio).toBeGreaterThanOrEqual(1);
      expect(ratio).toBeLessThanOrEqual(1.02 + 1e-9);
    }
  });

  it('a 429 right as a pause ends steps down by 2% instead of reading the pause as "nothing accepted"', () => {
    const { clock, pacer } = cutPacer();
    clock.advance(1000);
    pacer.throttled(1000);
    expect(pacer.currentRate).toBeCloseTo(50 * 0.98 * 0.98, 9);
  });

  it('counts what was accepted since the pause ended as the allowance, however fast it came', () => {
    const { clock, pacer } = cutPacer();
    clock.advance(1000); // the pause of the first wave
    succeedOver(pacer, clock, 20, 500); // the platform's window let 20 through, in half a second
    pacer.throttled(1000);
    expect(pacer.currentRate).toBeCloseTo(20 * 0.98, 9);
  });

  it('a pacer that was never throttled stays at its rate', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 25);
    for (let step = 0; step < 100; step++) {
      clock.advance(3000);
      pacer.succeeded();
    }
    expect(pacer.currentRate).toBe(25);
  });
});

/** The pacer's memory, read from outside: its bounds are the behaviour under test below. */
const memoryOf = (pacer: Pacer) => pacer as unknown as { starts: number[]; recentSuccesses: number[] };

/** An unpaced pacer that saw `accepted` requests start in the 600 ms before a 429, then a 10 ms pause. */
async function learnedFrom(accepted: number) {
  const clock = new FakeClock();
  const pacer = new Pacer(clock, undefined);
  let started = 0;
  for (let index = 0; index < accepted; index++) {
    started = await pacer.take();
    pacer.succeeded(started);
    clock.advance(600 / accepted);
  }
  pacer.throttled(10, started);
  return { clock, pacer, pauseEnds: clock.now() + 10 };
}

/** A pacer at `rate` cut once at 900 (nothing accepted: halved), whose pause ended at 1000. */
function afterFirstPause(rate: number) {
  const clock = new FakeClock(900);
  const said: string[] = [];
  const pacer = new Pacer(clock, rate, (message) => said.push(message));
  pacer.throttled(100);
  said.length = 0;
  return { clock, pacer, said };
}

describe('Pacer: survivors of the mutation run', () => {
  it('remembers at most 2,048 request starts, cut back to the last 1,024 beyond', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, undefined);
    for (let index = 0; index < 2048; index++) await pacer.take();
    expect(memoryOf(pacer).starts).toHaveLength(2048);
    await pacer.take();
    expect(memoryOf(pacer).starts).toHaveLength(1024);
  });

  it('remembers the accepted requests of the last 10 s only (one started exactly 10 s ago is kept)', () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 10);
    for (let second = 0; second <= 60; second++) {
      pacer.succeeded(clock.now());
      clock.advance(1000);
    }
    clock.advance(-1000);
    pacer.succeeded(clock.now());
    expect(memoryOf(pacer).recentSuccesses).toEqual(
      [50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 60].map((s) => s * 1000),
    );
  });

  it('a learned limit of up to 1,024 holds a second to it after the pause; above 1,024 it is not held to a window', async () => {
    const held = await learnedFrom(1024);
    expect(await held.pacer.take()).toBeCloseTo(1000 / 0.98, 6);
    const free = await learnedFrom(1025);
    expect(await free.pacer.take()).toBe(free.pauseEnds);
  });

  it('an unpaced run cut after accepting 10 goes to 98% of them', async () => {
    const { pacer } = await learnedFrom(10);
    expect(pacer.currentRate).toBeCloseTo(9.8, 9);
  });

  it('counts the accepted requests started from exactly a second before the refused one up to it, not after', () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 100);
    pacer.succeeded(9000); // exactly a second before the refused request
    for (let index = 1; index <= 9; index++) pacer.succeeded(9000 + index * 100);
    pacer.succeeded(10_001); // started after the refused one, answered before its 429
    pacer.throttled(1000, 10_000);
    expect(pacer.currentRate).toBeCloseTo(10 * 0.98, 9);
  });

  it('a late answer counts towards the wave only when its request started in the counted second, from its first millisecond', () => {
    const clock = new FakeClock(1000);
    const pacer = new Pacer(clock, undefined);
    // The 429 comes before any answer: refused request started at 1000, counted second from 0.
    pacer.throttled(5000, 1000);
    expect(pacer.currentRate).toBe(0.5);
    clock.advance(100);
    pacer.succeeded(0);
    expect(pacer.currentRate).toBeCloseTo(0.98, 9);
    pacer.succeeded(-1); // started before the counted second
    pacer.succeeded(1001); // started after the refused one: another second
    pacer.succeeded(6000);
    expect(pacer.currentRate).toBeCloseTo(0.98, 9);
  });

  it('probes above the learned limit from exactly 30 quiet seconds, and says so only when the pace changes', () => {
    const clock = new FakeClock(10_000);
    const said: string[] = [];
    const pacer = new Pacer(clock, 100, (message) => said.push(message));
    succeedOver(pacer, clock, 10, 1000);
    pacer.throttled(1000);
    said.length = 0;
    clock.advance(5000);
    pacer.succeeded();
    expect(pacer.currentRate).toBeCloseTo(9.8, 9);
    expect(said).toEqual([]);
    clock.advance(25_000);
    pacer.succeeded();
    expect(pacer.currentRate).toBeCloseTo(9.8 * 1.02, 9);
    expect(said).toEqual(['pace: 10.00 requests/s after a quiet stretch']);
  });

  it('a count far under the pace over a short stretch since a pause is not trusted: the pace steps down 2%', () => {
    const { clock, pacer, said } = afterFirstPause(400);
    for (let index = 0; index < 10; index++) pacer.succeeded(1100 + index);
    clock.advance(600);
    pacer.throttled(100, 1500);
    expect(pacer.currentRate).toBeCloseTo(200 * 0.98, 9);
    expect(said).toEqual(['pace: 196.00 requests/s after a 429 (10 accepted in the 500 ms before it; pausing 100 ms)']);
  });

  it('a count of a quarter of the pace since a pause is trusted as the allowance', () => {
    const { clock, pacer } = afterFirstPause(400);
    for (let index = 0; index < 50; index++) pacer.succeeded(1100 + index);
    clock.advance(600);
    pacer.throttled(100, 1500);
    expect(pacer.currentRate).toBeCloseTo(50 * 0.98, 9);
  });

  it('nothing accepted in exactly 250 ms since a pause: halved', () => {
    const { clock, pacer } = afterFirstPause(400);
    clock.advance(350);
    pacer.throttled(100, 1250);
    expect(pacer.currentRate).toBe(100);
  });

  it('a late answer that adds nothing above the pace does not change it nor say so', () => {
    const clock = new FakeClock(10_000);
    const said: string[] = [];
    const pacer = new Pacer(clock, 10, (message) => said.push(message));
    for (let index = 0; index < 20; index++) pacer.succeeded(9100 + index * 40);
    pacer.throttled(1000, 10_000);
    expect(pacer.currentRate).toBe(10);
    said.length = 0;
    pacer.succeeded(9990);
    expect(pacer.currentRate).toBe(10);
    expect(said).toEqual([]);
  });

  it('says what a late answer taught', () => {
    const clock = new FakeClock(1000);
    const said: string[] = [];
    const pacer = new Pacer(clock, undefined, (message) => said.push(message));
    pacer.throttled(5000, 1000);
    said.length = 0;
    pacer.succeeded(500);
    expect(said).toEqual(['pace: 0.98 requests/s (1 accepted in that second after all)']);
  });
});

/** Quiet seconds (10 answers each) until the pace goes above 98% of `limit`, the pacer probing it; how many. */
function secondsBeforeProbe(pacer: Pacer, clock: FakeClock, limit: number): number {
  for (let second = 1; second <= 600; second++) {
    succeedOver(pacer, clock, 10, 1000);
    if ((pacer.currentRate as number) > limit * 0.98 + 1e-9) return second;
  }
  return Number.POSITIVE_INFINITY;
}

/** A 429 after the platform accepted `accepted` requests in the second before it. */
function refusedAfter(pacer: Pacer, clock: FakeClock, accepted: number): void {
  clock.advance(100);
  succeedOver(pacer, clock, accepted, 1000);
  pacer.throttled(1000);
}

describe('Pacer probing its learned limit less often while the platform holds it', () => {
  // Every probe costs a 429 and its Retry-After: probed every 30 s, a 12-minute run lost 22 seconds of requests.
  it('waits twice as long after each probe refused at the same limit, up to 5 minutes', () => {
    const { clock, pacer } = cutPacer();
    const waits: number[] = [];
    for (let probe = 0; probe < 6; probe++) {
      waits.push(secondsBeforeProbe(pacer, clock, 50));
      refusedAfter(pacer, clock, 50);
      expect(pacer.currentRate).toBeCloseTo(50 * 0.98, 9);
    }
    expect(waits).toEqual([30, 60, 120, 240, 300, 300]);
  });

  it('probes again after 30 s once a probe finds the platform raised its limit', () => {
    const { clock, pacer } = cutPacer();
    expect(secondsBeforeProbe(pacer, clock, 50)).toBe(30);
    refusedAfter(pacer, clock, 50);
    expect(secondsBeforeProbe(pacer, clock, 50)).toBe(60);
    refusedAfter(pacer, clock, 60);
    expect(secondsBeforeProbe(pacer, clock, 60)).toBe(30);
  });

  it('probes again after 30 s once a 429 below the learned limit shows the platform lowered it', () => {
    const { clock, pacer } = cutPacer();
    expect(secondsBeforeProbe(pacer, clock, 50)).toBe(30);
    refusedAfter(pacer, clock, 50);
    expect(secondsBeforeProbe(pacer, clock, 50)).toBe(60);
    refusedAfter(pacer, clock, 50);
    succeedOver(pacer, clock, 100, 10_000);
    refusedAfter(pacer, clock, 40);
    expect(pacer.currentRate).toBeCloseTo(40 * 0.98, 9);
    expect(secondsBeforeProbe(pacer, clock, 40)).toBe(30);
  });
});

/** A pacer whose platform accepted 20 in the second before a 429 (pace 19.6/s), 5 quiet seconds later. */
function learnedTwenty(): { clock: FakeClock; pacer: Pacer } {
  const clock = new FakeClock(10_000);
  const pacer = new Pacer(clock, 50);
  succeedOver(pacer, clock, 20, 1000);
  pacer.throttled(1000);
  succeedOver(pacer, clock, 50, 5000);
  return { clock, pacer };
}

describe('Pacer: a 429 one under the limit (requests that reached the platform closer together than they started)', () => {
  // On a busy machine 21 requests started over 1,020 ms arrived within the platform's second: each such 429 took the
  // count one lower (20 to 19: 5% of the limit) until a probe, 30 s later, put it back.
  it('keeps the limit and holds it to a stretch 15 ms wider: 20 in 1,035 ms', () => {
    const { clock, pacer } = learnedTwenty();
    expect(pacer.currentRate).toBeCloseTo(19.6, 9);
    refusedAfter(pacer, clock, 19);
    expect(pacer.currentRate).toBeCloseTo(20_000 / (1000 / 0.98 + 15), 9);
  });

  it('holds the starts to that stretch: no 1,035 ms hold more than 20', async () => {
    const { clock, pacer } = learnedTwenty();
    refusedAfter(pacer, clock, 19);
    const starts = await startTimes(pacer, clock, 60);
    for (let index = 20; index < starts.length; index++)
      expect((starts[index] as number) - (starts[index - 20] as number)).toBeGreaterThanOrEqual(1000 / 0.98 + 15);
  });

  it('after three widenings takes the count as the limit, held to a second and the margin again', () => {
    const { clock, pacer } = learnedTwenty();
    for (let widening = 1; widening <= 3; widening++) {
      refusedAfter(pacer, clock, 19);
      expect(pacer.currentRate).toBeCloseTo(20_000 / (1000 / 0.98 + 15 * widening), 9);
      succeedOver(pacer, clock, 50, 5000);
    }
    refusedAfter(pacer, clock, 19);
    expect(pacer.currentRate).toBeCloseTo(19 * 0.98, 9);
  });

  it('a probe refused one under the limit it started from confirms that limit, and the next probe waits longer', () => {
    const { clock, pacer } = learnedTwenty();
    expect(secondsBeforeProbe(pacer, clock, 20)).toBe(25);
    refusedAfter(pacer, clock, 19);
    expect(pacer.currentRate).toBeCloseTo(19.6, 9);
    expect(secondsBeforeProbe(pacer, clock, 20)).toBe(60);
  });

  it('a count further under the limit is the new limit', () => {
    const { clock, pacer } = learnedTwenty();
    refusedAfter(pacer, clock, 15);
    expect(pacer.currentRate).toBeCloseTo(15 * 0.98, 9);
  });
});

/** learnedTwenty's pacer, telling its pace changes. */
function telling(): { clock: FakeClock; pacer: Pacer; told: string[] } {
  const clock = new FakeClock(10_000);
  const told: string[] = [];
  const pacer = new Pacer(clock, 50, (message) => told.push(message));
  succeedOver(pacer, clock, 20, 1000);
  pacer.throttled(1000);
  succeedOver(pacer, clock, 50, 5000);
  return { clock, pacer, told };
}

describe('Pacer: survivors of the mutation run among the probe and widening rules', () => {
  it('says which limit it kept and the stretch it is held to', () => {
    const { clock, pacer, told } = telling();
    refusedAfter(pacer, clock, 19);
    expect(told).toContain('limit 20 kept, held to 1035 ms: requests arrived closer together than they started');
  });

  it('a count equal to the limit is no widening: the limit and its second stay', () => {
    const { clock, pacer, told } = telling();
    refusedAfter(pacer, clock, 20);
    expect(pacer.currentRate).toBeCloseTo(19.6, 9);
    expect(told.filter((line) => line.includes('kept'))).toEqual([]);
  });

  it('a probe that found more than the limit it started from, one under the raised limit, takes the count', () => {
    const { clock, pacer, told } = telling();
    expect(secondsBeforeProbe(pacer, clock, 20)).toBe(25);
    // Four more raises of the probed limit (three quiet seconds, and the second before the 429): 20 × 1.05⁵ = 25.5,
    // and the platform accepted 24: one under the raised limit, four over the one the probe started from.
    succeedOver(pacer, clock, 30, 3000);
    refusedAfter(pacer, clock, 24);
    expect(told.filter((line) => line.includes('kept'))).toEqual([]);
    expect(told.at(-1)).toMatch(/after a 429 \(24 accepted/);
  });

  it('a widening keeps the longer wait a refused probe set', () => {
    const { clock, pacer, told } = telling();
    expect(secondsBeforeProbe(pacer, clock, 20)).toBe(25);
    refusedAfter(pacer, clock, 19);
    succeedOver(pacer, clock, 50, 5000);
    refusedAfter(pacer, clock, 19);
    expect(told).toContain('limit 20 kept, held to 1035 ms: requests arrived closer together than they started');
    expect(secondsBeforeProbe(pacer, clock, 20)).toBe(60);
  });

  it('a late answer that only brings a refused probe to the limit it started from keeps the longer wait', () => {
    const { clock, pacer } = telling();
    expect(secondsBeforeProbe(pacer, clock, 20)).toBe(25);
    refusedAfter(pacer, clock, 19);
    // Started in the counted second, answered after the 429: 20 after all, the limit the probe started from.
    pacer.succeeded(clock.now() - 500);
    expect(secondsBeforeProbe(pacer, clock, 20)).toBe(60);
  });

  it('late answers that show a refused probe found more than its limit bring the next probe back to 30 s', () => {
    const { clock, pacer } = telling();
    expect(secondsBeforeProbe(pacer, clock, 20)).toBe(25);
    refusedAfter(pacer, clock, 20);
    pacer.succeeded(clock.now() - 500);
    expect(secondsBeforeProbe(pacer, clock, 21)).toBe(30);
  });

  it('never holds a limit to more than 1,100 ms: there the count is taken as the limit', () => {
    const { clock, pacer, told } = telling();
    // Widened three times at 20 (1,065 ms), then counts further under reset the widenings but not the stretch.
    for (const accepted of [19, 19, 19, 15, 14, 14, 12, 11]) {
      refusedAfter(pacer, clock, accepted);
      succeedOver(pacer, clock, 50, 5000);
    }
    expect(told.filter((line) => line.includes('kept')).at(-1)).toBe(
      'limit 12 kept, held to 1100 ms: requests arrived closer together than they started',
    );
    refusedAfter(pacer, clock, 11);
    expect(told.at(-1)).toMatch(/^pace: 10\.78 requests\/s after a 429 \(11 accepted/);
  });
});

/** A pacer on the wall-clock epoch (as the system clock is), with the pauses it announced. */
function announcingPacer() {
  const clock = new FakeClock(Date.parse('2026-11-30T08:00:00Z'));
  const announced: string[] = [];
  return { clock, announced, pacer: new Pacer(clock, undefined, undefined, (line) => announced.push(line)) };
}

describe('Pacer announcing a pause', () => {
  it('a first 429 asking for a second is everyday work: not announced', () => {
    const { pacer, announced } = announcingPacer();
    pacer.throttled(1000);
    expect(announced).toEqual([]);
  });

  it('a pause of 10 s or more is announced with its end', () => {
    const { pacer, announced } = announcingPacer();
    pacer.throttled(120_000);
    expect(announced).toEqual([
      'the platform asked to wait 120 s (HTTP 429, Retry-After); nothing is sent until 2026-11-30T08:02:00.000Z.',
    ]);
  });
});

/** 429s one after another, each answered at once and waited out, until take() refuses; the turns and its error. */
async function refuseUntilGivenUp(pacer: Pacer, retryAfterMs: number): Promise<{ turns: number; error: unknown }> {
  for (let turns = 0; ; turns++) {
    try {
      await pacer.take();
    } catch (error) {
      return { turns, error };
    }
    pacer.throttled(retryAfterMs);
  }
}

describe('Pacer giving up on a platform that accepts nothing', () => {
  it.each([
    [60_000, 11],
    [1_000, 302], // the pace cut to 0.5/s, as after a first 429 with nothing accepted
    [300_000, 3],
    [299_000, 3],
  ])('with Retry-After %s ms: %s requests, no pause begun past 10 minutes of 429s', async (retryAfterMs, turns) => {
    const clock = new FakeClock(0);
    const pacer = new Pacer(clock, undefined, undefined, undefined, longestRefusalMs);
    const refused = await refuseUntilGivenUp(pacer, retryAfterMs);
    expect(refused.turns).toBe(turns);
    expect(refused.error).toBeInstanceOf(ThrottledTooLongError);
    // At most one turn of the slowest pace (0.5/s) past the last pause.
    expect(clock.now()).toBeLessThanOrEqual(longestRefusalMs + 2_000);
  });

  it('an accepted answer starts the count again: 9 minutes of 429s, one accepted, 9 more are waited out', async () => {
    const clock = new FakeClock(0);
    const pacer = new Pacer(clock, undefined, undefined, undefined, longestRefusalMs);
    for (let round = 0; round < 2; round++) {
      for (let index = 0; index < 9; index++) {
        await pacer.take();
        pacer.throttled(60_000);
      }
      await pacer.take();
      pacer.succeeded();
    }
    // 18 minutes of 429s and the pace's turns: never 10 minutes without an accepted answer.
    expect(clock.now()).toBeGreaterThan(18 * 60_000);
    await expect(pacer.take()).resolves.toBe(clock.now());
  });

  it('without a bound (orders poll --watch, whose next cycle uses the same pacer) it never gives up', async () => {
    const clock = new FakeClock(0);
    const pacer = new Pacer(clock, undefined);
    for (let index = 0; index < 30; index++) {
      await pacer.take();
      pacer.throttled(60_000);
    }
    await expect(pacer.take()).resolves.toBe(30 * 60_000);
  });

  it('requests waiting out a pause are refused at once when another 429 ends the waiting', async () => {
    // A clock whose sleeps end only when aborted: the waiting requests would otherwise sit out the pause.
    const clock = {
      time: 0,
      now: () => clock.time,
      sleep: (_ms: number, signal?: AbortSignal) =>
        new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    };
    const pacer = new Pacer(clock, undefined, undefined, undefined, longestRefusalMs);
    pacer.throttled(300_000);
    const waiting = [pacer.take(), pacer.take()];
    // Five minutes on, a 429 asking five more: the waiting would end past 10 minutes of nothing accepted.
    clock.time = 300_001;
    pacer.throttled(300_000);
    for (const turn of waiting) await expect(turn).rejects.toThrow(/accepts nothing/);
  });
});

/**
 * An unpaced pacer whose first request started at 0 and whose first 429 came at 30 ms, after `accepted` answers to
 * requests started with it: the platform's window also held requests of a run that had just ended (a user test).
 */
async function firstSecondWave(accepted: number) {
  const clock = new FakeClock(0);
  const said: string[] = [];
  const pacer = new Pacer(clock, undefined, (line) => said.push(line));
  await pacer.take();
  clock.advance(30);
  for (let index = 0; index < accepted; index++) pacer.succeeded(0);
  pacer.throttled(1000, 0);
  return { clock, pacer, said };
}

/** An accepted request a `stepMs` for `count` steps; the pace after each. */
function acceptedEvery(pacer: Pacer, clock: FakeClock, stepMs: number, count: number): number[] {
  const paces: number[] = [];
  for (let step = 0; step < count; step++) {
    clock.advance(stepMs);
    pacer.succeeded(clock.now());
    paces.push(pacer.currentRate as number);
  }
  return paces;
}

/** A check of `floor` (two steps) ended by a 429 with `counted` accepted in its second. */
async function checkEnded(floor: number, counted: number) {
  const { clock, pacer } = await firstSecondWave(floor);
  acceptedEvery(pacer, clock, 1000, 2); // checking one and two over; the last accepted at 2,030
  const refusedStartedAt = clock.now() + 500;
  for (let index = 1; index < counted; index++) pacer.succeeded(refusedStartedAt - 450 + index * (400 / counted));
  clock.advance(120);
  pacer.throttled(1000, refusedStartedAt);
  return { pacer, refusedStartedAt };
}

describe("Pacer: a 429 in the run's first second (the platform's window may hold requests sent before the run)", () => {
  it('takes its count as a floor and raises it a request a second from the end of the pause', async () => {
    const { clock, pacer } = await firstSecondWave(3);
    expect(pacer.currentRate).toBeCloseTo(3 * 0.98, 9);
    // The pause runs to 1,030 ms; nothing is raised during it.
    expect(acceptedEvery(pacer, clock, 400, 2)).toEqual([3 * 0.98, 3 * 0.98].map((rate) => expect.closeTo(rate, 9)));
    clock.advance(200);
    expect(acceptedEvery(pacer, clock, 1000, 3)).toEqual([4, 5, 6].map((limit) => expect.closeTo(limit * 0.98, 9)));
  });

  it('the 429 that ends the check: five accepted in its second, the allowance of 5 (not the 3 first counted)', async () => {
    const { clock, pacer, said } = await firstSecondWave(3);
    acceptedEvery(pacer, clock, 1000, 3); // checking 4, 5 and 6; the last accepted at 3,030
    const refusedStartedAt = clock.now() + 500;
    for (let index = 0; index < 4; index++) pacer.succeeded(refusedStartedAt - 400 + index * 100);
    clock.advance(120);
    pacer.throttled(1000, refusedStartedAt);
    expect(pacer.currentRate).toBeCloseTo(5 * 0.98, 9);
    expect(said.at(-1)).toBe(
      'pace: 4.90 requests/s after a 429 (5 accepted in the 1000 ms before it, the limit checked was 3; pausing 1000 ms)',
    );
    // The check is over: the pace stays at the allowance.
    expect(acceptedEvery(pacer, clock, 1000, 5).every((rate) => Math.abs(rate - 4.9) < 1e-9)).toBe(true);
  });

  it('a check ended by a 429 with fewer accepted than the floor keeps the floor: where the platform second fell', async () => {
    const { pacer } = await checkEnded(3, 2);
    expect(pacer.currentRate).toBeCloseTo(3 * 0.98, 9);
  });

  it('from a floor of 10, one over keeps it (requests that arrived closer together than they started)', async () => {
    const { pacer } = await checkEnded(12, 13);
    expect(pacer.currentRate).toBeCloseTo(12 * 0.98, 9);
  });

  it('under a floor of 10, one over is the allowance (a floor of 4 kept against 5 held 80% of it)', async () => {
    const { pacer } = await checkEnded(3, 4);
    expect(pacer.currentRate).toBeCloseTo(4 * 0.98, 9);
  });

  it("a late answer from the check's second counts: from a floor of 12, 13 keeps it, 14 is the allowance", async () => {
    const { pacer, refusedStartedAt } = await checkEnded(12, 12);
    pacer.succeeded(refusedStartedAt - 50);
    expect(pacer.currentRate).toBeCloseTo(12 * 0.98, 9);
    pacer.succeeded(refusedStartedAt - 40);
    expect(pacer.currentRate).toBeCloseTo(14 * 0.98, 9);
  });

  it('a first second with nothing accepted (a window full of the last run) is checked from a request a second', async () => {
    const { clock, pacer } = await firstSecondWave(0);
    expect(pacer.currentRate).toBe(0.5);
    expect(acceptedEvery(pacer, clock, 1000, 4)).toEqual([1, 2, 3, 4].map((limit) => expect.closeTo(limit * 0.98, 9)));
  });

  it('a 429 more than a second into the run is counted as ever: no check', async () => {
    const clock = new FakeClock(0);
    const pacer = new Pacer(clock, undefined);
    await pacer.take();
    for (let index = 0; index < 5; index++) pacer.succeeded(100 + index * 200);
    clock.advance(1100);
    pacer.throttled(1000, 1100);
    expect(pacer.currentRate).toBeCloseTo(4.9, 9);
    expect(acceptedEvery(pacer, clock, 1000, 10).every((rate) => Math.abs(rate - 4.9) < 1e-9)).toBe(true);
  });
});

describe('Pacer: 429s of requests sent before the cut', () => {
  it('answered after the pause, extend it but neither cut the pace nor count as a wave', async () => {
    const clock = new FakeClock(10_000);
    const pacer = new Pacer(clock, 10);
    succeedOver(pacer, clock, 10, 1000);
    pacer.throttled(1000, 10_950);
    const cut = pacer.currentRate;
    // A request started at 10,990 (before that cut, at 11,000), answered 429 1.5 s later: on its way all along.
    clock.advance(1500);
    pacer.throttled(1000, 10_990);
    expect(pacer.currentRate).toBe(cut);
    expect(pacer.throttles).toBe(2);
    await pacer.take();
    expect(clock.now()).toBe(13_500);
  });
});

/**
 * One caller after another against a platform that takes `limit` requests in any `windowMs` (a sliding window) and
 * answers the others 429 with `retryAfterMs`, for `forMs` of the fake clock: the starts it accepted and its 429s.
 */
async function againstSlidingWindow(
  pacer: Pacer,
  clock: FakeClock,
  platform: { limit: number; windowMs: number; retryAfterMs: number },
  forMs: number,
): Promise<{ accepted: number[]; refused: number }> {
  const accepted: number[] = [];
  let refused = 0;
  while (clock.now() < forMs) {
    const started = await pacer.take();
    const inWindow = accepted.filter((time) => time > clock.now() - platform.windowMs).length;
    if (inWindow < platform.limit) {
      accepted.push(clock.now());
      clock.advance(50);
      pacer.succeeded(started);
    } else {
      refused++;
      clock.advance(50);
      pacer.throttled(platform.retryAfterMs, started);
    }
  }
  return { accepted, refused };
}

/** The most starts any stretch of a second (from one start, its end included) holds. */
function mostInASecond(starts: readonly number[]): number {
  return Math.max(...starts.map((from) => starts.filter((time) => time >= from && time <= from + 1000).length));
}

describe('Pacer: --rate N holds every second to N starts (a user test: N+1 reached the platform within a second)', () => {
  it.each([5, 3, 1, 20])('at --rate %s, 60 starts in a row: no second holds more than the rate', async (rate) => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, rate);
    const starts = await startTimes(pacer, clock, 60);
    expect(mostInASecond(starts)).toBe(rate);
    // Still the rate to within the margin.
    expect((59 * 1000) / (starts.at(-1) as number)).toBeGreaterThan(rate * 0.97);
  });

  it('a fractional --rate is spaced evenly as before: 2.5 a second is 400 ms apart', async () => {
    const clock = new FakeClock();
    expect(await startTimes(new Pacer(clock, 2.5), clock, 4)).toEqual([0, 400, 800, 1200]);
  });
});

describe('Pacer: a platform allowing fewer than one request a second (a user test: half its allowance, a 429 each)', () => {
  it.each([
    [3000, 3000],
    [2000, 2000],
    [3000, 2000], // a Retry-After of the time left in the window
  ])(
    'one per %s ms, Retry-After %s ms: a few 429s in 5 minutes, and at least 2/3 of the allowance',
    async (windowMs, retryAfterMs) => {
      const clock = new FakeClock();
      const pacer = new Pacer(clock, undefined, undefined, undefined, longestRefusalMs);
      const { accepted, refused } = await againstSlidingWindow(
        pacer,
        clock,
        { limit: 1, windowMs, retryAfterMs },
        300_000,
      );
      const allowance = 300_000 / windowMs;
      expect(accepted.length).toBeGreaterThanOrEqual((2 / 3) * allowance);
      expect(refused).toBeLessThan(accepted.length / 5);
    },
  );

  it('a platform taking one a second is still paced near it', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, undefined, undefined, undefined, longestRefusalMs);
    const platform = { limit: 1, windowMs: 1000, retryAfterMs: 1000 };
    const { accepted } = await againstSlidingWindow(pacer, clock, platform, 120_000);
    expect(accepted.length).toBeGreaterThan(100);
  });
});

describe("Pacer: the run's first request, which reaches the platform later than it starts", () => {
  it('its answer stands for its start in the second held: at --rate 5, answered at 120 ms, the sixth starts 1,020 ms after it', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 5);
    const first = await pacer.take();
    clock.advance(120);
    pacer.succeeded(first);
    const starts = await startTimes(pacer, clock, 5);
    expect(starts.slice(0, 4)).toEqual([200, 400, 600, 800]);
    expect(starts[4]).toBeCloseTo(120 + 1000 / 0.98, 6);
  });
});

/**
 * A store whose limit is shared with other jobs of the account: it refuses one request in seven with Retry-After 2 s,
 * whatever the pace. `phase` moves the first 429 (which request meets it decided whether the spacing rule took over).
 */
async function oneInSevenRefused(phase: number, accepting: number) {
  const clock = new FakeClock();
  const said: string[] = [];
  const pacer = new Pacer(clock, undefined, undefined, undefined, longestRefusalMs, (message) => said.push(message));
  const rates: number[] = [];
  let sent = 0;
  while (rates.length < accepting) {
    const started = await pacer.take();
    clock.advance(50);
    if (++sent % 7 === phase) pacer.throttled(2000, started);
    else {
      pacer.succeeded(started);
      rates.push(pacer.currentRate ?? Number.POSITIVE_INFINITY);
    }
  }
  return { rates, fakeClockMs: clock.now(), said };
}

describe('Pacer: a store refusing one request in seven whatever the pace (a user test: the pace fell without bound)', () => {
  it.each([0, 1, 2, 3, 4, 5, 6])(
    'first 429 at phase %s: over 1,000 requests the pace settles and stays above one every 3 s',
    async (phase) => {
      const { rates, fakeClockMs, said } = await oneInSevenRefused(phase, 1000);
      // Settled: the second half of the run is paced as its end is, and never below a request every 3 s.
      expect(Math.min(...rates.slice(500))).toBeCloseTo(rates.at(-1) as number, 6);
      expect(rates.at(-1)).toBeGreaterThan(1 / 3);
      // 1,000 accepted (and their 429s, each a 2 s pause) in under an hour of the fake clock's time, the pauses the
      // pacer asked for: a property of its pace, not a measure of this machine (at 11 s a request it took over three).
      expect(fakeClockMs).toBeLessThan(3_600_000);
      expect(said).toEqual([]);
    },
  );

  it('a store allowing one request every 10 s: the pace found, and said once, even with --quiet', async () => {
    const clock = new FakeClock();
    const said: string[] = [];
    const pacer = new Pacer(clock, undefined, undefined, undefined, longestRefusalMs, (message) => said.push(message));
    const { accepted } = await againstSlidingWindow(
      pacer,
      clock,
      { limit: 1, windowMs: 10_000, retryAfterMs: 10_000 },
      600_000,
    );
    expect(accepted.length).toBeGreaterThanOrEqual(40);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^the platform's 429s \(Too Many Requests\) have slowed the pace to one request every [\d.]+ s, below one every 5 s; /,
    );
  });

  it('a --rate asked below the floor is not said to be slow', async () => {
    const clock = new FakeClock();
    const said: string[] = [];
    const pacer = new Pacer(clock, 0.1, undefined, undefined, longestRefusalMs, (message) => said.push(message));
    await againstSlidingWindow(pacer, clock, { limit: 1, windowMs: 10_000, retryAfterMs: 10_000 }, 120_000);
    expect(said).toEqual([]);
  });
});
