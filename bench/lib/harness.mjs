// Shared pieces of the benchmarks: the built CLI, a spawned sandbox, generated files, peak memory.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const root = join(import.meta.dirname, '..', '..');
export const cli = join(root, 'bin', 'b2bctl.js');
export const outDir = join(root, 'bench', '.out');
mkdirSync(outDir, { recursive: true });

/** A private config folder and environment for one benchmark. */
export function benchEnv(extra = {}) {
  const configDir = mkdtempSync(join(tmpdir(), 'b2bctl-bench-'));
  // Plain stderr lines: the benchmarks read log lines (the sandbox's --verbose trace) by their start.
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    B2BCTL_CONFIG_DIR: configDir,
    B2BCTL_LOG_FORMAT: 'plain',
    ...extra,
  };
  return { env, cleanup: () => rmSync(configDir, { recursive: true, force: true }) };
}

/** Starts `b2bctl sandbox --port 0 ...`; resolves with its URL once the first line is out. Every stderr line is kept with its arrival time. */
export async function startSandbox(args = [], env = process.env) {
  const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines = [];
  createInterface({ input: child.stderr }).on('line', (line) => logLines.push({ at: performance.now(), line }));
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`sandbox exited ${code}: ${logLines.map((entry) => entry.line).join('\n')}`)),
    );
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return {
    url,
    logLines,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGINT');
      }),
  };
}

/**
 * Runs the built CLI (after `nodeFlags`, node's own); resolves with exit code, output, wall time and peak RSS. `input`
 * is written to its stdin: text, bytes, or a stream piped in (a file read as `cat FILE |` would give it).
 */
export function runCli(args, { env, input, nodeFlags = [] } = {}) {
  const rssFile = join(outDir, `rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, cli, ...args], {
    env: {
      ...env,
      NODE_OPTIONS: `--require ${join(root, 'bench', 'lib', 'max-rss.cjs')}`,
      B2BCTL_BENCH_RSS_FILE: rssFile,
    },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) {
    // A CLI that ends before reading all of its input is not this helper's failure.
    child.stdin.on('error', () => {});
    if (typeof input.pipe === 'function') input.pipe(child.stdin);
    else child.stdin.end(input);
  }
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      const maxRss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
      rmSync(rssFile, { force: true });
      resolve({ code, stdout, stderr, ms, maxRss });
    });
  });
}

export async function login(url, env) {
  const result = await runCli(
    ['login', '--base-url', url, '--username', 'integration@sandbox.test', '--password-stdin'],
    { env, input: 'sandbox-secret\n' },
  );
  if (result.code !== 0) throw new Error(`login failed: ${result.stderr}`);
}

/** Writes the output of a generator script to a file once, reusing it on later runs when it has the same row count. */
export async function generated(script, rows, args = []) {
  const file = join(
    outDir,
    `${script.replace(/\W+/g, '-')}-${rows}${args.join('')}.${args.includes('--format') ? args[args.indexOf('--format') + 1] : 'csv'}`,
  );
  if (existsSync(file) && statSync(file).size > 0) return file;
  const child = spawn(process.execPath, [join(root, 'scripts', script), String(rows), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited ${code}`)))),
  );
  await Promise.all([pipeline(child.stdout, createWriteStream(`${file}.part`)), exited]);
  renameSync(`${file}.part`, file);
  return file;
}

export const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** One result line: the figure, its baseline, the ratio and the verdict against the target. */
export function verdict(name, text, ok) {
  console.log(`${name.padEnd(44)} ${text}  ${ok ? 'ok' : 'MISSES target'}`);
  return ok;
}

/** Times a child process whole (spawn to exit), with its stdout; the way every baseline here is measured. */
export function timeProcess(args, env = process.env) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0
        ? resolve({ stdout, ms: performance.now() - started })
        : reject(new Error(`${args.join(' ')} exited ${code}`)),
    ),
  );
}

/** csv-parse with b2bctl's own options over the decoded stream, in its own process: the fair floor for a CSV read. */
export async function sameOptionsParse(file, delimiter) {
  const { stdout, ms } = await timeProcess([join(root, 'bench', 'lib', 'same-options-parse.cjs'), file, delimiter]);
  return { rows: Number(stdout), ms };
}

/** The profile's cached token, for baselines that talk to the sandbox directly. */
export function cachedToken(env) {
  return JSON.parse(readFileSync(`${env.B2BCTL_CONFIG_DIR}/config.json`, 'utf8')).profiles.default.token;
}
