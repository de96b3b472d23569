/** The SQL of kept tokens and of the token key, with `?` placeholders, for both stores (tables: *-migrations.ts). */

export const keepTokenStatement = 'INSERT INTO tokens (digest, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING';
export const expiredTokensDelete = 'DELETE FROM tokens WHERE expires_at < ?';
export const tokenExpiryQuery = 'SELECT expires_at FROM tokens WHERE digest = ? AND expires_at > ?';
export const tokenKeyQuery = 'SELECT verifier, key FROM token_key WHERE id = 1';
export const tokenKeyUpsert = `INSERT INTO token_key (id, verifier, key) VALUES (1, ?, ?)
  ON CONFLICT (id) DO UPDATE SET verifier = excluded.verifier, key = excluded.key`;
export const allTokensDelete = 'DELETE FROM tokens';
