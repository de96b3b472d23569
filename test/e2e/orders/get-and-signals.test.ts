import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, freshConfigDir, freshWorkDir, login, runCli, sleep, spawnCli } from '../../support/cli.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
afterAll(removeTemporaryFolders);
afterEach(async () => sandbox?.close());

describe('orders get', () => {
  it('prints one order’s detail as JSON, and exits 1 naming an unknown one', async () => {
    sandbox = await startTestSandbox();
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const found = await runCli(['orders', 'get', '5'], { configDir });
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout)).toEqual(JSON.parse(JSON.stringify(sandbox.state.orders.orders.get(5))));
    const missing = await runCli(['orders', 'get', '99999'], { configDir });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('99999');
  });
});

describe('orders poll and signals', () => {
  it('exits 75 on Ctrl-C during a scan, and the next run continues without loss', async () => {
    sandbox = await startTestSandbox({ latencyMs: 40 });
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const outDir = join(freshWorkDir(), 'orders');
    const child = spawnCli(
      ['orders', 'poll', '--since', '31d', '--concurrency', '1', '--detail', '--out-dir', outDir],
      configDir,
    );
    const result = collect(child);
    while (!existsSync(outDir) || readdirSync(outDir).length < 5) await sleep(10);
    child.kill('SIGINT');
    const interrupted = await result;
    expect(interrupted.code).toBe(75);
    expect(interrupted.stderr).toContain('orders poll interrupted');
    const kept = readdirSync(outDir).length;
    expect(kept).toBeGreaterThan(0);
    // No --since: the cursor of the interrupted run says where to go on.
    const next = await runCli(['orders', 'poll', '--out-dir', outDir], { configDir });
    expect(next.code).toBe(0);
    const written = new Set(
      readdirSync(outDir).map((name) => {
        const order = JSON.parse(readFileSync(join(outDir, name), 'utf8')) as { id: number; lastUpdated: string };
        return `${order.id}@${order.lastUpdated}`;
      }),
    );
    const all = [...sandbox.state.orders.orders.values()].map((order) => `${order.id}@${order.lastUpdated}`);
    expect(all.filter((key) => !written.has(key))).toEqual([]);
  });

  it('--watch logs one line per cycle and stops on SIGTERM', async () => {
    sandbox = await startTestSandbox();
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const child = spawnCli(['orders', 'poll', '--since', '1d', '--watch', '--interval', '1'], configDir);
    const result = collect(child);
    const seen = { cycles: 0 };
    child.stderr?.on('data', (chunk: Buffer) => {
      seen.cycles += (chunk.toString().match(/^orders poll: /gm) ?? []).length;
    });
    while (seen.cycles < 2) await sleep(20);
    child.kill('SIGTERM');
    const stopped = await result;
    expect(stopped.signal).toBeNull();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /orders poll: stopped between two runs; the next one continues from the cursor\.$/,
    );
  });
});
