import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  IntakeActivity,
  pruneInSlices,
  pruneKeysDelete,
  pruneSliceQuery,
  pruneSliceRows,
  type PruneStatements,
} from '../../../src/webhook/store/prune-slices.js';

/** Statements that answer from a list of slices and record every call, so a test sees the walk itself. */
function recordingStatements(slices: { id: number; received_at: number }[][]) {
  const calls: { sql: string; values: unknown[] }[] = [];
  const statements: PruneStatements = {
    rows: async (sql, values) => {
      calls.push({ sql, values });
      return slices.shift() ?? [];
    },
    changes: async (sql, values) => {
      calls.push({ sql, values });
      // Every id of a slice goes; the keys are gone in one chunk.
      return sql === pruneKeysDelete ? 0 : values.length;
    },
  };
  return { calls, statements };
}

const rowsFrom = (first: number, count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: first + index, received_at: 1000 + first + index }));

describe('retention in slices', () => {
  it('reads the next slice after the last row of a full one, by its time and id', async () => {
    const { calls, statements } = recordingStatements([rowsFrom(1, pruneSliceRows), rowsFrom(501, 3)]);
    expect(await pruneInSlices(statements, 5000, 0)).toEqual({ events: pruneSliceRows + 3, keys: 0 });
    const reads = calls.filter((call) => call.sql === pruneSliceQuery);
    expect(reads.map((call) => call.values)).toEqual([
      [5000, Number.MIN_SAFE_INTEGER, 0],
      [5000, 1000 + pruneSliceRows, pruneSliceRows],
    ]);
  });

  it('removes a slice of one old event', async () => {
    const { calls, statements } = recordingStatements([rowsFrom(7, 1)]);
    expect(await pruneInSlices(statements, 5000, 0)).toEqual({ events: 1, keys: 0 });
    expect(calls.find((call) => call.sql !== pruneSliceQuery && call.sql !== pruneKeysDelete)?.values).toEqual([7]);
  });

  it('stops after a slice shorter than the limit, without reading an empty one', async () => {
    const { calls, statements } = recordingStatements([rowsFrom(1, 3), rowsFrom(4, 3)]);
    expect(await pruneInSlices(statements, 5000, 0)).toEqual({ events: 3, keys: 0 });
    expect(calls.filter((call) => call.sql === pruneSliceQuery)).toHaveLength(1);
  });

  it('ends after the slice under way once stopped, with what it removed so far', async () => {
    const stopping = new AbortController();
    let slices = 0;
    const statements: PruneStatements = {
      rows: async () => rowsFrom(1 + slices * pruneSliceRows, pruneSliceRows),
      changes: async (sql, values) => {
        if (++slices === 2) stopping.abort();
        return sql === pruneKeysDelete ? pruneSliceRows : values.length;
      },
    };
    expect(await pruneInSlices(statements, 5000, 0, { signal: stopping.signal })).toEqual({
      events: 2 * pruneSliceRows,
      keys: 0,
    });
    expect(slices).toBe(2);
  });
});

/** The times at which the slices of a key expiry began, each slice taking 10 ms; three full ones. */
async function sliceStarts(busy?: () => boolean): Promise<number[]> {
  vi.useFakeTimers();
  const began: number[] = [];
  let full = 3;
  const statements: PruneStatements = {
    rows: async () => [],
    changes: async () => {
      began.push(performance.now());
      vi.advanceTimersByTime(10);
      return full-- > 0 ? pruneSliceRows : 0;
    },
  };
  const pass = pruneInSlices(statements, undefined, 0, busy === undefined ? {} : { busy });
  await vi.runAllTimersAsync();
  expect(await pass).toEqual({ events: 0, keys: 3 * pruneSliceRows });
  return began.map((at) => at - (began[0] ?? 0));
}

describe('the pace of retention', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rests three times as long as a slice took before the next one while intake goes on', async () => {
    expect(await sliceStarts(() => true)).toEqual([0, 40, 80, 120]);
  });

  it('rests when the store does not say whether intake goes on', async () => {
    expect(await sliceStarts()).toEqual([0, 40, 80, 120]);
  });

  it('runs the slices back to back with no intake', async () => {
    expect(await sliceStarts(() => false)).toEqual([0, 10, 20, 30]);
  });

  it('sees intake under way within a second of an append', () => {
    vi.useFakeTimers();
    const intake = new IntakeActivity();
    expect(intake.busy()).toBe(false);
    intake.appended();
    vi.advanceTimersByTime(999);
    expect(intake.busy()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(intake.busy()).toBe(false);
  });
});
