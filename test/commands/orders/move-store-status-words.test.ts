/**
 * answers.order.statusWords: a store whose statuses are its own words (`PRONTO_PARA_ENVIO`, `FATURADO`, `ENVIADO`,
 * `CANCELADO`) mapped to b2bctl's stages. Without it, every move's check on such a store is `unknown`, a cancellation
 * for ever, since a canceled order holds none of a move's data (a user test). Against the sandbox behind a scripted
 * proxy that shows the order's status in the store's words; a bad entry is refused, exit 2, and nothing is sent.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as move } from '../../../src/commands/orders/move.js';
import { ExitCode } from '../../../src/base/errors.js';
import { acceptedMoves, newOrders } from '../../support/order-moves.js';
import { useSandbox } from '../../support/sandbox.js';
import { runCommandLine } from '../../support/command-line.js';
import { pathOf, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

const portuguese: Readonly<Record<string, string>> = {
  AWAITING_PAYMENT: 'AGUARDANDO_PAGAMENTO',
  READY_TO_SHIP: 'PRONTO_PARA_ENVIO',
  INVOICED: 'FATURADO',
  SHIPPED: 'ENVIADO',
  CANCELED: 'CANCELADO',
};
const storeWords = 'PRONTO_PARA_ENVIO=READY_TO_SHIP,faturado=invoiced,Enviado=SHIPPED,CANCELADO=CANCELED';

/** The sandbox seen through a store answering its writes and details with the status in its own words. */
async function portugueseStore(wordAfterWrite = 'CANCELADO') {
  const { sandbox, loggedInContext, context } = fixture();
  const proxy = await proxied(sandbox.url, (request) => {
    const id = /^\/v1\/orders\/(\d+)/.exec(pathOf(request))?.[1];
    if (id === undefined) return undefined;
    const inWords = () => {
      const order = sandbox.state.orders.orders.get(Number(id)) as unknown as Record<string, unknown>;
      return { ...order, status: portuguese[String(order.status)] ?? order.status };
    };
    if (request.method !== 'GET') return { appliedThenAnswer: 200, body: { id: Number(id), status: wordAfterWrite } };
    return /^\/v1\/orders\/\d+$/.test(pathOf(request)) ? { answer: 200, body: inWords() } : undefined;
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
  const writes = () =>
    proxy.requests
      .filter((request) => request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/'))
      .map((request) => pathOf(request));
  const again = () => context({ configDir: test.configDir, globals: { baseUrl: proxy.url, output: 'json' } });
  const configSet = async (value: string) =>
    await runCommandLine(['config', 'set', 'answers.order.statusWords', value], { configDir: test.configDir });
  return { sandbox, test, writes, again, configSet };
}

describe('answers.order.statusWords: a store whose statuses are its own words', () => {
  it('a cancellation answered with the order CANCELADO: applied; run again, unchanged and not sent', async () => {
    const { sandbox, test, writes, again, configSet } = await portugueseStore();
    expect((await configSet(storeWords)).code).toBe(0);
    const [id] = newOrders(sandbox, 1) as [number];
    expect(await test.run(move, { order: String(id), action: 'cancel', reason: 'cliente desistiu' })).toBe(ExitCode.ok);
    expect(JSON.parse(test.stdout())).toMatchObject({ outcome: 'applied', status: 200, message: 'now CANCELED' });
    const rerun = again();
    expect(await rerun.run(move, { order: String(id), action: 'cancel', reason: 'cliente desistiu' })).toBe(
      ExitCode.ok,
    );
    expect(JSON.parse(rerun.stdout())).toMatchObject({ outcome: 'unchanged' });
    expect(writes()).toEqual([`/v1/orders/${id}/status`]);
    expect(acceptedMoves(sandbox)).toEqual([`${id} cancel`]);
  });

  it('a ready move the order shows PRONTO_PARA_ENVIO after: applied; run again, unchanged', async () => {
    const { sandbox, test, writes, again, configSet } = await portugueseStore('PRONTO_PARA_ENVIO');
    expect((await configSet(storeWords)).code).toBe(0);
    const [id] = newOrders(sandbox, 1) as [number];
    expect(await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` })).toBe(ExitCode.ok);
    expect(JSON.parse(test.stdout())).toMatchObject({ outcome: 'applied', message: 'now READY_TO_SHIP' });
    const rerun = again();
    expect(await rerun.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` })).toBe(ExitCode.ok);
    expect(JSON.parse(rerun.stdout())).toMatchObject({ outcome: 'unchanged' });
    expect(writes()).toEqual([`/v1/orders/${id}/status`]);
  });

  it('without the setting, the same cancellation stays unknown (exit 1)', async () => {
    const { sandbox, test } = await portugueseStore();
    const [id] = newOrders(sandbox, 1) as [number];
    expect(await test.run(move, { order: String(id), action: 'cancel', reason: 'cliente desistiu' })).toBe(
      ExitCode.someRecordsFailed,
    );
    expect(JSON.parse(test.stdout())).toMatchObject({ outcome: 'unknown' });
  });
});

describe('answers.order.statusWords: a bad entry', () => {
  it.each([
    ['CANCELADO=GONE', 'maps CANCELADO to "GONE", which is no stage of b2bctl\'s'],
    ['CANCELADO', 'has the entry "CANCELADO": each entry is THEIRS=OURS'],
    ['CANCELADO=CANCELED,,ENVIADO=SHIPPED', 'has an empty entry'],
    ['=CANCELED', "names no word of the store's"],
    ['A=B=C', 'has the entry "A=B=C"'],
    ['CANCELADO=CANCELED,cancelado=SHIPPED', 'maps CANCELADO twice, to CANCELED and to SHIPPED'],
    ['SHIPPED=DELIVERED', 'maps SHIPPED, a word b2bctl reads as SHIPPED already, to DELIVERED'],
  ])('config set %j: refused, exit 2, naming the entry; nothing set', async (value, said) => {
    const { test, configSet } = await portugueseStore();
    const result = await configSet(value);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain('answers.order.statusWords');
    expect(result.stderr).toContain(said);
    expect(
      (await runCommandLine(['config', 'get', 'answers.order.statusWords'], { configDir: test.configDir })).stdout,
    ).not.toContain(value);
  });

  it('a bad value written in config.json by hand: the move refused, exit 2, nothing sent', async () => {
    const { sandbox, writes, test, configSet } = await portugueseStore();
    expect((await configSet(storeWords)).code).toBe(0);
    const file = join(test.configDir, 'config.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(storeWords, 'CANCELADO=GONE'));
    const [id] = newOrders(sandbox, 1) as [number];
    const result = await runCommandLine(['orders', 'cancel', String(id), '--reason', 'cliente desistiu'], {
      configDir: test.configDir,
    });
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain('maps CANCELADO to "GONE", which is no stage of b2bctl\'s');
    expect(writes()).toEqual([]);
    expect(acceptedMoves(sandbox)).toEqual([]);
  });
});
