/**
 * A move's own answer read through the store's answer settings, as its order detail is: a store whose order is
 * `{"pedido":{"codigo":7,"situacao":"PRONTO_PARA_ENVIO"}}` (answers.order.detail, answers.order.status,
 * answers.orders.id, answers.order.statusWords) and answers a move with the order in that shape. Read by b2bctl's own
 * names, such an answer was no order at all: a move the store had not made was `accepted`, exit 0, and one it had made
 * the record of another order, read again for nothing (a user test). Against the sandbox behind a scripted proxy that
 * shows its orders in the store's shape.
 */
import { describe, expect, it } from 'vitest';
import { run as move } from '../../../src/commands/orders/move.js';
import { ExitCode } from '../../../src/base/errors.js';
import { acceptedMoves, newOrders } from '../../support/order-moves.js';
import { useSandbox } from '../../support/sandbox.js';
import { runCommandLine } from '../../support/command-line.js';
import { pathOf, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

const storeWord: Readonly<Record<string, string>> = {
  AWAITING_PAYMENT: 'AGUARDANDO_PAGAMENTO',
  READY_TO_SHIP: 'PRONTO_PARA_ENVIO',
  INVOICED: 'FATURADO',
  SHIPPED: 'ENVIADO',
  CANCELED: 'CANCELADO',
};
const settings: readonly [string, string][] = [
  ['answers.order.detail', 'pedido'],
  ['answers.order.status', 'situacao'],
  ['answers.orders.id', 'codigo'],
  [
    'answers.order.statusWords',
    'AGUARDANDO_PAGAMENTO=AWAITING_PAYMENT,PRONTO_PARA_ENVIO=READY_TO_SHIP,FATURADO=INVOICED,ENVIADO=SHIPPED,CANCELADO=CANCELED',
  ],
];

/**
 * What the store answers a move with, given the order's id and its record in the store's shape as the ready move
 * leaves it (the answer is made before the sandbox applies the move).
 */
type MoveAnswer = (id: number, readied: () => Record<string, unknown>) => { applied: boolean; body: unknown };

/**
 * The sandbox seen through a store whose order is `{"pedido":{"codigo":…,"situacao":…}}`, beside fields of its own
 * under b2bctl's default names (`id`, the row's key; `status`, the record's life): its details so, its moves answered
 * by `answer`.
 */
async function storeOfItsOwnShape(answer: MoveAnswer) {
  const { sandbox, loggedInContext } = fixture();
  const record = (id: number) => () => {
    const order = sandbox.state.orders.orders.get(id) as unknown as Record<string, unknown>;
    return { ...order, id: 90_000 + id, codigo: id, situacao: storeWord[String(order.status)], status: 'ATIVO' };
  };
  const proxy = await proxied(sandbox.url, (request) => {
    const id = /^\/v1\/orders\/(\d+)/.exec(pathOf(request))?.[1];
    if (id === undefined) return undefined;
    if (request.method === 'GET')
      return /^\/v1\/orders\/\d+$/.test(pathOf(request))
        ? { answer: 200, body: { pedido: record(Number(id))() } }
        : undefined;
    const readied = () => ({ ...record(Number(id))(), situacao: 'PRONTO_PARA_ENVIO', erpOrderNumber: `PV-${id}` });
    const { applied, body } = answer(Number(id), readied);
    return applied ? { appliedThenAnswer: 200, body } : { answer: 200, body };
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
  for (const [key, value] of settings)
    expect((await runCommandLine(['config', 'set', key, value], { configDir: test.configDir })).code).toBe(0);
  const requestsTo = (method: 'GET' | 'PUT', id: number) =>
    proxy.requests.filter((request) => request.method === method && pathOf(request).startsWith(`/v1/orders/${id}`))
      .length;
  return { sandbox, test, requestsTo };
}

async function ready(test: Awaited<ReturnType<typeof storeOfItsOwnShape>>['test'], id: number) {
  const code = await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` });
  return { code, outcome: JSON.parse(test.stdout()) as Record<string, unknown>, stderr: test.stderr() };
}

describe("a move's answer in the store's own shape, read through its answer settings", () => {
  it.each([
    ['in its envelope', (readied: () => Record<string, unknown>) => ({ pedido: readied() })],
    ['at the root', (readied: () => Record<string, unknown>) => readied()],
  ])('the order %s, moved: applied, now READY_TO_SHIP, exit 0, no warning, not read again', async (_name, shaped) => {
    const { sandbox, test, requestsTo } = await storeOfItsOwnShape((_id, readied) => ({
      applied: true,
      body: shaped(readied),
    }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome, stderr } = await ready(test, id);
    expect(code).toBe(ExitCode.ok);
    expect(outcome).toMatchObject({ outcome: 'applied', status: 200, message: 'now READY_TO_SHIP' });
    expect(stderr).not.toMatch(/warning|another order/);
    expect(requestsTo('PUT', id)).toBe(1);
    // The read before the move only: the answer proved it.
    expect(requestsTo('GET', id)).toBe(1);
    expect(acceptedMoves(sandbox)).toEqual([`${id} ready`]);
  });

  it.each([
    [
      'its old status',
      (id: number) => ({ pedido: { codigo: id, situacao: 'AGUARDANDO_PAGAMENTO' } }),
      'the answer shows the order AWAITING_PAYMENT, which this move does not lead to',
    ],
    [
      'canceled',
      (id: number) => ({ pedido: { codigo: id, situacao: 'CANCELADO' } }),
      'the answer shows the order CANCELED, which this move does not lead to',
    ],
    [
      "another order's record",
      () => ({ pedido: { codigo: 999, situacao: 'PRONTO_PARA_ENVIO' } }),
      'the answer is the record of another order (id 999)',
    ],
  ])('the order not moved, the answer showing %s: unknown, exit 1, never accepted', async (_name, body, said) => {
    const { sandbox, test, requestsTo } = await storeOfItsOwnShape((id) => ({ applied: false, body: body(id) }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome, stderr } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown', status: 200 });
    expect(outcome.message).toBe(
      `${said}; the order is AWAITING_PAYMENT, not READY_TO_SHIP: the platform may not have taken the move, or take it later; check with b2bctl orders get ${id} before sending it again`,
    );
    expect(stderr).not.toMatch(/taken as done|warning/);
    expect(requestsTo('PUT', id)).toBe(1);
    expect(acceptedMoves(sandbox)).toEqual([]);
  });

  it('the order moved but the answer holding no ERP number where the store keeps it: unknown, exit 1', async () => {
    const { sandbox, test } = await storeOfItsOwnShape((_id, readied) => ({
      applied: true,
      body: { pedido: { ...readied(), erpOrderNumber: null } },
    }));
    const [id] = newOrders(sandbox, 1) as [number];
    const { code, outcome } = await ready(test, id);
    expect(code).toBe(ExitCode.someRecordsFailed);
    expect(outcome).toMatchObject({ outcome: 'unknown', status: 200 });
    expect(String(outcome.message)).toMatch(/^the answer shows the order READY_TO_SHIP but holding no ERP number/);
  });
});
