/**
 * `doctor` lists the order routes in force (the defaults, or the orders.routes setting) and says they are not
 * probed: no request goes to them. An unusable routes setting fails the check with a usage error.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { acceptedMoves } from '../../support/order-moves.js';
import { stopTestSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;
beforeAll(async () => ({ sandbox, configDir } = await startLoggedInSandbox({ orderCount: 2 })));
afterAll(() => stopTestSandbox(sandbox));

const orderLines = (stdout: string) =>
  (JSON.parse(stdout) as { check: string; result: string; detail: string }[]).filter((finding) =>
    finding.check.startsWith('orders '),
  );

it('lists the default routes, not probed', async () => {
  const result = await runCommandLine(['doctor', '-o', 'json'], { configDir });
  expect(result.code).toBe(0);
  expect(orderLines(result.stdout).map((finding) => `${finding.check} ${finding.result}`)).toEqual([
    'orders ready: PUT /v1/orders/{id}/status skip',
    'orders invoice: POST /v1/orders/{id}/invoice skip',
    'orders ship: POST /v1/orders/{id}/tracking skip',
    'orders cancel: PUT /v1/orders/{id}/status skip',
    'orders replace ready: PUT /v1/orders/{id}/erp-number skip',
    'orders replace invoice: PUT /v1/orders/{id}/invoice skip',
    'orders replace ship: PUT /v1/orders/{id}/tracking skip',
  ]);
  expect(orderLines(result.stdout)[0]?.detail).toMatch(/^not probed \(every request writes\); body .*erpOrderNumber/);
  expect(acceptedMoves(sandbox)).toEqual([]);
  expect([...sandbox.state.requestCounts.keys()].filter((route) => route.includes('/status'))).toEqual([]);
});

it('lists the routes of the orders.routes setting, and fails on an unusable one', async () => {
  const routes = JSON.stringify({ cancel: { method: 'POST', path: '/p/{id}/cancelar', body: { motivo: '{reason}' } } });
  expect((await runCommandLine(['config', 'set', 'orders.routes', routes], { configDir })).code).toBe(0);
  const listed = await runCommandLine(['doctor', '-o', 'json'], { configDir });
  expect(orderLines(listed.stdout).at(-1)).toMatchObject({
    check: 'orders cancel: POST /p/{id}/cancelar',
    detail: expect.stringContaining('from the orders.routes setting'),
  });
  expect((await runCommandLine(['config', 'set', 'orders.routes', '{"cancel":{}}'], { configDir })).code).toBe(0);
  const failed = await runCommandLine(['doctor', '-o', 'json'], { configDir });
  expect(failed.code).toBe(2);
  expect(failed.stderr).toContain('cancel.method is POST or PUT');
});
