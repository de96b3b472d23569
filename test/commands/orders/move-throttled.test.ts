/**
 * A single move that ends without the platform taking it: answered 429 on every attempt (a store throttling), or
 * its read before the move answered 503 on every attempt. Every other outcome prints its JSON object; these printed
 * nothing on stdout, even with `-o json`, and a 429 each time was said as "the platform is unavailable" (a user
 * test). The outcome is now `failed` with the platform's last status, and a throttle is said as one.
 */
import { describe, expect, it } from 'vitest';
import { run as move } from '../../../src/commands/orders/move.js';
import { ExitCode } from '../../../src/base/errors.js';
import { newOrders } from '../../support/order-moves.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxiedRequest, type ProxyAction, useScriptedProxy } from '../../support/scripted-proxy.js';

const fixture = useSandbox({ orderCount: 3 });
const proxied = useScriptedProxy();

/** A context (its output `output`) whose requests pass a proxy that answers those `decide` scripts. */
async function behind(decide: (request: ProxiedRequest) => ProxyAction, output: 'json' | 'table' = 'json') {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, decide);
  const test = await loggedInContext({ globals: { baseUrl: proxy.url, output } });
  const writes = () =>
    proxy.requests.filter((request) => request.method !== 'GET' && pathOf(request).startsWith('/v1/orders/'));
  return { sandbox, test, writes };
}

const throttled: ProxyAction = { answer: 429, body: { message: 'Too many' }, headers: { 'retry-after': '1' } };
const throttleEveryMove = (request: ProxiedRequest) =>
  request.method === 'PUT' && pathOf(request).startsWith('/v1/orders/') ? throttled : undefined;

describe('a single move the platform never took', () => {
  it('429 on every attempt, -o json: the failed outcome on stdout, status 429, said as a throttle, exit 69', async () => {
    const { sandbox, test, writes } = await behind(throttleEveryMove);
    const [id] = newOrders(sandbox, 1) as [number];
    const code = await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` });
    expect(code).toBe(ExitCode.unavailable);
    const outcome = JSON.parse(test.stdout()) as Record<string, unknown>;
    expect(outcome).toMatchObject({ order: String(id), action: 'ready', outcome: 'failed', status: 429 });
    expect(outcome.message).toMatch(
      new RegExp(
        `^PUT http://127\\.0\\.0\\.1:\\d+/v1/orders/${id}/status kept answering HTTP 429 \\(too many requests\\) after 4 attempts; the platform is throttling b2bctl's requests, try again later\\.$`,
      ),
    );
    expect(test.stderr()).toContain(`error: ${String(outcome.message)}`);
    expect(test.stderr()).not.toMatch(/unavailable/);
    // Each attempt was refused: the move was sent 4 times and never taken.
    expect(writes()).toHaveLength(4);
    expect(sandbox.state.orders.orders.get(id)!.status).toBe('AWAITING_PAYMENT');
  });

  it('429 on every attempt, -o table: nothing on stdout, the line on stderr, exit 69', async () => {
    const { sandbox, test } = await behind(throttleEveryMove, 'table');
    const [id] = newOrders(sandbox, 1) as [number];
    const code = await test.run(move, { order: String(id), action: 'cancel', reason: 'cliente desistiu' });
    expect(code).toBe(ExitCode.unavailable);
    expect(test.stdout()).toBe('');
    expect(test.stderr()).toMatch(/error: PUT \S+ kept answering HTTP 429 \(too many requests\) after 4 attempts;/);
  });

  it('the read before the move answered 503 every time: failed, status 503, nothing sent, exit 69', async () => {
    const { sandbox, test, writes } = await behind((request) =>
      request.method === 'GET' && /^\/v1\/orders\/\d+$/.test(pathOf(request)) ? { answer: 503 } : undefined,
    );
    const [id] = newOrders(sandbox, 1) as [number];
    const code = await test.run(move, { order: String(id), action: 'ready', erpNumber: `PV-${id}` });
    expect(code).toBe(ExitCode.unavailable);
    const outcome = JSON.parse(test.stdout()) as Record<string, unknown>;
    expect(outcome).toMatchObject({ order: String(id), action: 'ready', outcome: 'failed', status: 503 });
    expect(outcome.message).toMatch(/kept failing with HTTP 503 after \d+ attempts; the platform is unavailable/);
    expect(writes()).toEqual([]);
  });
});
