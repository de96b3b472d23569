import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteFileName, SqliteStore } from '../../src/webhook/store/sqlite-store.js';

/**
 * Fills an inbox folder with `count` events in one SQL statement (a recursive CTE inside one transaction: two
 * million rows in a few seconds), one a second from `firstAt`, keys `k1`...; the store's own schema first.
 */
export async function generateLargeInbox(directory: string, count: number, firstAt: number): Promise<void> {
  await (await SqliteStore.open(directory)).close();
  const database = new Database(join(directory, sqliteFileName));
  database.exec(`BEGIN;
WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ${count})
INSERT INTO events (received_at, kind, delivery_id, key, flags, client_address, event)
  SELECT ${firstAt} + n * 1000, CASE n % 2 WHEN 0 THEN 'customers' ELSE 'orders' END, 'd' || n, 'k' || n, '[]',
    '127.0.0.1', '{"id":' || n || '}' FROM counter;
INSERT INTO dedup (key, received_at) SELECT key, received_at FROM events;
COMMIT;`);
  database.close();
}

/** The steps of SQLite's plan for `sql`, as EXPLAIN QUERY PLAN words them. */
export function queryPlan(directory: string, sql: string): string[] {
  const database = new Database(join(directory, sqliteFileName), { readonly: true });
  try {
    const parameters = [...sql.matchAll(/\?/g)].map(() => 1);
    const rows = database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[];
    return rows.map((row) => row.detail);
  } finally {
    database.close();
  }
}
