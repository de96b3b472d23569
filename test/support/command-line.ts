/**
 * A command line run in process: argv parsed by the real program (src/cli/program.ts, the groups' cli.ts), the
 * verb run on a test context, and the exit code decided as src/cli/main.ts decides it. For tests whose subject
 * is what a command does with its flags and input; what only a process shows (signals, pipes, a terminal, the
 * exit of the binary itself) stays with `runCli` in test/support/cli.ts.
 */
import { type Command, CommanderError } from 'commander';
import { buildProgram, globalsOf } from '../../src/cli/program.js';
import { systemClock } from '../../src/clock.js';
import { describeError, exitCodeOf } from '../../src/errors.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import type { RunResult } from './cli.js';
import { sandboxPassword, sandboxUser } from './sandbox.js';
import { testContext, type TestContextOptions } from './test-context.js';

export interface CommandLineOptions extends Omit<TestContextOptions, 'globals' | 'configDir'> {
  /** The config folder (B2BCTL_CONFIG_DIR), as runCli takes it. */
  configDir: string;
  /** The working folder for the run: relative paths in argv and in messages are read from it. */
  cwd?: string;
}

/**
 * Runs `b2bctl ARGS` in process, with stdin a closed pipe unless given and the system clock unless a test
 * passes its own; resolves to what runCli resolves to (the signal is always null).
 */
export async function runCommandLine(args: readonly string[], options: CommandLineOptions): Promise<RunResult> {
  const argv = ['node', 'b2bctl', ...args];
  let stdout = '';
  let stderr = '';
  let code = 0;
  const { cwd, ...contextOptions } = options;
  const program = await buildProgram(async (command, load, verbOptions) => {
    const test = testContext({
      clock: systemClock,
      stdin: '',
      ...contextOptions,
      globals: globalsOf(command, { NO_COLOR: '1', B2BCTL_LOG_FORMAT: 'plain', ...options.env }),
    });
    code = await test.run(await load(), verbOptions);
    stdout += test.stdout();
    stderr += test.stderr();
  }, argv);
  const configure = (command: Command): void => {
    command.exitOverride();
    command.configureOutput({ writeOut: (text) => (stdout += text), writeErr: (text) => (stderr += text) });
    command.commands.forEach(configure);
  };
  configure(program);
  const previousFolder = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      const finePrint = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
      code = finePrint ? 0 : 2;
    } else {
      // Thrown by a group's cli.ts before any verb ran (a flag combination it refuses).
      stderr += `${describeError(error, args.includes('--verbose'))}\n`;
      code = exitCodeOf(error);
    }
  } finally {
    if (cwd) process.chdir(previousFolder);
  }
  return { code, signal: null, stdout, stderr };
}

/** `b2bctl login --username … --password-stdin` in process, as cli.ts's `login` runs it in the binary; throws when it fails. */
export async function login(
  sandbox: RunningSandbox,
  configDir: string,
  extraArgs: readonly string[] = [],
): Promise<RunResult> {
  const result = await runCommandLine(
    ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin', ...extraArgs],
    { configDir, stdin: `${sandboxPassword}\n` },
  );
  if (result.code !== 0) throw new Error(`login failed with exit ${result.code}: ${result.stderr}`);
  return result;
}
