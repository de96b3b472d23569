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
