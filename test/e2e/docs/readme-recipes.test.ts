/**
 * The README's sandbox recipes, run as written and in the order written (from "Try it against the sandbox" to the
 * moves of orders): every line of their ```sh blocks through bash, with b2bctl the built CLI, in a fresh home,
 * against a sandbox of the test's own on the README's port. A recipe that needs a step the README gives later
 * fails here. Left out, and why: the sandbox line (the test starts it), lines for a real store, the cron scripts
 * (paths of a server), and the webhook and `api` sections (a receiver on a fixed port, routes a store may lack).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cliPath, collect, freshWorkDir } from '../../support/cli.js';
import { repoRoot, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { requireTools } from '../../support/external-tools.js';

const bash = requireTools('bash');
const readmePort = '8787';
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

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

/** Lines for a real store, or that start what the test provides itself. */
const notRunHere = [/^b2bctl sandbox\b/, /https:\/\/api\.mystore\.com\.br/, /^b2bctl doctor\b/];

it.skipIf(bash.missing)(
  `every sandbox recipe of the README runs as written, in order, each exiting 0${bash.note}`,
  { timeout: 240_000 },
  async () => {
    const lines = recipeLines('## Try it against the sandbox', '### Receive the platform');
    const run = lines.filter((line) => !notRunHere.some((pattern) => pattern.test(line)));
    expect(run.length).toBeGreaterThan(15);
    const port = new URL(sandbox.url).port;
    const home = freshWorkDir();
    // One bash for the whole walk-through, as a reader's terminal: `cd` carries over; each line's status is printed.
    const script = [
      `b2bctl() { "${process.execPath}" "${cliPath}" "$@"; }`,
      `cd '${repoRoot}'`,
      ...run.map((line, index) => `${line.replaceAll(readmePort, port)}\necho "recipe ${index} exit $?" >&2`),
    ].join('\n');
    // Spawned, not spawnSync: the sandbox answers from this process's event loop.
    const child = spawn('bash', ['-c', script], {
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', B2BCTL_LOG_FORMAT: 'plain' },
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
  },
);
