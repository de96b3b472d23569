import { describe, expect, it } from 'vitest';
import { Backoff } from '../../../src/lib/backoff.js';
import { AskedToWait } from '../../../src/webhook/consumers.js';
import { handOffBackoff, nextTry, tryingAgainIn } from '../../../src/webhook/next-try.js';

/** The hand-off's back-off on dice that always draw the whole step. */
const wholeSteps = () => new Backoff(handOffBackoff, () => 0.999_999);

describe('nextTry: the one rule of the hand-off and webhook replay', () => {
  it.each([
    ['a failure that asked for nothing', new Error('HTTP 500'), { nominalMs: 500, waitMs: 500, asked: false }],
    [
      'a pause asked for, longer than the step',
      new AskedToWait('HTTP 503', 2000),
      { nominalMs: 2000, waitMs: 2000, asked: true },
    ],
    [
      'a pause asked for, shorter than the step',
      new AskedToWait('HTTP 503', 100),
      { nominalMs: 500, waitMs: 500, asked: false },
    ],
    [
      'a day asked for: 10 minutes',
      new AskedToWait('HTTP 429', 86_400_000),
      { nominalMs: 600_000, waitMs: 600_000, asked: true },
    ],
  ])('%s', (_name, error, expected) => {
    expect(nextTry(wholeSteps(), error)).toEqual(expected);
  });

  it('counts each failure, asked for or not, as one more step of the back-off', () => {
    const backoff = wholeSteps();
    nextTry(backoff, new AskedToWait('HTTP 503', 2000));
    expect(nextTry(backoff, new Error('HTTP 500')).nominalMs).toBe(1000);
  });

  it('says the wait as every retry line says it', () => {
    expect(tryingAgainIn({ nominalMs: 120_000, waitMs: 120_000, asked: true })).toBe(
      'trying again in 2 min (the wait its Retry-After asked for)',
    );
    expect(tryingAgainIn({ nominalMs: 2000, waitMs: 1500, asked: false })).toBe('trying again in 2 s');
  });
});
