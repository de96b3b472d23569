import { InterruptedError, UnavailableError } from '../../base/errors.js';
import { maskedStoreError } from './postgres-secrets.js';

/**
 * How long one use of an open PostgreSQL store (a statement, or a transaction with its statements) may wait for its
 * answer when the webhook.storeTimeout setting does not say. Opening has its own limit (connect_timeout,
 * postgres-opening.ts); past it, a database that stops answering mid-run (a network partition, a stopped VM, a
 * backend stopped with SIGSTOP) held the receiver's writes and `webhook status` for ever. Thirty seconds is far
 * past what a healthy database needs for the store's statements (a retention slice, an append waiting for another
 * receiver's commit) and what a monitor or the platform's retry still waits out.
 */
export const defaultStatementLimitMs = 30_000;

/**
 * TCP keepalive on every connection to the store, after this much silence: an idle connection (the session holding
 * the hand-offs' locks, the pool's spare ones) to a database that is gone is noticed by the kernel, not only when a
 * statement is next sent (Node probes every second after it, ten times).
 */
export const keepAliveAfterMs = 10_000;

/** Where the store is and how long its uses may take; `interrupt` (Ctrl-C, SIGTERM) abandons them after `graceMs`. */
export interface StatementLimitOptions {
  /** host:port, as messages name the store. */
  place: string;
  limitMs: number;
  interrupt?: AbortSignal;
  /** How long the uses in flight at the interrupt, and those it starts, may still take: 0 (a reading command) abandons them at once. */
  graceMs?: number;
  /** The passwords the store's connections send, masked in every error a use ends with (postgres-secrets.ts). */
  passwords?: readonly string[];
}

/**
 * The time limit of every use of an open store. A use that runs past it, or is still waiting when the command is
 * interrupted, is abandoned: `abandon` drops its connection (pg's end() would wait for the database to answer its
 * goodbye), and the caller gets an UnavailableError naming the store (exit 69; the receiver answers the webhook 503,
 * so the platform sends it again) or an InterruptedError (exit 75).
 */
export class StatementLimits {
  private readonly waiting = new Set<() => void>();
  /** A use was abandoned (or the command interrupted): closing drops the connections rather than say goodbye. */
  gaveUp = false;

  /** The interrupt's grace has run out: every use is abandoned, and none is started. */
  private stoppedAll = false;

  private readonly options: StatementLimitOptions;
  constructor(options: StatementLimitOptions) {
    this.options = options;

    const stopAll = () => {
      this.stoppedAll = true;
      this.gaveUp = true;
      for (const stop of this.waiting) stop();
    };
    const graceMs = options.graceMs ?? 0;
    options.interrupt?.addEventListener('abort', () =>
      graceMs === 0 ? stopAll() : setTimeout(stopAll, graceMs).unref(),
    );
    if (options.interrupt?.aborted && graceMs === 0) stopAll();
  }

  async within<T>(abandon: (reason: Error) => void, work: () => Promise<T>): Promise<T> {
    if (this.stoppedAll) throw this.stopped();
    const deadline = this.deadline();
    this.waiting.add(deadline.interrupt);
    const done = work();
    // Once abandoned, dropping the connection makes pg reject this too: nobody is waiting for it any more.
    done.catch(() => undefined);
    try {
      const abandoned = deadline.given.catch((reason: Error) => {
        this.gaveUp = true;
        abandon(reason);
        throw reason;
      });
      return await Promise.race([done, abandoned]);
    } catch (error) {
      throw this.storeErrorOf(maskedStoreError(error, this.options.passwords ?? []));
    } finally {
      deadline.cancel();
      this.waiting.delete(deadline.interrupt);
    }
  }

  /** Rejects at the time limit, or when `interrupt` is called; `cancel` once the use is done. */
  private deadline(): { given: Promise<never>; interrupt: () => void; cancel: () => void } {
    let interrupt: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const given = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(this.unanswered()), this.options.limitMs);
      interrupt = () => reject(this.stopped());
    });
    return { given, interrupt: () => interrupt?.(), cancel: () => clearTimeout(timer) };
  }

  /** The line a user sees when the store fails mid-run; a refusal of the statement itself is kept as it is. */
  private storeErrorOf(error: unknown): unknown {
    if (error instanceof UnavailableError || error instanceof InterruptedError) return error;
    const code = (error as { code?: unknown }).code;
    // 57014: the database's own statement_timeout (set to the same limit) cancelled it before our timer fired.
    if (code === '57014') return this.unanswered();
    // A SQLSTATE is the database answering, but for those saying the session is over (class 08, 57P01-57P03: the
    // database shut down or restarted); anything else (ECONNRESET, ETIMEDOUT from keepalive, pg's "Connection
    // terminated unexpectedly") is the connection lost.
    const sessionOver = typeof code === 'string' && /^(?:08...|57P0[1-3])$/.test(code);
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !sessionOver) return error;
    const reason = typeof code === 'string' ? code : (error as Error).message;
    return new UnavailableError(
      `Lost the connection to the PostgreSQL store at ${this.options.place} (${reason}); check that the database is up.`,
      { cause: error },
    );
  }

  private unanswered(): UnavailableError {
    return new UnavailableError(
      `The PostgreSQL store at ${this.options.place} did not answer within ${this.options.limitMs / 1000} s; check that the database is up (the webhook.storeTimeout setting waits longer).`,
    );
  }

  private stopped(): InterruptedError {
    const reason = this.options.interrupt?.reason;
    const signal = typeof reason === 'string' ? ` by ${reason}` : '';
    return new InterruptedError(`Stopped${signal} while waiting for the PostgreSQL store at ${this.options.place}.`);
  }
}
