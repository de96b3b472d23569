import type { Worker } from 'node:worker_threads';
import { startThread } from '../../base/thread-module.js';
import type { NewEvent } from './types.js';

/**
 * A running receiver's writes to the SQLite inbox (appended events, recorded deliveries, dead letters, tokens,
 * retention, vacuum) run on a thread of their own with their own connection: node:sqlite is synchronous, and each
 * commit's fsync held the receiver's one thread, so a hand-off waiting for its ERP's answer moved about one event
 * per commit while intake ran (docs/decisions/0006, 0016 and 0022); a write left on the receiver's connection met
 * this thread's lock in SQLite's busy handler, which sleeps the event loop. A commit still returns only once it is
 * on disk (WAL, synchronous=FULL); only the waiting moved off the thread. The thread's code is
 * sqlite-writer-main.ts, built as a module of its own (base/thread-module.ts says where each form of b2bctl finds it).
 */

/** A value bound to a statement's placeholder. */
export type SqlValue = string | number | null;

/** One statement and its values, as the writer runs it within a transaction. */
export type WriteStatement = readonly [sql: string, values: readonly SqlValue[]];

/** An event as the writer thread inserts it: the columns of `events` in order, flags already JSON. */
type EventColumns = [number, string, string, string, string, string, string];

/** An event to append: its columns, and the key an earlier b2bctl gave it (null where the same). */
type EventAppend = { columns: EventColumns; formerKey: string | null };

/** What the thread is started with: the inbox file, whose tables exist already. */
export interface WriterStart {
  file: string;
}

/** To the thread (sqlite-writer-main.ts): a transaction to commit, a pragma to run outside one, the end. */
export type ToWriter =
  | { id: number; append: EventAppend[] }
  | { id: number; run: WriteStatement[]; durable: boolean }
  | { id: number; pragma: string; durable: boolean }
  | { close: true };

/** From the thread: each request's answer once committed (or its error), and the end once the file is closed. */
export type FromWriter =
  | { id: number; stored: boolean[] }
  | { id: number; changes: number[] }
  | { id: number; rows: Record<string, unknown>[] }
  | { id: number; error: { message: string; code?: string; errcode?: number; errstr?: string } }
  | { closed: true };

interface Pending {
  resolve: (reply: FromWriter) => void;
  reject: (error: Error) => void;
}

/** The writer thread of one SQLite inbox file: each call is one transaction, committed durably, in call order. */
export class SqliteWriter {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;

  private readonly worker: Worker;
  private constructor(worker: Worker) {
    this.worker = worker;

    worker.on('message', (reply: FromWriter) => this.answer(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the inbox's writer thread ended (exit code ${code})`)));
    // Referenced only while a commit is awaited: an idle writer does not keep a finished command's process alive.
    worker.unref();
  }

  /** Starts the writer on `file`, whose tables exist already. */
  static start(file: string): SqliteWriter {
    const start: WriterStart = { file };
    return new SqliteWriter(
      startThread('sqlite-writer', new URL('./sqlite-writer-main.ts', import.meta.url), { workerData: start }),
    );
  }

  /** Inserts the events whose key is new, in one transaction; for each, whether it was stored. */
  async append(events: readonly NewEvent[]): Promise<boolean[]> {
    const columns = events.map((event): EventAppend => ({
      columns: [
        event.receivedAt,
        event.kind,
        event.deliveryId,
        event.key,
        JSON.stringify(event.flags),
        event.clientAddress,
        event.raw,
      ],
      formerKey: event.formerKey ?? null,
    }));
    const reply = await this.request((id) => ({ id, append: columns }));
    return 'stored' in reply ? reply.stored : [];
  }

  /**
   * Runs the statements in one transaction; the rows each changed. Not `durable`: on disk with the next durable
   * commit, for work a power cut may undo and that is done again (retention's deletes).
   */
  async run(statements: readonly WriteStatement[], durable = true): Promise<number[]> {
    const reply = await this.request((id) => ({ id, run: [...statements], durable }));
    return 'changes' in reply ? reply.changes : [];
  }

  /**
   * Runs `PRAGMA source` on the thread, outside a transaction (incremental vacuum, checkpoints): its rows. Here and
   * not on the receiver's connection, where meeting this thread's lock would sleep the event loop in SQLite's busy
   * handler. Not `durable`: a slice a power cut undoes is done again.
   */
  async pragma(source: string, durable = true): Promise<Record<string, unknown>[]> {
    const reply = await this.request((id) => ({ id, pragma: source, durable }));
    return 'rows' in reply ? reply.rows : [];
  }

  /** Waits for the commits asked for, then closes the thread's connection and ends it. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.failure === undefined) {
        // The thread takes messages in order: the commits asked for before this one are answered first.
        this.worker.ref();
        const closed = new Promise<void>((resolve) =>
          this.worker.on('message', (reply: FromWriter) => 'closed' in reply && resolve()),
        );
        this.send({ close: true });
        await Promise.race([closed, new Promise((resolve) => this.worker.once('exit', resolve))]);
      }
      this.failure ??= new Error('the inbox is closed');
      await this.worker.terminate();
    })();
    return this.closing;
  }

  private request(message: (id: number) => ToWriter): Promise<FromWriter> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<FromWriter>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(message(id));
    });
  }

  private send(request: ToWriter): void {
    // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
    this.worker.postMessage(request);
  }

  private answer(reply: FromWriter): void {
    if (!('id' in reply)) return;
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in reply) {
      const { message, ...details } = reply.error;
      waiting.reject(Object.assign(new Error(message), details));
    } else waiting.resolve(reply);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
