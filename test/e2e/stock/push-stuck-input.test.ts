/**
 * Input that never comes (issue 10, item 8): a FIFO nobody writes to. The run waits without holding
 * the per-profile lock, a first signal stops it (exit 75, nothing sent), a second signal always ends
 * the process, and no lock or spooled copy outlives it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, collect, compileCache, freshConfigDir, freshWorkDir, sleep } from '../../support/cli.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

// A platform that takes every request and never answers: a push that reaches it stays in its send pass.
let platform: Server;
let platformUrl: string;
const requestsReceived: string[] = [];

beforeAll(async () => {
  platform = createServer((request) => requestsReceived.push(`${request.method} ${request.url}`));
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  platformUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
});
afterAll(async () => {
  platform.closeAllConnections();
  await new Promise((resolve) => platform.close(resolve));
  removeTemporaryFolders();
});

interface Run {
  child: ChildProcess;
  configDir: string;
  spoolDir: string;
  dir: string;
}

function start(args: readonly string[], dir: string): Run {
  const configDir = freshConfigDir();
  // The spooled copy of stdin or a pipe goes to TMPDIR: a private one shows whether anything was left behind.
  const spoolDir = join(dir, 'tmp');
  mkdirSync(spoolDir);
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: spoolDir,
      NODE_COMPILE_CACHE: compileCache,
      B2BCTL_CONFIG_DIR: configDir,
      B2BCTL_BASE_URL: platformUrl,
      B2BCTL_TOKEN: 'a-token-that-is-never-checked',
    },
  });
  return { child, configDir, spoolDir, dir };
}

/** Resolves once the process has `path` open: it is then waiting on it, not still starting up. */
async function waitUntilOpen(pid: number, path: string): Promise<void> {
  for (;;) {
    try {
      const descriptors = readdirSync(`/proc/${pid}/fd`);
      if (descriptors.some((fd) => safeReadlink(`/proc/${pid}/fd/${fd}`) === path)) return;
    } catch {
      // The process is not there yet, or is gone: the caller's result will say which.
    }
    await sleep(20);
  }
}

function safeReadlink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

async function waitFor(text: string, chunks: Buffer[]): Promise<void> {
  for (let waited = 0; !Buffer.concat(chunks).toString('utf8').includes(text); waited += 20) {
    if (waited > 10_000)
      throw new Error(`waited 10 s for "${text}"; stderr so far:\n${Buffer.concat(chunks).toString('utf8')}`);
    await sleep(20);
  }
}

function silentFifo(dir: string): string {
  const path = join(dir, 'estoque.csv');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

const lockFolder = (run: Run) => join(run.configDir, 'locks');
const locks = (run: Run) => (existsSync(lockFolder(run)) ? readdirSync(lockFolder(run)) : []);

describe('a FIFO nobody writes to', () => {
  it('stock push waits without the lock; the first SIGTERM stops it with exit 75 and nothing sent', async () => {
    const dir = freshWorkDir();
    const fifo = silentFifo(dir);
    const run = start(['stock', 'push', 'estoque.csv'], dir);
    const result = collect(run.child);
    await waitUntilOpen(run.child.pid as number, fifo);
    // Waiting on input is no progress: another cron run of this profile must not be kept out meanwhile.
    expect(locks(run)).toEqual([]);
    run.child.kill('SIGTERM');
    const { code, stderr } = await result;
    expect(code).toBe(75);
    expect(stderr).toContain('error: Interrupted while reading estoque.csv; nothing was sent.');
    expect(stderr).not.toMatch(/TypeError|\n\s+at /);
    expect(readdirSync(run.spoolDir)).toEqual([]);
    expect(locks(run)).toEqual([]);
    expect(requestsReceived).toEqual([]);
  });

  it('stock validate: the first SIGINT ends the wait (exit 75, one line); nothing waits for a second', async () => {
    const dir = freshWorkDir();
    const fifo = silentFifo(dir);
    const run = start(['stock', 'validate', 'estoque.csv'], dir);
    const result = collect(run.child);
    await waitUntilOpen(run.child.pid as number, fifo);
    run.child.kill('SIGINT');
    const { code, stderr } = await result;
    expect(code).toBe(75);
    expect(stderr).toContain('error: Interrupted while reading estoque.csv; nothing more was read.');
    expect(stderr).not.toMatch(/TypeError|\n\s+at /);
  });

  it('stock validate -: rows, then a writer gone silent; the first SIGTERM says how many rows were checked', async () => {
    const dir = freshWorkDir();
    const run = start(['stock', 'validate', '-'], dir);
    const result = collect(run.child);
    const stdout: Buffer[] = [];
    run.child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    // More than the head the format is guessed from, the first row invalid (its problem comes out on stdout); the
    // writer keeps stdin open and sends nothing more, as an ERP export stuck on a query does.
    const rows = Array.from({ length: 10_000 }, (_, index) => `SKU-${index};${index === 0 ? -1 : index}`);
    run.child.stdin?.write(`sku;quantity\n${rows.join('\n')}\n`);
    await waitFor('"line":2', stdout);
    run.child.kill('SIGTERM');
    const { code, stderr } = await result;
    expect(code).toBe(75);
    expect(stderr).toMatch(/error: Interrupted after [\d,]+ records of stdin \(1 invalid so far, listed above\)/);
    run.child.stdin?.destroy();
  });
});

describe('a second signal while the lock is held', () => {
  it('ends a push whose requests are still in flight, and releases the lock and the spooled copy', async () => {
    const dir = freshWorkDir();
    const fifo = silentFifo(dir);
    const run = start(['stock', 'push', 'estoque.csv', '--timeout', '120000'], dir);
    const stderr: Buffer[] = [];
    run.child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    const result = collect(run.child);
    await waitUntilOpen(run.child.pid as number, fifo);
    writeFileSync(fifo, 'sku;warehouse;quantity\nA-1;CD;3\n');
    await waitFor('stock push: sending 1 item ', stderr);
    // The request is in flight once the platform has it: the "sending" line comes a little before that.
    while (requestsReceived.length === 0) await sleep(20);
    expect(locks(run)).toEqual(['default.stock-push.lock']);
    run.child.kill('SIGINT');
    await waitFor('finishing the requests already sent (at most 1)', stderr);
    // A person's second press: one within 0.2 s of the first is the same signal delivered twice (GNU timeout).
    await sleep(300);
    run.child.kill('SIGINT');
    const { code, signal } = await result;
    expect(signal === 'SIGINT' || code === 130).toBe(true);
    expect(locks(run)).toEqual([]);
    expect(readdirSync(run.spoolDir)).toEqual([]);
  });
});
