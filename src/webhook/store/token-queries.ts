/**
 * The SQL of kept tokens and of the token key, with `?` placeholders, for both stores. Kept apart from the event
 * tables' SQL: a store created by an earlier version gets these tables at its next start.
 */

export const sqliteTokenSchema = `
CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tokens_expiry ON tokens (expires_at);
CREATE TABLE IF NOT EXISTS token_key (id INTEGER PRIMARY KEY CHECK (id = 1), verifier TEXT NOT NULL, key TEXT NOT NULL);`;

export const postgresTokenSchema = `
CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, expires_at BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS tokens_expiry ON tokens (expires_at);
CREATE TABLE IF NOT EXISTS token_key (id INTEGER PRIMARY KEY CHECK (id = 1), verifier TEXT NOT NULL, key TEXT NOT NULL);`;

export const keepTokenStatement = 'INSERT INTO tokens (digest, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING';
export const expiredTokensDelete = 'DELETE FROM tokens WHERE expires_at < ?';
export const tokenExpiryQuery = 'SELECT expires_at FROM tokens WHERE digest = ? AND expires_at > ?';
export const tokenKeyQuery = 'SELECT verifier, key FROM token_key WHERE id = 1';
export const tokenKeyUpsert = `INSERT INTO token_key (id, verifier, key) VALUES (1, ?, ?)
  ON CONFLICT (id) DO UPDATE SET verifier = excluded.verifier, key = excluded.key`;
export const allTokensDelete = 'DELETE FROM tokens';
