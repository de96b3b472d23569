import { afterEach, describe, expect, it, vi } from 'vitest';
import { Backoff, backoffDelay, backoffStep } from '../../../src/lib/backoff.js';

const lowDice = () => 0;
const middleDice = () => 0.5;
const highDice = () => 1;
const settings = { baseMs: 250, maxMs: 15_000 };

describe('backoffStep', () => {
  it.each([
    { attempt: 1, expected: 250 },
    { attempt: 2, expected: 500 },
    { attempt: 4, expected: 2000 },
    { attempt: 7, expected: 15_000 },
    { attempt: 30, expected: 15_000 },
  ])('attempt $attempt: $expected ms', ({ attempt, expected }) => {
    expect(backoffStep(attempt, settings)).toBe(expected);
  });

  it('stays at the ceiling however long the failures go on, a first wait of 0 at 0', () => {
    // A hand-off failing for 72 h with waits of 30 s counts 8,000 attempts.
    expect(backoffStep(8000, settings)).toBe(15_000);
    expect(backoffStep(8000, { baseMs: 0, maxMs: 30_000 })).toBe(0);
  });
});

describe('backoffDelay (equal jitter)', () => {
  it.each([
    { where: 'first', attempt: 1, random: lowDice, expected: 125 },
    { where: 'first', attempt: 1, random: middleDice, expected: 188 },
    { where: 'first', attempt: 1, random: highDice, expected: 250 },
    { where: 'middle', attempt: 4, random: lowDice, expected: 1000 },
    { where: 'middle', attempt: 4, random: middleDice, expected: 1500 },
    { where: 'middle', attempt: 4, random: highDice, expected: 2000 },
    { where: 'capped', attempt: 7, random: lowDice, expected: 7500 },
    { where: 'capped', attempt: 7, random: middleDice, expected: 11_250 },
    { where: 'capped', attempt: 30, random: highDice, expected: 15_000 },
  ])('$where attempt ($attempt), random()=$random.name -> $expected ms', ({ attempt, random, expected }) => {
    expect(backoffDelay(attempt, settings, random)).toBe(expected);
  });

  it('never exceeds the step nor falls below half of it, whatever the dice', () => {
    for (let attempt = 1; attempt <= 20; attempt++) {
      const step = backoffStep(attempt, settings);
      expect(backoffDelay(attempt, settings, lowDice)).toBe(step / 2);
      expect(backoffDelay(attempt, settings, highDice)).toBe(step);
      expect(step).toBeLessThanOrEqual(settings.maxMs);
    }
  });
});

describe('Backoff', () => {
  it('counts its own failures: each take() is the next step, with its jittered wait', () => {
    const backoff = new Backoff({ baseMs: 500, maxMs: 1500 }, lowDice);
    expect([backoff.take(), backoff.take(), backoff.take(), backoff.take()]).toEqual([
      { nominalMs: 500, waitMs: 250 },
      { nominalMs: 1000, waitMs: 500 },
      { nominalMs: 1500, waitMs: 750 },
      { nominalMs: 1500, waitMs: 750 },
    ]);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('draws from Math.random when given no dice: its lowest throw half the step, its highest the step', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValueOnce(0).mockReturnValueOnce(0.999_999);
    const backoff = new Backoff({ baseMs: 500, maxMs: 1500 });
    expect([backoff.take(), backoff.take()]).toEqual([
      { nominalMs: 500, waitMs: 250 },
      { nominalMs: 1000, waitMs: 1000 },
    ]);
    expect(random).toHaveBeenCalledTimes(2);
  });
});
