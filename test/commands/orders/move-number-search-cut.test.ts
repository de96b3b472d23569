/**
 * A move of an order named by its number on a store that refuses listing offsets past its limit with 400 (a user
 * test). The detail route denies the number as an id (404); the search of the listing for it was cut short by the
 * 400, and the move was then SENT to the number as an id, the very write to an order nobody checked that a number
 * found nowhere no longer gets. A search that could not finish leaves the order unknown: nothing is sent, and the
 * line says the store's offset limit cut the search.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as move } from '../../../src/commands/orders/move.js';
import { run as get } from '../../../src/commands/orders/get.js';
import { run as update } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { freshMovesFolder, moveHeader } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 200 });
const proxied = useScriptedProxy();

/** The sandbox behind a store's offset limit of 50: a listing offset of 50 or more answered 400, in its words. */
async function limitedStore() {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, (request) => {
    const url = new URL(request.url, 'http://localhost');
    if (request.method !== 'GET' || url.pathname !== '/v1/orders') return undefined;
    return Number(url.searchParams.get('offset') ?? 0) >= 50
      ? { answer: 400, body: { mensagem: 'offset máximo é 50' } }
      : undefined;
  });
  const context = () => loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
  const writes = () =>
    proxy.requests
      .filter((request) => request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/'))
      .map((request) => pathOf(request));
  // The second order created: its number is deep in a listing that is newest first.
  const number = String(sandbox.state.orders.orders.get(2)!.orderId);
  return { sandbox, context, writes, number };
}

const cutShort = (number: string) =>
  `failed with HTTP 400: the search for order number ${number} was cut short by the store's offset limit: the listing refused offset`;

describe("a move by number whose search the store's offset limit cuts short: not sent", () => {
  it('orders ready NUMBER: failed, nothing sent, exit 1, the line names the offset limit', async () => {
    const { context, writes, number } = await limitedStore();
    const test = await context();
    const code = await test.run(move, { order: number, action: 'ready', erpNumber: 'X' });
    // The move's outcome is printed (failed, not sent), as for any order whose read before the move failed.
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(writes()).toEqual([]);
    expect(test.stderr()).toContain(cutShort(number));
    expect(test.stderr()).toContain('(offset máximo é 50), so b2bctl cannot tell which order has that number');
    expect(test.stderr()).not.toMatch(/rejected|HTTP 404|timePrecision/);
  });

  it('orders get NUMBER: the same line, exit 69', async () => {
    const { context, number } = await limitedStore();
    const test = await context();
    expect(await test.run(get, { id: number })).toBe(ExitCode.unavailable);
    expect(test.stderr()).toContain(cutShort(number));
  });

  it('a file: that row failed with the line, nothing sent, exit 1', async () => {
    const { context, sandbox, writes, number } = await limitedStore();
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    writeFileSync(file, `${moveHeader}\r\n${number};ready;PV-2;;;;;;\r\n`);
    const test = await context();
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, options)).toBe(ExitCode.someRecordsFailed);
    const [row] = readReport(join(folder, onlyReport(folder, 'moves')));
    expect(row?.outcome).toBe('failed');
    expect(row?.message).toContain(cutShort(number));
    expect(writes()).toEqual([]);
  });
});
