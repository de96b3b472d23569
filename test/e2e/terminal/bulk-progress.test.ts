/**
 * Bulk commands on a real terminal, checked on the rendered screen (issue 9): `script` gives the built
 * CLI a pseudo-terminal of a set width, and @xterm/headless renders the bytes it wrote, so the
 * assertions are about what an operator sees (lines, cursor, wrapping), not substrings of the byte stream.
 */
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, sleep } from '../../support/cli.js';
import { generateCustomers } from '../../support/customers.js';
import { restoreTerminal } from '../../../src/io/output/restore-terminal.js';
import { onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';
import {
  clearSandboxCustomers,
  credentialsEnv,
  repoRoot,
  startTestSandbox,
  useFileSandbox,
} from '../../support/sandbox.js';

let sandbox: RunningSandbox;
useFileSandbox((started) => (sandbox = started));

const barCharacters = /[\u2588\u2591]/;

async function setup(sample: string): Promise<{ folder: string; env: Record<string, string> }> {
  // The same sample customers are created at each width: the store starts empty each time.
  await clearSandboxCustomers(sandbox);
  const folder = freshWorkDir();
  copyFileSync(join(repoRoot, 'samples', sample), join(folder, sample));
  return { folder, env: { ...credentialsEnv(sandbox), B2BCTL_CONFIG_DIR: freshConfigDir() } };
}

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

describe.skipIf(pseudoTerminal.missing)(
  `a terminal that cannot move its cursor (TERM=dumb)${pseudoTerminal.note}`,
  () => {
    it('stock push: no control sequence at all, the plain lines of a run off a terminal', async () => {
      const { folder, env } = await setup('stock.csv');
      const { code, screen, written } = await onTerminal(['stock', 'push', 'stock.csv'], {
        cwd: folder,
        env: { ...env, TERM: 'dumb' },
        columns: 80,
      });
      expect(code).toBe(0);
      // An Emacs shell or a `script` log shows every escape as text: the bar's cursor moves were garbage there.
      expect(written).not.toContain('\x1b');
      expect(screen.lines.map((line) => line.replace(/\d+(\.\d+)? s\b.*$/, '…'))).toEqual([
        'stock push: validating stock.csv',
        'stock push: 52 records, 52 valid, 0 invalid (…',
        'stock push: route batch (52 items <= 1000, the stock.autoThreshold setting)',
        'stock push: sending 52 items in up to 2 requests of up to 50 items through the batch route (concurrency 8)',
        // Three: the login from B2BCTL_PASSWORD is counted.
        'stock push: 52 applied; 3 requests, 0 retries, 0 throttled (429); …',
        expect.stringMatching(/^stock push: report: stock\.report-\d{8}-\d{6}\.csv$/),
      ]);
    }, 60_000);
  },
);

describe.skipIf(pseudoTerminal.missing)(`Ctrl-C on a terminal${pseudoTerminal.note}`, () => {
  it('the first says it is finishing the requests already sent; a second one still leaves the cursor shown and wrapping on', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'customers.csv'), generateCustomers(3000));
    // Every answer takes 2 s, so the requests in flight are still in flight when the second Ctrl-C comes.
    const slow = await startTestSandbox({ latencyMs: 2000 });
    const env = { ...credentialsEnv(slow), B2BCTL_CONFIG_DIR: freshConfigDir() };
    const { code, screen } = await onTerminal(['customer', 'create', 'customers.csv', '--concurrency', '2'], {
      cwd: folder,
      env,
      columns: 80,
      during: async ({ pid, printed }) => {
        // Once sending has begun (a report exists), Ctrl-C; once b2bctl says it is finishing, Ctrl-C again: the
        // second ends the process at once. Two signals sent back to back may arrive as one (signals do not queue).
        while (!readFileSyncSafe(folder).some((name) => name.startsWith('customers.report-'))) await sleep(20);
        while ((slow.state.requestCounts.get('POST /v1/customer') ?? 0) === 0) await sleep(20);
        process.kill(pid, 'SIGINT');
        await printed('already sent');
        // A person's second press: one within 0.2 s of the first is the same signal delivered twice (GNU timeout).
        await sleep(300);
        process.kill(pid, 'SIGINT');
      },
    });
    await slow.close();
    expect(code).toBe(130);
    expect(
      screen.lines.some((line) =>
        /^customer create: interrupted; finishing the requests already sent \(at most [12]\)…$/.test(line),
      ),
    ).toBe(true);
    // The closing line is never reached: the way back is said as the process ends (the line wraps at 80 columns).
    const shown = screen.lines.join('').replace(/\s+/g, ' ');
    expect(shown).toMatch(
      /customer create: stopped at once; [12] requests? in flight may have been applied without their answers in the report \([12] customers?, counted unknown; a resume sends them again\)\. Resume with: .*b2bctl customer create customers\.csv .*--resume customers\.report-/,
    );
    expect(screen.cursorHidden).toBe(false);
    expect(screen.wraparound).toBe(true);
    for (const line of screen.lines) expect(line).not.toMatch(barCharacters);
  }, 60_000);
});

describe.skipIf(pseudoTerminal.missing)(`Ctrl-Z on a terminal${pseudoTerminal.note}`, () => {
  it('gives the terminal back (bar cleared, cursor shown) before stopping, and draws the bar again once continued', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'customers.csv'), generateCustomers(40));
    const slow = await startTestSandbox({ latencyMs: 500 });
    const env = { ...credentialsEnv(slow), B2BCTL_CONFIG_DIR: freshConfigDir() };
    const { code, screen, written } = await onTerminal(['customer', 'create', 'customers.csv', '--concurrency', '2'], {
      cwd: folder,
      env,
      columns: 80,
      during: async ({ pid, printed }) => {
        while ((slow.state.requestCounts.get('POST /v1/customer') ?? 0) === 0) await sleep(20);
        // The shell's session leader here: the kernel ignores the stop itself (an orphaned job), so the process
        // goes on at once, as it does after `fg`.
        process.kill(pid, 'SIGTSTP');
        await printed(restoreTerminal);
      },
    });
    await slow.close();
    expect(code).toBe(0);
    // Given back at the stop (the bar's line cleared, the cursor shown and wrapping on), then the bar drawn again
    // before the run's own end gives the terminal back a second time.
    const [, resumed = '', ...rest] = written.split(restoreTerminal);
    expect(rest.length).toBeGreaterThanOrEqual(1);
    expect(resumed).toMatch(barCharacters);
    const lines = screen.lines.filter((line) => line !== '');
    expect(lines.at(-2)).toMatch(/^customer create: 40 created; /);
    expect(lines.at(-1)).toMatch(/^customer create: report: customers\.report-[\d-]+\.csv$/);
    for (const line of screen.lines) expect(line).not.toMatch(barCharacters);
    expect(screen.cursorHidden).toBe(false);
  }, 60_000);
});

function readFileSyncSafe(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
