/**
 * A move of an order the platform does not know: its detail route denies the id (404), and no order has that number.
 * The move was sent all the same, after b2bctl's own read and search had found nothing, and reported as the store
 * "rejecting" it (HTTP 404), where `orders get` says plainly that there is no such order (a user test). It is
 * now refused before anything is sent, in the words of `orders get`, exiting as it does.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as move } from '../../../src/commands/orders/move.js';
import { run as get } from '../../../src/commands/orders/get.js';
import { run as update } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { freshMovesFolder, moveHeader, newOrders } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

/** A context whose requests pass a proxy that lets every one through and records it; `writes()`: the moves sent. */
async function recorded() {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, () => undefined);
  const context = () => loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
  const writes = () =>
    proxy.requests
      .filter((request) => request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/'))
      .map((request) => pathOf(request));
  return { sandbox, context, writes };
}

/** What `orders get VALUE` says of it, without `error: ` and the line's end. */
async function getSays(context: Awaited<ReturnType<typeof recorded>>['context'], value: string) {
  const test = await context();
  expect(await test.run(get, { id: value })).toBe(ExitCode.someRecordsFailed);
  return /error: (order .*)$/m.exec(test.stderr())?.[1];
}

describe('a move of an order that does not exist: refused before sending, as orders get says it', () => {
  it.each(['999999', '-5', '0'])('orders ready %s: not sent, exit 1, the get message', async (value) => {
    const { context, writes } = await recorded();
    const said = await getSays(context, value);
    expect(said).toMatch(new RegExp(`^order ${value}: the platform has no order with that id`));
    const test = await context();
    const code = await test.run(move, { order: value, action: 'ready', erpNumber: 'X' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    const reason = said!.slice(`order ${value}: `.length);
    expect(JSON.parse(test.stdout())).toEqual({
      order: value,
      action: 'ready',
      outcome: 'invalid',
      message: `not sent: ${reason}`,
    });
    expect(test.stderr()).toContain(`error: order ${value}: not sent: ${reason}.`);
    expect(test.stderr()).not.toMatch(/rejected|HTTP 404/);
    expect(writes()).toEqual([]);
  });

  it('a cancel too: not sent, exit 1', async () => {
    const { context, writes } = await recorded();
    const test = await context();
    const code = await test.run(move, { order: '999999', action: 'cancel', reason: 'cliente desistiu' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(JSON.parse(test.stdout())).toMatchObject({ outcome: 'invalid' });
    expect(writes()).toEqual([]);
  });

  it('an order named by its number is still found and moved', async () => {
    const { context, sandbox, writes } = await recorded();
    const [id] = newOrders(sandbox, 1) as [number];
    const number = String(sandbox.state.orders.orders.get(id)!.orderId);
    const test = await context();
    expect(await test.run(move, { order: number, action: 'ready', erpNumber: 'PV-1' })).toBe(ExitCode.ok);
    expect(JSON.parse(test.stdout())).toMatchObject({ order: String(id), outcome: 'applied' });
    expect(writes()).toEqual([`/v1/orders/${id}/status`]);
  });

  it('--no-status-check reads nothing, so the move is sent and the store answers for it (404: rejected)', async () => {
    const { context, writes } = await recorded();
    const test = await context();
    const code = await test.run(move, { order: '999999', action: 'ready', erpNumber: 'X', statusCheck: false });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(JSON.parse(test.stdout())).toMatchObject({ outcome: 'rejected', status: 404 });
    expect(writes()).toEqual(['/v1/orders/999999/status']);
  });

  it("a file: that order's rows invalid and failed, not sent, the other order moved, exit 1", async () => {
    const { context, sandbox, writes } = await recorded();
    const [id] = newOrders(sandbox, 1) as [number];
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    const rows = ['999999;ready;X;;;;;;', '999999;cancel;;;;;;;cliente desistiu', `${id};ready;PV-1;;;;;;`];
    writeFileSync(file, `${moveHeader}\r\n${rows.join('\r\n')}\r\n`);
    const test = await context();
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, options)).toBe(ExitCode.someRecordsFailed);
    const report = readReport(join(folder, onlyReport(folder, 'moves')));
    const byLine = report.toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(byLine.map((row) => [row.line, row.outcome])).toEqual([
      ['2', 'invalid'],
      ['3', 'failed'],
      ['4', 'applied'],
    ]);
    expect(byLine[0]?.message).toMatch(
      /^not sent: the platform has no order with that id, and no order has that number \(.+\); give the order's id/,
    );
    expect(writes()).toEqual([`/v1/orders/${id}/status`]);
  });
});
