/**
 * `orders update` reads every order's status before its first send. One of those reads that fails (a 503, the
 * platform unavailable) cost the whole run: every batch waited for the reading, so each failed with that one
 * order's error (rows of other orders blamed for it) and three of them made "3 failed requests in a row", exit 69,
 * with nothing sent. A failed read ahead costs its order alone: its move reads the order again when it goes. And
 * the resume then printed reads only the orders it has moves to send to, not every order of the file again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { scheduleFault } from '../../support/api-sandbox.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { acceptedMoves, freshMovesFolder, moveHeader, newOrders, uniqueKey } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { requestCounts, resetCounts, stopTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => ({ sandbox, configDir } = await startLoggedInSandbox({ orderCount: 0 })));
afterAll(async () => {
  await stopTestSandbox(sandbox);
  removeTemporaryFolders();
});

/**
 * The tester's file: `flaky` ready, then `busy` ready, invoice and ship, then two more orders ready. Returns the
 * folder and the moves in file order.
 */
function flakyFile(): { dir: string; flaky: number; moves: string[] } {
  const dir = freshMovesFolder(sandbox);
  const [flaky, busy, third, fourth] = newOrders(sandbox, 4) as [number, number, number, number];
  writeFileSync(
    join(dir, 'pedidos.csv'),
    [
      moveHeader,
      `${flaky};ready;E-${flaky};;;;;;`,
      `${busy};ready;E-${busy};;;;;;`,
      `${busy};invoice;;;${uniqueKey(90_000 + busy)};;;;`,
      `${busy};ship;;;;Correios;SS123456785BR;;`,
      `${third};ready;E-${third};;;;;;`,
      `${fourth};ready;E-${fourth};;;;;;`,
      '',
    ].join('\r\n'),
  );
  const moves = [flaky, busy, busy, busy, third, fourth].map(
    (id, index) => `${id} ${['ready', 'ready', 'invoice', 'ship', 'ready', 'ready'][index]}`,
  );
  return { dir, flaky, moves };
}

const flags = ['--concurrency', '1', '--retries', '0'];

describe('orders update when a status read fails', () => {
  it('one failed read ahead of the first send: its order is read again for its move, and the night goes through', async () => {
    const { dir, flaky, moves } = flakyFile();
    await scheduleFault(sandbox, `/v1/orders/${flaky}`, 1, 503);

    const result = await runCommandLine(['orders', 'update', 'pedidos.csv', ...flags, '--quiet'], {
      configDir,
      cwd: dir,
    });

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(acceptedMoves(sandbox)).toEqual(moves);
    const rows = readReport(join(dir, onlyReport(dir, 'pedidos')));
    expect(rows.map((row) => row.outcome)).toEqual(Array(6).fill('applied'));
  });

  it("an order whose move's own read fails too: that order's row alone is failed, with its own error; the rest is sent", async () => {
    const { dir, flaky, moves } = flakyFile();
    // Each fault counts the requests the ones before it let through: its first two reads are answered 503.
    await scheduleFault(sandbox, `/v1/orders/${flaky}`, 1, 503);
    await scheduleFault(sandbox, `/v1/orders/${flaky}`, 1, 503);

    const result = await runCommandLine(['orders', 'update', 'pedidos.csv', ...flags, '--quiet'], {
      configDir,
      cwd: dir,
    });

    const failure = `GET ${sandbox.url}/v1/orders/${flaky} kept failing with HTTP 503 after 1 attempt; the platform is unavailable, try again later.`;
    expect(acceptedMoves(sandbox)).toEqual(moves.slice(1));
    const rows = readReport(join(dir, onlyReport(dir, 'pedidos'))).toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => `${row.line} ${row.outcome} ${row.message}`)).toEqual([
      `2 failed ${failure}`,
      ...[3, 4, 5, 6, 7].map(
        (line) => `${line} applied now ${line === 4 ? 'INVOICED' : line === 5 ? 'SHIPPED' : 'READY_TO_SHIP'}`,
      ),
    ]);
    // One failed request, the move's own: no "3 failed requests in a row", and a resume sends that move alone.
    const report = /--resume (\S+)$/m.exec(result.stderr)?.[1] ?? '';
    const errors = report.replace('.report-', '.errors-');
    expect(result.stderr).toBe(
      `error: 1 move did not go through (1 failed); the report ${report} and the errors file ${errors} say why. 1 move failed because the platform was unavailable, and may go through when sent again: run B2BCTL_CONFIG_DIR=${configDir} b2bctl orders update pedidos.csv --profile default --concurrency 1 --retries 0 --resume ${report}\n`,
    );
    expect(result.code).toBe(1);
  });
});

describe('orders update --resume and the status reads', () => {
  it('reads only the orders with moves left to send, not those whose moves the report shows done', async () => {
    const dir = freshMovesFolder(sandbox);
    const ids = newOrders(sandbox, 6);
    const refused = ids[2] as number;
    writeFileSync(
      join(dir, 'pedidos.csv'),
      [moveHeader, ...ids.map((id) => `${id};ready;PV-${id};;;;;;`), ''].join('\r\n'),
    );
    // Its two reads answered 503: the move is not sent (a move answered 503 is not sent again: it may have been applied).
    await scheduleFault(sandbox, `/v1/orders/${refused}`, 1, 503);
    await scheduleFault(sandbox, `/v1/orders/${refused}`, 1, 503);
    const night = await runCommandLine(['orders', 'update', 'pedidos.csv', ...flags, '--quiet'], {
      configDir,
      cwd: dir,
    });
    expect(night.code).toBe(1);
    const report = /--resume (\S+)$/m.exec(night.stderr)?.[1] ?? '';
    await resetCounts(sandbox);

    const resumed = await runCommandLine(['orders', 'update', 'pedidos.csv', ...flags, '--quiet', '--resume', report], {
      configDir,
      cwd: dir,
    });

    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    // The one order with a move left: read once, moved once. The five done were not read again.
    expect(await requestCounts(sandbox)).toEqual({ 'GET /v1/orders/:id': 1, 'PUT /v1/orders/:id/status': 1 });
    expect(acceptedMoves(sandbox).toSorted()).toEqual(ids.map((id) => `${id} ready`).toSorted());
  });
});
