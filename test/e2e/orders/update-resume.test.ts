/**
 * `orders update` killed with SIGKILL mid-run, then `--resume`, against every dialect: no move is sent twice (a move
 * the killed run sent but never recorded is checked against the order's status first), none is lost, and the moves
 * of each order reach the store in file order. Only a process shows a SIGKILL: the killed run is the built binary.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, freshConfigDir, freshWorkDir, sleep, spawnCli } from '../../support/cli.js';
import { login, loginToDialect, runCommandLine } from '../../support/command-line.js';
import { type FreezingProxy, freezingProxy } from '../../support/freezing-proxy.js';
import { acceptedMoves, copySampleNfe, newOrders, nightlyFile } from '../../support/order-moves.js';
import { readReport, runFiles } from '../../support/run-files.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'orders update, %s dialect',
  (_name, dialect) => {
    let sandbox: RunningSandbox;
    let configDir: string;

    beforeAll(async () => {
      // A little latency keeps requests in flight when the kill comes.
      sandbox = await startTestSandbox({ dialect, orderCount: 3, latencyMs: 5 });
      configDir = freshConfigDir();
      await loginToDialect(sandbox, dialect, configDir);
    });
    afterAll(async () => sandbox.close());

    it(
      'killed with SIGKILL, then --resume: every move once, in file order per order',
      { timeout: 120_000 },
      async () => {
        const dir = freshWorkDir();
        mkdirSync(join(dir, 'nfe'));
        copySampleNfe(dir);
        const ids = newOrders(sandbox, 180);
        const { text, moves } = nightlyFile(ids, 500);
        writeFileSync(join(dir, 'nightly.csv'), text);
        const child = spawnCli(['orders', 'update', 'nightly.csv', '--concurrency', '6'], configDir, {}, dir);
        child.stdin?.end();
        const exited = collect(child);
        let report: string | undefined;
        for (let poll = 0; poll < 3000 && !report; poll++) {
          const [candidate] = runFiles(dir, 'nightly').reports;
          if (candidate && readFileSync(join(dir, candidate), 'utf8').split('\r\n').length > 120) report = candidate;
          else await sleep(5);
        }
        child.kill('SIGKILL');
        expect((await exited).signal).toBe('SIGKILL');
        expect(report).toBeDefined();
        const beforeResume = acceptedMoves(sandbox).length;
        expect(beforeResume).toBeLessThan(500);

        const resumed = await runCommandLine(['orders', 'update', 'nightly.csv', '--resume', report as string], {
          configDir,
          cwd: dir,
        });
        expect(resumed.stderr).not.toMatch(/rejected|failed;/);
        expect(resumed.code).toBe(0);
        const taken = acceptedMoves(sandbox);
        // Nothing twice, nothing missing.
        expect(new Set(taken).size).toBe(taken.length);
        expect(taken.toSorted()).toEqual(moves.toSorted());
        for (const id of ids) {
          const ofOrder = (list: string[]) => list.filter((move) => move.startsWith(`${id} `));
          expect(ofOrder(taken)).toEqual(ofOrder(moves));
        }
        const rows = readReport(join(dir, report as string));
        expect(rows.map((row) => Number(row.line)).toSorted((a, b) => a - b)).toEqual(
          Array.from({ length: 500 }, (_, index) => index + 2),
        );
      },
    );
  },
);

/**
 * `--no-status-check` reads no status before a move, but a resumed run has moves the killed run sent and never saw
 * answered. The sandbox applies a move before its latency (the answer is what waits), so every move in flight at the
 * kill reached the store; its `ready` is accepted a second time, so a resend would show in the store's log.
 */
describe('orders update --no-status-check', () => {
  let sandbox: RunningSandbox;
  let proxy: FreezingProxy;
  let configDir: string;

  beforeAll(async () => {
    // 400 ms between a move applied and its answer, and the run reaches the store through a proxy the test freezes
    // at a request of its choosing. The test used to kill the run once it saw a move in flight, and on a loaded
    // runner (Node 22, a full .ci/run) the run could answer every move before the kill came: no move was left unanswered.
    sandbox = await startTestSandbox({ orderCount: 3, latencyMs: 400 });
    proxy = await freezingProxy(Number(new URL(sandbox.url).port));
    configDir = freshConfigDir();
    await login({ ...sandbox, url: `http://127.0.0.1:${proxy.port}` }, configDir);
  });
  afterAll(async () => {
    await proxy.close();
    await sandbox.close();
  });

  it(
    'killed with SIGKILL, then --resume --no-status-check: the moves sent but never answered are not sent again',
    { timeout: 120_000 },
    async () => {
      const dir = freshWorkDir();
      mkdirSync(join(dir, 'nfe'));
      copySampleNfe(dir);
      const ids = newOrders(sandbox, 100);
      // Readies first (one per order, round robin): the moves in flight at the kill are readies.
      const { text, moves } = nightlyFile(ids, 150);
      writeFileSync(join(dir, 'nightly.csv'), text);
      const args = ['orders', 'update', 'nightly.csv', '--no-status-check', '--concurrency', '8'];
      // The proxy freezes when the 40th move (order ids[39]'s ready) is sent: that request goes no further, and the
      // answers to the moves sent before it and still waiting their 400 ms never reach the run. An event, not a
      // time: however slowly the machine runs the test or the run, the kill finds the run in that state.
      proxy.freezeOn(`/orders/${ids[39]}/`);
      const frozen = proxy.held();
      const child = spawnCli(args, configDir, {}, dir);
      child.stdin?.end();
      const exited = collect(child);
      await frozen;
      child.kill('SIGKILL');
      expect((await exited).signal).toBe('SIGKILL');
      const [report] = runFiles(dir, 'nightly').reports;
      expect(report).toBeDefined();
      const reportPath = join(dir, report as string);
      const recorded = new Set(readReport(reportPath).map((row) => row.key));
      const unanswered = acceptedMoves(sandbox).filter((move) => !recorded.has(move));
      // The case this test is about happened: moves reached the store that the killed run never recorded.
      expect(unanswered.length).toBeGreaterThan(0);

      proxy.thaw();
      const resumed = await runCommandLine([...args.slice(0, 3), '--no-status-check', '--resume', report as string], {
        configDir,
        cwd: dir,
      });
      expect(resumed.stderr).not.toMatch(/rejected|failed;/);
      expect(resumed.code).toBe(0);
      const taken = acceptedMoves(sandbox);
      // Nothing twice, nothing missing.
      expect(taken.filter((move, index) => taken.indexOf(move) !== index)).toEqual([]);
      expect(taken.toSorted()).toEqual(moves.toSorted());
      const rows = readReport(reportPath);
      for (const move of unanswered)
        expect(rows.find((row) => row.key === move)).toMatchObject({
          outcome: 'unchanged',
          message: expect.stringMatching(/^the order is already [A-Z_]+: not sent again$/),
        });
    },
  );
});
