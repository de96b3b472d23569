import { PassThrough } from 'node:stream';
import type { Clock } from '../../../src/clock.js';
import { type Context, createContext } from '../../../src/context.js';

export interface MemoryContext {
  context: Context;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line (a server's URL). */
  firstLine(): Promise<string>;
  /** SIGINT/SIGTERM as the command sees it. */
  interrupt(): void;
}

/** A context over memory streams, stdout a terminal or not, for running a webhook verb in process. */
export function memoryContext(
  env: Record<string, string>,
  options: { stdoutTTY?: boolean; clock?: Clock } = {},
): MemoryContext {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  const controller = new AbortController();
  const context = createContext({
    io: {
      stdout,
      stderr,
      stdin: new PassThrough(),
      isStdoutTTY: options.stdoutTTY ?? false,
      isStderrTTY: false,
      isStdinTTY: false,
    },
    env,
    globals: { quiet: false, verbose: false, color: false, input: false },
    interrupt: controller.signal,
    clock: options.clock,
  });
  return {
    context,
    stdout: () => out,
    stderr: () => err,
    firstLine: () =>
      new Promise((resolve) => {
        const check = () => {
          const newline = out.indexOf('\n');
          if (newline < 0) return false;
          resolve(out.slice(0, newline));
          return true;
        };
        if (!check()) stdout.on('data', () => check());
      }),
    interrupt: () => controller.abort('SIGTERM'),
  };
}
