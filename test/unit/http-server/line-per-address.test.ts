/** One log line per client address a window, the next one counting those left out; a flood of addresses bounded. */
import { describe, expect, it } from 'vitest';
import { LinePerAddress } from '../../../src/http-server/line-per-address.js';

describe('LinePerAddress', () => {
  it('admits the first line of an address a window, and the next window’s first says how many were left out', () => {
    let now = 0;
    const lines = new LinePerAddress(60_000, () => now);
    expect(lines.admit('203.0.113.7')).toBe(0);
    expect(lines.admit('203.0.113.7')).toBeUndefined();
    expect(lines.admit('198.51.100.9')).toBe(0);
    now = 59_999;
    expect(lines.admit('203.0.113.7')).toBeUndefined();
    now = 60_000;
    expect(lines.admit('203.0.113.7')).toBe(2);
    expect(lines.admit('203.0.113.7')).toBeUndefined();
    now = 200_000;
    expect(lines.admit('198.51.100.9')).toBe(0);
  });

  it('remembers at most its bound of addresses: the oldest windows are forgotten first', () => {
    let now = 0;
    const lines = new LinePerAddress(60_000, () => now, 3);
    for (const address of ['a', 'b', 'c']) lines.admit(address);
    now = 1;
    // Full: the oldest, a, goes; b and c are still in their windows.
    expect(lines.admit('d')).toBe(0);
    expect(lines.admit('a')).toBe(0);
    expect(lines.admit('c')).toBeUndefined();
  });
});
