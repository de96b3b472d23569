/**
 * A SIGTERM or Ctrl-C that comes while b2bctl is still loading (most of a second on a busy machine) met no handler:
 * the process ended at once with 143 (130), nothing said, where a scheduler stopping a job it had just started (a
 * `timeout`, a shutdown) expects 75 and one line. The launcher holds such a signal until the bundle takes it over.
 * The bundle's loading is made slow here (test/support/slow-bundle-load.mjs), and the signal sent in it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, freshConfigDir, login, sleep, spawnCli } from '../../support/cli.js';
import { newOrders } from '../../support/order-moves.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  configDir = freshConfigDir();
  await login(sandbox, configDir);
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

describe('a signal while b2bctl loads', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: orders poll stops as after a later one, exit 75 and one line, no cursor written',
    async (signal) => {
      const folder = temporaryFolder('b2bctl-early-signal-');
      const loading = join(folder, 'loading');
      const slowLoad = new URL('../../support/slow-bundle-load.mjs', import.meta.url);
      const child = spawnCli(
        ['orders', 'poll', '--detail', '-o', 'ndjson', '--cursor', 'pedidos.cur', '--since', '30d'],
        configDir,
        { NODE_OPTIONS: `--import ${slowLoad.href}`, B2BCTL_TEST_BUNDLE_LOADING: loading },
        folder,
      );
      const result = collect(child);
      while (!existsSync(loading)) await sleep(5);
      child.kill(signal);
      const stopped = await result;

      expect(stopped.signal).toBeNull();
      expect(stopped.stdout).toBe('');
      // No cursor was saved: the line names the --since the next run needs, not a continuation that cannot happen.
      expect(stopped.stderr).toMatch(
        /^error: orders poll interrupted: 0 order versions written; no cursor was saved \(a first run\), the next run starts from --since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\.\n$/,
      );
      expect(stopped.code).toBe(75);
      expect(existsSync(join(folder, 'pedidos.cur'))).toBe(false);
    },
  );
});

/**
 * The same window at the end: after its last line (`…; exit 0`) a process spends a quarter of a second and more
 * ending, and a SIGTERM then, with Node's handlers gone, ended it with 143: a scheduler's timeout recorded a killed
 * job whose log says it succeeded. The signal is sent as the process emits 'exit' (test/support/exit-marker.mjs).
 */
describe('a signal while b2bctl ends', () => {
  it('SIGTERM after the last line: the exit code that line states', async () => {
    const folder = temporaryFolder('b2bctl-late-signal-');
    const exiting = join(folder, 'exiting');
    const ids = newOrders(sandbox, 3);
    writeFileSync(
      join(folder, 'e.csv'),
      ['order,action,reason', ...ids.map((id) => `${id},cancel,engano`), ''].join('\n'),
    );
    const exitMarker = new URL('../../support/exit-marker.mjs', import.meta.url);
    const child = spawnCli(
      ['orders', 'update', 'e.csv'],
      configDir,
      { NODE_OPTIONS: `--import ${exitMarker.href}`, B2BCTL_TEST_EXITING: exiting },
      folder,
    );
    child.stdin?.end();
    const result = collect(child);
    while (!existsSync(exiting)) await sleep(2);
    child.kill('SIGTERM');
    const ended = await result;

    expect(ended.closingLine).toMatch(/: 3 applied; exit 0$/);
    expect(ended.signal).toBeNull();
    expect(ended.code).toBe(0);
  });
});
