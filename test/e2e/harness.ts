/**
 * End-to-end harness: spawns the built CLI (`node bin/b2bctl.js`) with a clean environment and a
 * fresh config folder, and starts the sandbox in-process on an ephemeral port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SalesRep } from '../../src/domain/sales-rep.js';
import { sandboxDefaults, type SandboxOptions } from '../../src/sandbox/options.js';
import { loadSalesReps } from '../../src/sandbox/sellers-seed.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cliPath = join(repoRoot, 'bin', 'b2bctl.js');
export const seedDirectory = join(repoRoot, 'samples');

export const sandboxUser = sandboxDefaults.username;
export const sandboxPassword = sandboxDefaults.password;

/** The 64 sales reps exactly as the sandbox serves them, in seed order (its own normalisation). */
export const seedReps: readonly SalesRep[] = loadSalesReps(seedDirectory);

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
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
}

const temporaryFolders: string[] = [];

/**
 * A config folder path that does not exist yet, inside a fresh temporary folder, so that the CLI
 * creates it (and its mode can be checked).
 */
export function freshConfigDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'b2bctl-e2e-'));
  temporaryFolders.push(parent);
  return join(parent, 'config');
}

/**
 * A fresh empty working folder, removed with the others. Bulk commands write their report and
 * errors file beside their input, so each test copies its input files into one of these.
 */
export function freshWorkDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'b2bctl-work-'));
  temporaryFolders.push(folder);
  return folder;
}

/** Copies files of samples/ into a folder under the same names. */
export function copySamples(folder: string, ...names: string[]): void {
  for (const name of names) copyFileSync(join(seedDirectory, name), join(folder, name));
}

export function removeTemporaryFolders(): void {
  for (const folder of temporaryFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** Only PATH and HOME from the parent; never any B2BCTL_* variable of the person running the tests. */
export function cleanEnv(configDir: string, extra: Record<string, string> = {}): Record<string, string> {
  // Plain stderr lines: the expectations are about the words; timestamps have tests of their own (test/e2e/safety/cron-logs).
  const env: Record<string, string> = { NO_COLOR: '1', B2BCTL_CONFIG_DIR: configDir, B2BCTL_LOG_FORMAT: 'plain' };
  if (process.env.PATH !== undefined) env.PATH = process.env.PATH;
  if (process.env.HOME !== undefined) env.HOME = process.env.HOME;
  return { ...env, ...extra };
}

/** Spawns the built CLI with stdin, stdout and stderr as pipes and waits for it to exit. */
export function runCli(args: readonly string[], options: RunOptions): Promise<RunResult> {
  const child = spawnCli(args, options.configDir, options.env, options.cwd);
  child.stdin?.end(options.stdin ?? '');
  return collect(child);
}

export function spawnCli(
  args: readonly string[],
  configDir: string,
  env: Record<string, string> = {},
  cwd: string = repoRoot,
): ChildProcess {
  return spawn(process.execPath, [cliPath, ...args], {
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
      resolvePromise({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}

/** A sandbox on 127.0.0.1 with an ephemeral port, seeded from samples/; faults off unless asked. */
export function startTestSandbox(overrides: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  return startSandbox({ ...sandboxDefaults, host: '127.0.0.1', port: 0, seedDirectory, ...overrides });
}

/** Request counts per "METHOD /route" since the last reset. */
export async function requestCounts(sandbox: RunningSandbox): Promise<Record<string, number>> {
  const response = await fetch(`${sandbox.url}/_sandbox/requests`);
  return (await response.json()) as Record<string, number>;
}

export async function resetCounts(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
}

/** A `/_sandbox/...` inspection route's JSON (customers, outbox, settings). */
export async function sandboxJson<T>(sandbox: RunningSandbox, path: string): Promise<T> {
  const response = await fetch(`${sandbox.url}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** Merges store settings into the sandbox's (PUT /_sandbox/settings, JSON Merge Patch). */
export async function patchSandboxSettings(sandbox: RunningSandbox, patch: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (!response.ok) throw new Error(`PUT /_sandbox/settings: HTTP ${response.status} ${await response.text()}`);
}

/** Forgets every customer and the e-mail outbox. */
export async function clearSandboxCustomers(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/customers`, { method: 'DELETE' });
}

/** The environment that makes the CLI log in by itself, without b2bctl login. */
export function credentialsEnv(sandbox: RunningSandbox, password: string = sandboxPassword): Record<string, string> {
  return { B2BCTL_BASE_URL: sandbox.url, B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: password };
}

export async function revokeTokens(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/tokens/revoke`, { method: 'POST' });
}

/**
 * A token straight from the sandbox's token route, without the CLI. Retried, because a sandbox
 * started with fault injection fails and resets its token route like any other.
 */
export async function fetchToken(sandbox: RunningSandbox): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${sandbox.url}/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: sandboxUser, password: sandboxPassword }),
      });
      if (response.ok) return ((await response.json()) as { access_token: string }).access_token;
      if (attempt >= 20) throw new Error(`the token route answered ${response.status}`);
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
}

/** What every run given the global --token flag says first on stderr (issue 9: a secret in argv). */
export const tokenFlagWarning =
  'warning: --token puts the token in the process list and shell history; set B2BCTL_TOKEN, or store it with b2bctl login --token-stdin.\n';

export const listingRoute = 'GET /sellerModule/listSellers';
export const tokenRoute = 'POST /v1/auth/token';

/** Logs in with --username and --password-stdin; fails the test when the login does not succeed. */
export async function login(
  sandbox: RunningSandbox,
  configDir: string,
  extraArgs: readonly string[] = [],
): Promise<RunResult> {
  const result = await runCli(
    ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin', ...extraArgs],
    {
      configDir,
      stdin: `${sandboxPassword}\n`,
    },
  );
  if (result.code !== 0) throw new Error(`login failed with exit ${result.code}: ${result.stderr}`);
  return result;
}

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

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
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

/** Resolves with the first line a stream prints. */
export function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) {
        stream.off('data', onData);
        resolvePromise(text.slice(0, end));
      }
    };
    stream.on('data', onData);
    stream.on('end', () => reject(new Error(`stream ended before a full line: ${JSON.stringify(text)}`)));
  });
}
