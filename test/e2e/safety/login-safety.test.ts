/**
 * Login on a terminal (issue 9): Ctrl-D at a prompt is no success, --password-stdin and --token-stdin
 * refuse to read a secret a terminal would echo, and --token is kept out of the help.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { configFile, freshConfigDir, readConfig, runCli, sleep } from '../../support/cli.js';
import { inRawMode, onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';
import { requestCounts, resetCounts, sandboxPassword, sandboxUser, useFileSandbox } from '../../support/sandbox.js';
import { expectPasswordLoginStored, loggedInLine } from '../../support/auth.js';

let sandbox: RunningSandbox;
useFileSandbox((started) => (sandbox = started));

/** Beside the password question: nothing of the password itself is drawn. */
const hiddenNote = '(not shown as you type)';

/** Runs b2bctl on a pseudo-terminal, typing `keys` once it has printed `waitFor`; the screen's lines at the end. */
async function loginOnTerminal(
  args: readonly string[],
  configDir: string,
  input?: { waitFor: string; keys: string },
): Promise<{ code: number | null; lines: string[] }> {
  const { code, screen } = await onTerminal(args, {
    env: { B2BCTL_CONFIG_DIR: configDir },
    during: async ({ printed, type }) => {
      if (input === undefined) return;
      await printed(input.waitFor);
      type(input.keys);
    },
  });
  return { code, lines: screen.lines };
}

describe.skipIf(pseudoTerminal.missing)(`login on a terminal${pseudoTerminal.note}`, () => {
  it('Ctrl-D at the username prompt exits 75, not 0, and stores nothing', async () => {
    const configDir = freshConfigDir();
    const result = await loginOnTerminal(['login', '--base-url', sandbox.url], configDir, {
      waitFor: 'Integration user',
      keys: '\x04',
    });
    expect(result.code).toBe(75);
    // The question's line is closed before the error: the error is a line of its own, not glued after the question.
    expect(result.lines).toEqual([
      '? Integration user (e-mail)',
      'error: No answer at the prompt (its input was closed); nothing was changed.',
    ]);
    expect(
      existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined,
    ).toBeUndefined();
  });

  it('Ctrl-C typed at the password prompt ends the run as SIGINT does: one line, exit 130, nothing stored', async () => {
    const configDir = freshConfigDir();
    const result = await loginOnTerminal(
      ['login', '--base-url', sandbox.url, '--username', 'erp@example.com'],
      configDir,
      { waitFor: 'Password', keys: 'abc\x03' },
    );
    expect(result.code).toBe(130);
    // The question (nothing of what was typed) and the line that says why it stopped: no key tip left between them.
    expect(result.lines).toEqual([
      `? Password of erp@example.com at ${sandbox.url} (profile "default") ${hiddenNote}`,
      'error: Ctrl-C at the prompt: stopped; nothing was changed.',
    ]);
    expect(
      existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined,
    ).toBeUndefined();
  });

  it('Ctrl-Z at the password prompt gives the cursor back; after fg the prompt goes on with what was typed', async () => {
    const configDir = freshConfigDir();
    const [typedBefore, typedAfter] = [sandboxPassword.slice(0, 3), sandboxPassword.slice(3)];
    let cursorHiddenWhileStopped: boolean | undefined;
    const { code, screen } = await onTerminal(['login', '--base-url', sandbox.url, '--username', sandboxUser], {
      env: { B2BCTL_CONFIG_DIR: configDir },
      during: async ({ pid, printed, type, screen: shown }) => {
        await printed('Password');
        type(`${typedBefore}\x1a`);
        // Ctrl-Z makes readline give the terminal back (line mode) and stop the process. Here the kernel ignores
        // the stop (the process leads its own session, an orphaned job), so SIGCONT is sent as `fg` would send it.
        while (inRawMode(pid)) await sleep(20);
        // What b2bctl wrote before stopping reaches the screen a moment later.
        const givenBackBy = Date.now() + 5000;
        while ((await shown()).cursorHidden && Date.now() < givenBackBy) await sleep(20);
        cursorHiddenWhileStopped = (await shown()).cursorHidden;
        process.kill(pid, 'SIGCONT');
        while (!inRawMode(pid)) await sleep(20);
        type(`${typedAfter}\r`);
      },
    });
    expect(cursorHiddenWhileStopped).toBe(false);
    expect(code).toBe(0);
    const profile = expectPasswordLoginStored(sandbox, configDir);
    // The answered question ends in a space where the answer would be: nothing of it is drawn.
    expect(screen.lines.map((line) => line.trimEnd())).toEqual([
      `✔ Password of ${sandboxUser} at ${sandbox.url} (profile "default")`,
      loggedInLine(sandbox, profile).trimEnd(),
    ]);
  });

  it('a 3000-character password pasted draws one question line, nothing of the password, on a 100×30 terminal', async () => {
    const { code, screen } = await onTerminal(['login', '--base-url', sandbox.url, '--username', sandboxUser], {
      env: { B2BCTL_CONFIG_DIR: freshConfigDir() },
      columns: 100,
      rows: 30,
      during: async ({ printed, type }) => {
        await printed('Password');
        type(`\x1b[200~${'x'.repeat(3000)}\x1b[201~`);
        type('\r');
      },
    });
    expect(code).toBe(77);
    // Every line, the scrollback's too: a mask taller than the window left copies of the question there.
    expect(screen.lines.filter((line) => line.includes('Password')).map((line) => line.trimEnd())).toEqual([
      `✔ Password of ${sandboxUser} at ${sandbox.url} (profile "default")`,
    ]);
    expect(screen.lines.filter((line) => /[x*]{10}/.test(line))).toEqual([]);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s at the password prompt ends the run at once: one line, exit %i, nothing stored',
    async (signal, exit) => {
      const configDir = freshConfigDir();
      const { code, screen } = await onTerminal(['login', '--base-url', sandbox.url, '--username', 'erp@example.com'], {
        env: { B2BCTL_CONFIG_DIR: configDir },
        during: async ({ pid, printed }) => {
          await printed('Password');
          process.kill(pid, signal);
        },
      });
      expect(code).toBe(exit);
      // The question stays above the line that says why it stopped: a signal sent from outside is not a typed ^C
      // (the prompt's raw terminal echoes none), so there is nothing of its own to erase.
      expect(screen.lines).toEqual([
        `? Password of erp@example.com at ${sandbox.url} (profile "default") ${hiddenNote}`,
        `error: ${signal} at the prompt: stopped; nothing was changed.`,
      ]);
      expect(
        existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined,
      ).toBeUndefined();
    },
  );

  it('--no-color draws the password question without colour, as NO_COLOR does; without it the question is coloured', async () => {
    const coloured = await askPasswordThenStop([]);
    expect(coloured.screen.colouredCells).toBeGreaterThan(0);
    const plain = await askPasswordThenStop(['--no-color']);
    expect(plain.screen.lines[0]).toBe(
      `? Password of erp@example.com at ${sandbox.url} (profile "default") ${hiddenNote}`,
    );
    expect(plain.screen.colouredCells).toBe(0);
  });

  it.each([
    ['--password-stdin', ['--username', 'erp@example.com', '--password-stdin'], 'the password'],
    ['--token-stdin', ['--token-stdin'], 'the token'],
  ])('%s with stdin a terminal is refused (exit 2) before reading, and nothing is sent', async (flag, extra, what) => {
    const configDir = freshConfigDir();
    await resetCounts(sandbox);
    const result = await loginOnTerminal(['login', '--base-url', sandbox.url, ...extra], configDir);
    expect(result.code).toBe(2);
    expect(
      result.lines.some((line) =>
        line.startsWith(`error: ${flag} reads a pipe, and stdin is a terminal where ${what} would be echoed: pipe it`),
      ),
    ).toBe(true);
    expect(await requestCounts(sandbox)).toEqual({});
    expect(
      existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined,
    ).toBeUndefined();
  });
});

/** A login that asks for the password on a terminal, stopped once the question is on the screen. */
function askPasswordThenStop(flags: string[]) {
  return onTerminal([...flags, 'login', '--base-url', sandbox.url, '--username', 'erp@example.com'], {
    env: { B2BCTL_CONFIG_DIR: freshConfigDir() },
    during: async ({ pid, printed }) => {
      await printed('Password');
      process.kill(pid, 'SIGTERM');
    },
  });
}

describe('the global --token flag', () => {
  it('is not offered in the help; B2BCTL_TOKEN is the documented way', async () => {
    const result = await runCli(['--help'], { configDir: freshConfigDir() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--base-url');
    expect(result.stdout).not.toMatch(/--token\b(?!-)/);
  });
});
