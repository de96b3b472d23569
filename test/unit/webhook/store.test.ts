import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { type EventRow, pagedSelection, selectionPage } from '../../../src/webhook/store/queries.js';
import { sqliteFileName, SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { StoredEvent } from '../../../src/webhook/store/types.js';
import { inboxEvent } from '../../support/inbox-events.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const day = 86_400_000;
const start = Date.parse('2026-01-01T00:00:00Z');

/** Orders and customers events in turn. */
const event = (id: number, receivedAt: number) => inboxEvent(id, { receivedAt, kind: id % 2 ? 'orders' : 'customers' });

async function all(store: SqliteStore): Promise<number[]> {
  const ids: number[] = [];
  for await (const stored of store.select({})) ids.push((stored.event as { id: number }).id);
  return ids;
}

describe('SQLite store', () => {
  it('retention removes delivered events only; dead and pending ones stay; keys follow their own window', async () => {
    const store = await SqliteStore.open(temporaryFolder());
    for (let id = 1; id <= 6; id++) await store.append(event(id, start + id * day));
    await store.openHandOff('forward', 'http://erp', true);
    const stored: StoredEvent[] = [];
    for await (const item of store.select({})) stored.push(item);
    // 1, 2 delivered, 3 dead, 4 delivered; 5 and 6 pending.
    await store.markDelivered('forward', stored[0] as StoredEvent);
    await store.markDelivered('forward', stored[1] as StoredEvent);
    await store.markDead('forward', stored[2] as StoredEvent, 'HTTP 422', 1);
    await store.markDelivered('forward', stored[3] as StoredEvent);
    // Everything is older than the retention bound.
    const pruned = await store.prune(start + 30 * day, start + 3.5 * day);
    expect(pruned).toEqual({ events: 3, keys: 3 });
    expect(await all(store)).toEqual([3, 5, 6]);
    // A key inside the de-duplication window still refuses a redelivery of a removed event; an older one does not.
    expect(await store.append(event(4, start + 40 * day))).toEqual({ stored: false });
    expect(await store.append(event(1, start + 40 * day))).toEqual({ stored: true });
    await store.close();
  });

  it('retention walks its slices by (received_at, id): events sharing a time across slice ends all go', async () => {
    const store = await SqliteStore.open(temporaryFolder());
    // 1,201 events, three to a millisecond: slices of 500 end in the middle of a shared time.
    store.insertMany(Array.from({ length: 1201 }, (_, index) => event(index + 1, start + Math.floor(index / 3))));
    await store.openHandOff('forward', 'http://erp', false);
    expect(await store.prune(start + day, start)).toEqual({ events: 1201, keys: 0 });
    expect(await all(store)).toEqual([]);
    await store.close();
  });

  it('stays within its retention over a simulated year: rows and file size flat', { timeout: 120_000 }, async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    await store.openHandOff('forward', 'http://erp', true);
    const perDay = 200;
    const sizes: number[] = [];
    for (let dayNumber = 1; dayNumber <= 365; dayNumber++) {
      const first = dayNumber * perDay;
      store.insertMany(
        Array.from({ length: perDay }, (_, index) => event(first + index, start + dayNumber * day + index * 1000)),
      );
      // The ERP took the day's events: the hand-off's position is the day's last one.
      let newest: StoredEvent | undefined;
      for await (const item of store.select({ since: start + dayNumber * day })) newest = item;
      await store.markDelivered('forward', newest as StoredEvent);
      const now = start + (dayNumber + 1) * day;
      await store.prune(now - 30 * day, now - 7 * day);
      if (dayNumber === 60 || dayNumber === 365) sizes.push(statSync(join(directory, sqliteFileName)).size);
    }
    const database = new DatabaseSync(join(directory, sqliteFileName), { readOnly: true });
    const count = (table: string) => (database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('events')).toBe(30 * perDay);
    expect(count('dedup')).toBe(7 * perDay);
    database.close();
    await store.close();
    // Freed pages are reused: the file at the end of the year is about the file after two months.
    expect((sizes[1] as number) / (sizes[0] as number)).toBeLessThan(1.3);
  });

  it('pages a selection with as many queries as pages, a short page being the last', async () => {
    const rows: EventRow[] = Array.from({ length: 12 }, (_, index) => ({
      id: index + 1,
      received_at: start + index,
      kind: 'orders',
      delivery_id: `d${index + 1}`,
      key: `k${index + 1}`,
      flags: '[]',
      client_address: '',
      event: `{"id":${index + 1}}`,
    }));
    const read = async () => {
      const asked: unknown[][] = [];
      const ids: number[] = [];
      const page = async (_sql: string, values: unknown[]) => {
        asked.push(values);
        // [since] on the first page, then [since, received_at, id] of the last event read.
        const after = values.length > 1 ? (values[2] as number) : 0;
        return rows.filter((row) => Number(row.id) > after).slice(0, 5);
      };
      for await (const stored of pagedSelection({ since: start }, page, 5)) ids.push(stored.id);
      return { ids, queries: asked.length };
    };
    expect(await read()).toEqual({ ids: rows.map((row) => Number(row.id)), queries: 3 });
    rows.splice(10);
    // Two full pages: a third query finds nothing.
    expect(await read()).toEqual({ ids: rows.map((row) => Number(row.id)), queries: 3 });
  });

  it('answers --kind/--since/--until from an index, never a scan of the table', async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    await store.close();
    const database = new DatabaseSync(join(directory, sqliteFileName), { readOnly: true });
    const plan = (selection: Parameters<typeof selectionPage>[0], after?: { id: number; receivedAt: number }) => {
      const { sql, values } = selectionPage(selection, after, 500);
      return (database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(values as SQLInputValue[])) as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    };
    expect(plan({ kind: 'orders', since: start, until: start + day })).toMatch(/USING (COVERING )?INDEX events_kind/);
    expect(plan({ since: start }, { id: 10, receivedAt: start })).toMatch(/USING (COVERING )?INDEX events_received/);
    for (const selection of [{ kind: 'orders' as const }, { since: start }, { pending: true }, { dead: true }]) {
      expect(plan(selection)).not.toMatch(/SCAN events(?! USING)/);
      expect(plan(selection)).not.toMatch(/TEMP B-TREE/);
    }
    database.close();
  });
});
