/**
 * A command line run in process: argv parsed, the verb run and the exit code decided by the binary's own
 * runProgram (src/cli/run-program.ts), with a test context for the verb. For tests whose subject
 * is what a command does with its flags and input; what only a process shows (signals, pipes, a terminal, the
 * exit of the binary itself) stays with `runCli` in test/support/cli.ts.
 */
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { runProgram } from '../../src/cli/run-program.js';
import { systemClock } from '../../src/base/clock.js';
import type { Dialect } from '../../src/sandbox/dialects/dialect.js';
import type { SandboxOptions } from '../../src/sandbox/options.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { freshConfigDir } from './cli.js';
import type { RunResult } from './cli.js';
import { separateClosingLine } from './closing-line.js';
import { sandboxPassword, sandboxUser, startTestSandbox } from './sandbox.js';
import { type AskedPrompt, type TestContext, testContext, type TestContextOptions } from './test-context.js';

export interface CommandLineOptions extends Omit<TestContextOptions, 'globals' | 'configDir'> {
  /** The config folder (B2BCTL_CONFIG_DIR), as runCli takes it. */
  configDir: string;
  /** The working folder for the run: relative paths in argv and in messages are read from it. */
  cwd?: string;
  /** Told of the verb's test context once it exists: to interrupt the run at an event of the test's choosing. */
  started?: (test: TestContext) => void;
}

/**
 * Runs `b2bctl ARGS` in process, with stdin a closed pipe unless given and the system clock unless a test
 * passes its own; resolves to what runCli resolves to (the signal is always null).
 */
export async function runCommandLine(
  args: readonly string[],
  options: CommandLineOptions,
): Promise<RunResult & { prompts: readonly AskedPrompt[] }> {
  const { cwd, started, ...contextOptions } = options;
  // What commander writes itself (help, usage errors); the verb writes to its test context's streams.
  const program = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough() };
  let stdout = '';
  let stderr = '';
  program.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  program.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let test: TestContext | undefined;
  const previousFolder = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const code = await runProgram(
      ['node', 'b2bctl', ...args],
      {
        ...program,
        isStdoutTTY: options.tty?.stdout ?? false,
        isStderrTTY: options.tty?.stderr ?? false,
        isStdinTTY: false,
      },
      { NO_COLOR: '1', B2BCTL_LOG_FORMAT: 'plain', ...options.env },
      (globals) => {
        test = testContext({ clock: systemClock, stdin: '', ...contextOptions, globals });
        started?.(test);
        return test.context;
      },
    );
    // What was written last reaches the memory streams' readers on the next turn.
    await nextTurn();
    return {
      ...separateClosingLine({
        code,
        signal: null,
        stdout: stdout + (test?.stdout() ?? ''),
        stderr: stderr + (test?.stderr() ?? ''),
      }),
      // The prompts the run asked, in order (a scripted answer is taken by each).
      prompts: test?.prompts ?? [],
    };
  } finally {
    if (cwd) process.chdir(previousFolder);
  }
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

/**
 * `login` against a sandbox speaking `dialect`: where its token route differs from the document's, the operator
 * says so once with two settings first (`paths.token`, `auth.style form`). Throws when a step fails.
 */
export async function loginToDialect(sandbox: RunningSandbox, dialect: Dialect, configDir: string): Promise<void> {
  const settings =
    dialect.tokenPath === '/v1/auth/token'
      ? []
      : [
          ['config', 'set', 'paths.token', dialect.tokenPath],
          ['config', 'set', 'auth.style', 'form'],
        ];
  for (const args of settings) {
    const result = await runCommandLine(args, { configDir });
    if (result.code !== 0) throw new Error(`${args.join(' ')} (${dialect.name} dialect): ${result.stderr}`);
  }
  await login(sandbox, configDir);
}

/**
 * A sandbox on an ephemeral port and a fresh config folder logged in to it (by `login`, or `logIn` for another
 * way in, such as loginToDialect); close it with stopTestSandbox.
 */
export async function startLoggedInSandbox(
  overrides: Partial<SandboxOptions> = {},
  logIn: (sandbox: RunningSandbox, configDir: string) => Promise<unknown> = login,
): Promise<{ sandbox: RunningSandbox; configDir: string }> {
  const sandbox = await startTestSandbox(overrides);
  const configDir = freshConfigDir();
  await logIn(sandbox, configDir);
  return { sandbox, configDir };
}
