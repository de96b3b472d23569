/**
 * Every request `orders update` sends goes through the run's pacer: the moves, the status read before each order's
 * first move, and their retries (of both after a 429, of a read after a 503). A request that skipped it (or a retry
 * that did not take a new turn) would crowd the platform's window where the pacer cannot see it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Pacer } from '../../../src/platform/pacer.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { acceptedMoves, freshMovesFolder, newOrders, nightlyFile } from '../../support/order-moves.js';
import { stopTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => ({ sandbox, configDir } = await startLoggedInSandbox({ orderCount: 0 })));
afterAll(async () => {
  await stopTestSandbox(sandbox);
  removeTemporaryFolders();
});
afterEach(() => vi.restoreAllMocks());

/** Requests the sandbox has counted on its platform routes (control routes are not counted). */
const platformRequests = () => [...sandbox.state.requestCounts.values()].reduce((sum, count) => sum + count, 0);

async function scheduleFault(route: string, onRequest: number, answer: 429 | 503): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/faults/scheduled`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ route, onRequest, answer }),
  });
  expect(response.status).toBe(200);
}

describe('orders update and the pacer', () => {
  it('takes a turn for every request: moves, status reads and their retries after 429 and 503', async () => {
    const dir = freshMovesFolder(sandbox);
    const ids = newOrders(sandbox, 6);
    const [first, second, third] = ids as [number, number, number];
    const { text, moves } = nightlyFile(ids);
    writeFileSync(join(dir, 'moves.csv'), text);
    // A throttled status read, a status read answered 503 (a read is repeated; a move answered 503 is not, as it may
    // come after the platform applied it), a throttled move.
    await scheduleFault(`/v1/orders/${first}`, 1, 429);
    await scheduleFault(`/v1/orders/${second}`, 1, 503);
    await scheduleFault(`/v1/orders/${third}/invoice`, 1, 429);
    const takes = vi.spyOn(Pacer.prototype, 'take');
    const throttled = vi.spyOn(Pacer.prototype, 'throttled');
    const before = platformRequests();

    const result = await runCommandLine(['orders', 'update', 'moves.csv', '--rate', '20', '--concurrency', '4'], {
      configDir,
      cwd: dir,
    });

    expect(result.code).toBe(0);
    expect(acceptedMoves(sandbox).toSorted()).toEqual(moves.toSorted());
    const sent = platformRequests() - before;
    // Each order's status read, each move, and the three requests sent again; and, the run outlasting
    // statusFreshForMs (a bulk run's back-off waits 1–2 s after the 503), an order read again before a later move.
    expect(sent).toBeGreaterThanOrEqual(ids.length + moves.length + 3);
    expect(takes).toHaveBeenCalledTimes(sent);
    expect(throttled).toHaveBeenCalledTimes(2);
  });
});
