/**
 * The README's sandbox recipes, run as written and in the order written (from "Try it against the sandbox" to the
 * webhook receiver and `b2bctl api`): every line of their ```sh blocks through one bash, with b2bctl the built CLI
 * on the PATH, in a fresh home, against a sandbox of the test's own on the README's port, and the receiver on a
 * free port in place of the README's. A recipe that needs a step the README gives later fails here. Left out, and
 * why: the sandbox line (the test starts it), lines for a real store, and the cron scripts (paths of a server).
 */
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cliPath, collect, freshWorkDir } from '../../support/cli.js';
import { repoRoot, useFileSandbox } from '../../support/sandbox.js';
import { requireTools } from '../../support/external-tools.js';

// openssl makes the receiver's secret and curl waits for it to answer, as the README's webhook recipe does.
const tools = requireTools('bash', 'openssl', 'curl');
const readmePort = '8787';
const readmeReceiverPort = '8788';
let sandbox: RunningSandbox;

useFileSandbox((started) => (sandbox = started));

/** The lines of the sh blocks between two headings of the README, comments kept (bash ignores them). */
function recipeLines(from: string, to: string): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const part = readme.slice(readme.indexOf(from), readme.indexOf(to));
  const lines: string[] = [];
  for (const block of part.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const body = block[1] ?? '';
    if (body.startsWith('#!')) continue; // a cron script, for a server's paths
    lines.push(...body.split('\n').filter((line) => line.trim() !== ''));
  }
  return lines;
}

/** A port nothing listens on now, for the receiver the recipe starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * `b2bctl` as a user's PATH has it: a program, not a shell function, so `b2bctl webhook listen … &` is the
 * receiver itself and the recipe's `kill %1` stops it.
 */
function installedCli(): string {
  const bin = freshWorkDir();
  const program = join(bin, 'b2bctl');
  writeFileSync(program, `#!/bin/sh\nexec '${process.execPath}' '${cliPath}' "$@"\n`, { flag: 'wx' });
  chmodSync(program, 0o755);
  return bin;
}

/** Lines for a real store, or that start what the test provides itself. */
const notRunHere = [/^b2bctl sandbox\b/, /https:\/\/api\.mystore\.com\.br/, /^b2bctl doctor\b/];

it.skipIf(tools.missing)(
  `every sandbox recipe of the README runs as written, in order, each exiting 0${tools.note}`,
  { timeout: 240_000 },
  async () => {
    const lines = recipeLines('## Try it against the sandbox', '## Exit codes');
    const run = lines.filter((line) => !notRunHere.some((pattern) => pattern.test(line)));
    expect(run.length).toBeGreaterThan(25);
    // The webhook and api recipes are among them.
    expect(run.some((line) => line.startsWith('b2bctl webhook trigger '))).toBe(true);
    expect(run.some((line) => line.startsWith('b2bctl api /v1/contracts --paginate'))).toBe(true);
    const port = new URL(sandbox.url).port;
    const receiverPort = String(await freePort());
    const home = freshWorkDir();
    const bin = installedCli();
    // One bash for the whole walk-through, as a reader's terminal: `cd` carries over; each line's status is printed.
    const script = [
      `cd '${repoRoot}'`,
      ...run.map(
        (line, index) =>
          `${line.replaceAll(readmePort, port).replaceAll(readmeReceiverPort, receiverPort)}\necho "recipe ${index} exit $?" >&2`,
      ),
      // A receiver a failed line left running is stopped here (the recipe's own `kill %1` stops it otherwise).
      'kill $(jobs -p) 2>/dev/null; wait',
    ].join('\n');
    // Spawned, not spawnSync: the sandbox answers from this process's event loop.
    const child = spawn('bash', ['-c', script], {
      env: {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: home,
        NO_COLOR: '1',
        B2BCTL_LOG_FORMAT: 'plain',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const result = await collect(child);
    const statuses = [...result.stderr.matchAll(/^recipe (\d+) exit (\d+)$/gm)].map((match) => ({
      line: run[Number(match[1])],
      exit: Number(match[2]),
    }));
    expect(statuses).toHaveLength(run.length);
    // The failing lines beside what the run printed, so a failure shows the recipe and its messages.
    expect({ failed: statuses.filter((status) => status.exit !== 0), output: result.stderr }).toMatchObject({
      failed: [],
    });
    // What the webhook and api recipes show a reader: the event stored and listed, a page of pending quotes.
    expect(result.stdout).toMatch(/^\{"step":"event",.*"status":200,.*\\"status\\":\\"stored\\"/m);
    expect(result.stdout).toMatch(/^\{"id":1,"receivedAt":"[^"]+","kind":"orders",/m);
    expect(result.stdout).toMatch(/^\[\{"id":\d+,"quoteNumber":"Q-/m);
  },
);
