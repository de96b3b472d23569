import { chmodSync, closeSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../base/clock.js';
import { B2bctlError, ExitCode, UsageError } from '../../base/errors.js';
import { coreWaitClock } from '../../lib/core-waits.js';
import { specialFileKind, userName } from '../../lib/file-owners.js';
import { lstatOrUndefined } from '../../lib/file-status.js';
import { createFileExclusively, makePrivateFolder, privateFileMode } from '../../lib/private-file.js';
import { shellWord } from '../../lib/shell-word.js';
import { GroupCommit } from './group-commit.js';
import {
  type CommandRunRow,
  deadLetterUpsert,
  forgetRunDelete,
  recordedRunsQuery,
  recordRunInsert,
  type DeadRow,
  deadLettersQuery,
  type EventRow,
  eventsAfterPositionQuery,
  eventsAfterQuery,
  nextEventQuery,
  pagedSelection,
  retriedEventQuery,
  retriedEventsQuery,
  storedEventOf,
  handOffDeadDelete,
  handOffDelete,
  handOffExistsQuery,
  handOffRunQuery,
  failingClear,
  failingQuery,
  failingRecord,
  type FailingRow,
} from './queries.js';
import { backlogOf, backlogStatements } from './backlog-queries.js';
import { IntakeActivity, pruneInSlices } from './prune-slices.js';
import { compactFile, reclaimFreePages } from './sqlite-space.js';
import { commandRunOf, deadLetterOf, failingEventOf, idList } from './rows.js';
import { SqliteDatabase, type Statement } from './sqlite-database.js';
import { migrateSqlite } from './sqlite-migrations.js';
import { SqliteWriter, type WriteStatement } from './sqlite-writer.js';
import {
  deadLetterMaskStatement,
  deadLetterMaskValues,
  deadLetterScan,
  scrubbedQuery,
  scrubbedUpsert,
  scrubKeyInsert,
  scrubKeyQuery,
} from './scrub-queries.js';
import {
  allTokensDelete,
  expiredTokensDelete,
  keepTokenStatement,
  tokenExpiryQuery,
  tokenKeyQuery,
  tokenKeyUpsert,
} from './token-queries.js';
import type {
  CommandRun,
  DeadLetter,
  DeadLetterMasked,
  DeadLetterMasking,
  EventSelection,
  EventStore,
  FailingEvent,
  HandOffBacklog,
  HandOffDrop,
  HandOffOpening,
  NewEvent,
  Pruned,
  SpaceReport,
  StoredEvent,
  StoreOptions,
  StoreTiming,
  TokenKeyRecord,
} from './types.js';
import { printable } from '../../lib/printable.js';

export const sqliteFileName = 'inbox.sqlite';

/**
 * The inbox in one SQLite file: WAL with synchronous=FULL, so a commit is on disk when it returns. The receiver
 * holds the folder's lock (store/open.ts); readers (`webhook inbox`, `status`) read beside it through WAL.
 */
export class SqliteStore implements EventStore {
  readonly description: string;
  private readonly commits: GroupCommit<NewEvent, { stored: boolean }>;
  /** When this store last took an event: its maintenance rests between slices while intake goes on. */
  private readonly intake = new IntakeActivity();
  private readonly listeners = new Set<() => void>();
  /** Runs this store's writes off the receiver's thread (sqlite-writer.ts); started by the first of them. */
  private writer: SqliteWriter | undefined;
  private tokensSweptAt = 0;
  private readonly now: () => number;
  /** The statements a running receiver reads with on every request or delivery, prepared once (get and all only). */
  private readonly statements = new Map<string, Statement>();

  private readonly database: SqliteDatabase;
  private readonly file: string;
  private readonly readOnly: boolean;
  private constructor(database: SqliteDatabase, file: string, options: StoreOptions, readOnly: boolean) {
    this.database = database;
    this.file = file;
    this.readOnly = readOnly;

    this.description = descriptionOf(file);
    this.now = options.now ?? systemClock.now;
    this.commits = new GroupCommit(async (events) => {
      const stored = await this.writerOrFail().append(events);
      if (stored.includes(true)) for (const listener of this.listeners) listener();
      return stored.map((each) => ({ stored: each }));
    }, options.groupCommit === false);
  }

  /** Opens (creating) the store in `directory`. The caller holds the folder's lock when it writes. */
  static async open(directory: string, options: StoreOptions = {}, readOnly = false): Promise<SqliteStore> {
    const file = join(directory, sqliteFileName);
    if (!readOnly) createPrivateDatabaseFile(directory, file);
    refuseAnythingButFiles(file);
    const database = await SqliteDatabase.open(file, { fileMustExist: readOnly });
    try {
      // Only a new file takes it (before its first table); an older inbox switches with webhook inbox --compact.
      // Asked of a new file only: on any other it would still write the file's header at every open.
      if (!readOnly && isEmpty(database)) database.pragma('auto_vacuum = INCREMENTAL');
      database.pragma('journal_mode = WAL');
      if (!readOnly) tightenDatabaseFiles(file);
      database.pragma('synchronous = FULL');
      migrateSqlite(database, descriptionOf(file), { readOnly, reader: options.reader });
    } catch (error) {
      database.close();
      throw damagedDatabase(error, file) ?? error;
    }
    return new SqliteStore(database, file, options, readOnly);
  }

  append(event: NewEvent): Promise<{ stored: boolean }> {
    this.intake.appended();
    return this.commits.submit(event);
  }

  select(selection: EventSelection): AsyncIterable<StoredEvent> {
    return pagedSelection(selection, async (sql, values) => this.database.prepare(sql).all(...values) as EventRow[]);
  }

  async openHandOff(name: string, target: string, fromStart: boolean): Promise<HandOffOpening> {
    const existing = this.database.prepare('SELECT target FROM handoffs WHERE name = ?').get(name) as
      { target: string } | undefined;
    // Written by the writer thread: the receiver takes events already, and its thread must not meet that lock.
    if (existing) {
      if (existing.target === target) return { created: false };
      await this.writerOrFail().run([['UPDATE handoffs SET target = ? WHERE name = ?', [target, name]]]);
      return { created: false, previousTarget: existing.target };
    }
    // The position is read by the statement that writes it, in line with intake's commits.
    const position = fromStart ? '0' : '(SELECT coalesce(max(id), 0) FROM events)';
    await this.writerOrFail().run([
      [
        `INSERT INTO handoffs (name, target, position, created_at) VALUES (?, ?, ${position}, ?)`,
        [name, target, this.now()],
      ],
    ]);
    return { created: true };
  }

  async dropHandOff(name: string): Promise<HandOffDrop> {
    if (this.prepared(handOffExistsQuery).get(name) === undefined) return 'unknown';
    if (this.prepared(handOffRunQuery).get(name) !== undefined) return 'command recorded';
    await this.writerOrFail().run([
      [handOffDeadDelete, [name]],
      [handOffDelete, [name]],
    ]);
    return 'dropped';
  }

  async nextForHandOff(name: string): Promise<StoredEvent | undefined> {
    const row = (this.database.prepare(retriedEventQuery).get(name) ??
      this.database.prepare(nextEventQuery).get(name)) as EventRow | undefined;
    return row ? storedEventOf(row) : undefined;
  }

  async pendingForHandOff(name: string, after: number | undefined, limit: number) {
    const retried = this.prepared(retriedEventsQuery).all(name, limit) as EventRow[];
    if (retried.length > 0) return { events: retried.map(storedEventOf), retried: true };
    const rows = (
      after === undefined
        ? this.prepared(eventsAfterPositionQuery).all(name, limit)
        : this.prepared(eventsAfterQuery).all(after, limit)
    ) as EventRow[];
    return { events: rows.map(storedEventOf), retried: false };
  }

  async markDelivered(name: string, events: StoredEvent | StoredEvent[]): Promise<void> {
    const ids = (Array.isArray(events) ? events : [events]).map((event) => event.id);
    await this.writerOrFail().run([
      [`DELETE FROM dead WHERE handoff = ? AND event_id IN (${idList(ids)})`, [name, ...ids]],
      ['UPDATE handoffs SET position = max(position, ?) WHERE name = ?', [Math.max(...ids), name]],
      [`${failingClear} IN (${idList(ids)})`, [name, ...ids]],
    ]);
  }

  async markDead(name: string, event: StoredEvent, error: string, attempts: number): Promise<void> {
    await this.writerOrFail().run([
      [deadLetterUpsert, [name, event.id, error, attempts, this.now()]],
      ['UPDATE handoffs SET position = max(position, ?) WHERE name = ?', [event.id, name]],
      [`${failingClear} = ?`, [name, event.id]],
    ]);
  }

  async recordFailing(name: string, eventId: number, since: number, attempts: number): Promise<void> {
    await this.writerOrFail().run([[failingRecord, [eventId, since, attempts, name]]]);
  }

  async failingEvent(name: string): Promise<FailingEvent | undefined> {
    return failingEventOf(this.prepared(failingQuery).get(name) as FailingRow | undefined);
  }

  async deadLetters(handOff?: string): Promise<DeadLetter[]> {
    const rows = this.database
      .prepare(`${deadLettersQuery}${handOff ? ' WHERE d.handoff = ?' : ''} ORDER BY d.event_id, d.handoff`)
      .all(...(handOff ? [handOff] : [])) as DeadRow[];
    return rows.map(deadLetterOf);
  }

  async retryDead(ids: number[], handOff?: string): Promise<number> {
    return this.changeDead('UPDATE dead SET retry = 1', ids, handOff);
  }

  async dropDead(ids: number[], handOff?: string): Promise<number> {
    return this.changeDead('DELETE FROM dead', ids, handOff);
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async backlog(timing?: StoreTiming): Promise<HandOffBacklog[]> {
    // Each statement timed where it runs: between them the awaits let the receiver's other work in.
    const clock = timing === undefined ? undefined : coreWaitClock();
    const timed = <T>(run: () => T): T => {
      if (timing === undefined) return run();
      const waited = clock?.waitedMs();
      const started = performance.now();
      try {
        return run();
      } finally {
        timing.workMs += performance.now() - started;
        if (clock !== undefined && waited !== undefined)
          timing.coreWaitMs = (timing.coreWaitMs ?? 0) + clock.waitedMs() - waited;
      }
    };
    return backlogOf(
      async (sql, values) => timed(() => this.prepared(sql).get(...values) as Record<string, unknown> | undefined),
      async (sql, values) => timed(() => this.prepared(sql).all(...values) as Record<string, unknown>[]),
    );
  }

  async newestId(): Promise<number> {
    const row = this.prepared(backlogStatements.newestId).get() as Record<string, unknown> | undefined;
    return Number(row?.newest ?? 0);
  }

  async prune(eventsBefore: number | undefined, keysBefore: number, signal?: AbortSignal): Promise<Pruned> {
    return pruneInSlices(
      {
        rows: async (sql, values) => this.database.prepare(sql).all(...values) as Record<string, unknown>[],
        // Through the writer thread, in line with intake's commits: two connections writing at once would meet
        // in SQLite's busy handler, whose sleeps (1 ms growing to 100 ms) held both for tens of milliseconds. A
        // slice lost to a power cut is removed again by the next pass: no fsync of its own.
        changes: async (sql, values) =>
          (await this.writerOrFail().run([[sql, values as WriteStatement[1]]], false))[0] ?? 0,
      },
      eventsBefore,
      keysBefore,
      { signal, busy: this.intake.busy },
    );
  }

  reclaimSpace(signal?: AbortSignal): Promise<SpaceReport> {
    const writer = this.writerOrFail();
    return reclaimFreePages((source, durable) => writer.pragma(source, durable), this.file, {
      signal,
      busy: this.intake.busy,
    });
  }

  async compact(): Promise<{ before: number; after: number }> {
    return compactFile(this.database, this.file);
  }

  async shareToken(digest: string, expiresAt: number, keptExpiredMs: number): Promise<void> {
    const now = this.now();
    const statements: WriteStatement[] = [];
    // Expired tokens go at most once a minute: a platform that asks a token per event adds a row each time.
    if (now - this.tokensSweptAt >= 60_000) {
      this.tokensSweptAt = now;
      statements.push([expiredTokensDelete, [now - keptExpiredMs]]);
    }
    statements.push([keepTokenStatement, [digest, expiresAt]]);
    await this.writerOrFail().run(statements);
  }

  async tokenExpiry(digest: string, after: number): Promise<number | undefined> {
    const row = this.prepared(tokenExpiryQuery).get(digest, after) as { expires_at: number } | undefined;
    return row === undefined ? undefined : Number(row.expires_at);
  }

  async adoptTokenKey(
    matches: (verifier: string) => boolean,
    fresh: () => TokenKeyRecord,
  ): Promise<{ key: string; revoked: boolean }> {
    const adopt = this.database.transaction(() => {
      const kept = this.database.prepare(tokenKeyQuery).get() as TokenKeyRecord | undefined;
      if (kept !== undefined && matches(kept.verifier)) return { key: kept.key, revoked: false };
      const record = fresh();
      this.database.prepare(tokenKeyUpsert).run(record.verifier, record.key);
      this.database.prepare(allTokensDelete).run();
      return { key: record.key, revoked: kept !== undefined };
    });
    return adopt.immediate();
  }

  async maskInDeadLetters(masking: DeadLetterMasking): Promise<DeadLetterMasked> {
    const mask = this.database.transaction((): DeadLetterMasked => {
      this.database.prepare(scrubKeyInsert).run(masking.freshKey());
      const { key } = this.database.prepare(scrubKeyQuery).get() as { key: string };
      const rows = this.database.prepare(scrubbedQuery).all() as { fingerprint: string; scrubbed_at: number }[];
      const scan = deadLetterScan(masking, key, new Map(rows.map((row) => [row.fingerprint, Number(row.scrubbed_at)])));
      const { changes } = this.database
        .prepare(deadLetterMaskStatement(scan))
        .run(...deadLetterMaskValues(scan, masking.mask));
      const record = this.database.prepare(scrubbedUpsert);
      const now = this.now();
      for (const form of scan.forms) record.run(masking.fingerprint(key, form), now);
      return { scanned: scan.fresh, changed: Number(changes) };
    });
    return mask.immediate();
  }

  async claimHandOff(): Promise<boolean> {
    return true; // the folder's lock already makes this receiver the only one
  }

  async recordRun(run: CommandRun): Promise<void> {
    const { handOff, host, processGroup, eventId, startedAt, processStart = null } = run;
    await this.writerOrFail().run([[recordRunInsert, [handOff, host, processGroup, eventId, startedAt, processStart]]]);
  }

  async forgetRun(handOff: string, host: string, processGroup: number): Promise<void> {
    await this.writerOrFail().run([[forgetRunDelete, [handOff, host, processGroup]]]);
  }

  async recordedRuns(handOff: string, host: string): Promise<CommandRun[]> {
    return (this.database.prepare(recordedRunsQuery).all(handOff, host) as CommandRunRow[]).map(commandRunOf);
  }

  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.commits.settled();
    await this.writer?.close();
    this.database.close();
  }

  /** Bulk insert in one transaction, events and their keys (tests and benchmarks build large stores with it). */
  insertMany(events: Iterable<NewEvent>): void {
    const insert = this.database.prepare(
      'INSERT INTO events (received_at, kind, delivery_id, key, flags, client_address, event) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertKey = this.database.prepare('INSERT OR IGNORE INTO dedup (key, received_at) VALUES (?, ?)');
    this.database.transaction(() => {
      for (const e of events) {
        insert.run(e.receivedAt, e.kind, e.deliveryId, e.key, JSON.stringify(e.flags), e.clientAddress, e.raw);
        insertKey.run(e.key, e.receivedAt);
      }
    })();
  }

  /** The writer thread, started on the first write: readers (`webhook status`) start none. */
  private writerOrFail(): SqliteWriter {
    if (this.readOnly) throw new Error(`${this.file} is open for reading only`);
    if (!this.database.open) throw new Error(`${this.file} is closed`);
    this.writer ??= SqliteWriter.start(this.file);
    return this.writer;
  }

  private changeDead(statement: string, ids: number[], handOff?: string): number {
    const where = `WHERE event_id IN (${idList(ids)})${handOff ? ' AND handoff = ?' : ''}`;
    return this.database.prepare(`${statement} ${where}`).run(...ids, ...(handOff ? [handOff] : [])).changes;
  }
}

/** SQLite's result codes for a file that is no database, or one whose pages do not hold together. */
const sqliteCorrupt = 11;
const sqliteNotADatabase = 26;

/**
 * A database file SQLite finds damaged (cut short by a half-copied backup, overwritten), said as such, naming the
 * file and SQLite's reason, exit 65 (data that is not valid); undefined for any other error. It read as a folder
 * that could not be opened, with advice to choose another (an empty inbox, the stored events, pending hand-offs and
 * dead letters left behind without a word), or as SQLite's bare message with exit 1 (a user test).
 */
function damagedDatabase(error: unknown, file: string): B2bctlError | undefined {
  const { errcode, errstr } = (error ?? {}) as { errcode?: unknown; errstr?: unknown };
  if (typeof errcode !== 'number') return undefined;
  const primary = errcode & 0xff;
  if (primary !== sqliteCorrupt && primary !== sqliteNotADatabase) return undefined;
  const reason = typeof errstr === 'string' ? errstr : (error as Error).message;
  return new B2bctlError(
    `The inbox database ${printable(file)} is damaged (SQLite: ${reason}); nothing was read or stored. Stop every receiver of it, keep a copy of the file, then recover it (sqlite3 ${shellWord(file)} .recover | sqlite3 recovered.sqlite, and put recovered.sqlite in its place) or restore a backup. Moving it aside or choosing another --inbox starts an empty inbox: its events not yet handed off and its dead letters would be left behind.`,
    ExitCode.dataInvalid,
    { cause: error },
  );
}

function isEmpty(database: SqliteDatabase): boolean {
  return database.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get() === undefined;
}

function descriptionOf(file: string): string {
  return `SQLite ${printable(file)}`;
}

/**
 * The inbox holds customers' orders: its file is created by b2bctl, 0600 whatever the umask and whether the folder
 * existed (SQLite gives its -wal and -shm the database file's mode), and never opened through a planted link.
 */
function createPrivateDatabaseFile(directory: string, file: string): void {
  makePrivateFolder(directory);
  try {
    closeSync(createFileExclusively(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * SQLite opens the inbox, its -wal and its -shm with O_NOFOLLOW, so a link planted at one of them (in a folder others
 * may write) is never written through, but it fails with a bare ERR_SQLITE_ERROR; a FIFO there would hold the open.
 * Each is said by name instead, with what to do. A link is refused whoever owns it, as a linked orders cursor is
 * (exit 77, its owner named when it is another user's): the events read, replayed or dropped would be whichever
 * inbox it points at.
 */
function refuseAnythingButFiles(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    const found = lstatOrUndefined(path);
    if (found === undefined || found.isFile()) continue;
    const remedy = `b2bctl keeps its inbox only in files of its own. Remove it (rm ${shellWord(path)}), or pass another --inbox.`;
    if (found.isSymbolicLink())
      throw new B2bctlError(
        `${printable(path)} is a symbolic link${linkOwner(found.uid)}; ${remedy}`,
        ExitCode.authFailed,
      );
    throw new UsageError(`${printable(path)} is ${specialFileKind(found)}, not a file; ${remedy}`);
  }
}

/** ` that belongs to nobody (uid 65534)` for another user's link; nothing for one of this user's. */
function linkOwner(uid: number): string {
  const me = process.getuid?.();
  return me === undefined || uid === me ? '' : ` that belongs to ${userName(uid)}`;
}

/** An inbox made before its files were private (or by a SQLite that did not copy the mode) is tightened at start. */
function tightenDatabaseFiles(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((lstatSync(path).mode & 0o777) !== privateFileMode && !lstatSync(path).isSymbolicLink())
        chmodSync(path, privateFileMode);
    } catch (error) {
      // Not there (no WAL yet), or another user's file (the inbox's owner keeps its mode).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'EPERM')
        throw error;
    }
  }
}
