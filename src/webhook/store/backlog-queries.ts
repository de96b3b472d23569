import type { HandOffBacklog } from './types.js';

/** Pending events are counted one by one up to this many; past it, from the ids (see pendingBeyondCount). */
export const exactPendingLimit = 1000;

/**
 * The statements behind a backlog, each one index probe or a walk bounded by a constant: a health check on a
 * year-size inbox costs what it costs on an empty one (docs/decisions/0016-receiver-in-production.md).
 */
export const backlogStatements = {
  handOffs: 'SELECT name, target, position FROM handoffs ORDER BY name',
  /** The oldest pending event is the first one past the position: ids follow arrival. */
  oldestPending: 'SELECT received_at FROM events WHERE id > ? ORDER BY id LIMIT 1',
  pendingCounted: `SELECT count(*) AS pending FROM (SELECT id FROM events WHERE id > ? ORDER BY id LIMIT ${exactPendingLimit + 1}) AS counted`,
  /** Retention removes only delivered events, so past the position ids have no holes but failed commits' ones. */
  newestId: 'SELECT coalesce(max(id), 0) AS newest FROM events',
  dead: 'SELECT count(*) AS dead FROM dead WHERE handoff = ?',
} as const;

/** Runs one statement and returns its first row (both stores answer through this). */
export type FirstRow = (sql: string, values: unknown[]) => Promise<Record<string, unknown> | undefined>;
export type AllRows = (sql: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

/** Each hand-off's backlog from its position: pending count, oldest pending event, dead letters. */
export async function backlogOf(first: FirstRow, all: AllRows): Promise<HandOffBacklog[]> {
  const handOffs = await all(backlogStatements.handOffs, []);
  const backlog: HandOffBacklog[] = [];
  for (const row of handOffs) {
    const position = Number(row.position);
    const oldest = await first(backlogStatements.oldestPending, [position]);
    const newest = Number((await first(backlogStatements.newestId, []))?.newest ?? 0);
    // Counting walks the events' rows themselves (their ids are the table's keys): only when the distance in ids
    // says the count may come out at 1,000 or less. Holes of more than 1,000 ids (failed commits) are not expected.
    let pending = Math.max(0, newest - position);
    if (pending <= 2 * exactPendingLimit) {
      const counted = Number((await first(backlogStatements.pendingCounted, [position]))?.pending ?? 0);
      pending = counted > exactPendingLimit ? Math.max(counted, pending) : counted;
    }
    backlog.push({
      name: String(row.name),
      target: String(row.target),
      pending,
      oldestPendingAt: oldest === undefined ? undefined : Number(oldest.received_at),
      dead: Number((await first(backlogStatements.dead, [String(row.name)]))?.dead ?? 0),
    });
  }
  return backlog;
}
