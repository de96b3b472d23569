/**
 * `orders poll` on a terminal: a table, not NDJSON. The built CLI runs under `script` (a pseudo-terminal) and its
 * output is rendered on a headless xterm, so the test reads the screen a person would see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, login } from '../../support/cli.js';
import { onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';
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

/** The screen's lines once `orders ARGS` has run on a terminal 160 columns wide, blank ones left out. */
async function screenOf(args: readonly string[], env: Record<string, string>) {
  const { code, screen } = await onTerminal(args, { env: { NO_COLOR: '1', ...env } });
  return { code, lines: screen.lines.filter((line) => line.trim() !== '') };
}

describe.skipIf(pseudoTerminal.missing)(`orders poll on a terminal${pseudoTerminal.note}`, () => {
  it('prints a table of the order versions', async () => {
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const { code, lines } = await screenOf(['orders', 'poll', '--since', '31d'], { B2BCTL_CONFIG_DIR: configDir });
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^ID\s+ORDER\s+STATUS\s+CREATED\s+UPDATED\s+CUSTOMER$/);
    const order = [...sandbox.state.orders.orders.values()][0]!;
    expect(lines.some((line) => line.startsWith(`${order.id} `) && line.includes(order.lastUpdated))).toBe(true);
    expect(lines.filter((line) => /^\d+\s+1000\d\d/.test(line))).toHaveLength(8);
  });
});
