import { describe, expect, it } from 'vitest';
import { FailureLimiter } from '../../../src/http-server/failure-limit.js';

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
