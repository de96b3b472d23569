/**
 * The first minutes of a user with an installed b2bctl (the npm package, or the single file): start the sandbox,
 * log in to it, check the connection with doctor, push the stock sample. Each run is the installed command itself, with only the environment given.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { collect, firstLine, type RunResult } from './cli.js';
import { repoRoot, seedDirectory } from './sandbox.js';
import { temporaryFolder } from './temporary.js';

export interface InstalledCli {
  /** The program to run: the installed `b2bctl`, or the single file. */
  command: string;
  /** The whole environment of each run (nothing is inherited). */
  env: Record<string, string>;
}

export function runInstalled(cli: InstalledCli, args: readonly string[], stdin = '', cwd?: string): Promise<RunResult> {
  const child = spawn(cli.command, args, { env: cli.env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin);
  return collect(child);
}

export interface FirstSteps {
  login: RunResult;
  doctor: RunResult;
  push: RunResult;
  sandbox: RunResult;
  url: string;
}

/** Sandbox, login, doctor and a push of samples/stock.csv with the installed command; the sandbox is stopped at the end. */
export async function sandboxLoginAndPush(cli: InstalledCli): Promise<FirstSteps> {
  const sandbox: ChildProcess = spawn(cli.command, ['sandbox', '--port', '0'], {
    env: cli.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stopped = collect(sandbox);
  try {
    const url = await firstLine(sandbox.stdout!);
    const login = await runInstalled(
      cli,
      ['login', '--base-url', url, '--username', 'integration@sandbox.test', '--password-stdin'],
      'sandbox-secret\n',
    );
    const doctor = await runInstalled(cli, ['doctor', '-o', 'json']);
    const work = temporaryFolder('b2bctl-installed-');
    copyFileSync(join(seedDirectory, 'stock.csv'), join(work, 'stock.csv'));
    const push = await runInstalled(cli, ['stock', 'push', 'stock.csv'], '', work);
    sandbox.kill('SIGTERM');
    return { login, doctor, push, sandbox: await stopped, url };
  } finally {
    sandbox.kill('SIGKILL');
  }
}

/**
 * `stock validate --verbose` of a 3,000-row workbook with every workbook set to go to the validation thread; the
 * setting itself must take.
 */
export async function validatedOnThread(cli: InstalledCli): Promise<RunResult> {
  const set = await runInstalled(cli, ['config', 'set', 'input.workbookThreadMb', '0']);
  if (set.code !== 0) throw new Error(`config set input.workbookThreadMb 0 exited ${set.code}: ${set.stderr}`);
  const workbook = join(repoRoot, 'test', 'fixtures', 'workbooks', 'estoque-3000.xlsx');
  return runInstalled(cli, ['stock', 'validate', workbook, '--verbose']);
}

/** What validatedOnThread's run prints and ends with: the thread's own line, every row valid, exit 0. */
export const validatedOnThreadResult = {
  code: 0,
  stderr: expect.stringMatching(
    /validated on a thread of its own[\s\S]*3000 records, 3000 valid, 0 invalid \(0 problems\)/,
  ),
};
