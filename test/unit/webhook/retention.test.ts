import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spokenBytes, startRetention } from '../../../src/webhook/retention.js';
import type { EventStore, Pruned, SpaceReport } from '../../../src/webhook/store/types.js';

const hour = 3_600_000;
const day = 24 * hour;
const now = Date.parse('2026-06-01T00:00:00Z');

/** A store that answers each pass with the next scripted result and records the bounds it was given. */
function scriptedStore(passes: (Pruned | Error)[], space?: SpaceReport[]) {
  const bounds: [number | undefined, number][] = [];
  let reclaims = 0;
  const store = {
    prune: async (eventsBefore: number | undefined, keysBefore: number) => {
      bounds.push([eventsBefore, keysBefore]);
      const next = passes.shift() ?? { events: 0, keys: 0 };
      if (next instanceof Error) throw next;
      return next;
    },
    ...(space && {
      reclaimSpace: async () => {
        reclaims++;
        return space.shift() ?? { reclaimed: false, freeBytes: 0 };
      },
    }),
  } as Pick<EventStore, 'prune' | 'reclaimSpace'> as EventStore;
  return { store, bounds, reclaims: () => reclaims };
}

function retention(store: EventStore, options: { retainMs?: number; everyMs?: number } = {}) {
  const log: string[] = [];
  const stop = startRetention(store, {
    retainMs: 'retainMs' in options ? options.retainMs : 30 * day,
    dedupWindowMs: 7 * day,
    now: () => now,
    log: (line) => log.push(line),
    everyMs: options.everyMs,
  });
  return { log, stop };
}

/** The timers that keep this process alive (an unref'd one is not among them). */
const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the retention pass', () => {
  it('runs a second after start, then every hour, removing what is older than each window', async () => {
    const { store, bounds } = scriptedStore([]);
    const { stop } = retention(store);
    await vi.advanceTimersByTimeAsync(999);
    expect(bounds).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(bounds).toEqual([[now - 30 * day, now - 7 * day]]);
    await vi.advanceTimersByTimeAsync(hour - 1000);
    expect(bounds).toHaveLength(2);
    await stop();
    // Stopped: no pass runs again.
    await vi.advanceTimersByTimeAsync(3 * hour);
    expect(bounds).toHaveLength(2);
  });

  it('keeps no process alive: its timers do not hold the event loop', async () => {
    vi.useRealTimers();
    const before = timeouts();
    const { stop } = retention(scriptedStore([]).store);
    expect(timeouts()).toBe(before);
    await stop();
  });

  it('stopped before its first pass, runs none', async () => {
    const { store, bounds } = scriptedStore([]);
    const { stop } = retention(store);
    await stop();
    await vi.advanceTimersByTimeAsync(2 * hour);
    expect(bounds).toEqual([]);
  });

  it('keeps every event without a retention, and still removes expired keys', async () => {
    const { store, bounds } = scriptedStore([]);
    const { stop } = retention(store, { retainMs: undefined });
    await vi.advanceTimersByTimeAsync(1000);
    await stop();
    expect(bounds).toEqual([[undefined, now - 7 * day]]);
  });

  it('says nothing when nothing was removed, and one line when events or keys were', async () => {
    const { store, reclaims } = scriptedStore(
      [
        { events: 0, keys: 0 },
        { events: 3, keys: 0 },
        { events: 0, keys: 2 },
      ],
      [],
    );
    const { log, stop } = retention(store, { everyMs: 10_000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(log).toEqual([]);
    expect(reclaims()).toBe(0);
    await vi.advanceTimersByTimeAsync(20_000);
    await stop();
    expect(log).toEqual([
      'Retention: removed 3 delivered events and 0 de-duplication keys.',
      'Retention: removed 0 delivered events and 2 de-duplication keys.',
    ]);
  });

  it('says how far the file shrank; an old file with 64 MB or more it cannot free is named once', async () => {
    const removed = { events: 1, keys: 1 };
    const { store } = scriptedStore(
      [removed, removed, removed, removed],
      [
        { reclaimed: true, freeBytes: 0, before: 1e9, after: 340e6 },
        { reclaimed: false, freeBytes: 64e6 - 1 },
        { reclaimed: false, freeBytes: 64e6 },
        { reclaimed: false, freeBytes: 500e6 },
      ],
    );
    const { log, stop } = retention(store, { everyMs: 10_000 });
    await vi.advanceTimersByTimeAsync(1000 + 3 * 10_000);
    await stop();
    const removedLine = 'Retention: removed 1 delivered event and 1 de-duplication key.';
    expect(log).toEqual([
      removedLine,
      'The inbox file went from 1.00 GB to 340.0 MB.',
      removedLine,
      removedLine,
      'The inbox holds 64.0 MB of free pages it cannot give back while it runs (made before incremental vacuum): stop the receiver and run b2bctl webhook inbox --compact once.',
      removedLine,
    ]);
  });

  it('logs a failed pass and runs again at the next interval', async () => {
    const { store, bounds } = scriptedStore([new Error('database is locked'), { events: 2, keys: 0 }]);
    const { log, stop } = retention(store, { everyMs: 10_000 });
    await vi.advanceTimersByTimeAsync(11_000);
    await stop();
    expect(bounds).toHaveLength(2);
    expect(log).toEqual([
      'Retention pass failed (database is locked); it runs again in an hour.',
      'Retention: removed 2 delivered events and 0 de-duplication keys.',
    ]);
  });

  it('stop tells a pass under way to end, waits for its slice, and gives no space back after it', async () => {
    const pass: { finish?: (pruned: Pruned) => void; signal?: AbortSignal } = {};
    let reclaims = 0;
    const store = {
      prune: (_events: number | undefined, _keys: number, signal?: AbortSignal) => {
        pass.signal = signal;
        return new Promise<Pruned>((resolve) => (pass.finish = resolve));
      },
      reclaimSpace: async () => {
        reclaims++;
        return { reclaimed: false, freeBytes: 0 };
      },
    } as Pick<EventStore, 'prune' | 'reclaimSpace'> as EventStore;
    const { log, stop } = retention(store);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass.signal?.aborted).toBe(false);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(pass.signal?.aborted).toBe(true);
    expect(stopped).toBe(false);
    pass.finish?.({ events: 1, keys: 40_000 });
    await stopping;
    expect(log).toEqual([
      'Retention: removed 1 delivered event and 40000 de-duplication keys before stopping; the next run goes on.',
    ]);
    expect(reclaims).toBe(0);
  });
});

describe('spokenBytes', () => {
  it('says megabytes under a gigabyte and gigabytes from one', () => {
    expect(spokenBytes(999_999_999)).toBe('1000.0 MB');
    expect(spokenBytes(1e9)).toBe('1.00 GB');
    expect(spokenBytes(1_234_567_890)).toBe('1.23 GB');
  });
});
