import { type LookupAddress, lookup as systemLookup, type LookupOptions } from 'node:dns';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../base/thread-module.js';
import type { ConnectionRules } from '../net/dispatcher.js';

/**
 * The ERP's round trips of a `--forward-to` hand-off, run on a thread of their own. On the receiver's thread an
 * answer from the ERP is read once per turn of the event loop, and while intake runs a turn carries up to as many
 * requests as the platform has connections open: the in-order hand-off then moved one event per turn, a third of
 * intake's rate. Here the thread is given the next events in order and sends each only after the one before was
 * answered 2xx, at its own pace, and answers once: how many the ERP took, and the first failure. Retries, dead
 * letters and the records stay with the hand-off (docs/decisions/0024-forward-thread.md). The thread's code is
 * forward-thread-main.ts, built as a module of its own (base/thread-module.ts says where each form of b2bctl finds it).
 */

/** One event as the thread POSTs it: its headers and its JSON, made on the receiver's thread. */
export interface ForwardRequest {
  headers: Record<string, string>;
  body: string;
}

/** What stopped a run of events: an answer that is not 2xx (its status and the start of its body), or an error. */
export type ForwardFailure = ErpAnswer | { code?: string; message: string };

/**
 * The ERP's answer other than 2xx: its status, the start of its body, and what it asked of the wait before the next
 * try (`Retry-After`, with its `Date` to measure an HTTP date from).
 */
export interface ErpAnswer {
  status: number;
  body: string;
  retryAfter?: string;
  answeredAt?: string;
}

/** How many of the events given the ERP took, in order, and what stopped the rest. */
export interface ForwardOutcome {
  taken: number;
  failure?: ForwardFailure;
}

/** To the thread (forward-thread-main.ts): a run of events, shutdown's stop, the resolver's answer it asked for. */
export type ToForwardThread =
  | { id: number; url: string; timeoutMs: number; events: ForwardRequest[] }
  | { abort: true }
  | {
      resolved: {
        id: number;
        error?: { code?: string; message: string };
        address?: string | LookupAddress[];
        family?: number;
      };
    };

/** From the thread: a run's outcome, its progress in a long run, a question for the rules' resolver. */
export type FromForwardThread =
  | ({ id: number } & ForwardOutcome)
  | { id: number; progress: number }
  | { lookup: { id: number; hostname: string; options: LookupOptions } };

/** What the thread is started with: the connection rules of net/ (connectionRules) that are data. */
export interface ForwardThreadStart {
  connectTimeoutMs: number;
  /**
   * Each connection's resolver answer is asked of the receiver's thread, which applies `ConnectionRules.lookup`: a
   * function, which cannot cross to the thread, and may be one the caller made (a test's resolver).
   */
  lookupOnReceiverThread: boolean;
}

/** The thread of one hand-off's ERP; started on first use, referenced only while the ERP is being asked. */
export class ForwardThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<
    number,
    { progress?: (taken: number) => void; done: (reply: ForwardOutcome) => void }
  >();
  private nextId = 1;

  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly rules: ConnectionRules;
  /** `rules`: connectionRules of the ERP's URL, as undici's connections to it follow them. */
  constructor(url: string, timeoutMs: number, rules: ConnectionRules) {
    this.url = url;
    this.timeoutMs = timeoutMs;
    this.rules = rules;
  }

  /**
   * Sends `events` in order, each after the one before was taken; cut by `signal` (shutdown) like a failure.
   * `progress` is told how many were taken so far, at most every 100 ms, while a run goes on.
   */
  deliverInOrder(
    events: ForwardRequest[],
    signal: AbortSignal,
    progress?: (taken: number) => void,
  ): Promise<ForwardOutcome> {
    const worker = this.started();
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    const onAbort = () => this.send({ abort: true });
    signal.addEventListener('abort', onAbort, { once: true });
    return new Promise<ForwardOutcome>((resolve) => {
      this.pending.set(id, {
        progress,
        done: (reply) => {
          signal.removeEventListener('abort', onAbort);
          resolve(reply);
        },
      });
      this.send({ id, url: this.url, timeoutMs: this.timeoutMs, events });
      if (signal.aborted) onAbort();
    });
  }

  /** Ends the thread and its connection. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const workerData: ForwardThreadStart = {
      connectTimeoutMs: this.rules.timeout,
      lookupOnReceiverThread: this.rules.lookup !== undefined,
    };
    const worker = startThread('forward-thread', new URL('./forward-thread-main.ts', import.meta.url), { workerData });
    worker.on('message', (reply: FromForwardThread) => this.answer(reply));
    // A thread that fails or ends answers what it was asked as a failure: the hand-off retries on a new one.
    const lost = (message: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const id of Array.from(this.pending.keys())) this.answer({ id, taken: 0, failure: { message } });
    };
    worker.on('error', (error) => lost(`the forwarding thread failed (${error.message})`));
    worker.on('exit', (code) => lost(`the forwarding thread ended (exit code ${code})`));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private send(request: ToForwardThread): void {
    // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
    this.worker?.postMessage(request);
  }

  private answer(reply: FromForwardThread): void {
    if ('lookup' in reply) return this.resolve(reply.lookup);
    const asked = this.pending.get(reply.id);
    if (asked === undefined) return;
    if ('progress' in reply) return asked.progress?.(reply.progress);
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    asked.done({ taken: reply.taken, ...(reply.failure === undefined ? {} : { failure: reply.failure }) });
  }

  /** The resolver's answer for one of the thread's connections, by the rules' lookup (a refusal crosses as its code). */
  private resolve({ id, hostname, options }: { id: number; hostname: string; options: LookupOptions }): void {
    const lookup = this.rules.lookup ?? ((name, asked, callback) => systemLookup(name, asked, callback));
    lookup(hostname, options, (error, address, family) =>
      this.send({
        resolved: error
          ? { id, error: { code: error.code, message: error.message } }
          : { id, address, ...(family === undefined ? {} : { family }) },
      }),
    );
  }
}
