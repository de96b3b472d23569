/**
 * Login on a terminal (issue 9): Ctrl-D at a prompt is no success, --password-stdin and --token-stdin
 * refuse to read a secret a terminal would echo, and --token is kept out of the help.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cliPath, configFile, freshConfigDir, freshWorkDir, readConfig, runCli, sleep } from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { requestCounts, resetCounts, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

/** Runs b2bctl on a pseudo-terminal (`script`), typing `keys` once it has printed `waitFor`. */
async function onTerminal(
  args: readonly string[],
  configDir: string,
  input?: { waitFor: string; keys: string },
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', B2BCTL_CONFIG_DIR: configDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  if (input) {
    while (!output.includes(input.waitFor)) await sleep(10);
    child.stdin.write(input.keys);
  }
  const code = await exited;
  child.stdin.end();
  return { code, output };
}

const pseudoTerminal = requireTools('script');

describe.skipIf(pseudoTerminal.missing)(`login on a terminal${pseudoTerminal.note}`, () => {
  it('Ctrl-D at the username prompt exits 75, not 0, and stores nothing', async () => {
    const configDir = freshConfigDir();
    const result = await onTerminal(['login', '--base-url', sandbox.url], configDir, {
      waitFor: 'Integration user',
      keys: '\x04',
    });
    expect(result.code).toBe(75);
    expect(result.output).toContain('error: No answer at the prompt (its input was closed); nothing was changed.');
    expect(
      existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined,
    ).toBeUndefined();
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s at the password prompt ends the run at once: one line, exit %i, nothing stored',
    async (signal, exit) => {
      const configDir = freshConfigDir();
      const pidFile = join(freshWorkDir(), 'pid');
      const command = [process.execPath, cliPath, 'login', '--base-url', sandbox.url, '--username', 'erp@example.com']
        .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
        .join(' ');
      // The shell script runs writes its pid, then becomes b2bctl: the signal goes to b2bctl itself, not to script.
      const child = spawn('script', ['-qfec', `echo $$ > '${pidFile}'; exec ${command}`, '/dev/null'], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          TERM: 'xterm',
          B2BCTL_CONFIG_DIR: configDir,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      while (!output.includes('Password')) await sleep(10);
      process.kill(Number(readFileSync(pidFile, 'utf8')), signal);
      const code = await exited;
      child.stdin.end();
      expect(code).toBe(exit);
      expect(output.match(/error: [^\r\n]*/g)).toEqual([
        `error: ${signal} at the prompt: stopped; nothing was changed.`,
      ]);
      expect(
        existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined,
      ).toBeUndefined();
    },
  );

  it.each([
    ['--password-stdin', ['--username', 'erp@example.com', '--password-stdin'], 'the password'],
    ['--token-stdin', ['--token-stdin'], 'the token'],
  ])('%s with stdin a terminal is refused (exit 2) before reading, and nothing is sent', async (flag, extra, what) => {
    const configDir = freshConfigDir();
    await resetCounts(sandbox);
    const result = await onTerminal(['login', '--base-url', sandbox.url, ...extra], configDir);
    expect(result.code).toBe(2);
    expect(result.output).toContain(
      `error: ${flag} reads a pipe, and stdin is a terminal where ${what} would be echoed: pipe it`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
    expect(
      existsSync(configFile(configDir)) ? readConfig(configDir).profiles.default?.token : undefined,
    ).toBeUndefined();
  });
});

describe('the global --token flag', () => {
  it('is not offered in the help; B2BCTL_TOKEN is the documented way', async () => {
    const result = await runCli(['--help'], { configDir: freshConfigDir() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--base-url');
    expect(result.stdout).not.toMatch(/--token\b(?!-)/);
  });
});
