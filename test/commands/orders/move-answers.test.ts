/**
 * What a move's answer proves, against the sandbox behind a scripted proxy: a 200 whose body refuses the move, shows
 * the order in another status or is another order's record is no proof, and a 500 may come after the store applied
 * the move; each is settled by reading the order again. And what the read before the move must show for its checks
 * to run: an order detail in an envelope b2bctl does not know, a status in lower case or as an object, a total in
 * pt-BR text, a route the store lacks (404 right after the order was read). Findings of a user test (t5, t6).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as move, type OrdersMoveOptions } from '../../../src/commands/orders/move.js';
import { run as update } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { acceptedMoves, freshMovesFolder, moveHeader, newOrders, sampleNfeFiles } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxyAction, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

/** A context whose requests pass a proxy that answers each write (or each read, with `reads`) by `action`. */
async function behind(action: (id: number) => ProxyAction, { reads = false } = {}) {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, (request) => {
    if ((request.method === 'GET') !== reads) return undefined;
    const id = /\/v1\/orders\/(\d+)/.exec(pathOf(request))?.[1];
    return id === undefined ? undefined : action(Number(id));
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
  const writes = () =>
    proxy.requests.filter((request) => request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/')).length;
  return { sandbox, test, proxy, writes };
}

async function ready(
  test: Awaited<ReturnType<typeof behind>>['test'],
  id: number,
  extra: Partial<OrdersMoveOptions> = {},
) {
  const code = await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}`, ...extra });
  const out = test.stdout().trim();
  return {
    code,
    outcome: out === '' ? undefined : (JSON.parse(out) as Record<string, unknown>),
    stderr: test.stderr(),
  };
}

const statusOf = (id: number) => fixture().sandbox.state.orders.orders.get(id)!.status;

describe('a 200 to a move that is no proof of it: the order is read again', () => {
  it.each([
    ['a refusing status', { status: 'ERROR', message: 'Transition not allowed' }],
    ['success false', { success: false, message: 'Transition not allowed' }],
    ['a list of errors', { errors: [{ field: 'status', message: 'Transition not allowed' }] }],
  ])('%s, the order not moved: failed, exit 1, the platform quoted, never "now ERROR"', async (_name, body) => {
    const { test, sandbox } = await behind(() => ({ answer: 200, body }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome, stderr } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'failed', status: 200 });
    expect(outcome?.message).toBe(
      `the answer's body refuses the move: ${JSON.stringify(body)}; the order is AWAITING_PAYMENT, not READY_TO_SHIP: the move did not go through`,
    );
    expect(stderr).not.toMatch(/now ERROR|taken as done/);
    expect(statusOf(id)).toBe('AWAITING_PAYMENT');
  });

  it('a refusing body, the order showing no status to tell: unknown, not "did not go through"', async () => {
    // The detail shows a status before the move (with none, the move is not sent) and none once it was answered.
    const { test, sandbox } = await behind((id) => {
      (sandbox.state.orders.orders.get(id) as unknown as { status: unknown }).status = undefined;
      return { answer: 200, body: { success: false } };
    });
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown', status: 200 });
    expect(outcome?.message).toMatch(
      /^the answer's body refuses the move: \{"success":false\}; the order's detail shows no status b2bctl reads, so it cannot tell whether the move went through: /,
    );
  });

  it('a refusing body to a move the store applied all the same: applied, from the order read again', async () => {
    const { test, sandbox } = await behind(() => ({ appliedThenAnswer: 200, body: { success: false } }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({ outcome: 'applied', status: 200 });
    expect(outcome?.message).toBe(
      `the answer's body refuses the move: {"success":false}; the order is READY_TO_SHIP, so the move went through`,
    );
  });

  it.each([
    [
      'the order in its old status',
      (id: number) => ({ id, status: 'AWAITING_PAYMENT' }),
      'the answer shows the order AWAITING_PAYMENT, which this move does not lead to',
    ],
    [
      'the order canceled',
      (id: number) => ({ id, status: 'CANCELED' }),
      'the answer shows the order CANCELED, which this move does not lead to',
    ],
    [
      "another order's record",
      () => ({ id: 999, status: 'READY_TO_SHIP' }),
      'the answer is the record of another order (id 999)',
    ],
  ])('%s, the order not moved: unknown, exit 1, never "now …"', async (_name, body, said) => {
    const { test, sandbox } = await behind((id) => ({ answer: 200, body: body(id) }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown', status: 200 });
    expect(outcome?.message).toBe(
      `${said}; the order is AWAITING_PAYMENT, not READY_TO_SHIP: the platform may not have taken the move, or take it later; check with b2bctl orders get ${id} before sending it again`,
    );
  });

  it('a file answered {"success":false}: its rows failed, exit 1, the later move of the order not sent', async () => {
    const { test, sandbox, writes } = await behind(() => ({ answer: 200, body: { success: false } }));
    const [first, second] = newOrders(sandbox, 2) as [number, number];
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    const rows = [`${first};ready;PV-1;;;;;;`, `${second};cancel;;;;;;;cliente desistiu`, `${first};cancel;;;;;;;x`];
    writeFileSync(file, `${moveHeader}\r\n${rows.join('\r\n')}\r\n`);
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, options)).toBe(ExitCode.someRecordsFailed);
    const report = readReport(join(folder, onlyReport(folder, 'moves')));
    expect(report.map((row) => row.outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(report[2]?.message).toBe('not sent: the move of this order on line 2 did not go through');
    expect(writes()).toBe(2);
  });
});

// A store that queues a move and applies it a moment later answered `{"status":"OK"}` or a 202 `PROCESSING`: the word
// was read as the order's status ("the answer shows the order OK"), and each such move was `unknown`, exit 1, every
// night, while `{}` was `accepted` (a user test). The word is the request's result: accepted, as `{}` is.
describe("a 2xx whose status is the request's result (OK, PROCESSING), the order moved only later", () => {
  it.each([
    [200, { status: 'OK' }, 'OK'],
    [200, { status: 'SUCCESS' }, 'SUCCESS'],
    [202, { status: 'PROCESSING' }, 'PROCESSING'],
    [202, { status: 'ACCEPTED', protocolo: 'x' }, 'ACCEPTED'],
    [200, { status: 'QUEUED' }, 'QUEUED'],
  ])('HTTP %i %j: accepted, exit 0, one warning, the order not read again', async (status, body, word) => {
    const { test, sandbox, proxy, writes } = await behind(() => ({ answer: status, body }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome, stderr } = await ready(test, id);
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'accepted',
      status,
      message: `the answer's status ${word} is the request's, not the order's`,
    });
    expect(stderr).not.toMatch(/the answer shows the order|now OK|now PROCESSING/);
    expect(stderr.match(/warning: /g)).toHaveLength(1);
    expect(writes()).toBe(1);
    // The read before the move only: no read of the order after its answer.
    const reads = proxy.requests.filter((request) => request.method === 'GET' && pathOf(request).includes(`/${id}`));
    expect(reads).toHaveLength(1);
  });

  it('a store that applied the move at once, answering {"status":"OK"}: accepted, never "the answer shows the order OK"', async () => {
    const { test, sandbox } = await behind(() => ({ appliedThenAnswer: 200, body: { status: 'OK' } }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'accepted',
      message: "the answer's status OK is the request's, not the order's",
    });
    expect(statusOf(id)).toBe('READY_TO_SHIP');
  });

  it('a file answered 202 {"status":"PROCESSING"}: every row accepted, exit 0, one warning a run', async () => {
    const { test, sandbox, writes } = await behind(() => ({ answer: 202, body: { status: 'PROCESSING' } }));
    const [first, second] = newOrders(sandbox, 2) as [number, number];
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    writeFileSync(file, `${moveHeader}\r\n${first};ready;PV-1;;;;;;\r\n${second};ready;PV-2;;;;;;\r\n`);
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, options)).toBe(ExitCode.ok);
    const report = readReport(join(folder, onlyReport(folder, 'moves')));
    expect(report.map((row) => [row.outcome, row.status])).toEqual([
      ['accepted', '202'],
      ['accepted', '202'],
    ]);
    expect(test.stderr().match(/warning: the platform answered a move/g)).toHaveLength(1);
    expect(writes()).toBe(2);
  });

  it("a word that is no result of the request (CANCELED) is still the order's: read again, unknown", async () => {
    const { test, sandbox } = await behind(() => ({ answer: 200, body: { status: 'CANCELED' } }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown' });
    expect(String(outcome?.message)).toMatch(/^the answer shows the order CANCELED, which this move does not lead to/);
  });
});

describe('a 500 to a move, which may come after the store applied it: the order is read again', () => {
  it('applied: applied, exit 0, the 500 in the outcome', async () => {
    const { test, sandbox } = await behind(() => ({ appliedThenAnswer: 500 }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'applied',
      status: 500,
      message: 'the move was answered HTTP 500; the order is READY_TO_SHIP, so the move went through',
    });
    expect(acceptedMoves(sandbox)).toEqual([`${id} ready`]);
  });

  it('not applied: failed, send it again', async () => {
    const { test, sandbox } = await behind(() => ({ answer: 500, body: { message: 'boom' } }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'failed', status: 500 });
    expect(outcome?.message).toMatch(
      /failed with HTTP 500: boom, which may come after the platform applied the move; the order is AWAITING_PAYMENT, not READY_TO_SHIP: send it again$/,
    );
  });

  it('a file whose moves the store applied before answering 500: applied, no errors file "to fix"', async () => {
    const { test, sandbox } = await behind(() => ({ appliedThenAnswer: 500 }));
    const [first, second] = newOrders(sandbox, 2) as [number, number];
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    writeFileSync(file, `${moveHeader}\r\n${first};ready;PV-1;;;;;;\r\n${second};cancel;;;;;;;cliente desistiu\r\n`);
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, options)).toBe(ExitCode.ok);
    const report = readReport(join(folder, onlyReport(folder, 'moves')));
    expect(report.map((row) => [row.outcome, row.status])).toEqual([
      ['applied', '500'],
      ['applied', '500'],
    ]);
  });
});

describe('the read before a move', () => {
  it('an order detail in an envelope b2bctl does not know: not sent, unknown, one warning naming answers.order.detail', async () => {
    const { test, sandbox, writes } = await behind(
      (id) => ({ answer: 200, body: { pedido: { id, status: 'READY_TO_SHIP', erpOrderNumber: 'PV-1' } } }),
      { reads: true },
    );
    const [first, second] = newOrders(sandbox, 2) as [number, number];
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    writeFileSync(file, `${moveHeader}\r\n${first};ready;PV-999;;;;;;\r\n${second};ready;PV-2;;;;;;\r\n`);
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, options)).toBe(ExitCode.someRecordsFailed);
    expect(writes()).toBe(0);
    const report = readReport(join(folder, onlyReport(folder, 'moves')));
    expect(report.map((row) => row.outcome)).toEqual(['unknown', 'unknown']);
    expect(report[0]?.message).toMatch(
      /^not sent: the order's detail shows no status b2bctl reads.*answers\.order\.detail/,
    );
    expect(test.stderr().match(/warning: .*answers\.order\.detail/g)).toHaveLength(1);
  });

  it.each(['canceled', 'Canceled', 'CANCELLED', 'cancelled', { code: 'CANCELED', name: 'Cancelado' }])(
    'an order whose detail says %j: a ready move is a conflict, not sent',
    async (status) => {
      const { test, sandbox, writes } = await behind(() => undefined);
      const [id] = newOrders(sandbox, 1) as [number];
      (sandbox.state.orders.orders.get(id) as unknown as { status: unknown }).status = status;
      const { code, outcome } = await ready(test, id);
      expect(code).toBe(ExitCode.someRecordsFailed);
      expect(outcome).toMatchObject({ outcome: 'conflict' });
      expect(String(outcome?.message)).toMatch(/^the order is already CANCELED and its detail shows no ERP number/);
      expect(writes()).toBe(0);
    },
  );

  it('an order delivered in lower case: the move is unchanged, not sent', async () => {
    const { test, sandbox, writes } = await behind(() => undefined);
    const [id] = newOrders(sandbox, 1) as [number];
    (sandbox.state.orders.orders.get(id) as unknown as { status: unknown }).status = 'delivered';
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({ outcome: 'unchanged', message: 'the order is already DELIVERED: not sent' });
    expect(writes()).toBe(0);
  });

  it.each(['2.642,26', '2642,26'])(
    'an order total as pt-BR text (%s) is compared with the NF-e total',
    async (total) => {
      const { test, sandbox } = await behind(() => undefined);
      const [id] = newOrders(sandbox, 1) as [number];
      (sandbox.state.orders.orders.get(id)!.totals as unknown as { total: unknown }).total = total;
      const folder = freshMovesFolder(sandbox);
      const xml = join(folder, 'nfe', sampleNfeFiles[0]);
      const code = await test.run(move, { order: String(id), action: 'invoice', invoiceXml: xml });
      expect(code).toBe(ExitCode.ok);
      expect(test.stderr()).toContain(
        `warning: order ${id}: the NF-e's total (vNF) is 1234.56 and the order's total is 2642.26; sent all the same`,
      );
    },
  );

  it('a route the store lacks (404 right after the order was read): HTTP 404 once, the path and --routes named', async () => {
    const { test, sandbox } = await behind(() => undefined);
    const [id] = newOrders(sandbox, 1) as [number];
    const folder = freshMovesFolder(sandbox);
    const routes = join(folder, 'rotas.json');
    const body = { status: 'READY_TO_SHIP', erpOrderNumber: '{erpNumber}' };
    const route = (path: string) => ({ method: 'PUT', path, body });
    writeFileSync(
      routes,
      JSON.stringify({
        ready: route('/v1/orders/{id}/situacao'),
        invoice: { method: 'PUT', path: '/v1/orders/{id}/invoice', body: { invoice: { key: '{invoiceKey}' } } },
        ship: { method: 'PUT', path: '/v1/orders/{id}/tracking', body: { trackingCode: '{trackingCode}' } },
        cancel: { method: 'PUT', path: '/v1/orders/{id}/status', body: { status: 'CANCELED', reason: '{reason}' } },
      }),
    );
    const { code, outcome, stderr } = await ready(test, id, { routes });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'rejected', status: 404 });
    expect(String(outcome?.message)).toMatch(
      new RegExp(
        `the order was read a moment ago, so the store has no route PUT http://127\\.0\\.0\\.1:\\d+/v1/orders/${id}/situacao: check the ready route of --routes ${routes.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
      ),
    );
    expect(stderr.match(/HTTP 404/g)).toHaveLength(1);
  });
});

// A 200 with nothing in it was taken as done: `applied`, exit 0, of a move the store had not made (a user test).
describe('a 2xx with no body, which says nothing of the order: read back', () => {
  it.each([200, 204])('HTTP %i, the store having made the move: applied, from the order read back', async (status) => {
    const { test, sandbox, proxy, writes } = await behind(() => ({ appliedThenAnswer: status }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'applied',
      status,
      message: 'the answer has no body; the order is READY_TO_SHIP, so the move went through',
    });
    expect(writes()).toBe(1);
    // The read before the move and the read back.
    const reads = proxy.requests.filter(
      (request) => request.method === 'GET' && pathOf(request) === `/v1/orders/${id}`,
    );
    expect(reads).toHaveLength(2);
  });

  it.each([200, 204])('HTTP %i, the store not having made it: unknown, exit 1, never applied', async (status) => {
    const { test, sandbox, writes } = await behind(() => ({ answer: status }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown', status });
    expect(outcome?.message).toBe(
      `the answer has no body; the order is AWAITING_PAYMENT, not READY_TO_SHIP: the platform may not have taken the move, or take it later; check with b2bctl orders get ${id} before sending it again`,
    );
    expect(writes()).toBe(1);
    expect(statusOf(id)).toBe('AWAITING_PAYMENT');
  });

  it('HTTP 200, the order not readable after it: unknown, exit 1, never applied', async () => {
    const { sandbox, loggedInContext } = fixture();
    let written = false;
    const proxy = await proxied(sandbox.url, (request) => {
      if (!/^\/v1\/orders\/\d+/.test(pathOf(request))) return undefined;
      if (request.method !== 'GET') {
        written = true;
        return { answer: 200 };
      }
      return written ? { answer: 500, body: { message: 'boom' } } : undefined;
    });
    const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown', status: 200 });
    expect(outcome?.message).toBe(
      `the answer has no body; its status could not be read: check with b2bctl orders get ${id}`,
    );
    expect(proxy.requests.filter((request) => request.method === 'PUT')).toHaveLength(1);
  });

  it('HTTP 202 with no body (the store applies it later): accepted, not read back', async () => {
    const { test, sandbox, proxy, writes } = await behind(() => ({ answer: 202 }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'accepted',
      status: 202,
      message: 'the answer has no body: the platform took the move to apply it later',
    });
    expect(writes()).toBe(1);
    const reads = proxy.requests.filter(
      (request) => request.method === 'GET' && pathOf(request) === `/v1/orders/${id}`,
    );
    expect(reads).toHaveLength(1);
  });
});

// The read before a move answered with another order's record was taken for "nothing read", and the move was sent to
// the order unchecked (a user test).
describe("the read before a move answered with another order's record: not sent", () => {
  it('orders ready: failed, exit 1, one line naming the order asked and the id answered; nothing sent', async () => {
    const { test, sandbox, writes } = await behind(
      () => ({ answer: 200, body: { id: 999, status: 'READY_TO_SHIP' } }),
      {
        reads: true,
      },
    );
    const [id] = newOrders(sandbox, 1) as [number];
    const code = await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` });
    expect(code).toBe(ExitCode.someRecordsFailed);
    const said = `not sent: the read of order ${id} answered the record of another order (id 999), so what the order has taken cannot be checked; b2bctl orders get ${id} reads it again`;
    expect(JSON.parse(test.stdout())).toEqual({
      order: String(id),
      action: 'ready',
      outcome: 'failed',
      status: 200,
      message: said,
    });
    expect(test.stderr()).toBe(`error: order ${id}: failed (HTTP 200, ${said})\n`);
    expect(writes()).toBe(0);
    expect(acceptedMoves(sandbox)).toEqual([]);
  });

  it("a file: that order's moves failed and not sent, the others sent; exit 1", async () => {
    const { sandbox, loggedInContext } = fixture();
    const [mixed, fine] = newOrders(sandbox, 2) as [number, number];
    const proxy = await proxied(sandbox.url, (request) =>
      request.method === 'GET' && pathOf(request) === `/v1/orders/${mixed}`
        ? { answer: 200, body: { data: { id: fine, status: 'AWAITING_PAYMENT' } } }
        : undefined,
    );
    const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
    const folder = freshMovesFolder(sandbox);
    const file = join(folder, 'moves.csv');
    const rows = [`${mixed};ready;PV-1;;;;;;`, `${fine};ready;PV-2;;;;;;`, `${mixed};cancel;;;;;;;x`];
    writeFileSync(file, `${moveHeader}\r\n${rows.join('\r\n')}\r\n`);
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, options)).toBe(ExitCode.someRecordsFailed);
    const report = readReport(join(folder, onlyReport(folder, 'moves')));
    expect(report.toSorted((a, b) => Number(a.line) - Number(b.line)).map((row) => [row.line, row.outcome])).toEqual([
      ['2', 'failed'],
      ['3', 'applied'],
      ['4', 'failed'],
    ]);
    expect(report[0]?.message).toBe(
      `not sent: the read of order ${mixed} answered the record of another order (id ${fine}), so what the order has taken cannot be checked; b2bctl orders get ${mixed} reads it again`,
    );
    expect(report[2]?.message).toBe('not sent: the move of this order on line 2 did not go through');
    expect(acceptedMoves(sandbox)).toEqual([`${fine} ready`]);
    expect(proxy.requests.filter((request) => request.method === 'PUT').map((request) => pathOf(request))).toEqual([
      `/v1/orders/${fine}/status`,
    ]);
  });
});
