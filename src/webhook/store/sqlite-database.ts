import { existsSync } from 'node:fs';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

/**
 * The part of better-sqlite3's API the SQLite store uses, over Node's built-in `node:sqlite` (22.13 and later), so
 * installing b2bctl compiles nothing and the store's code reads as it did (docs/decisions/0017-node-sqlite.md).
 */

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/**
 * A prepared statement, as better-sqlite3's: positional values (null, numbers, big integers, text, bytes; anything
 * else is refused when bound, as better-sqlite3 refuses it), rows as plain objects.
 */
export interface Statement {
  run(...values: unknown[]): RunResult;
  get(...values: unknown[]): unknown;
  all(...values: unknown[]): unknown[];
  iterate(...values: unknown[]): IterableIterator<unknown>;
}

/** A function that runs in a transaction, as better-sqlite3's `transaction()` returns: BEGIN by default. */
export interface Transaction<Arguments extends unknown[], Result> {
  (...values: Arguments): Result;
  deferred(...values: Arguments): Result;
  immediate(...values: Arguments): Result;
  exclusive(...values: Arguments): Result;
}

export interface OpenOptions {
  /** Open for reading only; the file must exist. */
  readonly?: boolean;
  /** Fail instead of creating the file. */
  fileMustExist?: boolean;
}

type Begin = 'BEGIN' | 'BEGIN DEFERRED' | 'BEGIN IMMEDIATE' | 'BEGIN EXCLUSIVE';

/** How long a statement waits for another connection's lock before it fails. */
const busyTimeoutMs = 5000;

/** One SQLite connection with better-sqlite3's calls: prepare, exec, pragma, transaction, close. */
export class SqliteDatabase {
  /** Nested transactions become savepoints, numbered by depth, as better-sqlite3 does. */
  private depth = 0;
  private closed = false;

  private readonly connection: DatabaseSync;
  readonly name: string;
  private constructor(connection: DatabaseSync, name: string) {
    this.connection = connection;
    this.name = name;
  }

  /** Opens `file`; node:sqlite is loaded here, on the first open, since only the webhook store needs it. */
  static async open(file: string, options: OpenOptions = {}): Promise<SqliteDatabase> {
    const { DatabaseSync } = await import('node:sqlite');
    // node:sqlite creates a missing file unless it opens read-only; better-sqlite3's fileMustExist said so itself.
    if (options.fileMustExist && !options.readonly && !existsSync(file))
      throw Object.assign(new Error(`unable to open database file ${file}: no such file`), { code: 'SQLITE_CANTOPEN' });
    const connection = new DatabaseSync(file, { readOnly: options.readonly === true });
    // Waits for a lock from the first statement on, the journal-mode switch included: a reader opening the inbox
    // while a starting receiver creates its tables would otherwise fail at once with "database is locked".
    connection.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    return new SqliteDatabase(connection, file);
  }

  get open(): boolean {
    return !this.closed;
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  prepare(sql: string): Statement {
    return statementOf(this.connection.prepare(sql));
  }

  exec(sql: string): this {
    this.connection.exec(sql);
    return this;
  }

  /** `PRAGMA source`: its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const rows = this.connection.prepare(`PRAGMA ${source}`).all() as Record<string, unknown>[];
    if (!options.simple) return rows;
    const first = rows[0];
    return first === undefined ? undefined : Object.values(first)[0];
  }

  /** Wraps `body` so that each call runs in one transaction, rolled back if `body` throws. */
  transaction<Arguments extends unknown[], Result>(
    body: (...values: Arguments) => Result,
  ): Transaction<Arguments, Result> {
    const runIn =
      (begin: Begin) =>
      (...values: Arguments): Result =>
        this.inOneTransaction(begin, () => body(...values));
    return Object.assign(runIn('BEGIN'), {
      deferred: runIn('BEGIN DEFERRED'),
      immediate: runIn('BEGIN IMMEDIATE'),
      exclusive: runIn('BEGIN EXCLUSIVE'),
    });
  }

  close(): this {
    if (!this.closed) this.connection.close();
    this.closed = true;
    return this;
  }

  /** better-sqlite3's order: begin, the body, commit; on any failure (the commit's too) roll back, then rethrow. */
  private inOneTransaction<Result>(begin: Begin, body: () => Result): Result {
    // Inside a transaction already, a savepoint: an inner failure undoes only the inner work.
    const savepoint = this.depth > 0 ? `b2bctl_${this.depth}` : undefined;
    this.connection.exec(savepoint ? `SAVEPOINT ${savepoint}` : begin);
    this.depth++;
    try {
      const result = body();
      if (result instanceof Promise) throw new TypeError('A transaction function cannot return a promise.');
      this.connection.exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
      return result;
    } catch (error) {
      this.rollBack(savepoint);
      throw error;
    } finally {
      this.depth--;
    }
  }

  /** Undoes the failed work; a ROLLBACK that SQLite already did itself (a full disk, an I/O error) is not an error. */
  private rollBack(savepoint: string | undefined): void {
    try {
      this.connection.exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
    } catch {
      // no transaction left to undo: the body's own error is the one to report
    }
  }
}

/** better-sqlite3's statement shape over node:sqlite's, whose calls take the same positional values. */
function statementOf(statement: StatementSync): Statement {
  return {
    run: (...values) => {
      // Numbers unless the statement reads big integers, which the store never asks for.
      const { changes, lastInsertRowid } = statement.run(...(values as SQLInputValue[]));
      return { changes: Number(changes), lastInsertRowid };
    },
    get: (...values) => statement.get(...(values as SQLInputValue[])),
    all: (...values) => statement.all(...(values as SQLInputValue[])),
    iterate: (...values) => statement.iterate(...(values as SQLInputValue[])),
  };
}
