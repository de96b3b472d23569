import { type Command, CommanderError } from 'commander';
import type { Context, IOStreams } from '../context.js';
import type { ExitCode } from '../errors.js';
import { systemClock } from '../clock.js';
import { createLogger, type Logger, logFormatInArgv } from '../io/output/logger.js';
import type { CommandRunner } from './command-group.js';
import { buildProgram, globalsOf } from './program.js';

// The two exit codes decided before any command runs (the rest come from src/errors.ts).
const exitOk: ExitCode = 0;
const exitUsage: ExitCode = 2;

/** Runs b2bctl with process argv and streams; every exit code is decided here. */
async function main(): Promise<void> {
  const io: IOStreams = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    isStdoutTTY: process.stdout.isTTY === true,
    isStderrTTY: process.stderr.isTTY === true,
    isStdinTTY: process.stdin.isTTY === true,
  };
  // A reader that stops early (`| head`) closes the pipe: that is not an error, just the end.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? exitOk);
    // Any other failure to write the data (a full disk, a closed terminal) is one line and exit 1.
    process.stderr.write(`error: cannot write to stdout (${error.code ?? error.message}).\n`);
    process.exit(1);
  });
  const interrupt = interruptOnSignals();
  // For what is written before (or without) a command's context: commander's usage errors, a failed start.
  let fallbackLogger: Logger | undefined;
  const fallbackLog = (): Logger =>
    (fallbackLogger ??= createLogger({
      stderr: io.stderr,
      isStderrTTY: io.isStderrTTY,
      clock: systemClock,
      format: logFormatInArgv(process.argv, process.env),
      quiet: false,
      verbose,
    }));
  let context: Context | undefined;
  let verbose = process.argv.includes('--verbose');

  const program = await buildProgram(async <T>(command: Command, load: () => Promise<CommandRunner<T>>, options: T) => {
    // On the real stderr the default is text: timestamped lines when it is not a terminal (cron), bare on one.
    const parsed = globalsOf(command, process.env);
    const globals = { ...parsed, logFormat: parsed.logFormat ?? 'text' };
    verbose = globals.verbose;
    // Loaded here, not at the top: `--help` and `--version` need none of it.
    const { createContext } = await import('../context.js');
    context = createContext({ io, env: process.env, globals, interrupt });
    const run = await load();
    await run(options, context);
  }, process.argv);
  // Subcommands copied the root's settings when they were created, so each one needs these too:
  // without the override a usage error in `sellers list` would exit 1 through process.exit.
  const configure = (command: Command): void => {
    command.exitOverride();
    command.configureOutput({
      writeOut: (text) => io.stdout.write(text),
      // Usage errors and the usage line after them are log lines too: timestamped, or JSON, like the rest.
      writeErr: (text) => fallbackLog().error(text.replace(/\n$/, '')),
    });
    for (const subcommand of command.commands) configure(subcommand);
  };
  configure(program);

  try {
    await program.parseAsync(process.argv);
    process.exitCode = exitOk;
  } catch (error) {
    if (error instanceof CommanderError) {
      const finePrint = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
      process.exitCode = finePrint ? exitOk : exitUsage;
    } else {
      // Loaded only on failure: `--help` should not pay for the error table.
      const { describeError, exitCodeOf } = await import('../errors.js');
      (context?.log ?? fallbackLog()).error(describeError(error, verbose));
      process.exitCode = exitCodeOf(error);
    }
  } finally {
    await context?.close();
  }
}

/** The first SIGINT/SIGTERM asks the command to stop cleanly; a second one ends the process at once. */
function interruptOnSignals(): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // b2bctl owns these two signals. conf's atomic writes (atomically → when-exit) add a handler that
  // re-raises the signal to end the process, which our handler then took for a second Ctrl-C: a
  // bulk run died at once with exit 130 instead of finishing its requests and exiting 75.
  process.on('newListener', (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if ((event === 'SIGINT' || event === 'SIGTERM') && listener !== onSignal)
      queueMicrotask(() => process.off(event, listener));
  });
  return controller.signal;
}

await main();
