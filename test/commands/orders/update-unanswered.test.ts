/**
 * A resumed `orders update --no-status-check` and the moves the killed run sent but never saw answered (the report
 * has no row for them). In process: the killed run's state is a finished run's report with those rows cut off, the
 * moves already in the store, as a SIGKILL between the platform's work and the report's write leaves them (the
 * built binary's real kill is test/e2e/orders/update-resume.test.ts). The store accepts a repeated `ready`, so a
 * second send would show in its log.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run as update, type OrdersUpdateOptions } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { acceptedMoves, freshMovesFolder, newOrders, nightlyFile } from '../../support/order-moves.js';
import { onlyErrorsFile, onlyReport, readErrorsCsv, readReport } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ScriptedProxy, startScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
let openProxy: ScriptedProxy | undefined;
afterEach(async () => {
  await openProxy?.close();
  openProxy = undefined;
});

function options(file: string, extra: Partial<OrdersUpdateOptions> = {}): OrdersUpdateOptions {
  return { file, concurrency: 2, dryRun: false, skipInvalid: false, strict: false, statusCheck: false, ...extra };
}

/**
 * Six orders moved ready (and on) by a finished --no-status-check run through a proxy; then its report loses the
 * rows of the first three readies, as a kill after the store's work and before the report's write would leave it.
 */
async function killedRun() {
  const { sandbox, loggedInContext, context } = fixture();
  const state = { detailReadable: true };
  const proxy = await startScriptedProxy(sandbox.url, (request) =>
    !state.detailReadable && request.method === 'GET' && /^\/v1\/orders\/\d+$/.test(pathOf(request))
      ? { answer: 404, body: { message: 'Not found' } }
      : undefined,
  );
  openProxy = proxy;
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
    state.detailReadable = false;
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
        message: `unknown: sent by the interrupted run, its answer not seen, and the order's status cannot be read to tell whether it went through; not sent again. Check with b2bctl orders get ${id}; to send it anyway, feed the row back from the errors file`,
      });
    }
    // The rows are in the errors file, in the input's own columns, for a person to feed back once checked.
    const errors = readErrorsCsv(join(folder, onlyErrorsFile(folder, 'nightly')), ';');
    expect(errors.rows.map((row) => `${row[0]} ${row[1]}`)).toEqual(unanswered);

    // Resumed again once the status is readable: checked again (an unknown row is no answer), still not sent.
    state.detailReadable = true;
    expect(await again().run(update, options(file, { resume: report }))).toBe(ExitCode.ok);
    expect(movesSent(proxy)).toEqual([]);
    expect(acceptedMoves(sandbox).toSorted()).toEqual(moves.toSorted());
    for (const move of unanswered)
      expect(readReport(report).findLast((row) => row.key === move)).toMatchObject({ outcome: 'unchanged' });
  });
});
