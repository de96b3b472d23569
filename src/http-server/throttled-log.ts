import { countOf } from '../lib/plural.js';
import { countedAddress } from './counted-address.js';

/** Lines a window writes one by one, all addresses together, unless its log says otherwise. */
export const linesPerWindow = 10;
/** Addresses a summary names; the others are counted together. */
const namedAddressesAtMost = 3;
/** Addresses a window tells apart: past them a flood of new ones is counted together, never kept without bound. */
const addressesAtMost = 10_000;

/** What a window left out: how many, from where (`5100 from 127.0.0.2, 3 from 3 more addresses`), over how long. */
export interface LeftOut {
  count: number;
  from: string;
  seconds: number;
}

export interface ThrottledLogOptions {
  log: ((line: string) => void) | undefined;
  windowMs: number;
  /** Lines written one by one in a window, all addresses together (`linesPerWindow` unless said). */
  linesPerWindow?: number;
  /** The window's last line, about the events it did not write one by one. */
  summary: (leftOut: LeftOut) => string;
  now?: () => number;
  /** Runs the window's end; an unref'd timer unless a test gives its own. */
  schedule?: (run: () => void, ms: number) => void;
}

interface Window {
  start: number;
  lines: number;
  /** The addresses that had a line of their own in this window. */
  written: Set<string>;
  leftOut: Map<string, number>;
  /** Left out past the addresses a window tells apart. */
  uncounted: number;
  endScheduled: boolean;
}

/**
 * The one way the servers keep a flood from writing a log line per request, per connection or per guess: a window
 * opens at an event when none is open; in it, the first event of each client address (an IPv6 one by its /64) gets
 * its line at once, up to a few lines in all; every other event is counted by address, and when the window ends
 * one line says how many were left out and from where. The next event after that opens a new window. In memory: a
 * restart forgets it.
 */
export class ThrottledLog {
  private window: Window | undefined;
  private readonly linesPerWindow: number;
  private readonly now: () => number;
  private readonly schedule: (run: () => void, ms: number) => void;

  private readonly options: ThrottledLogOptions;
  constructor(options: ThrottledLogOptions) {
    this.options = options;

    this.linesPerWindow = options.linesPerWindow ?? linesPerWindow;
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? unrefTimeout;
  }

  /**
   * An event from `address`: `line` is written when it is the address's first in the window (or `news`, a change
   * worth its own line even after the address's first, such as an address now refused) and the window has lines
   * left; else the event is counted for the window's last line.
   */
  event(address: string, line: () => string, { news = false }: { news?: boolean } = {}): void {
    const now = this.now();
    if (this.window !== undefined && now - this.window.start >= this.options.windowMs) this.end();
    const window = (this.window ??= {
      start: now,
      lines: 0,
      written: new Set(),
      leftOut: new Map(),
      uncounted: 0,
      endScheduled: false,
    });
    const counted = countedAddress(address);
    if (window.lines < this.linesPerWindow && (news || !window.written.has(counted))) {
      window.lines++;
      window.written.add(counted);
      this.options.log?.(line());
      return;
    }
    if (window.leftOut.has(counted) || window.leftOut.size < addressesAtMost)
      window.leftOut.set(counted, (window.leftOut.get(counted) ?? 0) + 1);
    else window.uncounted++;
    if (window.endScheduled) return;
    window.endScheduled = true;
    // Said when the window ends even if no event follows: a flood that stopped is still told. A window that an
    // event found over already was said then; its timer finds another window open and leaves it.
    this.schedule(
      () => {
        if (this.window === window) this.end();
      },
      Math.max(0, window.start + this.options.windowMs - now),
    );
  }

  /** Closes the window, with a line about what it left out, if anything. */
  private end(): void {
    const window = this.window;
    this.window = undefined;
    if (window === undefined) return;
    const counts = [...window.leftOut];
    if (counts.length === 0) return;
    this.options.log?.(
      this.options.summary({
        count: counts.reduce((sum, [, count]) => sum + count, window.uncounted),
        from: fromAddresses(counts, window.uncounted),
        seconds: Math.round(this.options.windowMs / 1000),
      }),
    );
  }
}

/**
 * `5100 from 127.0.0.2, 23 from 2001:db8:1:2::/64, 1 from 203.0.113.1, 3 from 3 more addresses`: most first, then
 * those `uncounted` past the addresses a window tells apart, last and in words of their own, so that the parts add
 * up to the whole: they are no address among the others (a user test read `39990 from other addresses` first, as
 * if one address, beside `19996 from 9998 more addresses`).
 */
function fromAddresses(counts: [string, number][], uncounted: number): string {
  const sorted = counts.toSorted((a, b) => b[1] - a[1]);
  const named = sorted.slice(0, namedAddressesAtMost).map(([address, count]) => `${count} from ${address}`);
  const others = sorted.slice(namedAddressesAtMost);
  if (others.length > 0)
    named.push(`${others.reduce((sum, [, count]) => sum + count, 0)} from ${countOf(others.length, 'more addresses')}`);
  if (uncounted > 0) named.push(`${uncounted} from addresses past the first ${addressesAtMost} (not told apart)`);
  return named.join(', ');
}

function unrefTimeout(run: () => void, ms: number): void {
  setTimeout(run, ms).unref();
}
