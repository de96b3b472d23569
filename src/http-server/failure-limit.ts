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

/** How the log names a server's failures: `failed` the first of an address, `requests` what a key is refused. */
export interface FailureWords {
  failed: string;
  requests: string;
}

/**
 * One line when an address (the first key) starts failing and one when a counter reaches its limit: never a line
 * per failure. Shared by the token endpoint and `tax serve`'s fixed credentials.
 */
export function logFailures(
  log: ((message: string) => void) | undefined,
  windowMs: number,
  counted: FailureCounted,
  keys: readonly string[],
  words: FailureWords,
): void {
  const seconds = Math.round(windowMs / 1000);
  const [address] = keys;
  if (address !== undefined && counted.opened.includes(address))
    log?.(`${words.failed} ${address}; further failures ${address} in the next ${seconds} s are counted, not logged.`);
  for (const key of counted.reachedLimit)
    log?.(`${words.requests} ${key} are refused with 429 for up to ${seconds} s: too many wrong credentials.`);
}
