import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';

describe('systemClock.sleep', () => {
  it('takes a wait just below 0 as none, without a warning from Node on stderr', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      await systemClock.sleep(-0.591796875);
      // Node emits its warnings on the next turn: one more turn before looking.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});

describe('systemClock.sleep past what a timer holds', () => {
  it('a wait of 30 days (--watch --interval 2592000) still waits, without a TimeoutOverflowWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const stop = new AbortController();
    let ended = '';
    try {
      const sleeping = systemClock.sleep(30 * 86_400_000, stop.signal).then(
        () => (ended = 'woke'),
        () => (ended = 'stopped'),
      );
      // Node fired such a timer after 1 ms, and warned of it on the next turn.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      stop.abort();
      await sleeping;
    } finally {
      process.off('warning', onWarning);
    }
    expect(ended).toBe('stopped');
    expect(warnings).toEqual([]);
  });
});
