/**
 * A move answered 500 (which may come after the store applied it) whose order then cannot be read again: nothing
 * tells whether it went through, so it is `unknown`, never `failed`; a file run keeps it out of the errors file,
 * whose feed-back would send it a second time, and offers the resume, which reads the order first (a user test).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as move } from '../../../src/commands/orders/move.js';
import { run as update } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { acceptedMoves, freshMovesFolder, moveHeader, newOrders } from '../../support/order-moves.js';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

/**
 * A store that answers every move 500 (applied first with `applied`), and every read of an order's detail 500 once
 * a move was sent: the read before the move answers, the read after it does not.
 */
async function failingAfterTheMove({ applied = false } = {}) {
  const { sandbox, loggedInContext } = fixture();
  let moveSent = false;
  let recovered = false;
  const proxy = await proxied(sandbox.url, (request) => {
    if (recovered) return undefined;
    if (request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/')) {
      moveSent = true;
      return applied ? { appliedThenAnswer: 500 } : { answer: 500, body: { message: 'boom' } };
    }
    if (moveSent && request.method === 'GET' && /^\/v1\/orders\/\d+$/.test(pathOf(request)))
      return { answer: 500, body: { message: 'detail down' } };
    return undefined;
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
  const writes = () =>
    proxy.requests.filter((request) => request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/')).length;
  /** From now on the store answers every request itself. */
  const recover = () => void (recovered = true);
  return { sandbox, test, writes, recover };
}

describe('a move answered 500 whose order cannot be read again', () => {
  it.each([false, true])(
    'orders ready (the store applied it: %s): unknown, exit 1, sent once, never "failed"',
    async (applied) => {
      const { sandbox, test, writes } = await failingAfterTheMove({ applied });
      const [id] = newOrders(sandbox, 1) as [number];
      const code = await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` });
      expect(code).toBe(ExitCode.someRecordsFailed);
      const outcome = JSON.parse(test.stdout()) as Record<string, unknown>;
      expect(outcome).toMatchObject({ order: String(id), action: 'ready', outcome: 'unknown', status: 500 });
      expect(outcome.message).toMatch(
        new RegExp(
          `which may come after the platform applied the move; its status could not be read to tell whether it went through: check with b2bctl orders get ${id} `,
        ),
      );
      expect(test.stderr()).toContain(`error: order ${id}: unknown (HTTP 500, `);
      expect(writes()).toBe(1);
      expect(acceptedMoves(sandbox)).toEqual(applied ? [`${id} ready`] : []);
    },
  );

  it('orders update: the row unknown, no errors file, the resume offered; the resume reads the order and sends it once', async () => {
    const { sandbox, test, writes, recover } = await failingAfterTheMove();
    const [first, second] = newOrders(sandbox, 2) as [number, number];
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'ready.csv');
    writeFileSync(file, `${moveHeader}\r\n${first};ready;PV-1;;;;;;\r\n${second};ready;PV-2;;;;;;\r\n`);
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, options)).toBe(ExitCode.someRecordsFailed);
    const reportPath = join(folder, onlyReport(folder, 'ready'));
    const rows = readReport(reportPath);
    expect(rows.map((row) => [row.key, row.outcome, row.status])).toEqual([
      [`${first} ready`, 'unknown', '500'],
      [`${second} ready`, 'unknown', '500'],
    ]);
    expect(rows[0]?.message).toMatch(/its status could not be read to tell whether it went through/);
    // Fed back as the run was made, an errors file would send both moves a second time, unchecked.
    expect(runFiles(folder, 'ready').errors).toEqual([]);
    expect(test.stderr()).toMatch(
      /2 unknown may have gone through without an answer, and the resume asks the platform/,
    );
    expect(test.stderr()).toContain(`--resume ${reportPath}`);
    expect(writes()).toBe(2);

    // The store answers again: the resume reads each order, still AWAITING_PAYMENT, and sends its move once.
    recover();
    expect(await test.run(update, { ...options, resume: reportPath })).toBe(ExitCode.ok);
    expect(acceptedMoves(sandbox).toSorted()).toEqual([`${first} ready`, `${second} ready`].toSorted());
    expect(writes()).toBe(4);
  });
});
