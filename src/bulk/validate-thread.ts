/**
 * `validate` of a large workbook on a thread of its own, with a heap of bounded size: the main thread's young
 * generation grows to 64–128 MB on Node 24 and 26 over a long run and stays there, and a workbook's reading keeps it
 * busy for seconds (docs/decisions/0025-workbook-thread.md). The thread runs the verb again with the same options,
 * in a context whose streams, prompter and Ctrl-C are the main thread's, relayed by messages: what it prints, asks
 * and ends with is what the main thread would have printed, asked and ended with.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';
import type { Context, GlobalOptions, Prompter } from '../context.js';
import {
  B2bctlError,
  ConfigError,
  type ExitCode,
  InputError,
  InterruptedError,
  OutputClosedError,
  SignalledError,
  UsageError,
} from '../base/errors.js';
import { startThread, threadAvailable } from '../base/thread-module.js';
import { signalEndingWith } from '../base/stop-signals.js';
import { workbookFormat } from '../io/input/binary-kinds.js';
import { inputName, openBytes, peekBytes } from '../io/input/byte-source.js';
import { copyOfWorkbookStream } from '../io/input/workbook-copy.js';
import type { PrivateTemporaryFile } from '../lib/private-temporary-file.js';
import { openNamedFile } from '../lib/named-file.js';

/** The validate verbs a thread can run, by their command line's words. */
export type ThreadedVerb = 'stock validate' | 'customer validate';

/** What a thread needs to run a verb again: its words and its parsed options (plain data). */
export interface ThreadedValidation {
  verb: ThreadedVerb;
  options: object;
}

/** The thread's start: the verb, and the main thread's globals, environment and terminals. */
export interface ThreadStart extends ThreadedValidation {
  globals: GlobalOptions;
  env: Record<string, string | undefined>;
  terminals: { stdout: boolean; stderr: boolean; stdin: boolean; columns: number | undefined };
  /** A workbook piped on stdin, as the main thread copied it: the thread's stdin. */
  stdinCopy?: string;
}

/** An error as it crosses between threads: enough to end the command as it would have ended on the main thread. */
export interface CrossingError {
  name: string;
  message: string;
  exitCode?: ExitCode;
  stack?: string;
  file?: string;
  line?: number;
  field?: string;
  closingLine?: B2bctlError['closingLine'];
}

/** From the thread: output, a question for the person at the terminal, the end. */
export type FromThread =
  | { kind: 'write'; stream: 'stdout' | 'stderr'; id: number; chunk: Uint8Array | string }
  | { kind: 'ask'; id: number; method: keyof Prompter; args: unknown[] }
  | { kind: 'done' }
  | { kind: 'failed'; error: CrossingError };

/** To the thread: a write done, an answer, Ctrl-C (or SIGTERM). */
export type ToThread =
  | { kind: 'written'; id: number }
  | { kind: 'answer'; id: number; value?: unknown; error?: CrossingError }
  | { kind: 'interrupt'; signal: string };

/** The young generation of the thread: small, so what a long read leaves behind is collected as it goes. */
const youngGenerationMb = 4;

/** Where a validation runs: on its thread, or here, with stdin's bytes when they were already looked at. */
export type ValidationPlace =
  | { thread: { size: number; stdinCopy?: PrivateTemporaryFile } }
  | { here: { stdin?: NodeJS.ReadableStream; done?: () => void } };

/**
 * A workbook of `input.workbookThreadMb` or more goes to the thread: a named file by its size and first bytes; on
 * stdin (never a terminal) by its first bytes, then by the size of the private copy a workbook needs anyway (a zip
 * is read from its end). The copy is the main thread's, so its removal on Ctrl-C and at exit is too.
 */
export async function validationPlace(file: string, context: Context): Promise<ValidationPlace> {
  const here = { here: {} };
  if (!isMainThread || (file === '-' && context.io.isStdinTTY)) return here;
  const threshold = (await context.session()).get('input.workbookThreadMb');
  if (threshold === undefined) return here;
  if (file !== '-') {
    const size = await workbookFileSize(file, threshold);
    return size === undefined || !threadAvailable('validate-thread') ? here : { thread: { size } };
  }
  const bytes = await openBytes('-', context.io.stdin, { interrupt: context.interrupt });
  const peeked = await peekBytes(bytes.stream, 256);
  const format = workbookFormat(peeked.head);
  if (format === undefined || !threadAvailable('validate-thread')) return { here: { stdin: peeked.stream } };
  const copy = await copyOfWorkbookStream(peeked.stream, inputName('-'), format, context.interrupt, false);
  const { size } = await stat(copy.path);
  if (size >= threshold * 1_000_000) return { thread: { size, stdinCopy: copy } };
  return { here: { stdin: createReadStream(copy.path), done: copy.remove } };
}

/** The size of a named file that is a workbook (by its first bytes) of `thresholdMb` or more; else undefined. */
async function workbookFileSize(file: string, thresholdMb: number): Promise<number | undefined> {
  let opened;
  try {
    opened = await openNamedFile(file);
  } catch {
    // Missing, unreadable or not a file: the reader says so in the words of every other input.
    return undefined;
  }
  const { handle, stats } = opened;
  try {
    if (stats.size < thresholdMb * 1_000_000) return undefined;
    const head = Buffer.alloc(256);
    await handle.read(head, 0, head.length, 0);
    return workbookFormat(head) === undefined ? undefined : stats.size;
  } finally {
    await handle.close();
  }
}

/**
 * Runs `validation` on a thread and ends as it ends: resolves when it succeeded, throws its error otherwise. The
 * thread's old generation is bounded by the workbook's size (shared strings take ~8 MB of heap for each MB of zip at
 * most), from 128 MB up; a workbook that needs more is one line naming the setting that validates it here instead.
 */
export async function validateOnThread(
  validation: ThreadedValidation,
  file: string,
  sizeBytes: number,
  context: Context,
  options: { oldGenerationMb?: number; stdinCopy?: string } = {},
): Promise<void> {
  const oldGenerationMb = options.oldGenerationMb ?? Math.max(128, Math.ceil((8 * sizeBytes) / 1_000_000));
  const start: ThreadStart = {
    ...validation,
    globals: context.globals,
    env: { ...context.env },
    terminals: {
      stdout: context.io.isStdoutTTY,
      stderr: context.io.isStderrTTY,
      stdin: context.io.isStdinTTY,
      columns: (context.io.stderr as NodeJS.WriteStream).columns,
    },
    stdinCopy: options.stdinCopy,
  };
  context.log.debug(
    `${inputName(file)}: a workbook of ${(sizeBytes / 1_000_000).toFixed(1)} MB (input.workbookThreadMb or more), validated on a thread of its own with a heap of at most ${oldGenerationMb} MB`,
  );
  // Started as every thread is (base/thread-module.ts): from the sources its TypeScript module (in cli/: it builds a
  // context, which only cli/ may), else built beside the CLI or, in the single file, an asset. The URL is made here,
  // not when this module loads: the thread's own bundle holds this module too, and its import.meta.url is a data: URL,
  // against which no path resolves.
  const worker = startThread('validate-thread', new URL('../cli/validate-thread-main.ts', import.meta.url), {
    workerData: start,
    resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb, maxOldGenerationSizeMb: oldGenerationMb },
  });
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
  const send = (message: ToThread) => worker.postMessage(message);
  const interrupt = () => send({ kind: 'interrupt', signal: String(context.interrupt.reason ?? 'SIGINT') });
  context.interrupt.addEventListener('abort', interrupt, { once: true });
  if (context.interrupt.aborted) interrupt();
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (message: FromThread) => {
        if (message.kind === 'write')
          context.io[message.stream].write(message.chunk, () => send({ kind: 'written', id: message.id }));
        else if (message.kind === 'ask') void relayQuestion(message, context, send);
        else if (message.kind === 'done') resolve();
        else reject(rebuiltError(message.error));
      });
      worker.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new B2bctlError(
                `${inputName(file)}: validating this workbook needed more than the ${oldGenerationMb} MB its thread is given; validate it on the main thread with b2bctl config set input.workbookThreadMb off, then run it again.`,
                1,
              )
            : error,
        ),
      );
      worker.on('exit', (code) =>
        reject(new Error(`the validation thread ended before it finished (exit code ${code})`)),
      );
    });
  } finally {
    context.interrupt.removeEventListener('abort', interrupt);
    await worker.terminate();
  }
}

/** Asks the person at the terminal what the thread asks, and sends the answer, or why there is none, back. */
async function relayQuestion(
  question: Extract<FromThread, { kind: 'ask' }>,
  context: Context,
  send: (message: ToThread) => void,
): Promise<void> {
  try {
    const prompter = await context.prompter();
    const ask = prompter[question.method] as (...args: unknown[]) => Promise<unknown>;
    send({ kind: 'answer', id: question.id, value: await ask.apply(prompter, question.args) });
  } catch (error) {
    send({ kind: 'answer', id: question.id, error: crossing(error) });
  }
}

/** An error ready to cross to the other thread. */
export function crossing(error: unknown): CrossingError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { name, message, stack } = error;
  if (!(error instanceof B2bctlError)) return { name, message, stack };
  const located = error as Partial<InputError & ConfigError>;
  return {
    name,
    message,
    stack,
    exitCode: error.exitCode,
    file: located.file,
    line: located.line,
    field: located.field,
    closingLine: error.closingLine,
  };
}

/** The error that crossed, as the class it was thrown as where the classes are known; else a plain one of its code. */
export function rebuiltError(crossed: CrossingError): Error {
  const { message } = crossed;
  let error: Error;
  if (crossed.exitCode === undefined) error = new Error(message);
  else if (crossed.name === 'InputError')
    error = new InputError(message, {
      file: crossed.file,
      line: crossed.line,
      field: crossed.field,
      missing: crossed.exitCode === 66,
    });
  else if (crossed.name === 'InterruptedError') error = new InterruptedError(message);
  else if (crossed.name === 'OutputClosedError') error = new OutputClosedError(message);
  else if (crossed.name === 'UsageError') error = new UsageError(message);
  else if (crossed.name === 'ConfigError') error = new ConfigError(message, crossed.file ?? '');
  else if (crossed.name === 'SignalledError') error = new SignalledError(message, signalEndingWith(crossed.exitCode));
  else {
    error = new B2bctlError(message, crossed.exitCode);
    error.name = crossed.name;
  }
  if (error instanceof B2bctlError && crossed.closingLine) error.closingLine = crossed.closingLine;
  if (crossed.stack !== undefined) error.stack = crossed.stack;
  return error;
}
