/**
 * `orders update` when a move's answer is lost on the way back (the connection reset after the platform applied it,
 * or before the platform saw it): the order's status settles whether the move went through, and nothing is sent twice.
 * In process, with no change of folder, so the mutation run of the move sender includes it (docs/testing.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as update, type OrdersUpdateOptions } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { applyMove } from '../../../src/sandbox/orders/moves.js';
import { acceptedMoves, freshMovesFolder, moveHeader, newOrders } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxyAction, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

function options(file: string, statusCheck: boolean): OrdersUpdateOptions {
  return { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck };
}

/** Two orders moved ready, the first one's move answered by `action` (once); the report's rows and the moves taken. */
async function readyTwo(action: ProxyAction, statusCheck: boolean, meanwhile?: (id: number) => void) {
  const { sandbox, loggedInContext } = fixture();
  const [first, second] = newOrders(sandbox, 2) as [number, number];
  let scripted = false;
  const proxy = await proxied(sandbox.url, (request) => {
    if (scripted || request.method === 'GET' || !pathOf(request).includes(`/${first}`)) return undefined;
    scripted = true;
    meanwhile?.(first);
    return action;
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
  const folder = freshMovesFolder(sandbox);
  const file = join(folder, 'ready.csv');
  writeFileSync(file, `${moveHeader}\r\n${first};ready;PV-1;;;;;;\r\n${second};ready;PV-2;;;;;;\r\n`);
  const code = await test.run(update, options(file, statusCheck));
  const rows = readReport(join(folder, onlyReport(folder, 'ready')));
  return { code, first, second, rows, taken: acceptedMoves(sandbox), stderr: test.stderr() };
}

describe.each([true, false])('orders update, a move whose answer is lost (status check %s)', (statusCheck) => {
  it('applied by the platform: reported applied from the order status, sent once', async () => {
    const { code, first, second, rows, taken } = await readyTwo({ reset: 'after' }, statusCheck);
    expect(code).toBe(ExitCode.ok);
    expect(taken.toSorted()).toEqual([`${first} ready`, `${second} ready`].toSorted());
    expect(rows.find((row) => row.key === `${first} ready`)).toMatchObject({ outcome: 'applied' });
    expect(rows.find((row) => row.key === `${first} ready`)?.message).toMatch(
      /^the answer was lost; the order is \w+, so the move went through$/,
    );
  });

  it('never seen by the platform: reported failed with what to do, the other move applied', async () => {
    const { code, first, second, rows, taken } = await readyTwo({ reset: 'before' }, statusCheck);
    expect(taken).toEqual([`${second} ready`]);
    expect(code).toBe(ExitCode.someRecordsFailed);
    const row = rows.find((candidate) => candidate.key === `${first} ready`);
    expect(row).toMatchObject({ outcome: 'failed' });
    expect(row?.message).toMatch(/the order is AWAITING_PAYMENT, not READY\w*: send it again$/);
  });

  it('canceled by someone else meanwhile: reported failed, the order moves no further, nothing sent again', async () => {
    const { sandbox } = fixture();
    const cancel = (id: number) => {
      const { orders, clock } = sandbox.state;
      applyMove(orders, orders.orders.get(id)!, 'cancel', { reason: 'cliente desistiu' }, clock.now());
    };
    const { code, first, second, rows, taken } = await readyTwo({ reset: 'before' }, statusCheck, cancel);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(taken).toEqual([`${first} cancel`, `${second} ready`]);
    const row = rows.find((candidate) => candidate.key === `${first} ready`);
    expect(row).toMatchObject({ outcome: 'failed' });
    expect(row?.message).toMatch(/; the order is CANCELED now: it moves no further$/);
  });

  it('answered 503 and not applied: one sentence, the order named as it stands, no `.;` between its parts', async () => {
    // The answer's sentence kept its full stop before the order's: `… applied the request.; the order is …` (a fresh
    // user test).
    const { code, first, second, rows, taken } = await readyTwo({ answer: 503 }, statusCheck);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(taken).toEqual([`${second} ready`]);
    const row = rows.find((candidate) => candidate.key === `${first} ready`);
    expect(row).toMatchObject({ outcome: 'failed', status: '503' });
    expect(row?.message).toMatch(
      new RegExp(
        `^PUT http://127\\.0\\.0\\.1:\\d+/v1/orders/${first}/status answered HTTP 503, which may come after the platform applied the request; the order is AWAITING_PAYMENT, not READY_TO_SHIP: send it again$`,
      ),
    );
  });

  it('applied, then answered 503: applied, the 503 in the status column, said as answered, not lost', async () => {
    // The row read `the answer was lost` with an empty status column (a fresh user test).
    const { code, first, rows, taken } = await readyTwo({ appliedThenAnswer: 503 }, statusCheck);
    expect(code).toBe(ExitCode.ok);
    expect(taken).toContain(`${first} ready`);
    const row = rows.find((candidate) => candidate.key === `${first} ready`);
    expect(row).toMatchObject({ outcome: 'applied', status: '503' });
    expect(row?.message).toMatch(/^the move was answered HTTP 503; the order is \w+, so the move went through$/);
  });
});
