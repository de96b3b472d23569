import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { run as inbox } from '../../../src/commands/webhook/inbox.js';
import { startRetention } from '../../../src/webhook/retention.js';
import { sqliteFileName, SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { inboxEvent } from '../../support/inbox-events.js';
import { testContext } from '../../support/test-context.js';
import { until } from '../../support/until.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const day = 86_400_000;
const start = Date.parse('2026-01-01T00:00:00Z');
const count = 20_000;

/** A store of `count` delivered events of 2 kB, all older than a 30-day retention a year later. */
async function deliveredStore(directory: string): Promise<SqliteStore> {
  const store = await SqliteStore.open(directory);
  store.insertMany(
    Array.from({ length: count }, (_, index) =>
      inboxEvent(index + 1, { receivedAt: start + index + 1, padding: 2000 }),
    ),
  );
  await store.openHandOff('erp', 'http://erp', false);
  return store;
}

function autoVacuumOf(directory: string): number {
  const database = new DatabaseSync(join(directory, sqliteFileName), { readOnly: true });
  try {
    return Number((database.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum);
  } finally {
    database.close();
  }
}

const fileSize = (directory: string) => statSync(join(directory, sqliteFileName)).size;

describe('space after retention', () => {
  it('a new inbox gives the space back after a retention pass, and the log says the sizes', async () => {
    const directory = temporaryFolder();
    const store = await deliveredStore(directory);
    expect(autoVacuumOf(directory)).toBe(2);
    const log: string[] = [];
    const stop = startRetention(store, {
      retainMs: 30 * day,
      dedupWindowMs: 7 * day,
      now: () => start + 365 * day,
      log: (line) => log.push(line),
    });
    await until(() => log.length >= 2, 'the two retention lines', { everyMs: 20, deadlineMs: 30_000 });
    await stop();
    await store.close();
    expect(log[0]).toBe(`Retention: removed ${count} delivered events and ${count} de-duplication keys.`);
    const sizes = /^The inbox file went from ([\d.]+) MB to ([\d.]+) MB\.$/.exec(log[1] ?? '');
    expect(log[1]).toMatch(/^The inbox file went from/);
    expect(Number(sizes?.[1])).toBeGreaterThan(40);
    expect(Number(sizes?.[2])).toBeLessThan(2);
    expect(fileSize(directory)).toBeLessThan(2e6);
  });

  it('an inbox made before incremental vacuum says so, and webhook inbox --compact gives the space back once', async () => {
    const directory = temporaryFolder();
    const store = await deliveredStore(directory);
    await store.close();
    // As an earlier version made it: no auto-vacuum.
    const old = new DatabaseSync(join(directory, sqliteFileName));
    old.exec('PRAGMA auto_vacuum = NONE');
    old.exec('VACUUM');
    old.close();
    expect(autoVacuumOf(directory)).toBe(0);
    const reopened = await SqliteStore.open(directory);
    await reopened.prune(start + 365 * day, start + 365 * day);
    const report = await reopened.reclaimSpace();
    await reopened.close();
    expect(report).toMatchObject({ reclaimed: false });
    expect(report.freeBytes).toBeGreaterThan(40e6);
    const before = fileSize(directory);
    expect(before).toBeGreaterThan(40e6);

    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    await inbox({ inbox: directory, compact: true }, memory.context);
    expect(memory.stdout()).toBe('');
    expect(memory.stderr()).toMatch(
      /Compacted SQLite .*inbox\.sqlite: [\d.]+ MB before, [\d.]+ MB after; retention now gives space back as it goes\./,
    );
    expect(fileSize(directory)).toBeLessThan(2e6);
    expect(autoVacuumOf(directory)).toBe(2);
  });

  it('--compact refuses a PostgreSQL store, naming why, touching nothing', async () => {
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    const failure = (await inbox({ store: 'postgres://nobody@127.0.0.1:1/none', compact: true }, memory.context).catch(
      (error: unknown) => error,
    )) as Error & { exitCode: number };
    expect([failure.message, failure.exitCode]).toEqual([
      '--compact is for the SQLite inbox: PostgreSQL gives space back with its autovacuum.',
      2,
    ]);
    expect(memory.stdout()).toBe('');
  });
});
