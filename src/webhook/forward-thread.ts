import { lookup as systemLookup, type LookupOptions } from 'node:dns';
import { Worker } from 'node:worker_threads';
import { timerDelay } from '../lib/timer-delay.js';
import type { ConnectionRules } from '../net/dispatcher.js';

/**
 * The ERP's round trips of a `--forward-to` hand-off, run on a thread of their own. On the receiver's thread an
 * answer from the ERP is read once per turn of the event loop, and while intake runs a turn carries up to as many
 * requests as the platform has connections open: the in-order hand-off then moved one event per turn, a third of
 * intake's rate. Here the thread is given the next events in order and sends each only after the one before was
 * answered 2xx, at its own pace, and answers once: how many the ERP took, and the first failure. Retries, dead
 * letters and the records stay with the hand-off (docs/decisions/0024-forward-thread.md).
 */

/** One event as the thread POSTs it: its headers and its JSON, made on the receiver's thread. */
export interface ForwardRequest {
  headers: Record<string, string>;
  body: string;
}

/** What stopped a run of events: an answer that is not 2xx (its status and the start of its body), or an error. */
export type ForwardFailure = { status: number; body: string } | { code?: string; message: string };

/** How many of the events given the ERP took, in order, and what stopped the rest. */
export interface ForwardOutcome {
  taken: number;
  failure?: ForwardFailure;
}

type Request =
  | { id: number; url: string; timeoutMs: number; events: ForwardRequest[] }
  | { abort: true }
  | { resolved: { id: number; error?: { code?: string; message: string }; address?: unknown; family?: number } };
type Reply =
  | ({ id: number } & ForwardOutcome)
  | { id: number; progress: number }
  | { lookup: { id: number; hostname: string; options: LookupOptions } };

/** What the thread is started with: the connection rules of net/ (connectionRules) that it cannot import. */
interface ThreadRules {
  connectTimeoutMs: number;
  /** Each connection's resolver answer is asked of the receiver's thread, which applies `ConnectionRules.lookup`. */
  lookupOnReceiverThread: boolean;
}

/**
 * The thread's code, run as a script (eval) so that it needs no file beside the bundle or the single executable,
 * as the inbox's writer thread does. node:http with a kept-alive connection: the hand-off sends one request at a
 * time, so one connection is all it uses.
 * A script cannot import net/, so the connection rules every other client follows (net/dispatcher.ts's
 * connectionRules) come as data: the connect timeout, and whether the resolver's answer is asked of the receiver's
 * thread, which runs the same code as undici's connections do (thisMachineOnly: plain-HTTP `localhost` resolves to
 * this machine only, else nothing is sent). `--forward-timeout` means what undici's headersTimeout and bodyTimeout
 * mean on the receiver's thread: the time to the answer's headers once connected, then between its chunks; each
 * timeout fails with undici's code, so both paths tell it in the same words.
 */
const forwardSource = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');
const { connectTimeoutMs, lookupOnReceiverThread } = workerData;
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 1 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 1 }),
};
const stopped = () => Object.assign(new Error('stopped by shutdown'), { code: 'ABORT_ERR' });
const lookups = new Map();
let nextLookup = 1;
const lookup = lookupOnReceiverThread
  ? (hostname, options, callback) => {
      const id = nextLookup++;
      lookups.set(id, callback);
      parentPort.postMessage({ lookup: { id, hostname, options } });
    }
  : undefined;
let inFlight;
let aborted = false;
parentPort.on('message', (message) => {
  if (message.resolved) {
    const { id, error, address, family } = message.resolved;
    const callback = lookups.get(id);
    lookups.delete(id);
    if (error) callback?.(Object.assign(new Error(error.message), { code: error.code }));
    else callback?.(null, address, family);
    return;
  }
  if (message.abort) {
    aborted = true;
    inFlight?.destroy(stopped());
    return;
  }
  aborted = false;
  deliverInOrder(message).then((outcome) => parentPort.postMessage({ id: message.id, ...outcome }));
});
async function deliverInOrder({ id, url, timeoutMs, events }) {
  const target = new URL(url);
  let toldAt = Date.now();
  for (let index = 0; index < events.length; index++) {
    // A run of slow answers is still progress: told at most once a second, so /healthz does not call it stuck.
    if (index > 0 && Date.now() - toldAt >= 1000) {
      toldAt = Date.now();
      parentPort.postMessage({ id, progress: index });
    }
    if (aborted) return { taken: index, failure: { code: 'ABORT_ERR', message: stopped().message } };
    let answer;
    try {
      answer = await post(target, events[index], timeoutMs);
    } catch (error) {
      return { taken: index, failure: { code: error.code, message: String(error.message) } };
    }
    if (answer.status < 200 || answer.status > 299) return { taken: index, failure: answer };
  }
  return { taken: events.length };
}
function post(target, event, timeoutMs) {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer;
    const settle = (outcome, error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(outcome);
    };
    const fail = (error) => settle(undefined, error);
    // One timer at a time, as undici's: to connect, then to the answer's headers, then between its chunks.
    const arm = (ms, code, message) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const timedOut = Object.assign(new Error(message), { code });
        fail(timedOut);
        request.destroy(timedOut);
      }, ms);
    };
    const awaitHeaders = () => arm(timeoutMs, 'UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error');
    const awaitBody = () => arm(timeoutMs, 'UND_ERR_BODY_TIMEOUT', 'Body Timeout Error');
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      { method: 'POST', agent: agents[target.protocol], headers: event.headers, ...(lookup ? { lookup } : {}) },
      (response) => {
        awaitBody();
        const chunks = [];
        let size = 0;
        response.on('data', (chunk) => {
          awaitBody();
          if (size < 4096) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('error', fail);
        response.on('end', () =>
          settle({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8').slice(0, 1000) }),
        );
        // A connection cut in the middle of the answer, or the timeout's cut, ends it as a failure.
        response.on('close', () =>
          fail(Object.assign(new Error('the connection closed in the middle of the answer'), { code: 'ECONNRESET' })),
        );
      },
    );
    request.on('socket', (socket) => {
      const ready = target.protocol === 'https:' ? 'secureConnect' : 'connect';
      if (request.reusedSocket || (ready === 'connect' && !socket.connecting)) return awaitHeaders();
      arm(connectTimeoutMs, 'UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error');
      socket.once(ready, awaitHeaders);
    });
    request.on('error', fail);
    inFlight = request;
    request.end(event.body);
  });
}
`;

/** The thread of one hand-off's ERP; started on first use, referenced only while the ERP is being asked. */
export class ForwardThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { progress?: () => void; done: (reply: ForwardOutcome) => void }>();
  private nextId = 1;

  /** `rules`: connectionRules of the ERP's URL, as undici's connections to it follow them. */
  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
    private readonly rules: ConnectionRules,
  ) {}

  /**
   * Sends `events` in order, each after the one before was taken; cut by `signal` (shutdown) like a failure.
   * `progress` is called, at most once a second, while a long run goes on.
   */
  deliverInOrder(events: ForwardRequest[], signal: AbortSignal, progress?: () => void): Promise<ForwardOutcome> {
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
      // The thread's timer is armed with this, and its eval'd code imports nothing: the guard is applied here.
      this.send({ id, url: this.url, timeoutMs: timerDelay(this.timeoutMs), events });
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
    const workerData: ThreadRules = {
      connectTimeoutMs: this.rules.timeout,
      lookupOnReceiverThread: this.rules.lookup !== undefined,
    };
    const worker = new Worker(forwardSource, { eval: true, workerData });
    worker.on('message', (reply: Reply) => this.answer(reply));
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

  private send(request: Request): void {
    // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
    this.worker?.postMessage(request);
  }

  private answer(reply: Reply): void {
    if ('lookup' in reply) return this.resolve(reply.lookup);
    const asked = this.pending.get(reply.id);
    if (asked === undefined) return;
    if ('progress' in reply) return asked.progress?.();
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
