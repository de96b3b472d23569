import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Clock } from '../../src/clock.js';
import { type Context, createContext, type GlobalOptions } from '../../src/context.js';

export interface MemoryRun {
  context: Context;
  stdin: PassThrough;
  stdout(): string;
  stderr(): string;
}

/**
 * A context over memory streams for running a verb in process: each stream a terminal or not, a fresh
 * config folder unless `env` names one, and the global options as the flags would set them.
 */
export function memoryRun(
  options: {
    env?: Record<string, string>;
    globals?: Partial<GlobalOptions>;
    stdoutTTY?: boolean;
    stderrTTY?: boolean;
    stdinTTY?: boolean;
    clock?: Clock;
  } = {},
): MemoryRun {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  const context = createContext({
    io: {
      stdout,
      stderr,
      stdin,
      isStdoutTTY: options.stdoutTTY ?? false,
      isStderrTTY: options.stderrTTY ?? false,
      isStdinTTY: options.stdinTTY ?? false,
    },
    env: { B2BCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'b2bctl-memory-')), ...options.env },
    globals: { quiet: false, verbose: false, color: false, input: false, ...options.globals },
    clock: options.clock,
  });
  return { context, stdin, stdout: () => out, stderr: () => err };
}
