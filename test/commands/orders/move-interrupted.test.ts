/**
 * `orders ready|invoice|ship|cancel` stopped by SIGTERM after its move was written, the platform applying it while its
 * answer never came back (a fresh user test): the command said only `Interrupted (SIGTERM) during PUT …`, exit 75, and
 * with -o json wrote no outcome object, though the order had moved. It says the move may have been applied, writes
 * the `unknown` outcome object, and says running it again is safe: the second run reads the order first and sends
 * nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run as move, type OrdersMoveOptions } from '../../../src/commands/orders/move.js';
import { ExitCode } from '../../../src/base/errors.js';
import { acceptedMoves, freshMovesFolder, newOrders } from '../../support/order-moves.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 1 });
const proxied = useScriptedProxy();
let releaseAnswers: () => void = () => undefined;
afterEach(() => {
  releaseAnswers();
});

/** A proxy whose first move is applied by the sandbox behind it, its answer held until the test ends. */
async function proxyHoldingTheMoveAnswer(order: number) {
  const { sandbox } = fixture();
  const answerHeld = new Promise<void>((resolve) => (releaseAnswers = resolve));
  const told: { applied?: () => void } = {};
  const moveApplied = new Promise<void>((resolve) => (told.applied = resolve));
  let held = false;
  const proxy = await proxied(sandbox.url, (request) => {
    if (held || request.method === 'GET' || !pathOf(request).includes(`/${order}/`)) return undefined;
    held = true;
    return { answerHeld, applied: () => told.applied?.() };
  });
  return { proxy, moveApplied };
}

describe('orders ready interrupted after its move was sent', () => {
  it.each([
    [
      true,
      "running the same command again is safe: it reads the order's status first and sends no move the order has taken.",
    ],
    [false, 'check with b2bctl orders get ORDER before sending it again'],
  ])(
    'status check %s: exit 75, may have been applied, the unknown outcome object with -o json',
    async (statusCheck, advice) => {
      const { sandbox, loggedInContext } = fixture();
      freshMovesFolder(sandbox);
      const [order] = newOrders(sandbox, 1) as [number];
      const { proxy, moveApplied } = await proxyHoldingTheMoveAnswer(order);
      const test = await loggedInContext({ globals: { baseUrl: proxy.url, output: 'json' } });
      const options: OrdersMoveOptions = { order: String(order), action: 'ready', erpNumber: 'PV-X1', statusCheck };
      const running = test.run(move, options);
      await moveApplied;
      test.interrupt('SIGTERM');
      expect(await running).toBe(ExitCode.interrupted);
      expect(acceptedMoves(sandbox)).toEqual([`${order} ready`]);
      const said = `Interrupted (SIGTERM) during PUT ${proxy.url}/v1/orders/${order}/status, after the request was sent: the platform may have applied it; ${advice.replace('ORDER', String(order))}`;
      expect(test.stderr()).toContain(said);
      expect(JSON.parse(test.stdout())).toEqual({
        order: String(order),
        action: 'ready',
        outcome: 'unknown',
        message: expect.stringContaining(said) as unknown,
      });
    },
  );

  it('run again as the message says: the order is read, already READY_TO_SHIP, nothing sent, exit 0', async () => {
    const { sandbox, loggedInContext } = fixture();
    freshMovesFolder(sandbox);
    const [order] = newOrders(sandbox, 1) as [number];
    const { proxy, moveApplied } = await proxyHoldingTheMoveAnswer(order);
    const first = await loggedInContext({ globals: { baseUrl: proxy.url } });
    const options: OrdersMoveOptions = { order: String(order), action: 'ready', erpNumber: 'PV-X1' };
    const running = first.run(move, options);
    await moveApplied;
    first.interrupt('SIGTERM');
    expect(await running).toBe(ExitCode.interrupted);
    const moves = () => proxy.requests.filter((request) => request.method === 'PUT');
    expect(moves()).toHaveLength(1);
    const again = await loggedInContext({
      configDir: first.configDir,
      globals: { baseUrl: proxy.url, output: 'json' },
    });
    expect(await again.run(move, options)).toBe(ExitCode.ok);
    expect(JSON.parse(again.stdout())).toMatchObject({ outcome: 'unchanged' });
    expect(moves()).toHaveLength(1);
    expect(acceptedMoves(sandbox)).toEqual([`${order} ready`]);
  });
});
