import { redactSecrets } from '../../lib/secret-values.js';

/**
 * The passwords a PostgreSQL store's connections send, as far as b2bctl knows them before connecting: the URL's (in
 * its user-info or as `?password=`) and PGPASSWORD, which pg reads from the process's environment. The one pg found
 * in ~/.pgpass is known once a connection asked for it (sentPassword).
 */
export function knownStorePasswords(urlPassword: string, environment: NodeJS.ProcessEnv = process.env): string[] {
  return [urlPassword, environment.PGPASSWORD ?? ''].filter((password) => password !== '');
}

/** The password a pg connection sent (pg keeps the one it resolved, ~/.pgpass's too), when it is text. */
export function sentPassword(connection: { password?: unknown }): string | undefined {
  return typeof connection.password === 'string' && connection.password !== '' ? connection.password : undefined;
}

/**
 * `error` with every known password masked in what b2bctl may print of it: a server, pooler or proxy that quotes the
 * password it refused (`password authentication failed … (got "…")`) had it printed in clear in the store's error
 * line, the receiver's log and `--verbose`'s stack (a user test). Changed in place: the error is b2bctl's own (pg's
 * answer to this command) and is printed, never compared.
 */
export function maskedStoreError<T>(error: T, passwords: readonly string[]): T {
  if (passwords.length === 0 || error === null || typeof error !== 'object') return error;
  const fields = error as Record<string, unknown>;
  // pg's DatabaseError keeps the server's words in these besides its message; the stack was written from the message.
  for (const field of ['message', 'stack', 'detail', 'hint', 'where', 'internalQuery']) {
    const value = fields[field];
    if (typeof value === 'string') fields[field] = redactSecrets(value, passwords);
  }
  return error;
}
