/**
 * A store whose order routes are not the sandbox's: an order routes file renames the paths, the methods and the
 * body fields (the XML as base64 inside a nested object), and the same file plays the store in the sandbox
 * (--order-routes) and drives b2bctl (--routes, or the orders.routes setting). Without it, nothing reaches the store.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseOrderRoutes } from '../../../src/domain/order-routes.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { acceptedMoves, freshMovesFolder, newOrders, sampleKeys } from '../../support/order-moves.js';
import { onlyFile, readReport } from '../../support/run-files.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const storeRoutes = {
  ready: { method: 'POST', path: '/api/pedidos/{id}/pronto', body: { pedido: { numeroErp: '{erpNumber}' } } },
  invoice: {
    method: 'POST',
    path: '/api/pedidos/{id}/nota-fiscal',
    body: { nfe: { chave: '{invoiceKey}', arquivo: '{invoiceXmlBase64}', formato: 'base64' } },
  },
  ship: {
    method: 'PUT',
    path: '/api/pedidos/{id}/rastreio',
    body: { codigo: '{trackingCode}', transportadora: '{carrier}' },
  },
  cancel: { method: 'POST', path: '/api/filiais/{branch}/pedidos/{id}/cancelamento', body: { motivo: '{reason}' } },
};

describe('an order routes file that renames paths and fields', () => {
  let sandbox: RunningSandbox;
  let configDir: string;
  let dir: string;
  const run = (args: string[], env: Record<string, string> = {}) => runCommandLine(args, { configDir, cwd: dir, env });

  beforeAll(async () => {
    ({ sandbox, configDir } = await startLoggedInSandbox({
      orderCount: 3,
      orderRoutes: parseOrderRoutes(storeRoutes),
    }));
  });
  afterAll(async () => sandbox.close());
  beforeEach(() => {
    dir = freshMovesFolder(sandbox);
    writeFileSync(join(dir, 'rotas.json'), JSON.stringify(storeRoutes, null, 2));
  });

  it('without the file, the default routes are not the store’s: the move is refused (404), nothing applied', async () => {
    const [id] = newOrders(sandbox, 1) as [number];
    const result = await run(['orders', 'ready', String(id), '--erp-number', 'PV-1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rejected \(HTTP 404/);
    expect(acceptedMoves(sandbox)).toEqual([]);
  });

  it('with --routes, each single move goes to the store’s path with its field names', async () => {
    const [id] = newOrders(sandbox, 1) as [number];
    const routes = ['--routes', 'rotas.json'];
    expect((await run(['orders', 'ready', String(id), '--erp-number', 'PV-9', ...routes])).code).toBe(0);
    expect((await run(['orders', 'invoice', String(id), '--xml', `nfe/${sampleKeys[2]}.xml`, ...routes])).code).toBe(0);
    expect(
      (await run(['orders', 'ship', String(id), '--tracking', 'JD0001', '--carrier', 'Jadlog', ...routes])).code,
    ).toBe(0);
    expect(sandbox.state.orders.orders.get(id)).toMatchObject({
      status: 'SHIPPED',
      erpOrderNumber: 'PV-9',
      // The store read the XML from base64 and found its key.
      invoice: { accessKey: sampleKeys[2], xmlBytes: expect.any(Number) },
      tracking: { code: 'JD0001', carrier: 'Jadlog' },
    });
    const counts = Object.keys(Object.fromEntries(sandbox.state.requestCounts));
    expect(counts).toEqual(expect.arrayContaining(['POST /api/pedidos/:id/pronto', 'PUT /api/pedidos/:id/rastreio']));
  });

  it('the orders.routes setting serves orders update as --routes does', async () => {
    const [first, second] = newOrders(sandbox, 2) as [number, number];
    expect((await run(['config', 'set', 'orders.routes', join(dir, 'rotas.json')])).code).toBe(0);
    writeFileSync(
      join(dir, 'moves.csv'),
      `order,action,erpNumber,reason\r\n${first},ready,PV-1,\r\n${second},cancel,,sem estoque\r\n`,
    );
    // The cancel route names {branch}: without one, nothing is sent.
    const withoutBranch = await run(['orders', 'update', 'moves.csv']);
    expect(withoutBranch.code).toBe(65);
    expect(withoutBranch.stderr).toContain(
      'moves.csv:3: Property [branch] with value [] does not pass validation (the cancel route (/api/filiais/{branch}/pedidos/{id}/cancelamento) needs {branch}: give the branch column, --branch or the branch setting)',
    );
    expect(acceptedMoves(sandbox)).toEqual([]);
    const result = await run(['orders', 'update', 'moves.csv'], { B2BCTL_BRANCH: '0002' });
    expect(result.code).toBe(0);
    expect(sandbox.state.requestCounts.get('POST /api/filiais/:branch/pedidos/:id/cancelamento')).toBe(1);
    expect(acceptedMoves(sandbox).toSorted()).toEqual([`${first} ready`, `${second} cancel`].toSorted());
    expect(sandbox.state.orders.orders.get(second)).toMatchObject({ cancellationReason: 'sem estoque' });
    expect((await run(['config', 'set', 'orders.routes', ''])).code).toBe(0);
  });

  it('--branch fills {branch} for rows without one: a row’s own branch wins, and --branch wins over the setting', async () => {
    const [first, second] = newOrders(sandbox, 2) as [number, number];
    writeFileSync(
      join(dir, 'moves.csv'),
      `order,action,reason,branch\r\n${first},cancel,sem estoque,\r\n${second},cancel,sem estoque,0003\r\n`,
    );
    const args = ['--verbose', 'orders', 'update', 'moves.csv', '--routes', 'rotas.json', '--branch', '0001'];
    const result = await run(args, { B2BCTL_BRANCH: '0002' });
    expect(result.code).toBe(0);
    const sent = [...result.stderr.matchAll(/> POST (\S+\/cancelamento)/g)].map((match) => match[1]);
    expect(sent.toSorted()).toEqual(
      [
        `${sandbox.url}/api/filiais/0001/pedidos/${first}/cancelamento`,
        `${sandbox.url}/api/filiais/0003/pedidos/${second}/cancelamento`,
      ].toSorted(),
    );
    expect(acceptedMoves(sandbox).toSorted()).toEqual([`${first} cancel`, `${second} cancel`].toSorted());
  });

  it('a routes file whose route cannot carry the move is refused before anything is sent (exit 2)', async () => {
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({
        ship: { method: 'POST', path: '/api/pedidos/{id}/rastreio', body: { transportadora: '{carrier}' } },
      }),
    );
    const result = await run(['orders', 'ship', '1', '--tracking', 'JD1', '--routes', 'bad.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ship.body does not carry {trackingCode}');
    expect(acceptedMoves(sandbox)).toEqual([]);
  });

  it.each([
    [
      'a FIFO no program writes to',
      'rotas.fifo',
      'no program is writing to the pipe: start the program that writes it first, or pass a file',
    ],
    ['a device', '/dev/zero', 'it is a device, not a file'],
  ])('--routes naming %s is refused at once (exit 66), nothing sent', async (_what, routes, reason) => {
    if (routes === 'rotas.fifo') execFileSync('mkfifo', ['-m', '600', join(dir, routes)]);
    const result = await run(['orders', 'ship', '1', '--tracking', 'JD1', '--routes', routes]);
    expect(result).toMatchObject({ code: 66, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(`error: ${routes}: cannot read the order routes file (${reason}).`);
    expect(acceptedMoves(sandbox)).toEqual([]);
  });
});

describe('a row whose order and orderId name two orders (a sorted or shifted column)', () => {
  let sandbox: RunningSandbox;
  let configDir: string;
  let dir: string;
  const run = (args: string[]) => runCommandLine(args, { configDir, cwd: dir });
  const numberOf = (id: number) => String(sandbox.state.orders.orders.get(id)?.orderId);
  const detailReads = () => sandbox.state.requestCounts.get('GET /v1/orders/:id') ?? 0;
  const byNumber = {
    ready: {
      method: 'PUT',
      path: '/v1/orders/{orderId}/status',
      body: { status: 'READY_TO_SHIP', erpOrderNumber: '{erpNumber}' },
    },
    cancel: {
      method: 'PUT',
      path: '/v1/orders/{orderId}/status',
      body: { status: 'CANCELED', cancellationReason: '{reason}' },
    },
  };

  beforeAll(async () => {
    ({ sandbox, configDir } = await startLoggedInSandbox({ orderCount: 3, orderRoutes: parseOrderRoutes(byNumber) }));
  });
  afterAll(async () => sandbox.close());
  beforeEach(() => {
    dir = freshMovesFolder(sandbox);
    writeFileSync(join(dir, 'por-numero.json'), JSON.stringify(byNumber));
  });

  it('with {orderId} in the route: not sent, the row invalid; the order checked is the one moved', async () => {
    const [checked, other] = newOrders(sandbox, 2) as [number, number];
    writeFileSync(
      join(dir, 'moves.csv'),
      `order,orderId,action,reason\r\n${checked},${numberOf(other)},cancel,cliente desistiu\r\n`,
    );
    const dryRun = await run(['orders', 'update', 'moves.csv', '--routes', 'por-numero.json', '--dry-run']);
    expect(dryRun.stderr).toContain(
      "The orders were not read: a move their status forbids or has taken, an order named both by its id and by its number, and an orderId that is not its order's number, are found by the real run before it sends each.",
    );
    const result = await run(['orders', 'update', 'moves.csv', '--routes', 'por-numero.json']);
    expect(result.code).toBe(1);
    expect(readReport(onlyFile(dir, 'moves.report-'))).toEqual([
      expect.objectContaining({
        outcome: 'invalid',
        message: `not sent: orderId ${numberOf(other)} is not this order's number (${numberOf(checked)}); check the order and orderId columns name the same order`,
      }),
    ]);
    expect(acceptedMoves(sandbox)).toEqual([]);
    expect(sandbox.state.orders.orders.get(other)?.status).not.toBe('CANCELED');
    const single = await run([
      'orders',
      'cancel',
      String(checked),
      '--order-id',
      numberOf(other),
      '--reason',
      'teste',
      '--routes',
      'por-numero.json',
    ]);
    expect(single.code).toBe(65);
    expect(acceptedMoves(sandbox)).toEqual([]);
    // The number that is this order's own goes through.
    const right = await run([
      'orders',
      'cancel',
      String(checked),
      '--order-id',
      numberOf(checked),
      '--reason',
      'teste',
      '--routes',
      'por-numero.json',
    ]);
    expect(right.code).toBe(0);
    expect(acceptedMoves(sandbox)).toEqual([`${checked} cancel`]);
  });

  it('a single command without --order-id takes the number from the order’s detail; told by id or by number', async () => {
    const [byId, byItsNumber, unread] = newOrders(sandbox, 3) as [number, number, number];
    const routes = ['--routes', 'por-numero.json'];
    const first = await run(['orders', 'cancel', String(byId), '--reason', 'sem estoque', ...routes, '-o', 'table']);
    expect(first.stdout).toMatch(new RegExp(`^order ${byId}: canceled \\(HTTP 200`));
    expect(first.code).toBe(0);
    const second = await run(['orders', 'ready', numberOf(byItsNumber), '--erp-number', 'PV-7', ...routes]);
    expect(second.code).toBe(0);
    expect(acceptedMoves(sandbox)).toEqual([`${byId} cancel`, `${byItsNumber} ready`]);
    // Without reading the order there is no number to take: the flag is named, not a column.
    const unchecked = await run([
      'orders',
      'ready',
      String(unread),
      '--erp-number',
      'PV-8',
      '--no-status-check',
      ...routes,
    ]);
    expect(unchecked.code).toBe(65);
    expect(unchecked.stderr).toContain(
      'error: Property [orderId] with value [] does not pass validation (the ready route (/v1/orders/{orderId}/status) needs {orderId}: give --order-id); nothing was sent.',
    );
    const wrong = await run([
      'orders',
      'ready',
      String(unread),
      '--erp-number',
      'PV-8',
      '--order-id',
      numberOf(byId),
      ...routes,
    ]);
    expect(wrong.code).toBe(65);
    expect(wrong.stderr).toContain(
      `error: order ${unread}: not sent: --order-id ${numberOf(byId)} is not this order's number (${numberOf(unread)}); check ORDER and --order-id name the same order.`,
    );
    expect(acceptedMoves(sandbox)).toHaveLength(2);
    // A detail that shows no number (here: read where it has none) leaves the flag to give.
    expect((await run(['config', 'set', 'answers.orders.number', 'numeroPedido'])).code).toBe(0);
    const noNumber = await run(['orders', 'ready', String(unread), '--erp-number', 'PV-8', ...routes]);
    expect((await run(['config', 'set', 'answers.orders.number', ''])).code).toBe(0);
    expect(noNumber.code).toBe(65);
    expect(noNumber.stderr).toContain(
      `error: order ${unread}: not sent: the ready route (/v1/orders/{orderId}/status) needs {orderId}, and the order's detail shows no number: give --order-id.`,
    );
    expect(acceptedMoves(sandbox)).toHaveLength(2);
  });

  it('a file without the orderId column takes each number from the order’s detail, as a single command does', async () => {
    const [byId, byItsNumber, unread] = newOrders(sandbox, 3) as [number, number, number];
    const routes = ['--routes', 'por-numero.json'];
    writeFileSync(
      join(dir, 'moves.csv'),
      `order,action,erpNumber\r\n${byId},ready,PV-1\r\n${numberOf(byItsNumber)},ready,PV-2\r\n`,
    );
    const detailReadsBefore = detailReads();
    const dryRun = await run(['orders', 'update', 'moves.csv', ...routes, '--dry-run']);
    expect(dryRun.code).toBe(0);
    // A dry run reads no order: it says the number is the real run's to read.
    expect(dryRun.stderr).toContain(
      "A route's {orderId} of a row without an orderId takes the number its order's detail shows, read by the real run (a detail that shows none makes the row invalid then).",
    );
    expect(detailReads()).toBe(detailReadsBefore);
    const result = await run(['orders', 'update', 'moves.csv', ...routes]);
    expect(result.code).toBe(0);
    expect(acceptedMoves(sandbox).toSorted()).toEqual([`${byId} ready`, `${byItsNumber} ready`].toSorted());
    // Without reading the orders there is no number to take: the column is named, and nothing is sent.
    writeFileSync(join(dir, 'unread.csv'), `order,action,erpNumber\r\n${unread},ready,PV-3\r\n`);
    const unchecked = await run(['orders', 'update', 'unread.csv', ...routes, '--no-status-check']);
    expect(unchecked.code).toBe(65);
    expect(unchecked.stderr).toContain(
      'unread.csv:2: Property [orderId] with value [] does not pass validation (the ready route (/v1/orders/{orderId}/status) needs {orderId}: give the orderId column)',
    );
    // A detail that shows no number (here: read where it has none) leaves the column to give.
    expect((await run(['config', 'set', 'answers.orders.number', 'numeroPedido'])).code).toBe(0);
    const noNumber = await run(['orders', 'update', 'unread.csv', ...routes]);
    expect((await run(['config', 'set', 'answers.orders.number', ''])).code).toBe(0);
    expect(noNumber.code).toBe(1);
    expect(readReport(onlyFile(dir, 'unread.report-'))).toEqual([
      expect.objectContaining({
        outcome: 'invalid',
        message:
          "not sent: the ready route (/v1/orders/{orderId}/status) needs {orderId}, and the order's detail shows no number: give the orderId column",
      }),
    ]);
    expect(acceptedMoves(sandbox)).toHaveLength(2);
  });

  it('with the default {id} routes, an orderId of another order is refused too', async () => {
    const [named, other] = newOrders(sandbox, 2) as [number, number];
    writeFileSync(
      join(dir, 'moves.csv'),
      `order,orderId,action,erpNumber\r\n${named},${numberOf(other)},ready,PV-1\r\n`,
    );
    const result = await run(['orders', 'update', 'moves.csv']);
    expect(result.code).toBe(1);
    expect(readReport(onlyFile(dir, 'moves.report-'))).toEqual([
      expect.objectContaining({
        outcome: 'invalid',
        message: expect.stringContaining(`orderId ${numberOf(other)} is not`),
      }),
    ]);
    expect(acceptedMoves(sandbox)).toEqual([]);
  });
});
