/**
 * A real `createContext` for running a command's `run(options, context)` in process, as gh's
 * `iostreams.Test()` does: memory streams with a terminal or not per stream, its own config folder,
 * a fake clock, scripted stdin and prompt answers, and an interrupt the test fires.
 */
import { join } from 'node:path';
import { writeSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CommandRunner } from '../../src/command-kit/command-group.js';
import type { Clock } from '../../src/base/clock.js';
import { type Context, createContext, type GlobalOptions, type Prompter } from '../../src/context.js';
import { describeError, exitCodeOf, type ExitCode, InterruptedError } from '../../src/base/errors.js';
import { FakeClock } from './fake-clock.js';
import { temporaryFolder } from './temporary.js';

export interface TestContextOptions {
  /** Which streams are terminals (all off by default: a pipe, as under cron). */
  tty?: { stdout?: boolean; stderr?: boolean; stdin?: boolean };
  /** Variables on top of B2BCTL_CONFIG_DIR and NO_COLOR; never the environment of the person running the tests. */
  env?: Record<string, string>;
  /** The config folder (B2BCTL_CONFIG_DIR); a fresh temporary one when absent. */
  configDir?: string;
  /** Global flags (--profile, -o, --quiet, --no-input…) on top of the defaults a bare command line gets. */
  globals?: Partial<GlobalOptions>;
  /** Written to stdin, which is then closed; stdin stays open and empty when absent. */
  stdin?: string | Buffer;
  /** Answers to prompts, in order; `null` is Ctrl-D (the prompt's input closed). */
  answers?: (string | null)[];
  /** stdout as a terminal this many columns wide (a tty.WriteStream's `columns`); none when absent. */
  columns?: number;
  /**
   * stdout redirected to a regular file (`> FILE`): the descriptor of the file opened for writing, written as node's
   * stdout on a file is (synchronously), so a command can fsync it; stdout() still gives what was written.
   */
  stdoutFd?: number;
  /** A fake clock at 0 when absent; pass `systemClock` for a command that waits on real events. */
  clock?: Clock;
}

/** One prompt the command asked, in order. */
export interface AskedPrompt {
  kind: 'input' | 'password' | 'select';
  message: string;
  /** A select's choices, as they are shown. */
  choices?: string[];
  /** An input's default, shown beside the question: an empty answer (Enter) takes it, as inquirer's does. */
  default?: string;
}

export interface TestContext {
  context: Context;
  /** The clock the command sees (a FakeClock unless the test passed its own). */
  clock: Clock;
  configDir: string;
  env: Record<string, string>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first full stdout line (a server's URL). */
  firstLine(): Promise<string>;
  /** SIGINT or SIGTERM as the command sees it. */
  interrupt(signal?: NodeJS.Signals): void;
  /**
   * A second stop signal as the command sees it just before the process ends (src/cli/main.ts, endAtOnce): the
   * command's last words are said, and the test's process goes on (the command with it, until the test ends it).
   */
  stopAtOnce(exitCode: number): void;
  /** The prompts asked so far. */
  prompts: AskedPrompt[];
  /**
   * Runs a verb as `src/cli/main.ts` does after parsing: an error becomes its one line on stderr and its
   * exit code, and the context is closed. Resolves with the exit code; the error, if any, is kept in `error`.
   */
  run<T>(runner: CommandRunner<T>, options: T): Promise<ExitCode>;
  error: unknown;
}

/** What the scripted prompter says when the test gave it no answer for a prompt: the test is wrong, not the command. */
class UnscriptedPrompt extends Error {}

export function testContext(options: TestContextOptions = {}): TestContext {
  const stdout =
    options.stdoutFd === undefined
      ? Object.assign(new PassThrough(), options.columns === undefined ? {} : { columns: options.columns })
      : fileStdout(options.stdoutFd);
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  if (options.stdin !== undefined) stdin.end(options.stdin);

  const configDir =
    options.configDir ?? options.env?.B2BCTL_CONFIG_DIR ?? join(temporaryFolder('b2bctl-context-'), 'config');
  const env = { NO_COLOR: '1', B2BCTL_CONFIG_DIR: configDir, ...options.env };
  const clock = options.clock ?? new FakeClock(Date.UTC(2026, 10, 23, 12, 0, 0));
  const controller = new AbortController();
  const atOnce = new Set<(exitCode: number) => void>();
  const prompts: AskedPrompt[] = [];
  const answers = [...(options.answers ?? [])];
  const answer = async (
    kind: AskedPrompt['kind'],
    message: string,
    choices?: string[],
    defaultValue?: string,
  ): Promise<string> => {
    prompts.push({
      kind,
      message,
      ...(choices ? { choices } : {}),
      ...(defaultValue === undefined ? {} : { default: defaultValue }),
    });
    if (answers.length === 0) throw new UnscriptedPrompt(`no scripted answer for the ${kind} prompt "${message}"`);
    const next = answers.shift();
    // The same error the real prompter gives when its input closes (src/cli/prompter.ts).
    if (next === null || next === undefined)
      throw new InterruptedError('No answer at the prompt (its input was closed); nothing was changed.');
    return next === '' && defaultValue !== undefined ? defaultValue : next;
  };
  const prompter: Prompter = {
    input: (message, defaultValue) => answer('input', message, undefined, defaultValue),
    password: (message) => answer('password', message),
    select: (message, choices) =>
      answer(
        'select',
        message,
        choices.map((choice) => choice.name),
      ),
  };
  const globals: GlobalOptions = { quiet: false, verbose: false, color: false, input: true, ...options.globals };

  const context = createContext({
    io: {
      stdout,
      stderr,
      stdin,
      isStdoutTTY: options.tty?.stdout ?? false,
      isStderrTTY: options.tty?.stderr ?? false,
      isStdinTTY: options.tty?.stdin ?? false,
    },
    env,
    globals,
    clock,
    prompter,
    interrupt: controller.signal,
    onStoppedAtOnce: (listener) => {
      atOnce.add(listener);
      return () => atOnce.delete(listener);
    },
  });

  const test: TestContext = {
    context,
    clock,
    configDir,
    env,
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
    interrupt: (signal = 'SIGTERM') => controller.abort(signal),
    stopAtOnce: (exitCode) => {
      for (const listener of atOnce) listener(exitCode);
    },
    prompts,
    error: undefined,
    async run(runner, runOptions) {
      try {
        await runner(runOptions, context);
        return 0;
      } catch (error) {
        if (error instanceof UnscriptedPrompt) throw error;
        test.error = error;
        stderr.write(`${describeError(error, globals.verbose)}\n`);
        return exitCodeOf(error);
      } finally {
        await context.close();
        // What the command wrote last reaches the memory streams' readers on the next turn.
        await nextTurn();
      }
    },
  };
  return test;
}

/** A stdout on a regular file: each chunk written to it synchronously, and passed on as data (TestContext.stdout). */
function fileStdout(fd: number): Writable & { fd: number } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writeSync(fd, chunk);
      stream.emit('data', chunk);
      done();
    },
  });
  return Object.assign(stream, { fd });
}
