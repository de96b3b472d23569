/**
 * A store whose statuses are its own words (`PRONTO_PARA_ENVIO`, `CANCELADO`: the platform document lists none), a
 * detail that keeps its status under another name (`situacao`), and a 2xx that shows the order moved without the
 * move's data (`"erpOrderNumber": null`). b2bctl cannot tell from any of them whether a move went through: the move
 * is `unknown`, never `failed … send it again`, and nothing is sent twice (a user test), unless the order holds the
 * move's own data. Beside them, what the same test found of a move's answer and of the read before it: the order's
 * own record with its id written with leading zeros, and a read answered 500 that printed no outcome. Against the
 * sandbox behind a scripted proxy that rewrites the order's detail as such a store shows it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as move } from '../../../src/commands/orders/move.js';
import { run as update, type OrdersUpdateOptions } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { acceptedMoves, freshMovesFolder, moveHeader, newOrders } from '../../support/order-moves.js';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { runCommandLine } from '../../support/command-line.js';
import { pathOf, type ProxyAction, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

/** A Brazilian store's words for the statuses the sandbox keeps. */
const portuguese: Readonly<Record<string, string>> = {
  AWAITING_PAYMENT: 'AGUARDANDO_PAGAMENTO',
  READY_TO_SHIP: 'PRONTO_PARA_ENVIO',
  INVOICED: 'FATURADO',
  SHIPPED: 'ENVIADO',
  CANCELED: 'CANCELADO',
};

interface StoreShape {
  /** How the store answers a write (undefined: the sandbox's own answer). */
  write?: (id: number) => ProxyAction;
  /** Rewrites the sandbox's record of the order as the store's detail shows it. */
  detail?: (order: Record<string, unknown>) => Record<string, unknown>;
}

/** The sandbox seen through a store of `shape`; the proxy's log holds every request. */
async function store(shape: StoreShape) {
  const { sandbox, loggedInContext, context } = fixture();
  const proxy = await proxied(sandbox.url, (request) => {
    const id = /^\/v1\/orders\/(\d+)/.exec(pathOf(request))?.[1];
    if (id === undefined) return undefined;
    if (request.method !== 'GET') return shape.write?.(Number(id));
    if (shape.detail === undefined || !/^\/v1\/orders\/\d+$/.test(pathOf(request))) return undefined;
    const order = sandbox.state.orders.orders.get(Number(id)) as unknown as Record<string, unknown> | undefined;
    return order === undefined ? undefined : { answer: 200, body: shape.detail({ ...order }) };
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
  const writes = () =>
    proxy.requests
      .filter((request) => request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/'))
      .map((request) => pathOf(request));
  const again = () => context({ configDir: test.configDir, globals: { baseUrl: proxy.url, output: 'json' } });
  const reads = () =>
    proxy.requests.filter((request) => request.method === 'GET' && /^\/v1\/orders\/\d+$/.test(pathOf(request))).length;
  return { sandbox, test, writes, reads, again };
}

const inPortuguese = (order: Record<string, unknown>): Record<string, unknown> => ({
  ...order,
  status: portuguese[String(order.status)] ?? order.status,
});

/** In the store's words, and without the data the moves give (a detail that does not show it tells nothing by it). */
const inPortugueseShowingNoData = (order: Record<string, unknown>): Record<string, unknown> => {
  const shown: Record<string, unknown> = inPortuguese(order);
  for (const field of ['erpOrderNumber', 'invoice', 'tracking']) delete shown[field];
  return shown;
};

/** A store's detail keeping the status under its own name. */
const underSituacao = ({ status, ...order }: Record<string, unknown>) => ({ ...order, situacao: status });

function fileOptions(file: string, extra: Partial<OrdersUpdateOptions> = {}): OrdersUpdateOptions {
  return { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true, ...extra };
}

describe('a move the store applied, answered 500 or cut, on a store whose statuses are its own words', () => {
  it.each<[string, ProxyAction]>([
    ['answered 500', { appliedThenAnswer: 500, body: { mensagem: 'erro interno' } }],
    ['cut', { reset: 'after' }],
  ])('orders ready, %s: unknown naming the word, exit 1, sent once, never "send it again"', async (_, answer) => {
    const { sandbox, test, writes } = await store({ write: () => answer, detail: inPortugueseShowingNoData });
    const [id] = newOrders(sandbox, 1) as [number];
    const code = await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` });
    expect(code).toBe(ExitCode.someRecordsFailed);
    const outcome = JSON.parse(test.stdout()) as Record<string, unknown>;
    expect(outcome).toMatchObject({ order: String(id), action: 'ready', outcome: 'unknown' });
    expect(outcome.message).toMatch(
      new RegExp(
        `; the order is PRONTO_PARA_ENVIO, a status word b2bctl does not know, so it cannot tell whether the move went through: check with b2bctl orders get ${id} before sending it again$`,
      ),
    );
    expect(String(outcome.message)).not.toMatch(/send it again$|failed$/);
    expect(writes()).toEqual([`/v1/orders/${id}/status`]);
    expect(acceptedMoves(sandbox)).toEqual([`${id} ready`]);
  });

  it("a cancellation answered 200 with the order in the store's word (CANCELADO): unknown, exit 1, sent once", async () => {
    const { sandbox, test, writes } = await store({
      write: (id) => ({ appliedThenAnswer: 200, body: { id, status: 'CANCELADO' } }),
      detail: inPortuguese,
    });
    const [id] = newOrders(sandbox, 1) as [number];
    const code = await test.run(move, { order: String(id), action: 'cancel', reason: 'cliente desistiu' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(JSON.parse(test.stdout())).toMatchObject({
      outcome: 'unknown',
      status: 200,
      message: `the answer shows the order CANCELADO, a status word b2bctl does not know; the order is CANCELADO, a status word b2bctl does not know, so it cannot tell whether the move went through: check with b2bctl orders get ${id} before sending it again`,
    });
    expect(writes()).toEqual([`/v1/orders/${id}/status`]);
  });

  it('the detail holding the ERP number the move carried: applied, and run again, unchanged, sent once', async () => {
    const { sandbox, test, writes, again } = await store({
      write: () => ({ appliedThenAnswer: 500, body: { mensagem: 'erro interno' } }),
      detail: inPortuguese,
    });
    const [id] = newOrders(sandbox, 1) as [number];
    expect(await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` })).toBe(ExitCode.ok);
    expect(JSON.parse(test.stdout())).toMatchObject({
      outcome: 'applied',
      status: 500,
      message: `the move was answered HTTP 500; the order is PRONTO_PARA_ENVIO, a status word b2bctl does not know, and holds this move's ERP number PV-${id}, so the move went through`,
    });
    const rerun = again();
    expect(await rerun.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` })).toBe(ExitCode.ok);
    expect(JSON.parse(rerun.stdout())).toMatchObject({ outcome: 'unchanged' });
    const other = again();
    expect(await other.run(move, { order: String(id), action: 'ready', erpNumber: 'PV-OTHER' })).toBe(
      ExitCode.someRecordsFailed,
    );
    expect(JSON.parse(other.stdout())).toMatchObject({
      outcome: 'conflict',
      message: `the order holds ERP number PV-${id}; this move has PV-OTHER: not sent (--replace sends the correction)`,
    });
    expect(writes()).toEqual([`/v1/orders/${id}/status`]);
  });

  it("orders update: the row unknown and out of the errors file, the order's later move held back; the resume sends nothing", async () => {
    const { sandbox, test, writes, again } = await store({
      write: (id) => (id === first ? { appliedThenAnswer: 500, body: { mensagem: 'erro interno' } } : undefined),
      detail: inPortugueseShowingNoData,
    });
    const [first, second] = newOrders(sandbox, 2) as [number, number];
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    writeFileSync(
      file,
      `${moveHeader}\r\n${first};ready;PV-1;;;;;;\r\n${first};ship;;;;Correios;SS123456785BR;;\r\n${second};cancel;;;;;;;cliente desistiu\r\n`,
    );
    expect(await test.run(update, fileOptions(file))).toBe(ExitCode.someRecordsFailed);
    const report = join(folder, onlyReport(folder, 'moves'));
    const rows = readReport(report);
    expect(rows.map((row) => [row.key, row.outcome])).toEqual([
      [`${first} ready`, 'unknown'],
      [`${first} ship`, 'failed'],
      [`${second} cancel`, 'applied'],
    ]);
    expect(rows[0]?.message).toMatch(/the order is PRONTO_PARA_ENVIO, a status word b2bctl does not know/);
    // The later move waits on an outcome nobody knows yet, not on a move that "did not go through".
    expect(rows[1]?.message).toBe('not sent: the outcome of the move of this order on line 2 is not known');
    expect(
      runFiles(folder, 'moves').errors.filter((name) =>
        readFileSync(join(folder, name), 'utf8').includes(`${first};ready`),
      ),
    ).toEqual([]);
    expect(writes()).toEqual([`/v1/orders/${first}/status`, `/v1/orders/${second}/status`]);

    // The resume reads the order: PRONTO_PARA_ENVIO tells neither way, so the ready is not sent a second time.
    expect(await again().run(update, fileOptions(file, { resume: report }))).toBe(ExitCode.someRecordsFailed);
    expect(writes()).toEqual([`/v1/orders/${first}/status`, `/v1/orders/${second}/status`]);
    expect(acceptedMoves(sandbox)).toEqual([`${first} ready`, `${second} cancel`]);
    const resumed = readReport(report).filter((row) => row.key === `${first} ready`);
    expect(resumed.at(-1)).toMatchObject({ outcome: 'unknown' });
    expect(resumed.at(-1)?.message).toMatch(
      /^unknown: sent by the interrupted run, its answer not seen, and the order is PRONTO_PARA_ENVIO, a status word b2bctl does not know, so it cannot tell whether the move went through; not sent again\. Check with b2bctl orders get /,
    );
  });
});

describe('--resume after a kill, on a store whose statuses are its own words', () => {
  it.each([
    [
      'shows no ERP number: unknown',
      inPortugueseShowingNoData,
      'unknown',
      /the order is PRONTO_PARA_ENVIO, a status word b2bctl does not know, so it cannot tell/,
    ],
    [
      'holds the ERP number the move carried: unchanged',
      inPortuguese,
      'unchanged',
      /^the order is PRONTO_PARA_ENVIO, a status word b2bctl does not know, and holds this move's ERP number PV-\d+: not sent again$/,
    ],
  ])(
    'the moves the killed run applied without a report row, the detail %s, not sent again',
    async (_, detail, outcome, said) => {
      const { sandbox, test, writes, again } = await store({ detail });
      const ids = newOrders(sandbox, 3);
      const folder = freshMovesFolder(sandbox);
      const file = join(folder, 'moves.csv');
      writeFileSync(file, `${moveHeader}\r\n${ids.map((id) => `${id};ready;PV-${id};;;;;;`).join('\r\n')}\r\n`);
      expect(await test.run(update, fileOptions(file))).toBe(ExitCode.ok);
      expect(writes()).toHaveLength(3);
      // The kill came after the store's work and before the report's rows were written.
      const report = join(folder, onlyReport(folder, 'moves'));
      const [header] = readFileSync(report, 'utf8').split('\r\n');
      writeFileSync(report, `${header}\r\n`);

      expect(await again().run(update, fileOptions(file, { resume: report }))).toBe(
        outcome === 'unknown' ? ExitCode.someRecordsFailed : ExitCode.ok,
      );
      expect(writes()).toHaveLength(3);
      expect(acceptedMoves(sandbox)).toEqual(ids.map((id) => `${id} ready`));
      const rows = readReport(report);
      expect(rows.map((row) => row.outcome)).toEqual([outcome, outcome, outcome]);
      for (const row of rows) expect(row.message).toMatch(said);
    },
  );
});

describe('a detail that shows the order but keeps its status under another name (situacao)', () => {
  it('a ready move the order took, and another ERP number over the one it holds: unknown, not sent, one warning', async () => {
    const { sandbox, test, writes, again } = await store({ detail: underSituacao });
    const [id] = newOrders(sandbox, 1) as [number];
    const order = sandbox.state.orders.orders.get(id)!;
    order.status = 'READY_TO_SHIP';
    (order as unknown as Record<string, unknown>).erpOrderNumber = 'PV-70';
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    writeFileSync(file, `${moveHeader}\r\n${id};ready;PV-70;;;;;;\r\n`);
    expect(await test.run(update, fileOptions(file))).toBe(ExitCode.someRecordsFailed);
    expect(readReport(join(folder, onlyReport(folder, 'moves')))).toMatchObject([
      {
        outcome: 'unknown',
        message:
          "not sent: the order's detail shows no status b2bctl reads, so whether the order has taken this move cannot be checked (set answers.order.status, or --no-status-check sends it unchecked)",
      },
    ]);
    expect(test.stderr().match(/warning: the platform's order detail shows the order but no status/g)).toHaveLength(1);
    expect(test.stderr()).toContain('b2bctl config set answers.order.status situacao');

    const single = again();
    expect(await single.run(move, { order: String(id), action: 'ready', erpNumber: 'PV-70X' })).toBe(
      ExitCode.someRecordsFailed,
    );
    expect(JSON.parse(single.stdout())).toMatchObject({ outcome: 'unknown' });
    expect(writes()).toEqual([]);
  });
  it('with answers.order.status naming it: the move the order took is unchanged, another ERP number a conflict, nothing sent', async () => {
    const { sandbox, test, writes, again } = await store({ detail: underSituacao });
    expect(
      (await runCommandLine(['config', 'set', 'answers.order.status', 'situacao'], { configDir: test.configDir })).code,
    ).toBe(0);
    const [id] = newOrders(sandbox, 1) as [number];
    const order = sandbox.state.orders.orders.get(id)!;
    order.status = 'READY_TO_SHIP';
    (order as unknown as Record<string, unknown>).erpOrderNumber = 'PV-70';
    expect(await test.run(move, { order: String(id), action: 'ready', erpNumber: 'PV-70' })).toBe(ExitCode.ok);
    expect(JSON.parse(test.stdout())).toMatchObject({
      outcome: 'unchanged',
      message: 'the order is already READY_TO_SHIP: not sent',
    });
    const other = again();
    expect(await other.run(move, { order: String(id), action: 'ready', erpNumber: 'PV-70X' })).toBe(
      ExitCode.someRecordsFailed,
    );
    expect(JSON.parse(other.stdout())).toMatchObject({ outcome: 'conflict' });
    expect(writes()).toEqual([]);
  });
});

describe('a 2xx showing the order in its new status without the data the move carried', () => {
  it.each<[string, (id: number) => ProxyAction, Record<string, string>]>([
    [
      'ready, "erpOrderNumber": null',
      (id) => ({ appliedThenAnswer: 200, body: { id, status: 'READY_TO_SHIP', erpOrderNumber: null } }),
      { action: 'ready', erpNumber: 'PV-1' },
    ],
    [
      'ship, "tracking": null',
      (id) => ({ appliedThenAnswer: 200, body: { id, status: 'SHIPPED', tracking: null } }),
      { action: 'ship', trackingCode: 'SS123456785BR' },
    ],
  ])('%s: unknown, exit 1, sent once', async (_, answer, values) => {
    const { sandbox, test, writes } = await store({ write: answer });
    const [id] = newOrders(sandbox, 1) as [number];
    if (values.action === 'ship') sandbox.state.orders.orders.get(id)!.status = 'INVOICED';
    const code = await test.run(move, { order: String(id), ...values } as never);
    expect(code).toBe(ExitCode.someRecordsFailed);
    const outcome = JSON.parse(test.stdout()) as Record<string, unknown>;
    expect(outcome).toMatchObject({ outcome: 'unknown', status: 200 });
    expect(outcome.message).toMatch(
      /^the answer shows the order (READY_TO_SHIP|SHIPPED) but holding no (ERP number|tracking code): /,
    );
    expect(writes()).toHaveLength(1);
  });

  it('a record that does not show the field at all stays applied', async () => {
    const { sandbox, test, writes } = await store({
      write: (id) => ({ appliedThenAnswer: 200, body: { id, status: 'READY_TO_SHIP' } }),
    });
    const [id] = newOrders(sandbox, 1) as [number];
    expect(await test.run(move, { order: String(id), action: 'ready', erpNumber: 'PV-1' })).toBe(ExitCode.ok);
    expect(JSON.parse(test.stdout())).toMatchObject({ outcome: 'applied', message: 'now READY_TO_SHIP' });
    expect(writes()).toHaveLength(1);
  });

  it('orders update: the row unknown and out of the errors file', async () => {
    const { sandbox, test, writes } = await store({
      write: (id) => ({ appliedThenAnswer: 200, body: { id, status: 'READY_TO_SHIP', erpOrderNumber: null } }),
    });
    const [id] = newOrders(sandbox, 1) as [number];
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    writeFileSync(file, `${moveHeader}\r\n${id};ready;PV-1;;;;;;\r\n`);
    expect(await test.run(update, fileOptions(file))).toBe(ExitCode.someRecordsFailed);
    expect(readReport(join(folder, onlyReport(folder, 'moves')))).toMatchObject([
      { outcome: 'unknown', status: '200' },
    ]);
    expect(runFiles(folder, 'moves').errors).toEqual([]);
    expect(writes()).toHaveLength(1);
  });
});

describe("a move answered with the order's own record, its id written with leading zeros", () => {
  it.each([
    ['by its id', (id: number) => String(id)],
    ['with leading zeros', (id: number) => `00${id}`],
  ])('named %s: applied, not "the record of another order", not read again', async (_, named) => {
    const { sandbox, test, writes, reads } = await store({
      write: (id) => ({ appliedThenAnswer: 200, body: { id: `0000${id}`, status: 'READY_TO_SHIP' } }),
    });
    const [id] = newOrders(sandbox, 1) as [number];
    expect(await test.run(move, { order: named(id), action: 'ready', erpNumber: 'PV-1' })).toBe(ExitCode.ok);
    expect(JSON.parse(test.stdout())).toMatchObject({ outcome: 'applied', status: 200, message: 'now READY_TO_SHIP' });
    expect(writes()).toEqual([`/v1/orders/${id}/status`]);
    // The read before the move only.
    expect(reads()).toBe(1);
  });
});

describe('a single move whose read before it is answered 500', () => {
  it('prints its outcome (failed, not sent, naming the order and the move), exit 1, nothing sent', async () => {
    const { sandbox, loggedInContext } = fixture();
    const proxy = await proxied(sandbox.url, (request) =>
      request.method === 'GET' && /^\/v1\/orders\/\d+$/.test(pathOf(request))
        ? { answer: 500, body: { mensagem: 'erro interno' } }
        : undefined,
    );
    const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
    const [id] = newOrders(sandbox, 1) as [number];
    const code = await test.run(move, { order: String(id), action: 'cancel', reason: 'Cliente desistiu' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    const outcome = JSON.parse(test.stdout()) as Record<string, unknown>;
    expect(outcome).toMatchObject({ order: String(id), action: 'cancel', outcome: 'failed', status: 500 });
    expect(outcome.message).toBe(
      `not sent: the order's status could not be read: GET ${proxy.url}/v1/orders/${id} failed with HTTP 500: erro interno`,
    );
    expect(test.stderr()).toContain(
      `error: order ${id}: failed (HTTP 500, not sent: the order's status could not be read: GET `,
    );
    expect(
      proxy.requests.filter((request) => request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/')),
    ).toEqual([]);
  });
});
