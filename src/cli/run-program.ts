import { type Command, CommanderError } from 'commander';
import type { Context, GlobalOptions, IOStreams } from '../context.js';
import type { ExitCode } from '../base/errors.js';
import { type LogFormat, logFormatOf } from '../io/output/log-formats.js';
import type { Logger } from '../io/output/logger.js';
import {
  buildProgram,
  endParsesWithErrors,
  globalsOf,
  parseEndExitCode,
  refuseExcelWithOtherFormat,
  refuseHelpOfUnknownCommand,
  refuseUnknownLogFormat,
} from './program.js';
import { bundleGoneLine, goneModuleOf } from './bundle-gone.js';

/** The environment variables a command line is read with (process.env, or a test's own). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** EX_TEMPFAIL: the code of a command to start again, decided without loading the error table (bundle-gone.ts). */
const restartIt: ExitCode = 75;
/** A failed write of stdout: exit 75, as main.ts's stdout handler ends. */
const failedWrite: ExitCode = 75;

/** Whether `error` is stdout's own failure (the same error, or one of the same code from the same system call). */
function failedOnStdout(error: unknown, stdoutError: NodeJS.ErrnoException | undefined): boolean {
  if (stdoutError === undefined) return false;
  if (error === stdoutError) return true;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return code !== undefined && code === stdoutError.code && syscall === stdoutError.syscall;
}

/** Builds the context a verb runs in, once commander has parsed the global options. */
export type ContextFactory = (globals: GlobalOptions) => Context | Promise<Context>;

/**
 * Runs one b2bctl command line and decides its exit code: parses `argv` (as process.argv has it: node, the
 * script, then the words) with the real program, runs the verb in the context `contextFor` builds, writes help
 * to `io.stdout` and usage errors and the error that ends a command to stderr as log lines. main.ts calls it with
 * the process's streams; test/support/command-line.ts with memory streams and a test context, so a command line
 * run in process ends exactly as the binary's does.
 */
export async function runProgram(
  argv: readonly string[],
  io: IOStreams,
  env: Environment,
  contextFor: ContextFactory,
  /** Told the exit code as soon as it is known, before the context's closing (which may wait on connections). */
  decided?: (code: ExitCode) => void,
  /** The error stdout failed with, when the process ends on it with a line of its own (main.ts's stdout handler). */
  stdoutFailure?: () => NodeJS.ErrnoException | undefined,
): Promise<ExitCode> {
  const written = argv;
  argv = helpOfCommandPath(argv);
  let context: Context | undefined;
  let globals: GlobalOptions | undefined;
  // Loaded as a command starts: a `--watch` stopped after `npm install -g` replaced dist/ could not load it (a user test).
  let errorTable: Promise<typeof import('../base/errors.js')> | undefined;
  const program = await buildProgram(async (command, load, options) => {
    errorTable = import('../base/errors.js');
    const parsed = globalsOf(command, env);
    await refuseUnknownLogFormat(parsed, env);
    await refuseExcelWithOtherFormat(parsed, writesReport(command));
    // The default is text: timestamped lines when stderr is not a terminal (cron), bare on one.
    globals = { ...parsed, logFormat: parsed.logFormat ?? 'text' };
    context = await contextFor(globals);
    const run = await load();
    await run(options, context);
  }, argv);

  // The global options as commander has read them so far, for what is written before (or without) a command's
  // context: a usage error, a flag combination a group refuses.
  const globalsSoFar = (): GlobalOptions => globals ?? globalsBeforeTheParse(program, env, written);
  const verbose = (): boolean => globalsSoFar().verbose;
  const fallbackLog = fallbackLogOf(io, globalsSoFar);
  // Usage errors and the usage line after them are log lines too: timestamped, or JSON, like the rest. Commander
  // writes them just before it throws, so they are kept and logged once the parse has ended.
  const parseErrors: string[] = [];
  const logParseErrors = async (): Promise<void> => {
    if (parseErrors.length === 0) return;
    const [log, { usageErrorLine }] = await Promise.all([fallbackLog(), import('./flag-hints.js')]);
    const json = globalsSoFar().logFormat === 'json';
    for (const text of parseErrors.splice(0))
      logParseError(text.startsWith('error:') ? usageErrorLine(text, argv.slice(2)) : text, { log, json, io });
  };
  endParsesWithErrors(program, {
    out: (text) => io.stdout.write(text),
    err: (text) => parseErrors.push(text.replace(/\n$/, '')),
  });

  let gone: string | undefined;
  try {
    await refuseHelpOfUnknownCommand(program, written);
    await program.parseAsync(argv);
    await logParseErrors();
    return told(0, decided);
  } catch (error) {
    await logParseErrors();
    if (error instanceof CommanderError) return told(parseEndExitCode(error), decided);
    // Before anything more is loaded: the modules on disk may be another build's by now.
    gone = goneModuleOf(error);
    if (gone !== undefined) return told(saidGone(gone, context, io), decided);
    // The write the command failed on is stdout's, which its own handler says in one line and ends on (exit 75):
    // said here too, it was a second, raw line (`error: ENOSPC: no space left on device, write`).
    // A stream calls back a failed write before it emits 'error': a turn of the event loop lets that handler see it.
    if ((error as NodeJS.ErrnoException | undefined)?.syscall === 'write') await new Promise(setImmediate);
    if (failedOnStdout(error, stdoutFailure?.())) return told(failedWrite, decided);
    // Loaded only by a command, or on failure: `--help` should not pay for the error table.
    const { B2bctlError, describeError, exitCodeOf } = await (errorTable ?? import('../base/errors.js'));
    const log = context?.log ?? (await fallbackLog());
    log.error(describeError(error, verbose()));
    if (error instanceof B2bctlError && error.closingLine)
      log.notice(error.closingLine.message, error.closingLine.fields);
    return told(exitCodeOf(error), decided);
  } finally {
    // Closing may load a module too: said once already, the same failure is not said again.
    await context?.close().catch((error: unknown) => {
      if (gone === undefined || goneModuleOf(error) === undefined) throw error;
    });
  }
}

/**
 * The logger of what is written without a command's context, loaded only when there is something to log: help, the
 * most common short run, never is.
 */
function fallbackLogOf(io: IOStreams, globalsSoFar: () => GlobalOptions): () => Promise<Logger> {
  let fallbackLogger: Logger | undefined;
  return async () => {
    const [{ createLogger }, { systemClock }] = await Promise.all([
      import('../io/output/logger.js'),
      import('../base/clock.js'),
    ]);
    return (fallbackLogger ??= createLogger({
      stderr: io.stderr,
      isStderrTTY: io.isStderrTTY,
      clock: systemClock,
      format: globalsSoFar().logFormat ?? ('text' satisfies LogFormat),
      quiet: false,
      verbose: globalsSoFar().verbose,
    }));
  };
}

/** Says that the bundle's module `gone` is missing, with the logger the command has (nothing more is loaded). */
function saidGone(gone: string, context: Context | undefined, io: IOStreams): ExitCode {
  const line = bundleGoneLine(gone);
  if (context) context.log.error(line);
  else io.stderr.write(`error: ${line}\n`);
  return restartIt;
}

/**
 * One text commander wrote at a usage error. The error is a log line (timestamped off a terminal, as cron logs want),
 * and so are the two lines of usage after it, so a cron log stands alone; a whole help (a group named without its
 * command) is text to read, plain (JSON lines keep every line a record).
 */
function logParseError(text: string, { log, json, io }: { log: Logger; json: boolean; io: IOStreams }): void {
  if (text.startsWith('error:') || json) log.error(text);
  else if (/^Usage: .*\nRun ".*--help" for details\.$/.test(text))
    for (const line of text.split('\n')) log.notice(line);
  else io.stderr.write(`${text}\n`);
}

/**
 * The global options commander has read so far, and --log-format as written: a help of a command that does not exist
 * is refused before the parse reads it, and its error is logged in the format asked.
 */
function globalsBeforeTheParse(program: Command, env: Environment, written: readonly string[]): GlobalOptions {
  const read = globalsOf(program, env);
  return { ...read, logFormat: logFormatOf(flagValueIn(written, '--log-format')) ?? read.logFormat };
}

/** The value of a flag as written (`--flag value` or `--flag=value`), before commander has read it. */
function flagValueIn(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  if (at >= 0) return argv[at + 1];
  return argv.find((word) => word.startsWith(`${flag}=`))?.slice(flag.length + 1);
}

/** The exit code, told to whoever waits for it before the context has closed. */
function told(code: ExitCode, decided: ((code: ExitCode) => void) | undefined): ExitCode {
  decided?.(code);
  return code;
}

/**
 * `b2bctl help stock push` as `b2bctl stock push --help`: commander's help command shows the help of the first word
 * only (`stock`), where a person asked for the verb's.
 */
export function helpOfCommandPath(argv: readonly string[]): readonly string[] {
  const words = argv.slice(2);
  if (words[0] !== 'help' || words.length < 2 || words.slice(1).some((word) => word.startsWith('-'))) return argv;
  return [...argv.slice(0, 2), ...words.slice(1), '--help'];
}

/** Whether the command is a bulk run, whose `--excel` is its report's: the one kind with a `--report` flag. */
function writesReport(command: { options: readonly { long?: string }[] }): boolean {
  return command.options.some((option) => option.long === '--report');
}
