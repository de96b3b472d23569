/**
 * End-to-end support: spawns the built CLI (`node bin/b2bctl.js`) with a clean environment and a fresh config
 * folder, and keeps one sandbox per test file for the tests that run it against the platform.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { systemClock } from '../../src/base/clock.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { login as loginInProcess, runCommandLine } from './command-line.js';
import {
  clearSandboxCustomers,
  fetchToken,
  logInProcess,
  repoRoot,
  resetCounts,
  seedDirectory,
  startTestSandbox,
} from './sandbox.js';
import { resetSandboxStock } from './stock.js';
import { separateClosingLine } from './closing-line.js';
import { removeTemporaryFolders, temporaryFolder } from './temporary.js';

export const cliPath = join(repoRoot, 'bin', 'b2bctl.js');
/** Node's compile cache for every spawned b2bctl: one folder, never a test's own TMPDIR. */
export const compileCache = join(repoRoot, 'node_modules', '.cache', 'b2bctl-test-compile-cache');

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** What the run wrote on stderr, less a bulk run's closing line (see closing-line.ts). */
  stderr: string;
  /** A bulk run's last log line (file, store, counts, exit code), checked against `code`. */
  closingLine?: string;
}

export interface RunOptions {
  /** The config folder (B2BCTL_CONFIG_DIR); required so that no test touches the user's own. */
  configDir: string;
  /** Extra variables, on top of PATH, HOME, NO_COLOR and B2BCTL_CONFIG_DIR. */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed; stdin is always a pipe, never a terminal. */
  stdin?: string | Buffer;
  /** The working folder (default: the repository); bulk commands write reports for stdin here. */
  cwd?: string;
  /** Node's own flags, before the launcher (`--no-liftoff-only`, `--import …`). */
  node?: readonly string[];
}

/**
 * A config folder path that does not exist yet, inside a fresh temporary folder, so that the CLI
 * creates it (and its mode can be checked).
 */
export function freshConfigDir(): string {
  return join(temporaryFolder('b2bctl-e2e-'), 'config');
}

/**
 * A fresh empty working folder, removed with the others. Bulk commands write their report and
 * errors file beside their input, so each test copies its input files into one of these.
 */
export function freshWorkDir(): string {
  return temporaryFolder('b2bctl-work-');
}

/**
 * A fresh working folder holding `files`, a fresh config folder, and a runner of the CLI in process inside it that
 * reaches `sandbox` with `token` (no login): the set-up of a command test that sends to the per-file sandbox.
 */
export function sandboxWorkspace(sandbox: RunningSandbox, token: string, files: Record<string, string | Buffer>) {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  return { configDir, dir, run: (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env }) };
}

/** CSV as pt-BR Excel saves it: semicolons, CRLF. */
export function excelCsv(...rows: string[]): string {
  return rows.map((row) => `${row}\r\n`).join('');
}

/** Copies files of samples/ into a folder under the same names. */
export function copySamples(folder: string, ...names: string[]): void {
  for (const name of names) copyFileSync(join(seedDirectory, name), join(folder, name));
}

/**
 * Only PATH, HOME and TMPDIR from the parent; never any B2BCTL_* variable of the person running the tests. TMPDIR
 * is the test file's own (temporary-setup.ts), so what a run leaves there fails the file instead of piling up.
 */
export function cleanEnv(configDir: string, extra: Record<string, string> = {}): Record<string, string> {
  // Plain stderr lines: the expectations are about the words; timestamps have tests of their own (test/e2e/safety/cron-logs).
  const env: Record<string, string> = {
    NO_COLOR: '1',
    B2BCTL_CONFIG_DIR: configDir,
    B2BCTL_LOG_FORMAT: 'plain',
    // Node's compile cache (the launcher turns it on) in one folder for every run, not in a test's own TMPDIR,
    // where the tests look for what b2bctl left behind.
    NODE_COMPILE_CACHE: compileCache,
  };
  if (process.env.PATH !== undefined) env.PATH = process.env.PATH;
  if (process.env.HOME !== undefined) env.HOME = process.env.HOME;
  if (process.env.TMPDIR !== undefined) env.TMPDIR = process.env.TMPDIR;
  return { ...env, ...extra };
}

/** Spawns the built CLI with stdin, stdout and stderr as pipes and waits for it to exit. */
export function runCli(args: readonly string[], options: RunOptions): Promise<RunResult> {
  const child = spawnCli(args, options.configDir, options.env, options.cwd, options.node);
  child.stdin?.end(options.stdin ?? '');
  return collect(child);
}

/**
 * `runCli` in a fresh working folder and config folder of its own (unless `env` names one), for the tests that
 * check what a run prints and its exit code, and nothing it leaves behind.
 */
export function runBuiltCli(args: readonly string[], options: Partial<RunOptions> = {}): Promise<RunResult> {
  const configDir = options.env?.B2BCTL_CONFIG_DIR ?? freshConfigDir();
  return runCli(args, { ...options, configDir, cwd: options.cwd ?? freshWorkDir() });
}

export function spawnCli(
  args: readonly string[],
  configDir: string,
  env: Record<string, string> = {},
  cwd: string = repoRoot,
  node: readonly string[] = [],
): ChildProcess {
  return spawn(process.execPath, [...node, cliPath, ...args], {
    cwd,
    env: cleanEnv(configDir, env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export function collect(child: ChildProcess): Promise<RunResult> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolvePromise(
        separateClosingLine({
          code,
          signal,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
        }),
      );
    });
  });
}

/** What every run given the global --token flag says first on stderr (issue 9: a secret in argv). */
export const tokenFlagWarning =
  'warning: --token puts the token in the process list and shell history; set B2BCTL_TOKEN, or store it with b2bctl login --token-stdin.\n';

/**
 * Logs in with --username and --password-stdin, as a test's set-up: the command line runs in process (the
 * profile the binary's login writes, without a spawn); the binary's own login is test/e2e/auth's subject. Fails
 * the test when the login does not succeed.
 */
export const login = loginInProcess;

export interface ConfigFileContents {
  profiles: Record<string, Record<string, string>>;
}

export function configFile(configDir: string): string {
  return join(configDir, 'config.json');
}

export function readConfig(configDir: string): ConfigFileContents {
  return JSON.parse(readFileSync(configFile(configDir), 'utf8')) as ConfigFileContents;
}

/** The token cached in a profile of the config file. */
export function cachedToken(configDir: string, profile = 'default'): string {
  const token = readConfig(configDir).profiles[profile]?.token;
  if (!token) throw new Error(`no token in profile ${profile}`);
  return token;
}

/** What the CLI prints for records in json: the same bytes as JSON.stringify(list, null, 2). */
export function asJson(records: unknown): string {
  return `${JSON.stringify(records, null, 2)}\n`;
}

/**
 * A port nothing listens on and no test will: a privileged one that refuses a connection now. A port the system
 * handed out and took back (closedPort) may be handed to another test's server before the connection is tried,
 * and on a busy run the "unreachable" test then met a sandbox (exit 77 for 69).
 */
export async function refusedPort(): Promise<number> {
  for (const port of [1, 3, 5, 9, 13, 17, 19, 47, 49]) if (await refuses(port)) return port;
  return closedPort();
}

function refuses(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolvePromise(error.code === 'ECONNREFUSED'));
  });
}

/** A free port to listen on: one the system handed out and took back. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
  return port;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}

/**
 * Waits until a server started in another process answers HTTP on `host:port`, or `ready()` says so first (a log
 * line): a spawned nginx or tinyproxy is not listening yet when spawn() returns. The ceiling (a minute) is for a
 * server that never comes up, not a bound on how fast one does: on a busy machine nginx took over 5 s.
 */
export async function untilAnsweringHttp(
  host: string,
  port: number,
  { method = 'GET', ready = () => false }: { method?: string; ready?: () => boolean } = {},
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (ready()) return;
    const open = await new Promise<boolean>((resolvePromise) => {
      const probe = httpRequest({ host, port, method, path: '/' }, (answer) => {
        answer.resume();
        resolvePromise(true);
      });
      probe.on('error', () => resolvePromise(false));
      probe.end();
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`nothing answered HTTP on ${host}:${port} within a minute`);
}

/** Resolves with the first line a stream prints (or its line `lineNumber`, counted from 1). */
export function firstLine(stream: NodeJS.ReadableStream, lineNumber = 1): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const lines = text.split('\n');
      if (lines.length > lineNumber) {
        stream.off('data', onData);
        resolvePromise(lines[lineNumber - 1] ?? '');
      }
    };
    stream.on('data', onData);
    stream.on('end', () => reject(new Error(`stream ended before line ${lineNumber}: ${JSON.stringify(text)}`)));
  });
}

/**
 * One sandbox per test file, its customers, stock and request counts reset before each test. With `login`,
 * `configDir` holds a login (made in process); `token` is one fetched straight from the token route.
 */
export function useSandboxPerFile(
  options: { login: boolean },
  ready: (setup: { sandbox: RunningSandbox; configDir: string; token: string }) => void,
): void {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const configDir = freshConfigDir();
    // Logged in by the login command run in process: the same profile the binary's login writes, without a spawn.
    if (options.login) await logInProcess(sandbox, { configDir, clock: systemClock });
    ready({ sandbox, configDir, token: await fetchToken(sandbox) });
  });
  afterAll(async () => {
    await sandbox?.close();
    removeTemporaryFolders();
  });
  beforeEach(async () => {
    if (!sandbox) return;
    await clearSandboxCustomers(sandbox);
    await resetSandboxStock(sandbox);
    await resetCounts(sandbox);
  });
}
