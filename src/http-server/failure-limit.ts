import { countOf } from '../lib/plural.js';
import { countedAddress } from './counted-address.js';

/** How many failures a key may have in a window before it is refused until the window ends. */
export interface FailureLimitOptions {
  limit: number;
  windowMs: number;
  /** Keys remembered at most (each a few dozen bytes): a flood of new addresses cannot fill memory. */
  maxKeys?: number;
}

/** What one failure changed: keys whose window it opened, and keys it brought to the limit. */
export interface FailureCounted {
  opened: string[];
  reachedLimit: string[];
}

interface FailureWindow {
  start: number;
  failures: number;
}

/**
 * Counts failures (wrong credentials) per key (a client's address) in fixed windows that start at a key's first
 * failure: past `limit` in one window, the key is refused until the window ends, whatever it sends. Shared machinery
 * of the HTTP servers; in memory, so a restart forgets it.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, FailureWindow>();
  /** When the last window that reached its limit ends: until then some key may be refused. */
  private refusingUntil = 0;

  constructor(
    private readonly options: FailureLimitOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until every key may try again; 0 when all may now. */
  waitFor(keys: readonly string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const window = this.current(key, now);
      if (window && window.failures >= this.options.limit)
        wait = Math.max(wait, window.start + this.options.windowMs - now);
    }
    return wait;
  }

  /** Counts one failure against each key. */
  fail(keys: readonly string[]): FailureCounted {
    const now = this.now();
    const counted: FailureCounted = { opened: [], reachedLimit: [] };
    for (const key of keys) {
      let window = this.current(key, now);
      if (window === undefined) {
        this.makeRoom(now);
        window = { start: now, failures: 0 };
        this.windows.set(key, window);
        counted.opened.push(key);
      }
      window.failures++;
      if (window.failures === this.options.limit) {
        counted.reachedLimit.push(key);
        this.refusingUntil = Math.max(this.refusingUntil, window.start + this.options.windowMs);
      }
    }
    return counted;
  }

  /** Whether some key may now be past its limit, in constant time: a caller that cannot name its keys asks this. */
  refusingSome(): boolean {
    return this.now() < this.refusingUntil;
  }

  private current(key: string, now: number): FailureWindow | undefined {
    const window = this.windows.get(key);
    if (window === undefined || now - window.start < this.options.windowMs) return window;
    this.windows.delete(key);
    return undefined;
  }

  /** Forgets ended windows when full, then the oldest ones. */
  private makeRoom(now: number): void {
    const maxKeys = this.options.maxKeys ?? 10_000;
    if (this.windows.size < maxKeys) return;
    for (const [key, window] of this.windows) if (now - window.start >= this.options.windowMs) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < maxKeys) break;
      this.windows.delete(key);
    }
  }
}

/** Lines about wrong credentials a window of one log may hold, all addresses together; the rest are summed up. */
const failureLinesPerWindow = 10;
/** Addresses told apart in a window's summary; a flood of more is said as at least this many. */
const summarizedAddressesAtMost = 10_000;

/** The lines of a window of the log: how many were written, and the refusals past them, with their addresses. */
interface FailureLogWindow {
  start: number;
  lines: number;
  unlogged: number;
  addresses: Set<string>;
}

/**
 * The log lines about wrong credentials: one when an address (the first key) starts failing and one when a counter
 * reaches its limit, never a line per failure; and at most ten such lines a window, all addresses together, the
 * refusals past them said in one line when the window ends (a guesser rotating through addresses would otherwise
 * write a line per guess). Shared by the token endpoint and `tax serve`'s credentials.
 */
export class FailureLog {
  private window: FailureLogWindow | undefined;
  private summaryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: ((message: string) => void) | undefined,
    private readonly windowMs: number,
    /** What a key is refused, as the lines name it (`Token requests`, `Callbacks`). */
    private readonly requests: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Logs what one failure changed (`counted`, for `keys`), the first of an address said as `failure` (`Token
   * refused: wrong client credentials (basic style)`), or counts it into the window's summary.
   */
  failed(counted: FailureCounted, keys: readonly string[], failure: string): void {
    const now = this.now();
    if (this.window !== undefined && now - this.window.start >= this.windowMs) this.summarize();
    const window = (this.window ??= { start: now, lines: 0, unlogged: 0, addresses: new Set() });
    const [address] = keys;
    if (window.lines >= failureLinesPerWindow) {
      window.unlogged++;
      if (address !== undefined && window.addresses.size < summarizedAddressesAtMost) window.addresses.add(address);
      // Said when the window ends even if no failure follows: a guess that stopped is still told.
      this.summaryTimer ??= setTimeout(() => this.summarize(), Math.max(0, window.start + this.windowMs - now));
      this.summaryTimer.unref();
      return;
    }
    const seconds = Math.round(this.windowMs / 1000);
    const lines: string[] = [];
    if (address !== undefined && counted.opened.includes(address))
      lines.push(
        `${failure} ${address}; further failures ${address} in the next ${seconds} s are counted, not logged.`,
      );
    for (const key of counted.reachedLimit)
      lines.push(`${this.requests} ${key} are refused with 429 for up to ${seconds} s: too many wrong credentials.`);
    for (const line of lines) this.log?.(line);
    window.lines += lines.length;
  }

  /** Ends the window: the refusals past its lines in one line, if there were any. */
  private summarize(): void {
    clearTimeout(this.summaryTimer);
    this.summaryTimer = undefined;
    const window = this.window;
    this.window = undefined;
    if (window === undefined || window.unlogged === 0) return;
    const addresses = window.addresses.size;
    const from =
      addresses >= summarizedAddressesAtMost ? `${addresses} addresses or more` : countOf(addresses, 'addresses');
    const seconds = Math.round(this.windowMs / 1000);
    this.log?.(
      `${this.requests}: ${countOf(window.unlogged, 'more refusals')} for wrong credentials from ${from} in the last ${seconds} s, not logged one by one (at most ${failureLinesPerWindow} such lines in ${seconds} s).`,
    );
  }
}

/** The keys a failure from `clientAddress` is counted under: its address, an IPv6 one by its /64. */
export function failureKeys(clientAddress: string): string[] {
  return [`from ${countedAddress(clientAddress)}`];
}
