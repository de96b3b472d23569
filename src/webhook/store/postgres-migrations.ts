import type pg from 'pg';
import { InputError } from '../../base/errors.js';
import { checkReadable, type InboxReader, type Migration, stepsAfter } from './schema-version.js';

/**
 * The PostgreSQL store's schema, step by step; its version is the one row of `schema_version`. Version 1 is the
 * schema b2bctl 0.1.0 made, unversioned: `IF NOT EXISTS` lets the same step create a new store and adopt one of
 * that release, which it leaves as it was.
 */
export const postgresMigrations: readonly Migration[] = [
  {
    name: 'events, keys, hand-offs, dead letters, tokens and command runs of b2bctl 0.1.0',
    sql: `
CREATE TABLE IF NOT EXISTS events (id BIGSERIAL PRIMARY KEY, received_at BIGINT NOT NULL, kind TEXT NOT NULL,
  delivery_id TEXT NOT NULL, key TEXT NOT NULL, flags TEXT NOT NULL, client_address TEXT NOT NULL, event TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_received ON events (received_at, id);
CREATE INDEX IF NOT EXISTS events_kind ON events (kind, received_at, id);
CREATE TABLE IF NOT EXISTS dedup (key TEXT PRIMARY KEY, received_at BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS dedup_received ON dedup (received_at);
CREATE TABLE IF NOT EXISTS handoffs (name TEXT PRIMARY KEY, target TEXT NOT NULL, position BIGINT NOT NULL,
  created_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS dead (handoff TEXT NOT NULL, event_id BIGINT NOT NULL, error TEXT NOT NULL,
  attempts INTEGER NOT NULL, died_at BIGINT NOT NULL, retry SMALLINT NOT NULL DEFAULT 0,
  PRIMARY KEY (handoff, event_id));
CREATE INDEX IF NOT EXISTS dead_event ON dead (event_id);
CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, expires_at BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS tokens_expiry ON tokens (expires_at);
CREATE TABLE IF NOT EXISTS token_key (id INTEGER PRIMARY KEY CHECK (id = 1), verifier TEXT NOT NULL, key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS command_runs (handoff TEXT NOT NULL, host TEXT NOT NULL,
  process_group BIGINT NOT NULL, event_id BIGINT NOT NULL, started_at BIGINT NOT NULL,
  PRIMARY KEY (handoff, host, process_group));`,
  },
  {
    name: 'the event each hand-off fails on, and since when',
    sql: `
ALTER TABLE handoffs ADD COLUMN failing_event BIGINT, ADD COLUMN failing_since BIGINT;`,
  },
  {
    // A failing event kept by version 2 has had one failed try at least: a restart counts on from there.
    name: 'how many tries of that event failed',
    sql: `
ALTER TABLE handoffs ADD COLUMN failing_attempts INTEGER;
UPDATE handoffs SET failing_attempts = 1 WHERE failing_event IS NOT NULL;`,
  },
  {
    // Earlier builds kept the ERP's echo of its forward credential in dead letters: masked once per credential,
    // remembered by an HMAC under this inbox's own random key (dead-letter-scrub.ts), never the credential itself.
    name: 'the key and fingerprints of forward credentials masked in kept dead letters',
    sql: `
CREATE TABLE IF NOT EXISTS scrub_key (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS scrubbed_secrets (fingerprint TEXT PRIMARY KEY, scrubbed_at BIGINT NOT NULL);`,
  },
  {
    // A command's group is told from another process that has its number since (a reboot, a restarted container's
    // PID namespace) by its leader's start time, as the inbox lock tells a reused PID (lib/process-alive.ts).
    name: 'the start time of the leader of each running command group',
    sql: `
ALTER TABLE command_runs ADD COLUMN process_start TEXT;`,
  },
];

/** Where the version is kept: one row, created before any step (a store of 0.1.0 has no such table). */
const versionTable = `CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL)`;

/** The advisory lock under which receivers create and migrate the tables, one at a time. */
export const schemaLock = 0x62326201;

/**
 * Brings the store to the newest version this code knows, in one transaction under the schema lock: receivers
 * starting together take turns, and the later ones find nothing left to do.
 */
export async function migratePostgres(
  client: pg.ClientBase,
  description: string,
  migrations: readonly Migration[] = postgresMigrations,
): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [schemaLock]);
    // Asked first, not created "if not exists": PostgreSQL checks the right to create in the schema before it looks
    // for the table, so a role that may only read (one `webhook dead list` or `inbox` runs as) could not open the store.
    const present = await client.query<{ found: boolean }>("SELECT to_regclass('schema_version') IS NOT NULL AS found");
    if (present.rows[0]?.found !== true) await client.query(versionTable);
    const row = (await client.query<{ version: number }>('SELECT version FROM schema_version WHERE id = 1')).rows[0];
    const steps = stepsAfter(migrations, row?.version ?? 0, description);
    for (const step of steps) await client.query(step.sql);
    if (steps.length > 0)
      await client.query(
        'INSERT INTO schema_version (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version',
        [migrations.length],
      );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * For a command beside the receivers: the store's version read without the schema lock and without a write, then
 * checked (schema-version.ts). A receiver migrating meanwhile commits after this reads: the reader sees the version
 * before, as it sees the tables before. A database no receiver has started on holds no inbox: said, nothing made.
 */
export async function checkPostgresReadable(
  client: pg.ClientBase,
  description: string,
  reader: InboxReader,
  migrations: readonly Migration[] = postgresMigrations,
): Promise<void> {
  const tables = await client.query<{ versioned: boolean; events: boolean }>(
    "SELECT to_regclass('schema_version') IS NOT NULL AS versioned, to_regclass('events') IS NOT NULL AS events",
  );
  const { versioned, events } = tables.rows[0] ?? { versioned: false, events: false };
  if (!versioned && !events)
    throw new InputError(
      `${description} holds no inbox: no receiver has started on it. Check --store, or start webhook listen --store on it first.`,
      { missing: true },
    );
  const row = versioned
    ? (await client.query<{ version: number }>('SELECT version FROM schema_version WHERE id = 1')).rows[0]
    : undefined;
  checkReadable(migrations, row?.version ?? 0, description, reader);
}
