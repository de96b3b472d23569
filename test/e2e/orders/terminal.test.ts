/**
 * `orders poll` on a terminal: a table, not NDJSON. The built CLI runs under `script` (a pseudo-terminal) and its
 * output is rendered on a headless xterm, so the test reads the screen a person would see.
 */
import { spawn } from 'node:child_process';
import xterm from '@xterm/headless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cliPath, freshConfigDir, login } from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ orderCount: 8 });
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

async function screenOf(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; lines: string[] }> {
  const command = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qec', `stty cols 160 rows 50; ${command}`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const terminal = new xterm.Terminal({ cols: 160, rows: 50, allowProposedApi: true });
  const writes: Promise<void>[] = [];
  child.stdout.on('data', (chunk: Buffer) => writes.push(new Promise((resolve) => terminal.write(chunk, resolve))));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  await Promise.all(writes);
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let row = 0; row < buffer.length; row++) lines.push(buffer.getLine(row)?.translateToString(true) ?? '');
  return { code, lines: lines.filter((line) => line.trim() !== '') };
}

const pseudoTerminal = requireTools('script');

describe.skipIf(pseudoTerminal.missing)(`orders poll on a terminal${pseudoTerminal.note}`, () => {
  it('prints a table of the order versions', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const { code, lines } = await screenOf(['orders', 'poll', '--since', '31d'], { B2BCTL_CONFIG_DIR: configDir });
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^ID\s+ORDER\s+STATUS\s+UPDATED\s+CUSTOMER$/);
    const order = [...sandbox.state.orders.orders.values()][0]!;
    expect(lines.some((line) => line.startsWith(`${order.id} `) && line.includes(order.lastUpdated))).toBe(true);
    expect(lines.filter((line) => /^\d+\s+1000\d\d/.test(line))).toHaveLength(8);
  });
});
