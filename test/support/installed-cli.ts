/**
 * The first minutes of a user with an installed b2bctl (the npm package, or the single file): start the sandbox,
 * log in to it, check the connection with doctor, push the stock sample. Each run is the installed command itself, with only the environment given.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { createServer } from 'node:http';
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

/** What forwardedThroughThreads saw: the ids of the events the ERP took, in order, the receiver's exit code and the failures it told. */
export interface ForwardedRun {
  delivered: number[];
  code: number | null;
  failuresTold: string[];
}

/**
 * `webhook listen --forward-to` an ERP on loopback with the installed command: two orders events posted, then the
 * receiver stopped (SIGTERM) once the ERP has taken both. Its inbox's commits and the ERP's round trips run on
 * threads of their own, started from the modules the install carries (src/base/thread-module.ts).
 */
export async function forwardedThroughThreads(cli: InstalledCli): Promise<ForwardedRun> {
  const delivered: number[] = [];
  let bothTaken: (() => void) | undefined;
  const taken = new Promise<void>((resolve) => (bothTaken = resolve));
  const erp = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      delivered.push((JSON.parse(text) as { event: { id: number } }).event.id);
      response.end('ok');
      if (delivered.length === 2) bothTaken?.();
    });
  });
  await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
  const secret = 'installed-s3cret-0123456789abcdef';
  const receiver = spawn(
    cli.command,
    [
      'webhook',
      'listen',
      '--port',
      '0',
      '--client-id',
      'erp-client',
      '--inbox',
      temporaryFolder('b2bctl-inbox-'),
    ].concat(['--forward-to', `http://127.0.0.1:${(erp.address() as { port: number }).port}/hook`]),
    { env: { ...cli.env, B2BCTL_WEBHOOK_CLIENT_SECRET: secret }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stopped = collect(receiver);
  // A failure the receiver tells (a thread that would not start) ends the wait at once, with what it said.
  let told = '';
  const failureTold = new Promise<never>((_resolve, reject) =>
    receiver.stderr!.on('data', (chunk: Buffer) => {
      told += chunk.toString('utf8');
      if (/failed|trying again/.test(told)) reject(new Error(`the receiver told a failure: ${told}`));
    }),
  );
  // Told while an event is still being posted: the race below takes it up then.
  failureTold.catch(() => undefined);
  try {
    const url = await firstLine(receiver.stdout!).catch((error: Error) => {
      throw new Error(`${error.message}; the receiver said: ${told}`);
    });
    const token = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`erp-client:${secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    }).then(async (answer) => ((await answer.json()) as { access_token: string }).access_token);
    for (const id of [41, 42]) {
      const stored = await fetch(`${url}/webhooks/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id, status: 'PAID' }),
      });
      if (stored.status !== 200) throw new Error(`event ${id}: HTTP ${stored.status}: ${await stored.text()}`);
    }
    await Promise.race([taken, failureTold]);
    receiver.kill('SIGTERM');
    const { code, stderr } = await stopped;
    return { delivered, code, failuresTold: stderr.split('\n').filter((line) => /failed|trying again/.test(line)) };
  } finally {
    receiver.kill('SIGKILL');
    erp.closeAllConnections();
    await new Promise((resolve) => erp.close(resolve));
  }
}

/** What forwardedThroughThreads' run ends with: both events taken in order, no failure told, exit 0. */
export const forwardedThroughThreadsResult: ForwardedRun = { delivered: [41, 42], code: 0, failuresTold: [] };
