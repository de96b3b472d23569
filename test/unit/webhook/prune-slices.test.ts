import { describe, expect, it } from 'vitest';
import {
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
});
