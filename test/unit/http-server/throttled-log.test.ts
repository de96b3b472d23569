/**
 * The servers' one way of not writing a log line per request: an address's first event of a window at once, a few
 * lines in all, the rest said in one line when the window ends. A fake clock and a fake timer.
 */
import { describe, expect, it } from 'vitest';
import { ThrottledLog, type ThrottledLogOptions } from '../../../src/http-server/throttled-log.js';

function throttled(options: Partial<ThrottledLogOptions> = {}) {
  const clock = { now: 0 };
  const lines: string[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const log = new ThrottledLog({
    log: (line) => lines.push(line),
    windowMs: 60_000,
    now: () => clock.now,
    schedule: (run, ms) => timers.push({ run, ms }),
    summary: ({ count, from, seconds }) => `${count} more in the last ${seconds} s: ${from}.`,
    ...options,
  });
  const event = (address: string, kind?: { news?: boolean }) => log.event(address, () => `event from ${address}`, kind);
  return { clock, lines, timers, event };
}

describe('ThrottledLog', () => {
  it('writes each address’s first event of a window, and the others in one line when the window ends', () => {
    const { clock, lines, timers, event } = throttled();
    event('203.0.113.7');
    event('198.51.100.9');
    for (let count = 0; count < 5; count++) event('203.0.113.7');
    clock.now = 10_000;
    event('198.51.100.9');
    expect(lines).toEqual(['event from 203.0.113.7', 'event from 198.51.100.9']);
    // One timer, for the window's end: 60 s after its first event.
    expect(timers.map((timer) => timer.ms)).toEqual([60_000]);
    clock.now = 60_000;
    timers.shift()?.run();
    expect(lines.slice(2)).toEqual(['6 more in the last 60 s: 5 from 203.0.113.7, 1 from 198.51.100.9.']);
    // The next event opens a new window: written at once.
    clock.now = 61_000;
    event('203.0.113.7');
    expect(lines.slice(3)).toEqual(['event from 203.0.113.7']);
  });

  it('writes at most its lines a window, all addresses together; names three addresses, counts the rest', () => {
    const { lines, timers, event } = throttled({ linesPerWindow: 2 });
    for (const host of [1, 2, 3, 4, 5, 6, 3]) event(`203.0.113.${host}`);
    expect(lines).toEqual(['event from 203.0.113.1', 'event from 203.0.113.2']);
    timers.shift()?.run();
    expect(lines.slice(2)).toEqual([
      '5 more in the last 60 s: 2 from 203.0.113.3, 1 from 203.0.113.4, 1 from 203.0.113.5, 1 from 1 more address.',
    ]);
  });

  it('writes news about an address already written, while the window has lines left', () => {
    const { lines, event } = throttled({ linesPerWindow: 2 });
    event('203.0.113.7');
    event('203.0.113.7');
    event('203.0.113.7', { news: true });
    event('203.0.113.7', { news: true });
    expect(lines).toEqual(['event from 203.0.113.7', 'event from 203.0.113.7']);
  });

  it('counts an IPv6 client by its /64, as every limit per address does', () => {
    const { lines, timers, event } = throttled();
    event('2001:db8:1:2::7');
    event('2001:db8:1:2::8');
    event('::ffff:203.0.113.7');
    event('203.0.113.7');
    expect(lines).toEqual(['event from 2001:db8:1:2::7', 'event from ::ffff:203.0.113.7']);
    timers.shift()?.run();
    expect(lines.slice(2)).toEqual(['2 more in the last 60 s: 1 from 2001:db8:1:2::/64, 1 from 203.0.113.7.']);
  });

  it('an event after the window’s end says the window first; the window’s own timer then leaves the new one', () => {
    const { clock, lines, timers, event } = throttled();
    event('203.0.113.7');
    event('203.0.113.7');
    clock.now = 60_000;
    event('203.0.113.7');
    event('203.0.113.7');
    expect(lines).toEqual([
      'event from 203.0.113.7',
      '1 more in the last 60 s: 1 from 203.0.113.7.',
      'event from 203.0.113.7',
    ]);
    const [stale, current] = timers;
    stale?.run();
    expect(lines).toHaveLength(3);
    current?.run();
    expect(lines.slice(3)).toEqual(['1 more in the last 60 s: 1 from 203.0.113.7.']);
  });

  // A user test: the flood's remainder read as an address of its own, named first ("5 from other addresses"), beside
  // "9998 more addresses": the parts are now each said once, the remainder last, and add up to the whole.
  it('tells apart ten thousand addresses a window; a flood of more is counted together, last', () => {
    const { lines, timers, event } = throttled({ linesPerWindow: 1 });
    for (let index = 0; index <= 10_005; index++) event(`10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`);
    for (let index = 0; index < 20_000; index++) event(`10.9.${(index >> 8) & 255}.${index & 255}`);
    event('10.0.0.7');
    timers.shift()?.run();
    expect(lines.slice(1)).toEqual([
      '30006 more in the last 60 s: 2 from 10.0.0.7, 1 from 10.0.0.1, 1 from 10.0.0.2, 9997 from 9997 more addresses, 20005 from addresses past the first 10000 (not told apart).',
    ]);
  });
});
