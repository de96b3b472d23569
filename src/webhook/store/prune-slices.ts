import type { Pruned } from './types.js';

/** Rows one slice of retention reads: small enough that an append waiting behind it is not held. */
export const pruneSliceRows = 500;

/**
 * The next slice of events received before the bound, after a cursor, in received_at order: it reads at most
 * `pruneSliceRows` index entries whatever the inbox holds, even when old events are still pending.
 */
export const pruneSliceQuery = `SELECT id, received_at FROM events WHERE received_at < ? AND (received_at, id) > (?, ?)
  ORDER BY received_at, id LIMIT ${pruneSliceRows}`;

/** Of a slice's ids (`?` list), those delivered to every hand-off and not dead: then removed. */
export function pruneSliceDelete(ids: number): string {
  return `DELETE FROM events WHERE id IN (${Array.from({ length: ids }, () => '?').join(', ')})
  AND id <= (SELECT coalesce(min(position), (SELECT coalesce(max(id), 0) FROM events)) FROM handoffs)
  AND id NOT IN (SELECT event_id FROM dead)`;
}

/** A chunk of expired keys: received before the bound, at most the limit (its index walk removes all it reads). */
export const pruneKeysDelete = `DELETE FROM dedup WHERE key IN (SELECT key FROM dedup WHERE received_at < ? LIMIT ${pruneSliceRows})`;

export interface PruneStatements {
  /** Runs a query: its rows. */
  rows(sql: string, values: unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs a statement: the rows it changed. */
  changes(sql: string, values: unknown[]): Promise<number>;
}

/**
 * A retention pass in slices, the event loop served between them (intake, /healthz): removes delivered events
 * received before `eventsBefore` and de-duplication keys received before `keysBefore`.
 */
export async function pruneInSlices(
  run: PruneStatements,
  eventsBefore: number | undefined,
  keysBefore: number,
): Promise<Pruned> {
  const pruned: Pruned = { events: 0, keys: 0 };
  if (eventsBefore !== undefined) {
    let cursor = { receivedAt: Number.MIN_SAFE_INTEGER, id: 0 };
    for (;;) {
      const slice = await run.rows(pruneSliceQuery, [eventsBefore, cursor.receivedAt, cursor.id]);
      const last = slice.at(-1);
      if (!last) break;
      const ids = slice.map((row) => Number(row.id));
      pruned.events += await run.changes(pruneSliceDelete(ids.length), ids);
      cursor = { receivedAt: Number(last.received_at), id: Number(last.id) };
      await yieldToOthers();
      if (slice.length < pruneSliceRows) break;
    }
  }
  for (let removed = -1; removed !== 0; pruned.keys += removed) {
    removed = await run.changes(pruneKeysDelete, [keysBefore]);
    await yieldToOthers();
  }
  return pruned;
}

/** One turn of the event loop: requests already read are answered before the next slice. */
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
