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
import { collect, freshConfigDir, freshWorkDir, login, spawnCli } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { acceptedMoves, newOrders } from '../../support/order-moves.js';
import { readReport, runFiles } from '../../support/run-files.js';
import { startTestSandbox, untilRequestCount } from '../../support/sandbox.js';
import type { TestContext } from '../../support/test-context.js';
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
    // A ceiling for a hang, not a wait: each step waits for an event (a request counted, an exit, a resolved run).
    { timeout: 300_000 },
    async (signal) => {
      const dir = freshWorkDir();
      const ids = newOrders(sandbox, 10);
      writeFileSync(
        join(dir, 'cancel.csv'),
        ['order,action,reason', ...ids.map((id) => `${id},cancel,engano`), ''].join('\n'),
      );
      const movesBefore = acceptedMoves(sandbox).length;
      const read = 'GET /v1/orders/:id';
      const secondRead = untilRequestCount(sandbox, read, (sandbox.state.requestCounts.get(read) ?? 0) + 2);
      // One request a second: the 10 reads before the first move take 9 s; the signal goes as the second arrives.
      const child = spawnCli(['orders', 'update', 'cancel.csv', '--rate', '1'], configDir, {}, dir);
      child.stdin?.end();
      const exited = collect(child);
      // A run that outlives its test (a failure, a timeout) would send its moves into the next test's counts.
      onTestFinished(async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGKILL');
        await exited;
      });
      // A run that ended before its second read never makes one: say how it ended rather than wait for the timeout.
      const endedFirst = await Promise.race([secondRead.then(() => undefined), exited]);
      if (endedFirst) throw new Error(`orders update ended before its second read: ${JSON.stringify(endedFirst)}`);
      child.kill(signal);
      const stopped = await exited;
      expect(stopped.code).toBe(75);
      expect(stopped.closingLine).toMatch(/: 10 not sent; exit 75$/);
      expect(acceptedMoves(sandbox).length).toBe(movesBefore);
      const [report] = runFiles(dir, 'cancel').reports;
      expect(readReport(join(dir, report as string))).toEqual([]);
      // The resume runs in this process: interrupted when its test ends, so a timeout does not leave it sending.
      let resume: TestContext | undefined;
      const resumed = runCommandLine(
        ['orders', 'update', 'cancel.csv', '--resume', report as string, '--rate', '100'],
        {
          configDir,
          cwd: dir,
          started: (test) => (resume = test),
        },
      );
      onTestFinished(async () => {
        resume?.interrupt('SIGINT');
        await resumed.catch(() => undefined);
      });
      expect((await resumed).code).toBe(0);
      expect(acceptedMoves(sandbox).length).toBe(movesBefore + 10);
    },
  );
});
