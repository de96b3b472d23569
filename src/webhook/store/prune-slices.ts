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

/** How a store's maintenance goes slice by slice. */
export interface SlicePace {
  /** Ends the pass after the slice under way. */
  signal?: AbortSignal | undefined;
  /** True while intake is under way: then each slice is followed by a rest (restAfter). Always, if not given. */
  busy?: () => boolean;
}

/** A store's own intake as its maintenance sees it: under way within a second of the last append. */
export class IntakeActivity {
  private lastAppend = Number.NEGATIVE_INFINITY;

  appended(): void {
    this.lastAppend = performance.now();
  }

  readonly busy = (): boolean => performance.now() - this.lastAppend < 1000;
}

/**
 * A retention pass in slices, paced: removes delivered events received before `eventsBefore` and de-duplication
 * keys received before `keysBefore`. A stop ends it after the slice under way, with what was removed so far: the
 * next pass goes on from there.
 */
export async function pruneInSlices(
  run: PruneStatements,
  eventsBefore: number | undefined,
  keysBefore: number,
  { signal, busy }: SlicePace = {},
): Promise<Pruned> {
  const pruned: Pruned = { events: 0, keys: 0 };
  const stopped = () => signal?.aborted === true;
  if (eventsBefore !== undefined) {
    let cursor = { receivedAt: Number.MIN_SAFE_INTEGER, id: 0 };
    while (!stopped()) {
      const began = performance.now();
      const slice = await run.rows(pruneSliceQuery, [eventsBefore, cursor.receivedAt, cursor.id]);
      const last = slice.at(-1);
      if (!last) break;
      const ids = slice.map((row) => Number(row.id));
      pruned.events += await run.changes(pruneSliceDelete(ids.length), ids);
      cursor = { receivedAt: Number(last.received_at), id: Number(last.id) };
      await restAfter(began, busy);
      if (slice.length < pruneSliceRows) break;
    }
  }
  for (let removed = -1; removed !== 0 && !stopped(); pruned.keys += removed) {
    const began = performance.now();
    removed = await run.changes(pruneKeysDelete, [keysBefore]);
    await restAfter(began, busy);
  }
  return pruned;
}

/**
 * While intake is under way, maintenance takes a quarter of the store's time at most: each slice is followed by a
 * rest three times as long as it took (as PostgreSQL's autovacuum sleeps by its cost). Back to back, the slices of
 * a key expiry on a 10,000,000-event inbox held the writer thread's core and cut intake on two cores from 5,122 to
 * 3,290 events/s, and /healthz waited for a core behind them. The slice's time is the wait for its answer, so a
 * store busy with intake's commits makes the rests longer too. With no intake, slices go back to back.
 */
const restFactor = 3;

/**
 * The rest after a slice begun at `began` (`performance.now()`): at least one turn of the event loop, so requests
 * already read are answered before the next slice.
 */
export function restAfter(began: number, busy: () => boolean = () => true): Promise<void> {
  const rest = busy() ? (performance.now() - began) * restFactor : 0;
  return new Promise((resolve) => (rest < 1 ? setImmediate(resolve) : setTimeout(resolve, rest)));
}
