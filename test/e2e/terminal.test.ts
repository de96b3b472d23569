/**
 * Bulk commands on a real terminal: `script` gives the built CLI a pseudo-terminal, so stderr is a
 * TTY and the cli-progress bar is drawn. Every other end-to-end test runs without a terminal.
 */
import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  cliPath,
  credentialsEnv,
  freshConfigDir,
  freshWorkDir,
  removeTemporaryFolders,
  repoRoot,
  startTestSandbox,
} from './harness.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

/** Runs b2bctl under `script`, so that its stdin, stdout and stderr are a terminal. */
function onTerminal(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe('bulk commands on a terminal', () => {
  it.each([
    ['customer create', 'customers.csv', '25/25 customers', 'customer create: 25 created;'],
    ['stock push', 'stock.csv', '52/52 items', 'stock push: 52 applied;'],
  ])(
    '%s draws a progress bar and finishes',
    async (command, sample, bar, summary) => {
      const folder = freshWorkDir();
      copyFileSync(join(repoRoot, 'samples', sample), join(folder, sample));
      const env = { ...credentialsEnv(sandbox), B2BCTL_CONFIG_DIR: freshConfigDir() };
      const result = await onTerminal([...command.split(' '), sample], folder, env);
      expect(result.code).toBe(0);
      expect(result.output).toContain(`100% | ${bar}`);
      expect(result.output).toContain(summary);
      expect(result.output).not.toContain('error:');
    },
    60_000,
  );
});
