import { afterAll, describe, expect, it } from 'vitest';
import { backlogHealth } from '../../../src/webhook/backlog.js';
import { backlogStatements } from '../../../src/webhook/store/backlog-queries.js';
import { pruneSliceQuery } from '../../../src/webhook/store/prune-slices.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { generateLargeInbox, queryPlan } from '../../support/large-inbox.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const firstAt = Date.parse('2026-01-01T00:00:00Z');
const count = 2_000_000;

// Every step SQLite may take for a backlog statement: a probe of a primary key (or of max(id)), or a scan of the
// handful of hand-offs or of a subquery bounded by LIMIT. A walk of the received_at index, or of the events
// table, is what made a health check cost seconds on a year-size inbox.
const constantSteps = [
  /^SEARCH events USING INTEGER PRIMARY KEY \(rowid>\?\)$/,
  /^SEARCH events$/,
  /^SEARCH dead USING PRIMARY KEY \(handoff=\?\)$/,
  /^SCAN handoffs( USING INDEX sqlite_autoindex_handoffs_1)?$/,
  /^CO-ROUTINE counted$/,
  /^SCAN counted$/,
];

describe('backlog on a large inbox', () => {
  it('answers from index probes only, whatever the size, with the right figures', { timeout: 120_000 }, async () => {
    const directory = temporaryFolder();
    await generateLargeInbox(directory, count, firstAt);
    const store = await SqliteStore.open(directory);
    try {
      await store.openHandOff('caught-up', 'http://erp', false);
      await store.openHandOff('from-start', 'http://audit', true);
      for (const [name, sql] of Object.entries(backlogStatements)) {
        for (const step of queryPlan(directory, sql)) {
          expect({ name, step, constant: constantSteps.some((allowed) => allowed.test(step)) }).toEqual({
            name,
            step,
            constant: true,
          });
        }
      }
      expect(await store.backlog()).toEqual([
        { name: 'caught-up', target: 'http://erp', pending: 0, oldestPendingAt: undefined, dead: 0 },
        { name: 'from-start', target: 'http://audit', pending: count, oldestPendingAt: firstAt + 1000, dead: 0 },
      ]);
      // A retention slice reads its few hundred entries of the received_at index from a cursor: pending old events
      // (the from-start hand-off has taken none) are stepped over once, not read again by every slice.
      expect(queryPlan(directory, pruneSliceQuery)).toEqual([
        'SEARCH events USING COVERING INDEX events_received (received_at>? AND received_at<?)',
      ]);
      expect(await store.prune(firstAt + 1001 * 1000, firstAt)).toEqual({ events: 0, keys: 0 });
      const health = await backlogHealth(store, firstAt + (count + 10) * 1000, 60_000);
      expect(health.handOffs.map((handOff) => [handOff.name, handOff.oldestPendingSeconds])).toEqual([
        ['caught-up', 0],
        ['from-start', count + 9],
      ]);
    } finally {
      await store.close();
    }
  });
});
