import { Socket } from 'node:net';
import type pg from 'pg';
import { systemClock } from '../../base/clock.js';
import { GroupCommit } from './group-commit.js';
import { checkPostgresReadable, migratePostgres } from './postgres-migrations.js';
import { B2bctlError } from '../../base/errors.js';
import { openingLimitMs, placeOf, StoreOpeningError, withinOpeningLimit } from './postgres-opening.js';
import { storeUrlParts } from './postgres-url.js';
import { knownStorePasswords, maskedStoreError, sentPassword } from './postgres-secrets.js';
import { pgConnectionOf } from './postgres-tls.js';
import { defaultStatementLimitMs, keepAliveAfterMs, StatementLimits } from './postgres-statements.js';
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
import { commandRunOf, deadLetterOf, failingEventOf, idList } from './rows.js';
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
  StoreTiming,
  HandOffDrop,
  HandOffOpening,
  NewEvent,
  Pruned,
  StoredEvent,
  StoreOptions,
  TokenKeyRecord,
} from './types.js';

// Advisory lock keys (the schema's, 0x62326201, is postgres-migrations.ts's): appends (ids are then given in
// commit order, see append) and the token key.
const appendLock = 0x62326202;
const tokenKeyLock = 0x62326203;
/** The advisory lock under which dead letters are masked (maskInDeadLetters). */
const scrubLock = 0x62326204;

// One statement per batch: keys first (a key already there, from this or another receiver, stores nothing; nor does
// the key an earlier b2bctl gave the same event, `former_key`, while the inbox keeps it).
const appendBatch = `WITH input AS (
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
    WITH ORDINALITY AS t (received_at, kind, delivery_id, key, flags, client_address, event, former_key, n)),
fresh AS (INSERT INTO dedup (key, received_at) SELECT key, received_at FROM input i
  WHERE i.former_key IS NULL OR NOT EXISTS (SELECT 1 FROM dedup d WHERE d.key = i.former_key)
  ON CONFLICT DO NOTHING RETURNING key)
INSERT INTO events (received_at, kind, delivery_id, key, flags, client_address, event)
SELECT i.received_at, i.kind, i.delivery_id, i.key, i.flags, i.client_address, i.event
  FROM input i JOIN fresh f ON f.key = i.key ORDER BY i.n RETURNING key`;

/**
 * A connection lost while held fails its statement, and pg also emits it as an error event: unheard, it would end
 * the process (pg's own pool.query listens the same way).
 */
function heardThroughStatement(): void {}

/**
 * pg's Client, listened to from its making: a connection lost at any moment (a database restart while the tables
 * are being created, before a session is watched, while the pool hands a connection over) is heard through the
 * statement it fails and the store's own watch, never as an unheard error event that ends the receiver with a stack
 * trace. Every connection of the store is one: the pool's, the lock session and the one it is opened again on.
 */
function listenedClient(postgres: typeof pg): typeof pg.Client {
  return class ListenedClient extends postgres.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', heardThroughStatement);
    }
  };
}

/** `?` placeholders (shared SQL) as PostgreSQL's `$1, $2, ...`. */
function positional(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

/**
 * The inbox in a PostgreSQL database shared by several receivers: the key's uniqueness stores an event once
 * whichever receiver got it; a session advisory lock per hand-off makes one receiver its deliverer.
 */
export class PostgresStore implements EventStore {
  readonly description: string;
  private readonly commits: GroupCommit<NewEvent, { stored: boolean }>;
  /** When this store last took an event: its maintenance rests between slices while intake goes on. */
  private readonly intake = new IntakeActivity();
  private readonly listeners = new Set<() => void>();
  private readonly claimed = new Set<string>();
  private readonly now: () => number;
  /** Every connection's socket, while open. */
  private readonly sockets: Set<Socket>;
  /** The session holding the hand-offs' advisory locks; undefined once lost, then opened again at the next claim. */
  private lockSession: pg.Client | undefined;
  /** The new lock session being opened, while it is. */
  private reopening: Promise<pg.Client> | undefined;

  private readonly pool: pg.Pool;
  private readonly limits: StatementLimits;
  private readonly newSession: () => pg.Client;
  private constructor(
    pool: pg.Pool,
    lockSession: pg.Client,
    limits: StatementLimits,
    newSession: () => pg.Client,
    options: StoreOptions & { description: string; sockets: Set<Socket> },
  ) {
    this.pool = pool;
    this.limits = limits;
    this.newSession = newSession;

    this.sockets = options.sockets;
    this.lockSession = lockSession;
    this.watchLockSession(lockSession);
    // A spare connection of the pool that breaks (keepalive found the database gone) is dropped by the pool; without
    // a listener its error would end the process.
    pool.on('error', () => undefined);
    this.description = options.description;
    this.now = options.now ?? systemClock.now;
    this.commits = new GroupCommit((events) => this.commitBatch(events), options.groupCommit === false);
  }

  /**
   * Connects, creating or migrating the tables once (two receivers starting together do not race; a command beside
   * the receivers, `options.reader`, only checks their version), within the
   * opening time limit (postgres-opening.ts) and until the command's interrupt: a database that takes the connection
   * and never answers no longer holds the command for ever, deaf to SIGTERM.
   */
  static async open(url: string, options: StoreOptions = {}): Promise<PostgresStore> {
    const limitMs = openingLimitMs(url);
    const statementLimitMs = options.statementLimitMs ?? defaultStatementLimitMs;
    const { default: postgres } = await import('pg');
    // Every connection: keepalive notices a database that is gone while the connection is idle, and the database's
    // own statement_timeout ends work whose client has given up on it (postgres-statements.ts gives up client-side).
    // TLS with the certificate checked (verify-full) to another machine when the URL and PGSSLMODE say nothing, and
    // the host, TLS and password decided from the command's environment, not pg's reading of the process's
    // (postgres-tls.ts).
    const connection = {
      ...pgConnectionOf(url, options.reach),
      keepAlive: true,
      keepAliveInitialDelayMillis: keepAliveAfterMs,
      statement_timeout: statementLimitMs,
    };
    // Each connection's socket is made here, so that closing after the database stopped answering can drop it.
    const sockets = new Set<Socket>();
    const stream = () => {
      const made = new Socket();
      sockets.add(made);
      made.once('close', () => sockets.delete(made));
      return made;
    };
    const Client = listenedClient(postgres);
    const pool = new postgres.Pool({ ...connection, stream, max: 8, connectionTimeoutMillis: limitMs ?? 0, Client });
    // The session's socket is made here so that a stop can destroy it: pg offers no way to drop a connection that
    // is still starting, and its end() waits for the database to answer its goodbye.
    const socket = stream();
    const lockSession = new Client({ ...connection, stream: () => socket });
    const parsed = storeUrlParts(url, 'The store URL');
    // Every error of the store is masked with these before anyone prints it; the ~/.pgpass one joins once sent.
    const passwords = knownStorePasswords(
      parsed.password,
      options.reach ? { PGPASSWORD: options.reach.environmentPassword } : process.env,
    );
    const description = `PostgreSQL ${parsed.database}@${parsed.host || 'localhost'}`;
    const session = { socket, host: lockSession.host, port: lockSession.port };
    const limits = new StatementLimits({
      place: placeOf(session),
      limitMs: statementLimitMs,
      interrupt: options.interrupt,
      graceMs: options.interruptGraceMs,
      passwords,
    });
    const newSession = () => new Client({ ...connection, stream, connectionTimeoutMillis: limitMs ?? 0 });
    try {
      await withinOpeningLimit(session, { limitMs, interrupt: options.interrupt }, async () => {
        await lockSession.connect();
        if (options.reader) await checkPostgresReadable(lockSession, description, options.reader);
        else await migratePostgres(lockSession, description);
      });
    } catch (error) {
      await lockSession.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
      if (error instanceof B2bctlError) throw error;
      const masked = maskedStoreError(error, [...passwords, sentPassword(lockSession) ?? '']);
      throw new StoreOpeningError(masked, lockSession.database ?? parsed.database, placeOf(session));
    }
    const fromPassFile = sentPassword(lockSession);
    if (fromPassFile !== undefined && !passwords.includes(fromPassFile)) passwords.push(fromPassFile);
    return new PostgresStore(pool, lockSession, limits, newSession, { ...options, description, sockets });
  }

  append(event: NewEvent): Promise<{ stored: boolean }> {
    this.intake.appended();
    return this.commits.submit(event);
  }

  select(selection: EventSelection): AsyncIterable<StoredEvent> {
    return pagedSelection(selection, async (sql, values) => (await this.query<EventRow>(sql, values)).rows);
  }

  async dropHandOff(name: string): Promise<HandOffDrop> {
    if ((await this.query(handOffExistsQuery, [name])).rowCount === 0) return 'unknown';
    if ((await this.query(handOffRunQuery, [name])).rowCount !== 0) return 'command recorded';
    await this.query(handOffDeadDelete, [name]);
    await this.query(handOffDelete, [name]);
    return 'dropped';
  }

  async openHandOff(name: string, target: string, fromStart: boolean): Promise<HandOffOpening> {
    const inserted = await this.query(
      `INSERT INTO handoffs (name, target, position, created_at)
       SELECT ?, ?, ${fromStart ? '0' : '(SELECT coalesce(max(id), 0) FROM events)'}, ? ON CONFLICT (name) DO NOTHING`,
      [name, target, this.now()],
    );
    if (inserted.rowCount === 1) return { created: true };
    const existing = await this.query<{ target: string }>('SELECT target FROM handoffs WHERE name = ?', [name]);
    const previous = existing.rows[0]?.target;
    if (previous === undefined || previous === target) return { created: false };
    await this.query('UPDATE handoffs SET target = ? WHERE name = ?', [target, name]);
    return { created: false, previousTarget: previous };
  }

  async nextForHandOff(name: string): Promise<StoredEvent | undefined> {
    const row =
      (await this.query<EventRow>(retriedEventQuery, [name])).rows[0] ??
      (await this.query<EventRow>(nextEventQuery, [name])).rows[0];
    return row ? storedEventOf(row) : undefined;
  }

  async pendingForHandOff(name: string, after: number | undefined, limit: number) {
    const retried = (await this.query<EventRow>(retriedEventsQuery, [name, limit])).rows;
    if (retried.length > 0) return { events: retried.map(storedEventOf), retried: true };
    const rows =
      after === undefined
        ? (await this.query<EventRow>(eventsAfterPositionQuery, [name, limit])).rows
        : (await this.query<EventRow>(eventsAfterQuery, [after, limit])).rows;
    return { events: rows.map(storedEventOf), retried: false };
  }

  async markDelivered(name: string, events: StoredEvent | StoredEvent[]): Promise<void> {
    const list = Array.isArray(events) ? events : [events];
    const ids = list.map((event) => event.id);
    await this.transaction(async (client) => {
      await client.query('DELETE FROM dead WHERE handoff = $1 AND event_id = ANY($2::bigint[])', [name, ids]);
      await client.query('UPDATE handoffs SET position = GREATEST(position, $1) WHERE name = $2', [
        Math.max(...ids),
        name,
      ]);
      await client.query(`${positional(failingClear)} = ANY($2::bigint[])`, [name, ids]);
    });
  }

  async markDead(name: string, event: StoredEvent, error: string, attempts: number): Promise<void> {
    await this.transaction(async (client) => {
      await client.query(positional(deadLetterUpsert), [name, event.id, error, attempts, this.now()]);
      await client.query('UPDATE handoffs SET position = GREATEST(position, $1) WHERE name = $2', [event.id, name]);
      await client.query(`${positional(failingClear)} = $2`, [name, event.id]);
    });
  }

  async recordFailing(name: string, eventId: number, since: number, attempts: number): Promise<void> {
    await this.query(failingRecord, [eventId, since, attempts, name]);
  }

  async failingEvent(name: string): Promise<FailingEvent | undefined> {
    return failingEventOf((await this.query<FailingRow>(failingQuery, [name])).rows[0]);
  }

  async deadLetters(handOff?: string): Promise<DeadLetter[]> {
    const rows = await this.query<DeadRow>(
      `${deadLettersQuery}${handOff ? ' WHERE d.handoff = ?' : ''} ORDER BY d.event_id, d.handoff`,
      handOff ? [handOff] : [],
    );
    return rows.rows.map(deadLetterOf);
  }

  async retryDead(ids: number[], handOff?: string): Promise<number> {
    return this.changeDead('UPDATE dead SET retry = 1', ids, handOff);
  }

  async dropDead(ids: number[], handOff?: string): Promise<number> {
    return this.changeDead('DELETE FROM dead', ids, handOff);
  }

  async backlog(timing?: StoreTiming): Promise<HandOffBacklog[]> {
    // Each query from its send to its rows: the database's answer, and the receiver's turns while it came.
    const timed = async (sql: string, values: unknown[]) => {
      const started = performance.now();
      try {
        return (await this.query(sql, values)).rows;
      } finally {
        if (timing !== undefined) timing.workMs += performance.now() - started;
      }
    };
    return backlogOf(async (sql, values) => (await timed(sql, values))[0], timed);
  }

  async newestId(): Promise<number> {
    return Number((await this.query(backlogStatements.newestId, [])).rows[0]?.newest ?? 0);
  }

  async prune(eventsBefore: number | undefined, keysBefore: number, signal?: AbortSignal): Promise<Pruned> {
    // Slices of a few hundred rows, each its own transaction: autovacuum reclaims them as the pass goes.
    return pruneInSlices(
      {
        rows: async (sql, values) => (await this.query(sql, values)).rows,
        changes: async (sql, values) => (await this.query(sql, values)).rowCount ?? 0,
      },
      eventsBefore,
      keysBefore,
      { signal, busy: this.intake.busy },
    );
  }

  async shareToken(digest: string, expiresAt: number, keptExpiredMs: number): Promise<void> {
    await this.query(expiredTokensDelete, [this.now() - keptExpiredMs]);
    await this.query(keepTokenStatement, [digest, expiresAt]);
  }

  async tokenExpiry(digest: string, after: number): Promise<number | undefined> {
    const found = await this.query<{ expires_at: string }>(tokenExpiryQuery, [digest, after]);
    const row = found.rows[0];
    return row === undefined ? undefined : Number(row.expires_at);
  }

  async adoptTokenKey(
    matches: (verifier: string) => boolean,
    fresh: () => TokenKeyRecord,
  ): Promise<{ key: string; revoked: boolean }> {
    // Under a lock: receivers starting together with a new secret make one key, not one each.
    return this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [tokenKeyLock]);
      const kept = (await client.query<TokenKeyRecord>(tokenKeyQuery)).rows[0];
      if (kept !== undefined && matches(kept.verifier)) return { key: kept.key, revoked: false };
      const record = fresh();
      await client.query(positional(tokenKeyUpsert), [record.verifier, record.key]);
      await client.query(allTokensDelete);
      return { key: record.key, revoked: kept !== undefined };
    });
  }

  async maskInDeadLetters(masking: DeadLetterMasking): Promise<DeadLetterMasked> {
    // Under a lock: receivers starting together scan once, and the second finds the fingerprints recorded.
    return this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [scrubLock]);
      await client.query(positional(scrubKeyInsert), [masking.freshKey()]);
      const { key } = (await client.query<{ key: string }>(scrubKeyQuery)).rows[0] as { key: string };
      const rows = (await client.query<{ fingerprint: string; scrubbed_at: string }>(scrubbedQuery)).rows;
      const scan = deadLetterScan(masking, key, new Map(rows.map((row) => [row.fingerprint, Number(row.scrubbed_at)])));
      const masked = await client.query(
        positional(deadLetterMaskStatement(scan)),
        deadLetterMaskValues(scan, masking.mask),
      );
      const now = this.now();
      for (const form of scan.forms)
        await client.query(positional(scrubbedUpsert), [masking.fingerprint(key, form), now]);
      return { scanned: scan.fresh, changed: masked.rowCount ?? 0 };
    });
  }

  async recordRun(run: CommandRun): Promise<void> {
    const { handOff, host, processGroup, eventId, startedAt, processStart = null } = run;
    await this.query(recordRunInsert, [handOff, host, processGroup, eventId, startedAt, processStart]);
  }

  async forgetRun(handOff: string, host: string, processGroup: number): Promise<void> {
    await this.query(forgetRunDelete, [handOff, host, processGroup]);
  }

  async recordedRuns(handOff: string, host: string): Promise<CommandRun[]> {
    return (await this.query<CommandRunRow>(recordedRunsQuery, [handOff, host])).rows.map(commandRunOf);
  }

  async claimHandOff(name: string): Promise<boolean> {
    if (this.claimed.has(name) && this.lockSession !== undefined) return true;
    const session = await this.claimingSession();
    const answer = await this.limits.within(
      () => this.lostLockSession(session),
      () =>
        session.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtext('b2bctl hand-off ' || $1)) AS held", [
          name,
        ]),
    );
    if (answer.rows[0]?.held) this.claimed.add(name);
    return this.claimed.has(name);
  }

  /**
   * The lock session, opened again (within the limit) after it was lost: its locks went with it. Hand-offs claiming
   * together share one new session: a second would hold its locks, and the process, until it ends.
   */
  private claimingSession(): Promise<pg.Client> {
    if (this.lockSession !== undefined) return Promise.resolve(this.lockSession);
    this.reopening ??= this.openLockSession().finally(() => (this.reopening = undefined));
    return this.reopening;
  }

  private async openLockSession(): Promise<pg.Client> {
    const session = this.newSession();
    await this.limits.within(
      () => void session.end().catch(() => undefined),
      () => session.connect(),
    );
    this.watchLockSession(session);
    this.lockSession = session;
    return session;
  }

  private watchLockSession(session: pg.Client): void {
    // A lost connection (keepalive found the database gone, the database restarted) took every lock it held: this
    // receiver delivers nothing until it claims again, and never crashes on the session's error event.
    session.on('error', () => this.lostLockSession(session));
  }

  private lostLockSession(session: pg.Client): void {
    if (this.lockSession !== session) return;
    this.lockSession = undefined;
    this.claimed.clear();
    // With a statement still waiting, pg's end() drops the connection at once rather than waiting for a goodbye.
    session.end().catch(() => undefined);
  }

  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.commits.settled();
    // A database that stopped answering would never answer the goodbye either: its connections are dropped. Else the
    // goodbye, within the limit.
    const lockSession = this.lockSession;
    if (this.limits.gaveUp) {
      for (const socket of this.sockets) socket.destroy();
      await lockSession?.end().catch(() => undefined);
      return this.pool.end().catch(() => undefined);
    }
    await this.limits
      .within(
        () => this.sockets.forEach((socket) => socket.destroy()),
        async () => {
          await lockSession?.end().catch(() => undefined);
          await this.pool.end();
        },
      )
      .catch(() => undefined);
  }

  /**
   * One batch in one transaction. The append lock makes ids follow commit order across receivers, so a
   * deliverer that has passed id N never meets a smaller id committed later.
   */
  private async commitBatch(events: NewEvent[]): Promise<{ stored: boolean }[]> {
    const firstOfKey = new Map<string, NewEvent>();
    for (const event of events) if (!firstOfKey.has(event.key)) firstOfKey.set(event.key, event);
    const unique = [...firstOfKey.values()];
    const column = <T>(pick: (event: NewEvent) => T) => unique.map(pick);
    const stored = await this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [appendLock]);
      const answer = await client.query<{ key: string }>(appendBatch, [
        column((event) => event.receivedAt),
        column((event) => event.kind),
        column((event) => event.deliveryId),
        column((event) => event.key),
        column((event) => JSON.stringify(event.flags)),
        column((event) => event.clientAddress),
        column((event) => event.raw),
        column((event) => event.formerKey ?? null),
      ]);
      return new Set(answer.rows.map((row) => row.key));
    });
    if (stored.size > 0) for (const listener of this.listeners) listener();
    return events.map((event) => ({ stored: firstOfKey.get(event.key) === event && stored.has(event.key) }));
  }

  private query<Row extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[]) {
    return this.onClient((client) => client.query<Row>(positional(sql), values));
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.onClient(async (client) => {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    });
  }

  /**
   * `work` on a connection of the pool, within the store's time limit (postgres-statements.ts). A connection whose
   * work failed or was abandoned is dropped, not given back: one still waiting for a database that stopped answering
   * would hold every later statement behind it, and a transaction that failed is rolled back by its end.
   */
  private onClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const held: { client?: pg.PoolClient; abandoned?: Error } = {};
    const giveBack = (client: pg.PoolClient, error?: Error) => {
      if (held.client !== client) return;
      held.client = undefined;
      client.off('error', heardThroughStatement);
      client.release(error);
    };
    return this.limits.within(
      (reason) => {
        held.abandoned = reason;
        if (held.client !== undefined) giveBack(held.client, reason);
      },
      async () => {
        const client = await this.pool.connect();
        if (held.abandoned !== undefined) return client.release(held.abandoned) as never;
        held.client = client;
        client.on('error', heardThroughStatement);
        try {
          const result = await work(client);
          giveBack(client);
          return result;
        } catch (error) {
          giveBack(client, error as Error);
          throw error;
        }
      },
    );
  }

  private async changeDead(statement: string, ids: number[], handOff?: string): Promise<number> {
    const where = `WHERE event_id IN (${idList(ids)})${handOff ? ' AND handoff = ?' : ''}`;
    return (await this.query(`${statement} ${where}`, [...ids, ...(handOff ? [handOff] : [])])).rowCount ?? 0;
  }
}
