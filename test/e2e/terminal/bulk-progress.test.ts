/**
 * Bulk commands on a real terminal, checked on the rendered screen (issue 9): `script` gives the built
 * CLI a pseudo-terminal of a set width, and @xterm/headless renders the bytes it wrote, so the
 * assertions are about what an operator sees (lines, cursor, wrapping), not substrings of the byte stream.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import xterm from '@xterm/headless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cliPath, freshConfigDir, freshWorkDir, sleep } from '../../support/cli.js';
import { generateCustomers } from '../../support/customers.js';
import { requireTools } from '../../support/external-tools.js';
import { clearSandboxCustomers, credentialsEnv, repoRoot, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

const rows = 50;
const barCharacters = /[\u2588\u2591]/;

interface Screen {
  lines: string[];
  cursorHidden: boolean;
  wraparound: boolean;
}

/** Runs b2bctl under `script` on a terminal `columns` wide; `during` may signal it (its PID is given). */
async function onTerminal(
  args: readonly string[],
  options: {
    cwd: string;
    env: Record<string, string>;
    columns: number;
    /** Given the PID and the raw output so far (to wait on, never to assert on: the screen is asserted). */
    during?: (pid: number, output: () => string) => Promise<void>;
  },
): Promise<{ code: number | null; screen: Screen }> {
  const pidFile = join(options.cwd, '.pid');
  const quoted = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const command = `stty cols ${options.columns} rows ${rows}; echo $$ > '${pidFile}'; exec ${quoted}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  if (options.during) {
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await sleep(10);
    await options.during(Number(readFileSync(pidFile, 'utf8').trim()), () => Buffer.concat(chunks).toString('utf8'));
  }
  const code = await exited;
  return { code, screen: await render(Buffer.concat(chunks), options.columns) };
}

async function render(bytes: Buffer, columns: number): Promise<Screen> {
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 1000 });
  // `script` hands over the terminal's output with \n turned into \r\n, as a real terminal gets it.
  await new Promise<void>((resolve) => terminal.write(bytes, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  // A line longer than the terminal wraps onto the next row: joined back, it is the line that was logged.
  for (let index = 0; index < buffer.length; index++) {
    const line = buffer.getLine(index);
    const text = line?.translateToString(true) ?? '';
    if (line?.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  // The cursor's visibility is not in xterm's public API; its core service holds it.
  const core = (terminal as unknown as Record<string, { coreService: { isCursorHidden: boolean } }>)['_core'] as {
    coreService: { isCursorHidden: boolean };
  };
  const screen = { lines, cursorHidden: core.coreService.isCursorHidden, wraparound: terminal.modes.wraparoundMode };
  terminal.dispose();
  return screen;
}

async function setup(sample: string): Promise<{ folder: string; env: Record<string, string> }> {
  // The same sample customers are created at each width: the store starts empty each time.
  await clearSandboxCustomers(sandbox);
  const folder = freshWorkDir();
  copyFileSync(join(repoRoot, 'samples', sample), join(folder, sample));
  return { folder, env: { ...credentialsEnv(sandbox), B2BCTL_CONFIG_DIR: freshConfigDir() } };
}

const pseudoTerminal = requireTools('script');

describe.skipIf(pseudoTerminal.missing).each([160, 80])(
  `bulk commands on a terminal %i columns wide${pseudoTerminal.note}`,
  (columns) => {
    it.each([
      ['customer create', 'customers.csv', 'customer create: 25 created;', 'customer create: sending 25 customers'],
      ['stock push', 'stock.csv', 'stock push: 52 applied;', 'stock push: sending 52 items'],
    ])(
      '%s: every log line whole and in order, no bar left behind, the terminal restored',
      async (command, sample, summary, sending) => {
        const { folder, env } = await setup(sample);
        const { code, screen } = await onTerminal([...command.split(' '), sample], { cwd: folder, env, columns });
        expect(code).toBe(0);
        const at = (prefix: string) => screen.lines.findIndex((line) => line.startsWith(prefix));
        const name = command.split(' ').join(' ');
        expect(screen.lines[0]).toBe(`${name}: validating ${sample}`);
        // The phase line is there, whole, before the summary, and nothing of the bar is glued to any line.
        expect(at(sending)).toBeGreaterThan(0);
        expect(at(summary)).toBeGreaterThan(at(sending));
        expect(screen.lines[at(summary)]).toMatch(new RegExp(`${summary} .*/s$`));
        expect(screen.lines[at(summary) + 1]).toMatch(new RegExp(`^${name}: report: `));
        for (const line of screen.lines) expect(line).not.toMatch(barCharacters);
        expect(screen.cursorHidden).toBe(false);
        expect(screen.wraparound).toBe(true);
      },
      60_000,
    );
  },
);

describe.skipIf(pseudoTerminal.missing)(`Ctrl-C on a terminal${pseudoTerminal.note}`, () => {
  it('the first says it is finishing the requests in flight; a second one still leaves the cursor shown and wrapping on', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'customers.csv'), generateCustomers(3000));
    // Every answer takes 2 s, so the requests in flight are still in flight when the second Ctrl-C comes.
    const slow = await startTestSandbox({ latencyMs: 2000 });
    const env = { ...credentialsEnv(slow), B2BCTL_CONFIG_DIR: freshConfigDir() };
    const { code, screen } = await onTerminal(['customer', 'create', 'customers.csv', '--concurrency', '2'], {
      cwd: folder,
      env,
      columns: 80,
      during: async (pid, output) => {
        // Once sending has begun (a report exists), Ctrl-C; once b2bctl says it is finishing, Ctrl-C again: the
        // second ends the process at once. Two signals sent back to back may arrive as one (signals do not queue).
        while (!readFileSyncSafe(folder).some((name) => name.startsWith('customers.report-'))) await sleep(20);
        while ((slow.state.requestCounts.get('POST /v1/customer') ?? 0) === 0) await sleep(20);
        process.kill(pid, 'SIGINT');
        while (!output().includes('in flight')) await sleep(20);
        process.kill(pid, 'SIGINT');
      },
    });
    await slow.close();
    expect(code).toBe(130);
    expect(
      screen.lines.some((line) => /^customer create: interrupted; finishing [12] requests? in flight…$/.test(line)),
    ).toBe(true);
    expect(screen.cursorHidden).toBe(false);
    expect(screen.wraparound).toBe(true);
    for (const line of screen.lines) expect(line).not.toMatch(barCharacters);
  }, 60_000);
});

function readFileSyncSafe(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
