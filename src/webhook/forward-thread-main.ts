/**
 * The forwarding thread of a `--forward-to` hand-off (src/webhook/forward-thread.ts): POSTs the events it is given,
 * in order, each after the one before was answered 2xx, and answers once per run. Built as dist/forward-thread.js.
 * node:http with a kept-alive connection: the hand-off sends one request at a time, so one connection is all it uses.
 * Its connections follow net/dispatcher.ts's connectionRules, which the receiver's thread gives it as data: the
 * connect timeout, and whether the resolver's answer is asked of the receiver's thread, which runs the rules' lookup
 * (thisMachineOnly: plain-HTTP `localhost` resolves to this machine only, else nothing is sent) as undici's
 * connections run it. `--forward-timeout` means what undici's headersTimeout and bodyTimeout mean on the receiver's
 * thread: the time to the answer's headers once connected, then between its chunks; each timeout fails with undici's
 * code, so both paths tell it in the same words.
 */
import type { LookupOptions } from 'node:dns';
import * as http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import * as https from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';
import { timerDelay } from '../lib/timer-delay.js';
import type { LookupCallback } from '../net/dispatcher.js';
import type {
  ErpAnswer,
  ForwardOutcome,
  ForwardRequest,
  ForwardThreadStart,
  FromForwardThread,
  ToForwardThread,
} from './forward-thread.js';

const port = parentPort as NonNullable<typeof parentPort>;
const { connectTimeoutMs, lookupOnReceiverThread } = workerData as ForwardThreadStart;
const agents: Record<string, http.Agent> = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 1 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 1 }),
};
/** An error with the code a failure crosses back with. */
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
const stopped = () => coded('stopped by shutdown', 'ABORT_ERR');

// oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
const send = (message: FromForwardThread) => port.postMessage(message);

const lookups = new Map<number, LookupCallback>();
let nextLookup = 1;
/** The resolver of this thread's connections: the receiver's thread's answer, when the rules have a lookup. */
const lookup = lookupOnReceiverThread
  ? (hostname: string, options: LookupOptions, callback: LookupCallback) => {
      const id = nextLookup++;
      lookups.set(id, callback);
      send({ lookup: { id, hostname, options } });
    }
  : undefined;
let inFlight: http.ClientRequest | undefined;
let aborted = false;

port.on('message', (message: ToForwardThread) => {
  if ('resolved' in message) {
    const { id, error, address, family } = message.resolved;
    const callback = lookups.get(id);
    lookups.delete(id);
    if (error) callback?.(Object.assign(new Error(error.message), { code: error.code }), '');
    else callback?.(null, address ?? '', family);
    return;
  }
  if ('abort' in message) {
    aborted = true;
    inFlight?.destroy(stopped());
    return;
  }
  aborted = false;
  void deliverInOrder(message).then((outcome) => send({ id: message.id, ...outcome }));
});

/** How often a run tells how many events were taken: the hand-off's group commit window (commitEveryMs). */
const progressEveryMs = 100;

/** A run: each event POSTed once the one before was taken; how many were taken, and what stopped the rest. */
async function deliverInOrder(run: Extract<ToForwardThread, { events: unknown }>): Promise<ForwardOutcome> {
  const { id, url, timeoutMs, events } = run;
  const target = new URL(url);
  const progress = takenTeller(id);
  try {
    for (const [index, event] of events.entries()) {
      if (aborted) return { taken: index, failure: { code: 'ABORT_ERR', message: stopped().message } };
      let answer: ErpAnswer;
      try {
        answer = await post(target, event, timeoutMs);
      } catch (error) {
        const { code, message } = error as NodeJS.ErrnoException;
        return { taken: index, failure: { code, message: String(message) } };
      }
      if (answer.status < 200 || answer.status > 299) return { taken: index, failure: answer };
      progress.taken(index + 1);
    }
    return { taken: events.length };
  } finally {
    progress.end();
  }
}

/**
 * Tells run `id`'s caller how many events the ERP took so far, at most every 100 ms (the hand-off's group commit),
 * and also while the next answer is awaited: the hand-off records them in their group's time, not at the run's end
 * (a slow ERP's run of 32 was recorded 6.4 s late, and a kill sent its events again), and /healthz does not call a
 * slow run stuck.
 */
function takenTeller(id: number): { taken: (count: number) => void; end: () => void } {
  let told = 0;
  let latest = 0;
  let toldAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const tell = () => {
    timer = undefined;
    if (latest <= told) return;
    told = latest;
    toldAt = Date.now();
    send({ id, progress: latest });
  };
  return {
    taken(count) {
      latest = count;
      const waitMs = progressEveryMs - (Date.now() - toldAt);
      if (waitMs <= 0) tell();
      else timer ??= setTimeout(tell, waitMs);
    },
    end: () => clearTimeout(timer),
  };
}

/** What an answer asks of the wait before the next try: its `Retry-After`, and its `Date` to measure a date from. */
function waitAsked(headers: IncomingHttpHeaders): { retryAfter?: string; answeredAt?: string } {
  const { 'retry-after': retryAfter, date: answeredAt } = headers;
  return { ...(retryAfter === undefined ? {} : { retryAfter }), ...(answeredAt === undefined ? {} : { answeredAt }) };
}

/**
 * One POST of `event`, resolved with the answer's status and the start of its body, or rejected with a coded error:
 * a timeout of undici's kind, a connection cut, or shutdown's.
 */
function post(target: URL, event: ForwardRequest, timeoutMs: number): Promise<ErpAnswer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: ErpAnswer | undefined, error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(outcome as ErpAnswer);
    };
    const fail = (error: Error) => settle(undefined, error);
    // One timer at a time, as undici's: to connect, then to the answer's headers, then between its chunks.
    const arm = (ms: number, code: string, message: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const timedOut = coded(message, code);
        fail(timedOut);
        request.destroy(timedOut);
      }, timerDelay(ms));
    };
    const awaitHeaders = () => arm(timeoutMs, 'UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error');
    const awaitBody = () => arm(timeoutMs, 'UND_ERR_BODY_TIMEOUT', 'Body Timeout Error');
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      { method: 'POST', agent: agents[target.protocol], headers: event.headers, ...(lookup ? { lookup } : {}) },
      (response) => {
        awaitBody();
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          awaitBody();
          if (size < 4096) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('error', fail);
        response.on('end', () =>
          settle({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8').slice(0, 1000),
            ...waitAsked(response.headers),
          }),
        );
        // A connection cut in the middle of the answer, or the timeout's cut, ends it as a failure.
        response.on('close', () => fail(coded('the connection closed in the middle of the answer', 'ECONNRESET')));
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
