import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteFileName, SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { inboxEvent } from '../../support/inbox-events.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const start = Date.parse('2026-01-01T00:00:00Z');
const day = 86_400_000;

/** Another connection's write transaction on the inbox (a writer thread mid-commit looks the same to SQLite). */
function holdWriteLock(directory: string): () => void {
  const holder = new DatabaseSync(join(directory, sqliteFileName));
  holder.exec('BEGIN IMMEDIATE');
  return () => {
    holder.exec('COMMIT');
    holder.close();
  };
}

/** Counts the calls settled; the event loop turns `times` meanwhile (a receiver held in SQLite's busy handler cannot). */
async function settledAfterTurns(calls: Promise<unknown>[], times: number): Promise<number> {
  let settled = 0;
  for (const call of calls)
    call.then(
      () => settled++,
      () => settled++,
    );
  for (let turn = 0; turn < times; turn++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("the receiver's thread never waits for the inbox's lock", () => {
  it('dead letters, tokens, command runs and hand-offs are written by the writer thread while the lock is held', async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    await store.openHandOff('erp', 'http://erp', true);
    await store.append(inboxEvent(1, { receivedAt: start + 1 }));
    const [stored] = (await store.pendingForHandOff('erp', undefined, 1)).events;
    if (!stored) throw new Error('the appended event is not in the inbox');

    const release = holdWriteLock(directory);
    const writes = [
      store.markDead('erp', stored, 'HTTP 422', 1),
      store.shareToken('digest', start + day, day),
      store.recordRun({ handOff: 'erp', host: 'here', processGroup: 4242, eventId: stored.id, startedAt: start }),
      store.openHandOff('audit', 'http://audit', false),
    ];
    expect(await settledAfterTurns(writes, 20)).toBe(0);
    release();
    await Promise.all(writes);

    expect(await store.deadLetters('erp')).toMatchObject([{ eventId: stored.id, error: 'HTTP 422', attempts: 1 }]);
    expect(await store.tokenExpiry('digest', start)).toBe(start + day);
    expect(await store.recordedRuns('erp', 'here')).toEqual([
      { handOff: 'erp', host: 'here', processGroup: 4242, eventId: stored.id, startedAt: start },
    ]);
    await store.forgetRun('erp', 'here', 4242);
    expect(await store.recordedRuns('erp', 'here')).toEqual([]);
    // Opened after event 1: its position is the newest event, read in line with the writer's commits.
    await store.append(inboxEvent(2, { receivedAt: start + 2 }));
    expect((await store.pendingForHandOff('audit', undefined, 10)).events.map((each) => each.id)).toEqual([2]);
    await store.close();
  });

  it('incremental vacuum and the checkpoint run on the writer thread: the file shrinks once the lock is let go', async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    store.insertMany(
      Array.from({ length: 5000 }, (_, index) =>
        inboxEvent(index + 1, { receivedAt: start + index + 1, padding: 2000 }),
      ),
    );
    await store.openHandOff('erp', 'http://erp', false);
    expect(await store.prune(start + 365 * day, start + 365 * day)).toEqual({ events: 5000, keys: 5000 });
    const before = statSync(join(directory, sqliteFileName)).size;

    const release = holdWriteLock(directory);
    const reclaiming = store.reclaimSpace();
    expect(await settledAfterTurns([reclaiming], 20)).toBe(0);
    release();
    const report = await reclaiming;

    expect(report).toMatchObject({ reclaimed: true });
    expect(report.freeBytes).toBeGreaterThan(10e6);
    expect(before).toBeGreaterThan(10e6);
    expect(statSync(join(directory, sqliteFileName)).size).toBeLessThan(1e6);
    await store.close();
  });
});
