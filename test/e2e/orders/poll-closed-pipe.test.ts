/**
 * `orders poll` into a real pipe whose reader stops early (`| head -3`): the run says what it wrote and where the
 * next run starts, exits 141, moves no cursor; the next run says the last one was cut short and which --since
 * starts it again; and that run emits every order, the three `head` showed included: none is lost.
 * And into no reader at all, a stdout closed by the shell (`>&-`) or sent to /dev/null: refused before anything
 * is fetched, no cursor written.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cleanEnv, cliPath, freshConfigDir, runCli } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { logInProcess, requestCounts, resetCounts, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { requireThat, requireTools } from '../../support/external-tools.js';

const bash = requireTools('bash', 'head');

let sandbox: RunningSandbox | undefined;
afterAll(removeTemporaryFolders);
afterEach(async () => sandbox?.close());

/** `b2bctl ARGS | head -3` in bash: head's lines, b2bctl's stderr and its own exit status (PIPESTATUS). */
function pollIntoHead(args: string[], configDir: string) {
  const command = `"$NODE" "$CLI" ${args.join(' ')} | head -3; echo "b2bctl exit \${PIPESTATUS[0]}" >&2`;
  return new Promise<{ lines: string[]; stderr: string; code: number }>((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      env: { ...cleanEnv(configDir), NODE: process.execPath, CLI: cliPath },
    });
    let out = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const status = /b2bctl exit (\d+)\n$/.exec(errors);
      resolve({
        lines: out.split('\n').filter((line) => line !== ''),
        stderr: errors.replace(/b2bctl exit \d+\n$/, ''),
        code: Number(status?.[1] ?? -1),
      });
    });
  });
}

const key = (line: string) => {
  const order = JSON.parse(line) as { id: number; lastUpdated: string };
  return `${order.id}@${order.lastUpdated}`;
};

it.skipIf(bash.missing)(
  `orders poll -o ndjson | head -3: said, exit 141, no order lost${bash.note}`,
  async () => {
    // Enough orders that their NDJSON outgrows a pipe's buffer: the writer meets the closed pipe.
    sandbox = await startTestSandbox({ orderCount: 2000 });
    const configDir = await logInProcess(sandbox, { configDir: freshConfigDir(), clock: systemClock });
    expect((await runCommandLine(['config', 'set', 'orders.lag', '0'], { configDir })).code).toBe(0);

    const cut = await pollIntoHead(['orders', 'poll', '--since', '31d', '-o', 'ndjson'], configDir);
    expect(cut.lines).toHaveLength(3);
    expect(cut.code).toBe(141);
    const closed =
      /^error: output closed after (\d+) orders; no cursor was saved \(a first run\), the next run starts from --since (\S+)\.\n$/.exec(
        cut.stderr,
      );
    expect(cut.stderr).toMatch(/^error: output closed after /);
    expect(closed).not.toBeNull();
    const since = closed?.[2] as string;

    const next = await runCli(['orders', 'poll', '-o', 'ndjson'], { configDir });
    expect(next.code).toBe(2);
    expect(next.stderr).toMatch(
      new RegExp(
        `^error: orders poll: the last run \\(\\S+\\) was cut short: its output closed after ${closed?.[1]} orders, before a cursor was saved\\. Run again with --since ${since.replaceAll('.', '\\.')} to start where it started\\.\\n$`,
      ),
    );

    const again = await runCli(['orders', 'poll', '--since', since, '-o', 'ndjson'], { configDir });
    expect(again.code).toBe(0);
    const emitted = again.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map(key);
    expect(emitted.length).toBeGreaterThan(1000);
    for (const line of cut.lines) expect(emitted).toContain(key(line));
  },
  120_000,
);

/** `b2bctl ARGS REDIRECTION` in bash, after `before` (a ulimit): b2bctl's stderr and exit status. */
function pollRedirected(args: string[], redirection: string, configDir: string, before = '', ownMounts = false) {
  const command = `${before}"$NODE" "$CLI" ${args.join(' ')} ${redirection}; echo "b2bctl exit $?" >&2`;
  return new Promise<{ stderr: string; code: number }>((resolve, reject) => {
    // In a mount namespace of its own (unshare -m), a file system mounted for the run is this run's alone.
    const [program, words] = ownMounts ? ['unshare', ['-m', 'bash', '-c', command]] : ['bash', ['-c', command]];
    const child = spawn(program, words, {
      env: { ...cleanEnv(configDir), NODE: process.execPath, CLI: cliPath },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const status = /b2bctl exit (\d+)\n$/.exec(errors);
      resolve({ stderr: errors.replace(/b2bctl exit \d+\n$/, ''), code: Number(status?.[1] ?? -1) });
    });
  });
}

it.skipIf(bash.missing)(
  `orders poll with stdout closed (>&-), on /dev/null or /dev/zero: refused, exit 2, nothing fetched, no cursor${bash.note}`,
  async () => {
    sandbox = await startTestSandbox({ orderCount: 50 });
    const configDir = await logInProcess(sandbox, { configDir: freshConfigDir(), clock: systemClock });
    for (const [redirection, device] of [
      ['>&-', '/dev/null'],
      ['> /dev/null', '/dev/null'],
      ['> /dev/zero', '/dev/zero'],
    ] as const) {
      await resetCounts(sandbox);
      const run = await pollRedirected(['orders', 'poll', '--since', '31d', '-o', 'ndjson'], redirection, configDir);
      expect(run.stderr).toBe(
        `error: orders poll: stdout is ${device} (or was closed, which reaches b2bctl as /dev/null), which keeps nothing: the orders would go nowhere while the cursor moved past them; nothing was fetched. Send them to a file (> orders.ndjson), to a program (| reader), or to --out-dir DIR.\n`,
      );
      expect(run.code).toBe(2);
      expect((await requestCounts(sandbox))['GET /v1/orders'] ?? 0).toBe(0);
      expect(existsSync(join(configDir, 'cursors', 'default.orders-poll.json'))).toBe(false);
    }
  },
  60_000,
);

/** Whether this machine lets a process mount a file system in its own namespace (root, unshare). */
const ownMount = requireThat(
  spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=100k tmpfs /mnt'], { stdio: 'ignore' }).status === 0,
  'mounting a small disk for one run needs root and unshare (util-linux)',
);

it.skipIf(bash.missing || ownMount.missing)(
  `orders poll >> FILE on a disk that fills up: the file cut back to what the cursor covers, said; the next run completes it${bash.note}${ownMount.note}`,
  async () => {
    sandbox = await startTestSandbox({ orderCount: 2000 });
    const configDir = await logInProcess(sandbox, { configDir: freshConfigDir(), clock: systemClock });
    expect((await runCommandLine(['config', 'set', 'orders.lag', '0'], { configDir })).code).toBe(0);
    const file = join(temporaryFolder(), 'orders.ndjson');
    writeFileSync(file, '{"id":"kept from before"}\n');
    // A disk of 100 KiB that fills up: the write that crosses its end is cut short, the next fails (ENOSPC). Mounted
    // in the run's own namespace; the file is copied out after the run, for this test to read.
    const disk = temporaryFolder();
    const onDisk = join(disk, 'orders.ndjson');
    const args = ['orders', 'poll', '--since', '31d', '-o', 'ndjson'];
    const full = await pollRedirected(
      args,
      `>> '${onDisk}'; code=$?; cp '${onDisk}' '${file}'; (exit $code)`,
      configDir,
      `mount -t tmpfs -o size=100k tmpfs '${disk}' && cp '${file}' '${onDisk}' && `,
      true,
    );
    expect(full.code).toBe(75);
    const size = statSync(file).size;
    expect(full.stderr).toMatch(
      new RegExp(
        `^error: cannot write to stdout \\((ENOSPC|a write was cut short)\\): the file was cut back to the ${size} bytes the cursor covers, so it ends with a whole order; make room or write elsewhere, then run the command again: it continues from the cursor\\.\\n$`,
      ),
    );
    expect(size).toBeGreaterThan(1000);
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);

    const again = await pollRedirected(['orders', 'poll', '-o', 'ndjson'], `>> ${file}`, configDir);
    expect(again.code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // Every line a whole order, each of the platform's once, after the line that was there before.
    const ids = lines.map((line) => (JSON.parse(line) as { id: number | string }).id);
    expect(ids[0]).toBe('kept from before');
    expect(new Set(ids.slice(1)).size).toBe(2000);
  },
  120_000,
);
