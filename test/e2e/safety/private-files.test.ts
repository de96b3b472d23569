/**
 * Files the built binary creates in folders other users may write to, under the usual umask 022: customer data is
 * 0600 even in a folder that existed (0755), and a link planted at a name b2bctl will use is never written through.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, runCli, useSandboxPerFile } from '../../support/cli.js';
import { temporaryFolder } from '../../support/temporary.js';
import { removeReceiverFolders, spawnReceiver } from '../../support/webhook-receiver.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
  removeReceiverFolders();
});

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** A folder that existed before b2bctl ran, readable by everyone (as most export folders are). */
function openFolder(): string {
  const folder = join(freshWorkDir(), 'shared');
  mkdirSync(folder, { mode: 0o755 });
  return folder;
}

describe('files b2bctl creates in a folder that existed', () => {
  it('orders poll --out-dir writes each order 0600', async () => {
    sandbox.state.orders.create(sandbox.state.clock.now() - 60_000);
    expect((await runCli(['config', 'set', 'orders.lag', '0'], { configDir })).code).toBe(0);
    const outDir = openFolder();
    const result = await runCli(['orders', 'poll', '--since', '31d', '--out-dir', outDir], { configDir });
    expect(result.code).toBe(0);
    const files = readdirSync(outDir);
    expect(files.length).toBeGreaterThanOrEqual(1);
    expect(files.map((name) => `${name} ${modeOf(join(outDir, name))}`)).toEqual(files.map((name) => `${name} 600`));
  });

  it('webhook listen --inbox keeps the inbox and its -wal and -shm 0600', async () => {
    const inbox = openFolder();
    const receiver = await spawnReceiver(['--inbox', inbox]);
    try {
      // Read while it runs: a clean stop removes the -wal and -shm files.
      const files = readdirSync(inbox).filter((name) => name.startsWith('inbox'));
      expect(files.toSorted()).toEqual(['inbox.sqlite', 'inbox.sqlite-shm', 'inbox.sqlite-wal']);
      expect(files.map((name) => `${name} ${modeOf(join(inbox, name))}`)).toEqual(files.map((name) => `${name} 600`));
    } finally {
      receiver.child.kill('SIGTERM');
      await receiver.done;
    }
  });

  it('a link planted where the report will be is not written through: the report takes the next free name', async () => {
    const folder = openFolder();
    writeFileSync(join(folder, 'stock.csv'), 'sku,quantity\nSKU-1,5\n');
    // The report's name is the input's and the start second: links for the next two minutes cover the run's.
    const victim = join(temporaryFolder('b2bctl-victim-'), 'created-through-a-link');
    const now = Date.now();
    for (let second = 0; second < 120; second++) {
      const stamp = new Date(now + second * 1000).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
      symlinkSync(victim, join(folder, `stock.report-${stamp}.csv`));
      symlinkSync(victim, join(folder, `stock.errors-${stamp}.csv`));
    }
    const result = await runCli(['stock', 'push', 'stock.csv'], { configDir, cwd: folder });
    expect(existsSync(victim)).toBe(false);
    const reports = readdirSync(folder).filter((name) => /^stock\.report-.*-2\.csv$/.test(name));
    expect(reports).toHaveLength(1);
    expect(lstatSync(join(folder, reports[0] as string)).isFile()).toBe(true);
    expect(modeOf(join(folder, reports[0] as string))).toBe('600');
    expect(result.stderr).not.toContain('ELOOP');
  });
});
