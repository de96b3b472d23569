/**
 * A resumed `orders update --no-status-check` and the moves the killed run sent but never saw answered (the report
 * has no row for them). In process: the killed run's state is a finished run's report with those rows cut off, the
 * moves already in the store, as a SIGKILL between the platform's work and the report's write leaves them (the
 * built binary's real kill is test/e2e/orders/update-resume.test.ts). The store accepts a repeated `ready`, so a
 * second send would show in its log.
 *
 * When the resume cannot read such a move's status, nothing tells whether the killed run's move went through. A read
 * answered 500 made the move `failed` with the read's error, in the errors file "to fix and feed back"; fed back as
 * the run was made (--no-status-check), it was sent a second time (a user test). It is `unknown`, out of the errors file,
 * and the resume the run prints reads the order again before it sends anything.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as update, type OrdersUpdateOptions } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { acceptedMoves, freshMovesFolder, newOrders, nightlyFile } from '../../support/order-moves.js';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxyAction, type ScriptedProxy, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

function options(file: string, extra: Partial<OrdersUpdateOptions> = {}): OrdersUpdateOptions {
  return { file, concurrency: 2, dryRun: false, skipInvalid: false, strict: false, statusCheck: false, ...extra };
}

/**
 * Six orders moved ready (and on) by a finished --no-status-check run through a proxy; then its report loses the
 * rows of the first three readies, as a kill after the store's work and before the report's write would leave it.
 */
async function killedRun() {
  const { sandbox, loggedInContext, context } = fixture();
  const state: { detail: keyof typeof detailAnswers } = { detail: 'readable' };
  const proxy = await proxied(sandbox.url, (request) =>
    request.method === 'GET' && /^\/v1\/orders\/\d+$/.test(pathOf(request)) ? detailAnswers[state.detail] : undefined,
  );
  const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
  const folder = freshMovesFolder(sandbox);
  const ids = newOrders(sandbox, 6);
  const { text, moves } = nightlyFile(ids, 12);
  const file = join(folder, 'nightly.csv');
  writeFileSync(file, text);
  expect(await test.run(update, options(file))).toBe(ExitCode.ok);
  const report = join(folder, onlyReport(folder, 'nightly'));
  const unanswered = ids.slice(0, 3).map((id) => `${id} ready`);
  const lines = readFileSync(report, 'utf8').split('\r\n');
  writeFileSync(report, lines.filter((line) => !unanswered.some((move) => line.includes(`,${move},`))).join('\r\n'));
  expect(readReport(report)).toHaveLength(moves.length - 3);
  expect(acceptedMoves(sandbox).toSorted()).toEqual(moves.toSorted());
  const firstRunReads = statusReads(proxy);
  proxy.requests.length = 0;
  const again = () => context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
  return { sandbox, proxy, state, folder, file, report, moves, unanswered, firstRunReads, again };
}

/** How the proxy answers an order's detail: the platform's own answer, or a failure in its place. */
const detailAnswers = {
  readable: undefined,
  refused: { answer: 404, body: { message: 'Not found' } },
  failing: { answer: 500, body: { message: 'boom' } },
  unanswered: { reset: 'before' },
} satisfies Record<string, ProxyAction>;

/** The orders whose status the proxy saw read, `/v1/orders/ID`. */
const statusReads = (proxy: ScriptedProxy) =>
  proxy.requests
    .filter((request) => request.method === 'GET' && /^\/v1\/orders\/\d+$/.test(pathOf(request)))
    .map((request) => pathOf(request));

/** The moves the proxy saw sent, `METHOD path` (reads left out). */
const movesSent = (proxy: ScriptedProxy) =>
  proxy.requests.filter((request) => request.method !== 'GET').map((request) => pathOf(request));

describe('orders update --resume --no-status-check, after a kill', () => {
  it('reads the status of each move the killed run never saw answered, and does not send it again', async () => {
    const { sandbox, proxy, file, report, moves, unanswered, again } = await killedRun();
    expect(await again().run(update, options(file, { resume: report }))).toBe(ExitCode.ok);
    expect(movesSent(proxy)).toEqual([]);
    expect(acceptedMoves(sandbox).toSorted()).toEqual(moves.toSorted());
    const rows = readReport(report);
    for (const move of unanswered)
      expect(rows.find((row) => row.key === move)).toMatchObject({
        outcome: 'unchanged',
        message: 'the order is already INVOICED: not sent again',
      });
  });

  it('reads no status in a --no-status-check run, and in the resumed one only the orders of unanswered moves', async () => {
    const { proxy, file, report, unanswered, firstRunReads, again } = await killedRun();
    expect(firstRunReads).toEqual([]);
    expect(await again().run(update, options(file, { resume: report }))).toBe(ExitCode.ok);
    expect(statusReads(proxy).toSorted()).toEqual(
      unanswered.map((move) => `/v1/orders/${move.split(' ')[0]}`).toSorted(),
    );
  });

  it('when the status cannot be read, reports the move unknown and sends nothing; a later --resume checks again', async () => {
    const { sandbox, proxy, state, folder, file, report, moves, unanswered, again } = await killedRun();
    state.detail = 'refused';
    const resumed = again();
    expect(await resumed.run(update, options(file, { resume: report }))).toBe(ExitCode.someRecordsFailed);
    expect(resumed.stderr()).toContain('The outcome of 3 moves is not known (3 unknown)');
    expect(movesSent(proxy)).toEqual([]);
    expect(acceptedMoves(sandbox).toSorted()).toEqual(moves.toSorted());
    const rows = readReport(report);
    for (const move of unanswered) {
      const id = move.split(' ')[0] as string;
      expect(rows.find((row) => row.key === move)).toMatchObject({
        outcome: 'unknown',
        message: `unknown: sent by the interrupted run, its answer not seen, and the order's status cannot be read to tell whether it went through; not sent again. Check with b2bctl orders get ${id}; a later --resume reads its status again and sends it only if the order has not taken it`,
      });
    }
    // No errors file: fed back as the run was made (--no-status-check), it would send the moves unchecked.
    expect(runFiles(folder, 'nightly').errors).toEqual([]);

    // Resumed again once the status is readable: checked again (an unknown row is no answer), still not sent.
    state.detail = 'readable';
    expect(await again().run(update, options(file, { resume: report }))).toBe(ExitCode.ok);
    expect(movesSent(proxy)).toEqual([]);
    expect(acceptedMoves(sandbox).toSorted()).toEqual(moves.toSorted());
    for (const move of unanswered)
      expect(readReport(report).findLast((row) => row.key === move)).toMatchObject({ outcome: 'unchanged' });
  });

  it.each([false, true])(
    'a status read answered 500 (status check %s): unknown, not failed, no errors file, nothing sent; the resume it prints sends nothing once the status reads',
    async (statusCheck) => {
      const { sandbox, proxy, state, folder, file, report, moves, unanswered, again } = await killedRun();
      state.detail = 'failing';
      const resumed = again();
      const flags = { resume: report, retries: 0, statusCheck };
      expect(await resumed.run(update, options(file, flags))).toBe(ExitCode.someRecordsFailed);
      expect(movesSent(proxy)).toEqual([]);
      const rows = readReport(report);
      for (const move of unanswered) {
        const id = move.split(' ')[0] as string;
        const row = rows.find((reported) => reported.key === move);
        expect(row).toMatchObject({ outcome: 'unknown', status: '' });
        expect(row?.message).toBe(
          `unknown: sent by the interrupted run, its answer not seen, and the order's status cannot be read to tell whether it went through (GET ${proxy.url}/v1/orders/${id} failed with HTTP 500: boom); not sent again. Check with b2bctl orders get ${id}; a later --resume reads its status again and sends it only if the order has not taken it`,
        );
      }
      expect(rows.filter((row) => row.outcome === 'failed')).toEqual([]);
      expect(runFiles(folder, 'nightly').errors).toEqual([]);
      expect(resumed.stderr()).toContain(
        'The outcome of 3 moves is not known (3 unknown); the report ' +
          `${report} says why. 3 unknown may have gone through without an answer, and the resume asks the platform about them before sending them again: run `,
      );
      expect(resumed.stderr()).not.toContain('feed it back');

      // The way on the run printed, once the detail answers: each order read, already moved, nothing sent.
      state.detail = 'readable';
      expect(await again().run(update, options(file, flags))).toBe(ExitCode.ok);
      expect(movesSent(proxy)).toEqual([]);
      expect(acceptedMoves(sandbox).toSorted()).toEqual(moves.toSorted());
      for (const move of unanswered)
        expect(readReport(report).findLast((row) => row.key === move)).toMatchObject({ outcome: 'unchanged' });
    },
  );

  it('a status read the platform never answers: unknown, no errors file, nothing sent, and the run stops as for an unavailable platform', async () => {
    const { sandbox, proxy, state, folder, file, report, moves, unanswered, again } = await killedRun();
    state.detail = 'unanswered';
    const resumed = again();
    const flags = { resume: report, retries: 0, concurrency: 1 };
    expect(await resumed.run(update, options(file, flags))).toBe(ExitCode.unavailable);
    expect(movesSent(proxy)).toEqual([]);
    expect(acceptedMoves(sandbox).toSorted()).toEqual(moves.toSorted());
    const rows = readReport(report).filter((row) => unanswered.includes(row.key));
    expect(rows.map((row) => row.outcome)).toEqual(['unknown', 'unknown', 'unknown']);
    for (const row of rows)
      expect(row.message).toMatch(
        /^unknown: sent by the interrupted run, its answer not seen, and the order's status cannot be read to tell whether it went through \(No answer from http:.+\); not sent again\./,
      );
    expect(runFiles(folder, 'nightly').errors).toEqual([]);
    expect(resumed.stderr()).toContain('Stopped after 3 failed requests in a row; when the platform is back, run: ');
  });
});
