/**
 * `orders update` reads every order's status before it sends anything; on a long file, a move made after that read
 * (by hand with `orders ready`, or by the store's staff) must not be sent a second time. An order whose read is
 * older than a short time is read again right before its first move, and a move taken meanwhile is `unchanged`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, systemClock } from '../../../src/base/clock.js';
import { statusFreshForMs } from '../../../src/orders/moves/sender.js';
import { applyMove } from '../../../src/sandbox/orders/moves.js';
import type { OrderDetail } from '../../../src/sandbox/orders/store.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { acceptedMoves, freshMovesFolder, moveHeader, newOrders } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { stopTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => ({ sandbox, configDir } = await startLoggedInSandbox({ orderCount: 0 })));
afterAll(async () => {
  await stopTestSandbox(sandbox);
  removeTemporaryFolders();
});

/** The detail reads the sandbox counted. */
const detailReads = () => sandbox.state.requestCounts.get('GET /v1/orders/:id') ?? 0;

describe('orders update and a move made while it runs', () => {
  it('an order moved after the first read is read again before its move: unchanged, each move taken once', async () => {
    const dir = freshMovesFolder(sandbox);
    const ids = newOrders(sandbox, 6);
    writeFileSync(
      join(dir, 'pedidos.csv'),
      [moveHeader, ...ids.map((id) => `${id};ready;PV-${id};;;;;;`), ''].join('\r\n'),
    );
    // The run's clock: when the file's first move reaches the store, a minute has passed since the first read, and
    // the staff have made the last three orders ready in the store's panel meanwhile.
    let elapsed = 0;
    const clock: Clock = { now: () => Date.now() + elapsed, sleep: systemClock.sleep };
    const counted = sandbox.state.countRequest.bind(sandbox.state);
    const handMoved = ids.slice(3);
    sandbox.state.countRequest = (key) => {
      counted(key);
      if (key !== 'PUT /v1/orders/:id/status' || elapsed > 0) return;
      elapsed = 60_000;
      for (const id of handMoved) {
        const order = sandbox.state.orders.orders.get(id) as OrderDetail;
        applyMove(sandbox.state.orders, order, 'ready', { erpNumber: `PV-${id}` }, sandbox.state.clock.now());
      }
    };
    const readsBefore = detailReads();
    try {
      const result = await runCommandLine(['orders', 'update', 'pedidos.csv', '--concurrency', '1'], {
        configDir,
        cwd: dir,
        clock,
      });
      expect(result.stderr).toMatch(/orders update: 3 applied, 3 unchanged;/);
      expect(result.code).toBe(0);
    } finally {
      sandbox.state.countRequest = counted;
    }
    // The staff's moves came in just before the file's first (which the store had not yet taken).
    expect(acceptedMoves(sandbox)).toEqual([...handMoved, ...ids.slice(0, 3)].map((id) => `${id} ready`));
    const rows = readReport(join(dir, onlyReport(dir, 'pedidos'))).toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => `${row.id} ${row.outcome} ${row.message}`)).toEqual([
      ...ids.slice(0, 3).map((id) => `${id} applied now READY_TO_SHIP`),
      ...handMoved.map((id) => `${id} unchanged the order is already READY_TO_SHIP: not sent`),
    ]);
    // Six reads before anything was sent, then one more for each order whose first move came after the first had aged.
    expect(detailReads() - readsBefore).toBe(6 + 5);
    expect(elapsed).toBeGreaterThan(statusFreshForMs);
  });
});
