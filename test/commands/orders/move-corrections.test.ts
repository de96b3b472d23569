/**
 * A correction (`--replace`) whose answer does not tell whether it was made: a 500, a lost connection, a 2xx that
 * refuses it. A correction leaves the order's status as it is, so the status read again proves nothing; the value
 * the order's detail shows does. A 500 the store had not applied was reported `applied`, exit 0, "the order is
 * READY_TO_SHIP, so the move went through", the order still holding the old ERP number (a user test).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as move, type OrdersMoveOptions } from '../../../src/commands/orders/move.js';
import { run as update } from '../../../src/commands/orders/update.js';
import { ExitCode } from '../../../src/base/errors.js';
import { freshMovesFolder, moveHeader, newOrders } from '../../support/order-moves.js';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxiedRequest, type ProxyAction, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

/** The sandbox's record of an order, as the store's staff would see it. */
const stored = (id: number) => fixture().sandbox.state.orders.orders.get(id) as unknown as Record<string, unknown>;

/**
 * A context whose requests pass a proxy: each request `decide` answers is answered so, the rest go to the sandbox.
 * `corrections()` lists the requests sent to a replace route (`PUT /v1/orders/{id}/…`).
 */
async function behind(decide: (request: ProxiedRequest) => ProxyAction) {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, decide);
  const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
  const corrections = () =>
    proxy.requests.filter((request) => request.method === 'PUT' && /^\/v1\/orders\/\d+\//.test(pathOf(request)));
  return { test, corrections };
}

/** Only the corrections (PUT to a replace route) answered by `action`. */
const corrections = (action: ProxyAction) => (request: ProxiedRequest) =>
  request.method === 'PUT' && /\/(erp-number|tracking)$/.test(pathOf(request)) ? action : undefined;

/** An order made ready with ERP number E-1 (and shipped with SS123456785BR, no carrier, when `shipped`). */
function orderHolding({ shipped = false } = {}): number {
  const [id] = newOrders(fixture().sandbox, 1) as [number];
  Object.assign(stored(id), { status: shipped ? 'SHIPPED' : 'READY_TO_SHIP', erpOrderNumber: 'E-1' });
  if (shipped) stored(id).tracking = { code: 'SS123456785BR', carrier: null };
  return id;
}

async function correct(test: Awaited<ReturnType<typeof behind>>['test'], options: Partial<OrdersMoveOptions>) {
  const code = await test.run(move, { action: 'ready', replace: true, ...options } as OrdersMoveOptions);
  const out = test.stdout().trim();
  return {
    code,
    outcome: out === '' ? undefined : (JSON.parse(out) as Record<string, unknown>),
    stderr: test.stderr(),
  };
}

describe('a correction answered 500 or lost: its value read again tells, never the status alone', () => {
  it('a 500 the store did not apply: failed, exit 1, "the order still holds E-1: send it again"', async () => {
    const { test, corrections: sent } = await behind(corrections({ answer: 500, body: { message: 'boom' } }));
    const id = orderHolding();
    const { code, outcome, stderr } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ order: String(id), outcome: 'failed', status: 500 });
    expect(outcome?.message).toMatch(
      /failed with HTTP 500: boom, which may come after the platform applied the move; the order still holds ERP number E-1: send it again$/,
    );
    expect(stderr).not.toMatch(/went through/);
    expect(sent().map((request) => [pathOf(request), request.body])).toEqual([
      [`/v1/orders/${id}/erp-number`, '{"erpOrderNumber":"E-1X"}'],
    ]);
    expect(stored(id).erpOrderNumber).toBe('E-1');
  });

  it('a 500 after the store applied it: applied, exit 0, proven by the new value', async () => {
    const { test, corrections: sent } = await behind(corrections({ appliedThenAnswer: 500 }));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'applied',
      status: 500,
      message:
        'replaced E-1 with E-1X; the move was answered HTTP 500; the order holds ERP number E-1X, so the correction went through',
    });
    expect(sent()).toHaveLength(1);
    expect(stored(id).erpOrderNumber).toBe('E-1X');
  });

  it('a connection lost before the store saw it: failed, exit 1, sent once', async () => {
    const { test, corrections: sent } = await behind(corrections({ reset: 'before' }));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'failed' });
    expect(outcome?.message).toMatch(/; the order still holds ERP number E-1: send it again$/);
    expect(sent()).toHaveLength(1);
    expect(stored(id).erpOrderNumber).toBe('E-1');
  });

  it('a connection lost after the store applied it: applied, "the answer was lost"', async () => {
    const { test } = await behind(corrections({ reset: 'after' }));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'applied',
      message:
        'replaced E-1 with E-1X; the answer was lost; the order holds ERP number E-1X, so the correction went through',
    });
  });

  it('a carrier the order lacked, answered 500 and not stored: failed, the order still holds no carrier', async () => {
    const { test, corrections: sent } = await behind(corrections({ answer: 500 }));
    const id = orderHolding({ shipped: true });
    const { code, outcome } = await correct(test, {
      order: String(id),
      action: 'ship',
      trackingCode: 'SS123456785BR',
      carrier: 'Correios',
    });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'failed', status: 500 });
    expect(outcome?.message).toMatch(
      /; the order still holds tracking code SS123456785BR with no carrier: send it again$/,
    );
    expect(sent().map((request) => pathOf(request))).toEqual([`/v1/orders/${id}/tracking`]);
    expect(stored(id).tracking).toEqual({ code: 'SS123456785BR', carrier: null });
  });

  it('a carrier the order lacked, answered 500 after the store applied it: applied, naming the carrier held', async () => {
    const { test } = await behind(corrections({ appliedThenAnswer: 500 }));
    const id = orderHolding({ shipped: true });
    const { code, outcome } = await correct(test, {
      order: String(id),
      action: 'ship',
      trackingCode: 'SS123456785BR',
      carrier: 'Correios',
    });
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'applied',
      message:
        'sent carrier Correios, which the order lacked; the move was answered HTTP 500; the order holds tracking code SS123456785BR and carrier Correios, so the correction went through',
    });
  });

  it('a detail that no longer shows the ERP number at all: unknown, exit 1, never applied', async () => {
    const id = orderHolding();
    let reads = 0;
    const { test } = await behind((request) => {
      if (request.method === 'GET' && pathOf(request) === `/v1/orders/${id}` && ++reads > 1)
        return { answer: 200, body: { id, status: 'READY_TO_SHIP' } };
      return corrections({ answer: 500 })(request);
    });
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown', status: 500 });
    expect(outcome?.message).toMatch(
      new RegExp(
        `; the order's detail does not show its ERP number, and a correction leaves its status as it is, so b2bctl cannot tell whether the correction was made: check with b2bctl orders get ${id}$`,
      ),
    );
  });

  it('a carrier the detail does not show at all (absent, not empty): unknown, not failed', async () => {
    const { test } = await behind(corrections({ answer: 500 }));
    const id = orderHolding({ shipped: true });
    stored(id).tracking = { code: 'SS123456785BR' };
    const { code, outcome } = await correct(test, {
      order: String(id),
      action: 'ship',
      trackingCode: 'SS123456785BR',
      carrier: 'Correios',
    });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown' });
    expect(outcome?.message).toMatch(/; the order's detail does not show its carrier, /);
  });
});

describe('a correction answered 200 with a body that refuses it', () => {
  it('not applied: failed, "the correction did not go through", the body quoted', async () => {
    const { test } = await behind(corrections({ answer: 200, body: { success: false } }));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({
      outcome: 'failed',
      status: 200,
      message:
        'the answer\'s body refuses the move: {"success":false}; the order still holds ERP number E-1: the correction did not go through',
    });
  });

  it('applied all the same: applied, proven by the new value', async () => {
    const { test } = await behind(corrections({ appliedThenAnswer: 200, body: { success: false } }));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({
      outcome: 'applied',
      message:
        'replaced E-1 with E-1X; the answer\'s body refuses the move: {"success":false}; the order holds ERP number E-1X, so the correction went through',
    });
  });

  it('a body showing another status, the old value still held: unknown (the store may apply it later)', async () => {
    const { test } = await behind(corrections({ answer: 200, body: { status: 'AWAITING_PAYMENT' } }));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown' });
    expect(outcome?.message).toBe(
      `the answer shows the order AWAITING_PAYMENT, which this move does not lead to; the order still holds ERP number E-1: the platform may not have taken the correction, or take it later; check with b2bctl orders get ${id} before sending it again`,
    );
  });

  it('the order record still holding the old value, status unchanged: no proof; unknown, never "now READY_TO_SHIP"', async () => {
    const id = orderHolding();
    const stale = { id, status: 'READY_TO_SHIP', erpOrderNumber: 'E-1' };
    const { test, corrections: sent } = await behind(corrections({ answer: 200, body: stale }));
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown', status: 200 });
    expect(outcome?.message).toBe(
      `the answer's record of the order shows the correction not made; the order still holds ERP number E-1: the platform may not have taken the correction, or take it later; check with b2bctl orders get ${id} before sending it again`,
    );
    expect(sent()).toHaveLength(1);
  });

  it('the old record in the answer of a correction the store made: applied, from the order read again', async () => {
    const id = orderHolding();
    const stale = { id, status: 'READY_TO_SHIP', erpOrderNumber: 'E-1' };
    const { test } = await behind(corrections({ appliedThenAnswer: 200, body: stale }));
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({ outcome: 'applied', status: 200 });
    expect(outcome?.message).toMatch(/; the order holds ERP number E-1X, so the correction went through$/);
  });
});

describe('a correction answered with a bare acknowledgement, which shows no order: read back', () => {
  it.each([
    ['204, no body', { answer: 204 } as ProxyAction],
    ['200 {"success":true}', { answer: 200, body: { success: true } } as ProxyAction],
  ])('%s, the store ignoring it: unknown, exit 1, never applied', async (_name, action) => {
    const { test, corrections: sent } = await behind(corrections(action));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown' });
    expect(outcome?.message).toBe(
      `the answer shows no order; read back, the order still holds ERP number E-1: the platform may not have taken the correction, or take it later; check with b2bctl orders get ${id} before sending it again`,
    );
    expect(sent()).toHaveLength(1);
    expect(stored(id).erpOrderNumber).toBe('E-1');
  });

  it('204 from a store that made it: applied, as before', async () => {
    const { test } = await behind(corrections({ appliedThenAnswer: 204 }));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({ outcome: 'applied', status: 204, message: 'replaced E-1 with E-1X' });
  });

  it('202 PROCESSING (the store applies it later): accepted, not read back', async () => {
    const { test } = await behind(corrections({ answer: 202, body: { status: 'PROCESSING' } }));
    const id = orderHolding();
    const { code, outcome } = await correct(test, { order: String(id), erpNumber: 'E-1X' });
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({ outcome: 'accepted', status: 202 });
  });
});

describe('orders update --replace', () => {
  it('corrections answered 500: the one the store made applied, the one it did not failed, to feed back; exit 1', async () => {
    const [made, lost] = [orderHolding(), orderHolding()];
    const { test } = await behind((request) =>
      corrections(pathOf(request).includes(`/${made}/`) ? { appliedThenAnswer: 500 } : { answer: 500 })(request),
    );
    const folder = freshMovesFolder(fixture().sandbox);
    const file = join(folder, 'corrigido.csv');
    writeFileSync(file, `${moveHeader}\r\n${made};ready;E-1X;;;;;;\r\n${lost};ready;E-1Y;;;;;;\r\n`);
    const options = { file, concurrency: 1, dryRun: false, skipInvalid: false, strict: false, statusCheck: true };
    expect(await test.run(update, { ...options, replace: true })).toBe(ExitCode.someRecordsFailed);
    const report = readReport(join(folder, onlyReport(folder, 'corrigido')));
    expect(report.toSorted((a, b) => Number(a.line) - Number(b.line)).map((row) => [row.outcome, row.status])).toEqual([
      ['applied', '500'],
      ['failed', '500'],
    ]);
    expect(report.find((row) => row.outcome === 'failed')?.message).toMatch(
      /; the order still holds ERP number E-1: send it again$/,
    );
    expect(runFiles(folder, 'corrigido').errors).toHaveLength(1);
    expect([stored(made).erpOrderNumber, stored(lost).erpOrderNumber]).toEqual(['E-1X', 'E-1']);
  });
});
