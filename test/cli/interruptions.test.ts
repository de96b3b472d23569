import { describe, expect, it } from 'vitest';
import { Interruptions, sameInterruptionMs } from '../../src/cli/interruptions.js';

describe('a second signal', () => {
  it('right after the first is the same interruption delivered twice (GNU timeout: the process, then its group)', () => {
    let now = 1000;
    const interruptions = new Interruptions(() => now);
    expect(interruptions.receive()).toBe('first');
    now += 0.05;
    expect(interruptions.receive()).toBe('repeat');
    now += sameInterruptionMs - 1;
    expect(interruptions.receive()).toBe('repeat');
  });

  it("later is a person's second Ctrl-C: stop at once", () => {
    let now = 0;
    const interruptions = new Interruptions(() => now);
    expect(interruptions.receive()).toBe('first');
    now += sameInterruptionMs;
    expect(interruptions.receive()).toBe('second');
    now += 5_000;
    expect(interruptions.receive()).toBe('second');
  });
});
