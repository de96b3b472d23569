/**
 * Ctrl-C or SIGTERM during `orders update` stops it from starting anything more: the requests that went out finish,
 * and no move is sent after the signal. A run still reading its orders' statuses (each order is read before its
 * first move) used to read on and then send the moves its taken batches held: a cancel file stopped at once still
 * canceled eight orders seconds later. Only a process shows a signal: the run is the built binary.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, freshConfigDir, freshWorkDir, login, sleep, spawnCli } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { acceptedMoves, newOrders } from '../../support/order-moves.js';
import { readReport, runFiles } from '../../support/run-files.js';
import { requestCounts, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

describe('orders update interrupted while it reads the orders', () => {
  let sandbox: RunningSandbox;
  let configDir: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orderCount: 3 });
    configDir = freshConfigDir();
    await login(sandbox, configDir);
  });
  afterAll(async () => sandbox.close());

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: no move is sent after it; exit 75, the resume sends them all',
    // A ceiling for a hang: 3-7 s alone, 9-14 s beside two busy loops, and it reached 120 s in a suite run at load
    // 16-28 (a spawned run, then 80 requests of the resume in this process, beside the other worker's file).
    { timeout: 300_000 },
    async (signal) => {
      const dir = freshWorkDir();
      const ids = newOrders(sandbox, 40);
      writeFileSync(
        join(dir, 'cancel.csv'),
        ['order,action,reason', ...ids.map((id) => `${id},cancel,engano`), ''].join('\n'),
      );
      const movesBefore = acceptedMoves(sandbox).length;
      const readsBefore = (await requestCounts(sandbox))['GET /v1/orders/:id'] ?? 0;
      // Two requests a second: the 40 reads before the first move take 20 s, so the signal comes while they run.
      const child = spawnCli(['orders', 'update', 'cancel.csv', '--rate', '2'], configDir, {}, dir);
      child.stdin?.end();
      const exited = collect(child);
      // A run that outlives its test (a failure, a timeout) would send its moves into the next test's counts.
      onTestFinished(async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGKILL');
        await exited;
      });
      while (((await requestCounts(sandbox))['GET /v1/orders/:id'] ?? 0) < readsBefore + 2) {
        // A run that ended before its second read never makes one: say how it ended rather than wait for the timeout.
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`orders update ended before its second read: ${JSON.stringify(await exited)}`);
        await sleep(20);
      }
      child.kill(signal);
      const stopped = await exited;
      expect(stopped.code).toBe(75);
      expect(stopped.closingLine).toMatch(/: 40 not sent; exit 75$/);
      expect(acceptedMoves(sandbox).length).toBe(movesBefore);
      const [report] = runFiles(dir, 'cancel').reports;
      expect(readReport(join(dir, report as string))).toEqual([]);
      const resumed = await runCommandLine(
        ['orders', 'update', 'cancel.csv', '--resume', report as string, '--rate', '100'],
        {
          configDir,
          cwd: dir,
        },
      );
      expect(resumed.code).toBe(0);
      expect(acceptedMoves(sandbox).length).toBe(movesBefore + 40);
    },
  );
});
