import { describe, expect, it } from 'vitest';
import { longestTimerDelayMs, timerDelay } from '../../../src/lib/timer-delay.js';

describe('timerDelay', () => {
  it('keeps a delay a timer can hold as it is, up to 2^31-1 ms', () => {
    expect(longestTimerDelayMs).toBe(2 ** 31 - 1);
    expect(timerDelay(0)).toBe(0);
    expect(timerDelay(30_000)).toBe(30_000);
    expect(timerDelay(longestTimerDelayMs)).toBe(longestTimerDelayMs);
  });

  it('holds a longer one at the longest Node keeps, never the 1 ms Node fires it after', () => {
    expect(timerDelay(longestTimerDelayMs + 1)).toBe(longestTimerDelayMs);
    expect(timerDelay(30 * 86_400_000)).toBe(longestTimerDelayMs);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(longestTimerDelayMs);
  });

  it('a negative delay is none; NaN is a mistake, not a delay', () => {
    expect(timerDelay(-5)).toBe(0);
    expect(() => timerDelay(Number.NaN)).toThrow(RangeError);
  });
});
