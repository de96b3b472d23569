import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type B2bctlError, ExitCode } from '../../../src/base/errors.js';
import { migratePostgres, postgresMigrations } from '../../../src/webhook/store/postgres-migrations.js';
import { PostgresStore } from '../../../src/webhook/store/postgres-store.js';
import { SqliteDatabase } from '../../../src/webhook/store/sqlite-database.js';
import { migrateSqlite, sqliteMigrations } from '../../../src/webhook/store/sqlite-migrations.js';
import { sqliteFileName, SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { EventStore } from '../../../src/webhook/store/types.js';
import { requireThat } from '../../support/external-tools.js';
import { createDatabase, postgresBin, startPostgres, type TestPostgres } from '../../support/postgres.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

// Inboxes written by b2bctl 0.1.0, which recorded no schema version (test/fixtures/inbox/README.md says what they
// hold), opened by this code: everything found again, and the version recorded.

const fixtures = new URL('../../fixtures/inbox/', import.meta.url);
const postgres = requireThat(
  postgresBin() !== undefined,
  'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
);
const opened: EventStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
afterAll(removeReceiverFolders);

/** A copy of the 0.1.0 inbox in a folder of its own: the fixture itself is never written. */
function fixtureInbox(): string {
  const directory = temporaryFolder();
  copyFileSync(new URL('v1/inbox.sqlite', fixtures), join(directory, sqliteFileName));
  return directory;
}

function sqliteQuery(directory: string, sql: string): Record<string, unknown>[] {
  const database = new DatabaseSync(join(directory, sqliteFileName));
  try {
    return database.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    database.close();
  }
}

/** The tables and indexes of a SQLite inbox as SQLite keeps their statements. */
function sqliteSchemaOf(directory: string): Record<string, unknown>[] {
  return sqliteQuery(
    directory,
    "SELECT type, name, sql FROM sqlite_master WHERE name <> 'sqlite_sequence' ORDER BY name",
  );
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The columns and indexes of a PostgreSQL store, its version table aside. */
function postgresSchemaOf(url: string) {
  return withClient(url, async (client) => ({
    columns: (
      await client.query(`SELECT table_name, column_name, data_type, is_nullable, column_default
            FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_version'
            ORDER BY table_name, ordinal_position`)
    ).rows,
    indexes: (
      await client.query(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'schema_version' ORDER BY indexname",
      )
    ).rows,
  }));
}

function postgresVersionOf(url: string) {
  return withClient(url, async (client) => (await client.query('SELECT version FROM schema_version')).rows);
}

/** What the migrated 0.1.0 inbox must hold, whichever the store. */
async function expectTheOldInbox(store: EventStore): Promise<void> {
  const events: [number, string, unknown][] = [];
  for await (const stored of store.select({}))
    events.push([stored.id, stored.kind, (stored.event as { id: number }).id]);
  expect(events).toEqual([
    [1, 'customers', 1],
    [2, 'customers', 2],
    [3, 'customers', 3],
    [4, 'customers', 4],
    [5, 'customers', 5],
    [6, 'orders', 6],
    [7, 'orders', 7],
  ]);
  expect(
    (await store.backlog()).map(({ name, pending, dead, oldestPendingAt }) => ({
      name,
      pending,
      dead,
      oldestPendingAt,
    })),
  ).toEqual([
    { name: 'archive', pending: 0, dead: 0, oldestPendingAt: undefined },
    { name: 'erp', pending: 2, dead: 1, oldestPendingAt: 1795858315098 },
  ]);
  expect(await store.deadLetters()).toEqual([
    {
      handOff: 'erp',
      eventId: 3,
      kind: 'customers',
      receivedAt: new Date(1795858309469).toISOString(),
      error: 'HTTP 422: {}',
      attempts: 1,
      diedAt: new Date(1795858312520).toISOString(),
      retry: false,
    },
  ]);
  // The hand-offs go on from their positions: erp with order 6, archive with nothing until a new event.
  expect((await store.nextForHandOff('erp'))?.id).toBe(6);
  expect(await store.nextForHandOff('archive')).toBeUndefined();
  expect(await store.openHandOff('erp', 'http://127.0.0.1:36147/hooks', false)).toEqual({ created: false });
  // A new event takes the next id, and a redelivery of an old one is still recognised.
  expect(
    await store.append({
      receivedAt: 1795858400000,
      kind: 'orders',
      deliveryId: 'new',
      key: 'orders:8:2026-11-27T10:00:00Z',
      flags: [],
      clientAddress: '127.0.0.1',
      raw: '{"id":8}',
    }),
  ).toEqual({ stored: true });
  expect((await store.pendingForHandOff('archive', undefined, 10)).events.map((event) => event.id)).toEqual([8]);
}

/** Two hand-offs as version 2 kept them: one failing on event 6 since a time, one at rest. */
const version2HandOffs = [
  `INSERT INTO handoffs (name, target, position, created_at, failing_event, failing_since)
     VALUES ('erp', 'http://erp/hooks', 5, 1795858300000, 6, 1795858315098)`,
  "INSERT INTO handoffs (name, target, position, created_at) VALUES ('archive', 'exec cat', 7, 1795858300000)",
];

async function expectTheVersion2HandOffs(store: EventStore): Promise<void> {
  expect(await store.failingEvent('erp')).toEqual({ eventId: 6, since: 1795858315098, attempts: 1 });
  expect(await store.failingEvent('archive')).toBeUndefined();
}

describe('an inbox of b2bctl 0.1.0 (SQLite)', () => {
  it('opens after the migration with every event, hand-off position and dead letter, at the newest version', async () => {
    const directory = fixtureInbox();
    expect(sqliteQuery(directory, 'PRAGMA user_version')).toEqual([{ user_version: 0 }]);
    const store = await SqliteStore.open(directory);
    opened.push(store);
    expect(sqliteQuery(directory, 'PRAGMA user_version')).toEqual([{ user_version: sqliteMigrations.length }]);
    await expectTheOldInbox(store);
    // Its token key is still the one the old receiver signed with: the tokens it gave stay valid.
    const kept = await store.adoptTokenKey(
      () => true,
      () => ({ verifier: 'unused', key: 'unused' }),
    );
    expect(kept.revoked).toBe(false);
    expect(kept.key).not.toBe('unused');
  });

  it('has, as version 1, exactly the tables and indexes 0.1.0 made', async () => {
    const old = sqliteSchemaOf(fixtureInbox());
    const fresh = temporaryFolder();
    const database = await SqliteDatabase.open(join(fresh, sqliteFileName));
    try {
      migrateSqlite(database, 'test inbox', { migrations: sqliteMigrations.slice(0, 1) });
    } finally {
      database.close();
    }
    expect(sqliteSchemaOf(fresh)).toEqual(old);
    expect(old.map((row) => row.name)).toContain('command_runs');
  });

  it('keeps, from an inbox of version 2, the failing event with one failed try, so a restart counts on', async () => {
    const directory = temporaryFolder();
    const database = await SqliteDatabase.open(join(directory, sqliteFileName));
    try {
      migrateSqlite(database, 'test inbox', { migrations: sqliteMigrations.slice(0, 2) });
      for (const statement of version2HandOffs) database.exec(statement);
    } finally {
      database.close();
    }
    const store = await SqliteStore.open(directory);
    opened.push(store);
    expect(sqliteQuery(directory, 'PRAGMA user_version')).toEqual([{ user_version: sqliteMigrations.length }]);
    await expectTheVersion2HandOffs(store);
  });

  it('runs only the steps after the recorded version, all or none, and records the last', async () => {
    const directory = fixtureInbox();
    const database = await SqliteDatabase.open(join(directory, sqliteFileName));
    try {
      migrateSqlite(database, 'test inbox');
      const later = [...sqliteMigrations, { name: 'a second table', sql: 'CREATE TABLE later (id INTEGER)' }];
      const failing = [...later, { name: 'half done', sql: 'CREATE TABLE half (id INTEGER); SELECT * FROM missing' }];
      expect(() => migrateSqlite(database, 'test inbox', { migrations: failing })).toThrow(/no such table: missing/);
      // Nothing of the failed run stays: neither the step before it nor its first statement, nor a version.
      expect(database.pragma('user_version', { simple: true })).toBe(sqliteMigrations.length);
      expect(database.prepare("SELECT name FROM sqlite_master WHERE name IN ('later', 'half')").all()).toEqual([]);
      migrateSqlite(database, 'test inbox', { migrations: later });
      expect(database.pragma('user_version', { simple: true })).toBe(later.length);
      // A step done is not run again: the second one, run twice, would fail on its own table.
      expect(() => migrateSqlite(database, 'test inbox', { migrations: later })).not.toThrow();
    } finally {
      database.close();
    }
  });

  it('refuses an inbox newer than it knows, exit 75, naming both versions, and leaves it as it was', async () => {
    const directory = fixtureInbox();
    sqliteQuery(directory, 'PRAGMA user_version = 7');
    const before = readFileSync(join(directory, sqliteFileName));
    const failure = (await SqliteStore.open(directory).catch((error: unknown) => error)) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.interrupted);
    expect(failure.message).toBe(
      `The inbox SQLite ${join(directory, sqliteFileName)} has schema version 7; this b2bctl (0.0.0-test) knows versions up to ${sqliteMigrations.length}. Use the newer b2bctl that upgraded it.`,
    );
    expect(readFileSync(join(directory, sqliteFileName)).equals(before)).toBe(true);
    // A reader refuses it too: the newer tables may mean something else.
    await expect(SqliteStore.open(directory, {}, true)).rejects.toThrow(/has schema version 7/);
  });
});

describe(`a store of b2bctl 0.1.0 (PostgreSQL${postgres.note})`, () => {
  let cluster: TestPostgres | undefined;
  let databases = 0;
  beforeAll(async () => {
    if (!postgres.missing) cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  /** A database holding 0.1.0's tables and rows, as test/fixtures/inbox/postgres-v1.sql makes them. */
  async function oldStore(): Promise<string> {
    const url = await createDatabase(cluster as TestPostgres, `migration_${++databases}`);
    await withClient(url, (client) => client.query(readFileSync(new URL('postgres-v1.sql', fixtures), 'utf8')));
    return url;
  }

  it.skipIf(postgres.missing)('opens after the migration with everything in place, at the newest version', async () => {
    const url = await oldStore();
    const store = await PostgresStore.open(url);
    opened.push(store);
    expect(await postgresVersionOf(url)).toEqual([{ version: postgresMigrations.length }]);
    await expectTheOldInbox(store);
  });

  it.skipIf(postgres.missing)('has, as version 1, exactly the columns and indexes 0.1.0 made', async () => {
    const old = await postgresSchemaOf(await oldStore());
    const fresh = await createDatabase(cluster as TestPostgres, `migration_${++databases}`);
    await withClient(fresh, (client) => migratePostgres(client, 'test store', postgresMigrations.slice(0, 1)));
    expect(await postgresSchemaOf(fresh)).toEqual(old);
  });

  it.skipIf(postgres.missing)(
    'keeps, from a store of version 2, the failing event with one failed try, so a restart counts on',
    async () => {
      const url = await createDatabase(cluster as TestPostgres, `migration_${++databases}`);
      await withClient(url, async (client) => {
        await migratePostgres(client, 'test store', postgresMigrations.slice(0, 2));
        for (const statement of version2HandOffs) await client.query(statement);
      });
      const store = await PostgresStore.open(url);
      opened.push(store);
      expect(await postgresVersionOf(url)).toEqual([{ version: postgresMigrations.length }]);
      await expectTheVersion2HandOffs(store);
    },
  );

  it.skipIf(postgres.missing)('refuses a store newer than it knows, exit 75, naming both versions', async () => {
    const url = await oldStore();
    opened.push(await PostgresStore.open(url));
    await withClient(url, (client) => client.query('UPDATE schema_version SET version = 9'));
    const failure = (await PostgresStore.open(url).catch((error: unknown) => error)) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.interrupted);
    expect(failure.message).toMatch(
      new RegExp(
        `^The inbox PostgreSQL migration_\\d+@[^ ]+ has schema version 9; this b2bctl \\(0\\.0\\.0-test\\) knows versions up to ${postgresMigrations.length}\\. Use the newer b2bctl that upgraded it\\.$`,
      ),
    );
    expect(await postgresVersionOf(url)).toEqual([{ version: 9 }]);
  });
});
