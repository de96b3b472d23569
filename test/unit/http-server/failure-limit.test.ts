import { afterEach, describe, expect, it, vi } from 'vitest';
import { FailureLimiter, FailureLog } from '../../../src/http-server/failure-limit.js';

describe('FailureLimiter', () => {
  it('refuses a key from its limit to the end of the window opened by its first failure', () => {
    let now = 0;
    const limiter = new FailureLimiter({ limit: 3, windowMs: 60_000 }, () => now);
    expect(limiter.fail(['a'])).toEqual({ opened: ['a'], reachedLimit: [] });
    now = 10_000;
    limiter.fail(['a']);
    expect(limiter.waitFor(['a'])).toBe(0);
    expect(limiter.fail(['a', 'b'])).toEqual({ opened: ['b'], reachedLimit: ['a'] });
    expect(limiter.waitFor(['b'])).toBe(0);
    expect(limiter.waitFor(['b', 'a'])).toBe(50_000);
    now = 60_000;
    expect(limiter.waitFor(['a'])).toBe(0);
    expect(limiter.fail(['a'])).toEqual({ opened: ['a'], reachedLimit: [] });
  });

  it('keeps at most maxKeys windows, forgetting ended ones first, then the oldest', () => {
    let now = 0;
    const limiter = new FailureLimiter({ limit: 1, windowMs: 1000, maxKeys: 2 }, () => now);
    limiter.fail(['old']);
    now = 900;
    limiter.fail(['young']);
    now = 1500;
    limiter.fail(['new']); // `old` has ended and goes; `young` stays
    expect(limiter.waitFor(['young'])).toBe(400);
    limiter.fail(['newest']); // full of live windows: the oldest, `young`, goes
    expect(limiter.waitFor(['young'])).toBe(0);
    expect(limiter.waitFor(['new'])).toBe(1000);
    expect(limiter.waitFor(['newest'])).toBe(1000);
  });
});

describe('FailureLog', () => {
  afterEach(() => vi.useRealTimers());

  // y/Y3: a guesser rotating through addresses wrote a line per guess (50,000 lines, 10 MB).
  it('writes ten lines a window, then says the rest in one line when the window ends, with no failure after', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 0;
    const lines: string[] = [];
    const limiter = new FailureLimiter({ limit: 3, windowMs: 60_000 }, () => now);
    const log = new FailureLog(
      (line) => lines.push(line),
      60_000,
      'Callbacks',
      () => now,
    );
    for (let address = 1; address <= 30; address++) {
      const keys = [`from 203.0.113.${address}`];
      log.failed(limiter.fail(keys), `203.0.113.${address}`, 'Callback refused: wrong credential (basic)');
      now += 1000;
    }
    expect(lines).toHaveLength(10);
    expect(lines[9]).toBe(
      'Callback refused: wrong credential (basic) from 203.0.113.10; further failures from 203.0.113.10 in the next 60 s are counted, not logged.',
    );
    // The window opened at 0 s; the first failure past its lines came at 10 s, and set its end 50 s later.
    vi.advanceTimersByTime(49_999);
    expect(lines).toHaveLength(10);
    now = 60_000;
    vi.advanceTimersByTime(1);
    expect(lines.slice(10)).toEqual([
      'Callbacks: 20 more refusals for wrong credentials in the last 60 s, not logged one by one (at most 10 such lines in 60 s): 1 from 203.0.113.11, 1 from 203.0.113.12, 1 from 203.0.113.13, 17 from 17 more addresses.',
    ]);
  });
});
