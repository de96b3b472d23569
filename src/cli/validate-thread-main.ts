/**
 * The validation thread (src/bulk/validate-thread.ts): runs a validate verb with the main thread's options, in a
 * context whose streams and prompter are relayed to the main thread by messages. Started by base/thread-module.ts's
 * startThread as the other threads are: this module itself from the sources, built as dist/validate-thread.js. It
 * lives in cli/, not beside its starter, because it builds a context (context.ts), which bulk/ may not import.
 */
import { createReadStream } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { type Context, createContext, type IOStreams, type Prompter } from '../context.js';
import {
  crossing,
  type FromThread,
  rebuiltError,
  type ThreadedVerb,
  type ThreadStart,
  type ToThread,
} from '../bulk/validate-thread.js';

/** The verbs a thread runs, loaded as the command line loads them. */
const verbs: Record<ThreadedVerb, () => Promise<{ run(options: object, context: Context): Promise<void> }>> = {
  'stock validate': () => import('../commands/stock/validate.js'),
  'customer validate': () => import('../commands/customer/validate.js'),
};

/** Writes in flight to the main thread beyond which a stream waits for them to be done. */
const bytesInFlight = 1 << 20;

const port = parentPort as NonNullable<typeof parentPort>;
const start = workerData as ThreadStart;
const interrupt = new AbortController();
let nextId = 0;
const writesDone = new Map<number, () => void>();
/** Resolved each time the last write in flight is done. */
let allWritten: (() => void) | undefined;
const answers = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

// oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
const send = (message: FromThread) => port.postMessage(message);

port.on('message', (message: ToThread) => {
  if (message.kind === 'written') {
    writesDone.get(message.id)?.();
    writesDone.delete(message.id);
    if (writesDone.size === 0) allWritten?.();
  } else if (message.kind === 'answer') {
    const waiting = answers.get(message.id);
    answers.delete(message.id);
    if (message.error) waiting?.reject(rebuiltError(message.error));
    else waiting?.resolve(message.value);
  } else interrupt.abort(message.signal);
});

/** A stream whose writes are the main thread's `stream`: each write done at once while little is in flight. */
function relayed(stream: 'stdout' | 'stderr'): Writable {
  let inFlight = 0;
  const relay = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const id = nextId++;
      const size = chunk.length;
      inFlight += size;
      const waits = inFlight > bytesInFlight;
      writesDone.set(id, () => {
        inFlight -= size;
        if (waits) done();
      });
      send({ kind: 'write', stream, id, chunk });
      if (!waits) done();
    },
  });
  // Seen as the terminal it is relayed to: a progress line draws on a stream that says it is one (cli-progress).
  return Object.assign(relay, { columns: start.terminals.columns, isTTY: start.terminals[stream] });
}

/** A question for the person at the main thread's terminal, by the prompter method that asks it there. */
function relayedQuestion(method: keyof Prompter) {
  return (...args: unknown[]): Promise<never> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      answers.set(id, { resolve: resolve as (value: unknown) => void, reject });
      send({ kind: 'ask', id, method, args });
    });
}

/** Questions for the person at the main thread's terminal. */
function relayedPrompter(): Prompter {
  return { input: relayedQuestion('input'), password: relayedQuestion('password'), select: relayedQuestion('select') };
}

/** Ends the streams, once every write has reached the main thread. */
async function drained(): Promise<void> {
  await Promise.all([stdout, stderr].map((stream) => new Promise<void>((resolve) => stream.end(resolve))));
  if (writesDone.size > 0) await new Promise<void>((resolve) => (allWritten = resolve));
}

const stdout = relayed('stdout');
const stderr = relayed('stderr');
const io: IOStreams = {
  stdout,
  stderr,
  // A workbook piped on stdin comes as the main thread copied it; a named one is read from its file.
  stdin: start.stdinCopy === undefined ? Readable.from([]) : createReadStream(start.stdinCopy),
  isStdoutTTY: start.terminals.stdout,
  isStderrTTY: start.terminals.stderr,
  isStdinTTY: start.terminals.stdin,
};
const context = createContext({
  io,
  env: start.env,
  globals: start.globals,
  interrupt: interrupt.signal,
  prompter: relayedPrompter(),
});
// As the launcher does on the main thread: --verbose's stack traces point into src/*.ts (the modules loaded from now).
if (start.globals.verbose) process.setSourceMapsEnabled(true);
try {
  const { run } = await verbs[start.verb]();
  await run(start.options, context);
  await drained();
  send({ kind: 'done' });
} catch (error) {
  await drained();
  send({ kind: 'failed', error: crossing(error) });
} finally {
  await context.close();
}
