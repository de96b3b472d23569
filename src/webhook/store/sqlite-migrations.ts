import type { SqliteDatabase } from './sqlite-database.js';
import { checkReadable, type InboxReader, type Migration, stepsAfter } from './schema-version.js';

/**
 * The SQLite inbox's schema, step by step; its version is the file's `PRAGMA user_version`. Version 1 is the
 * schema b2bctl 0.1.0 made, unversioned: `IF NOT EXISTS` lets the same step create a new inbox and adopt one of
 * that release (test/fixtures/inbox), which it leaves as it was.
 */
export const sqliteMigrations: readonly Migration[] = [
  {
    name: 'events, keys, hand-offs, dead letters, tokens and command runs of b2bctl 0.1.0',
    sql: `
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, received_at INTEGER NOT NULL,
  kind TEXT NOT NULL, delivery_id TEXT NOT NULL, key TEXT NOT NULL, flags TEXT NOT NULL,
  client_address TEXT NOT NULL, event TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_received ON events (received_at);
CREATE INDEX IF NOT EXISTS events_kind ON events (kind, received_at);
CREATE TABLE IF NOT EXISTS dedup (key TEXT PRIMARY KEY, received_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS dedup_received ON dedup (received_at);
CREATE TABLE IF NOT EXISTS handoffs (name TEXT PRIMARY KEY, target TEXT NOT NULL, position INTEGER NOT NULL,
  created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS dead (handoff TEXT NOT NULL, event_id INTEGER NOT NULL, error TEXT NOT NULL,
  attempts INTEGER NOT NULL, died_at INTEGER NOT NULL, retry INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (handoff, event_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS dead_event ON dead (event_id);
CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tokens_expiry ON tokens (expires_at);
CREATE TABLE IF NOT EXISTS token_key (id INTEGER PRIMARY KEY CHECK (id = 1), verifier TEXT NOT NULL, key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS command_runs (handoff TEXT NOT NULL, host TEXT NOT NULL,
  process_group BIGINT NOT NULL, event_id BIGINT NOT NULL, started_at BIGINT NOT NULL,
  PRIMARY KEY (handoff, host, process_group));`,
  },
  {
    name: 'the event each hand-off fails on, and since when',
    sql: `
ALTER TABLE handoffs ADD COLUMN failing_event INTEGER;
ALTER TABLE handoffs ADD COLUMN failing_since INTEGER;`,
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
CREATE TABLE IF NOT EXISTS scrubbed_secrets (fingerprint TEXT PRIMARY KEY, scrubbed_at INTEGER NOT NULL) WITHOUT ROWID;`,
  },
  {
    // A command's group is told from another process that has its number since (a reboot, a restarted container's
    // PID namespace) by its leader's start time, as the inbox lock tells a reused PID (lib/process-alive.ts).
    name: 'the start time of the leader of each running command group',
    sql: `
ALTER TABLE command_runs ADD COLUMN process_start TEXT;`,
  },
];

function versionOf(database: SqliteDatabase): number {
  return Number(database.pragma('user_version', { simple: true }));
}

/**
 * Brings the file to the newest version this code knows, in one write transaction: two processes opening it at
 * once take turns on SQLite's write lock, and the second finds nothing left to do. A command beside the receiver
 * (`reader`) changes nothing: it reads the file as it is, or refuses it; so does one that opened it `readOnly`.
 */
export function migrateSqlite(
  database: SqliteDatabase,
  description: string,
  options: { readOnly?: boolean; migrations?: readonly Migration[]; reader?: InboxReader } = {},
): void {
  const migrations = options.migrations ?? sqliteMigrations;
  // Checked before taking the write lock: an inbox already up to date costs its readers no lock.
  const found = versionOf(database);
  if (options.reader) return checkReadable(migrations, found, description, options.reader);
  if (stepsAfter(migrations, found, description).length === 0 || options.readOnly) return;
  database
    .transaction(() => {
      for (const step of stepsAfter(migrations, versionOf(database), description)) database.exec(step.sql);
      database.pragma(`user_version = ${migrations.length}`);
    })
    .immediate();
}
