import { createHmac, randomBytes } from 'node:crypto';
import { countOf } from '../lib/plural.js';
import { countedAddress } from './counted-address.js';
import { linesPerWindow, ThrottledLog } from './throttled-log.js';

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
  /** The attempts counted in this window, by fingerprint: the same wrong credential again is not another guess. */
  attempts: Set<string>;
}

/** The key of the fingerprints: a process's own, so the limiter never holds a credential, nor a digest of one alone. */
const fingerprintKey = randomBytes(32);

/**
 * A fingerprint of the credentials a failed request presented (`client id`, `secret`), to tell a guesser, who tries a
 * new secret each time, from a sender repeating one wrong secret (another tenant of the platform sharing its egress
 * address, a store left on an old secret after a rotation), who guesses nothing.
 */
export function attemptFingerprint(...parts: readonly string[]): string {
  const mac = createHmac('sha256', fingerprintKey);
  for (const part of parts) mac.update(`${part.length}:${part}`);
  return mac.digest('base64').slice(0, 22);
}

/**
 * Counts failures (wrong credentials) per key (a client's address) in fixed windows that start at a key's first
 * failure: past `limit` in one window, the key is refused until the window ends, whatever it sends. A failure with
 * the same credentials as one already counted in the window (attemptFingerprint) is not counted again: only distinct
 * guesses are limited, so a misconfigured sender repeating its wrong secret from the platform's own egress address
 * cannot lock the platform out (docs/decisions/0035-distinct-wrong-credentials-counted.md). Shared machinery of the
 * HTTP servers; in memory, so a restart forgets it.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, FailureWindow>();
  /** When the last window that reached its limit ends: until then some key may be refused. */
  private refusingUntil = 0;

  private readonly options: FailureLimitOptions;
  private readonly now: () => number;
  constructor(options: FailureLimitOptions, now: () => number = Date.now) {
    this.options = options;
    this.now = now;
  }

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

  /** Counts one failure against each key, unless its `attempt` (a fingerprint) was counted in the key's window. */
  fail(keys: readonly string[], attempt?: string): FailureCounted {
    const now = this.now();
    const counted: FailureCounted = { opened: [], reachedLimit: [] };
    for (const key of keys) {
      let window = this.current(key, now);
      if (window === undefined) {
        this.makeRoom(now);
        window = { start: now, failures: 0, attempts: new Set() };
        this.windows.set(key, window);
        counted.opened.push(key);
      }
      if (attempt !== undefined) {
        if (window.attempts.has(attempt)) continue;
        window.attempts.add(attempt);
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

/**
 * The log lines about wrong credentials, through the servers' one ThrottledLog: a line when an address starts
 * failing and one when it reaches its limit, never a line per failure; at most ten such lines a window, all
 * addresses together, the failures past them said in one line when the window ends (a guesser rotating through
 * addresses would otherwise write a line per guess). Shared by the token endpoint and `tax serve`'s credentials.
 */
export class FailureLog {
  private readonly lines: ThrottledLog;
  private readonly seconds: number;

  /** What a key is refused, as the lines name it (`Token requests`, `Callbacks`). */
  private readonly requests: string;
  constructor(
    log: ((message: string) => void) | undefined,
    windowMs: number,
    requests: string,
    now: () => number = Date.now,
  ) {
    this.requests = requests;

    this.seconds = Math.round(windowMs / 1000);
    this.lines = new ThrottledLog({
      log,
      windowMs,
      now,
      summary: ({ count, from, seconds }) =>
        `${requests}: ${countOf(count, 'more refusals')} for wrong credentials in the last ${seconds} s, not logged one by one (at most ${linesPerWindow} such lines in ${seconds} s): ${from}.`,
    });
  }

  /**
   * Logs one failure from `clientAddress` that `counted` counted: the first of the address said as `failure` (`Token
   * refused: wrong client credentials (basic style)`), the one that brings it to its limit said as such, the others
   * counted into the window's last line.
   */
  failed(counted: FailureCounted, clientAddress: string, failure: string): void {
    const [key = ''] = failureKeys(clientAddress);
    if (counted.reachedLimit.includes(key))
      this.lines.event(
        clientAddress,
        () => `${this.requests} ${key} are refused with 429 for up to ${this.seconds} s: too many wrong credentials.`,
        { news: true },
      );
    else
      this.lines.event(
        clientAddress,
        () => `${failure} ${key}; further failures ${key} in the next ${this.seconds} s are counted, not logged.`,
      );
  }
}

/** The keys a failure from `clientAddress` is counted under: its address, an IPv6 one by its /64. */
export function failureKeys(clientAddress: string): string[] {
  return [`from ${countedAddress(clientAddress)}`];
}
