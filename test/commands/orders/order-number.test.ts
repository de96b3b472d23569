/**
 * Every order command takes the order's id or its number (the listing's `orderId`, the one buyers see): a value the
 * detail route does not know as an id is looked up in the listing, said so (`order 100217 is id 217`), and the
 * move goes to the id; a value that is neither is one clear line, exit 1, and nothing sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import { moveHeader, useMovesSandbox } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'orders by id or number, %s dialect',
  (_name, dialect) => {
    const fixture = useMovesSandbox({ dialect, orderCount: 40 });
    const { run } = fixture;
    const numberOf = (id: number) => fixture.storedOrder(id).orderId;

    it('a single move by the order’s number goes to its id, and says so', async () => {
      const [id] = fixture.newOrders(1) as [number];
      const result = await run(['orders', 'ready', String(numberOf(id)), '--erp-number', 'PV-10', '-o', 'table']);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`order ${numberOf(id)} is id ${id}`);
      expect(result.stdout).toMatch(new RegExp(`^order ${id}: ready to ship`));
      expect(fixture.acceptedMoves()).toEqual([`${id} ready`]);
      // Without the status read, the store's 404 for the number leads to the same lookup.
      const ship = await run(['orders', 'cancel', String(numberOf(id)), '--reason', 'duplicado', '--no-status-check']);
      expect(ship.code).toBe(0);
      expect(fixture.acceptedMoves()).toEqual([`${id} ready`, `${id} cancel`]);
    });

    it('a file naming orders by number: each move goes to the id, the report’s id column shows it', async () => {
      const [first, second] = fixture.newOrders(2) as [number, number];
      // The oldest seeded order is far down the listing (newest first): found all the same.
      const oldest = 1;
      writeFileSync(
        join(fixture.dir, 'pedidos.csv'),
        [
          moveHeader,
          `${numberOf(first)};ready;PV-1;;;;;;`,
          `${second};ready;PV-2;;;;;;`,
          `${numberOf(oldest)};cancel;;;;;;;duplicado`,
          '',
        ].join('\r\n'),
      );
      fixture.storedOrder(oldest).status = 'AWAITING_PAYMENT';
      const result = await run(['orders', 'update', 'pedidos.csv']);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`order ${numberOf(first)} is id ${first}`);
      expect(result.stderr).toContain(`order ${numberOf(oldest)} is id ${oldest}`);
      expect(fixture.acceptedMoves().toSorted()).toEqual(
        [`${first} ready`, `${second} ready`, `${oldest} cancel`].toSorted(),
      );
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'pedidos')));
      expect(rows.map((row) => row.id).toSorted()).toEqual([first, second, oldest].map(String).toSorted());
    });

    it('one order named by its number on one row and its id on another: neither is sent, and each says why', async () => {
      const [id] = fixture.newOrders(1) as [number];
      fixture.storedOrder(id).status = 'READY_TO_SHIP';
      writeFileSync(
        join(fixture.dir, 'pedidos.csv'),
        [
          moveHeader,
          `${numberOf(id)};ship;;;;Correios;SS123456785BR;;`,
          `${id};cancel;;;;;;;cliente desistiu`,
          '',
        ].join('\r\n'),
      );
      const result = await run(['orders', 'update', 'pedidos.csv']);
      expect(result.code).toBe(1);
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'pedidos')));
      const refused = rows.filter((row) => row.outcome === 'invalid');
      expect(refused).toHaveLength(2);
      for (const row of refused)
        expect(row.message).toMatch(
          new RegExp(
            `^not sent: this file names one order both as (${id} and as ${numberOf(id)}|${numberOf(id)} and as ${id}); name each order one way`,
          ),
        );
      // Found before anything was sent: no move reached the order, never a ship before the rows above it.
      expect(fixture.acceptedMoves()).toHaveLength(0);
    });

    it('neither an id nor a number: one line, exit 1, nothing sent', async () => {
      const before = fixture.moveRequests();
      const get = await run(['orders', 'get', '999999']);
      expect(get.code).toBe(1);
      expect(get.stderr).toContain(
        `error: order 999999: the platform has no order with that id, and no order has that number (the newest order is number ${numberOf(fixture.sandbox.state.orders.orders.size)}); give the order's id (the id of orders poll and of the orders webhook) or its number (orderId)`,
      );
      const listings = () => fixture.sandbox.state.requestCounts.get('GET /v1/orders') ?? 0;
      const listingsBefore = listings();
      const text = await run(['orders', 'get', 'PV-77']);
      expect(text.code).toBe(1);
      // Not a number: the listing is not searched for it.
      expect(listings()).toBe(listingsBefore);
      expect(text.stderr).toContain(
        "error: order PV-77: the platform has no order with that id (and an order number is digits only); give the order's id",
      );
      // A move of it is refused in the same words, before anything is sent (it was sent, and "rejected", a user test).
      const ready = await run(['orders', 'ready', '999999', '--erp-number', 'PV-1']);
      expect(ready.code).toBe(1);
      expect(ready.stderr).toContain(
        `error: order 999999: not sent: the platform has no order with that id, and no order has that number (the newest order is number ${numberOf(fixture.sandbox.state.orders.orders.size)}); give the order's id`,
      );
      expect(fixture.moveRequests()).toBe(before);
      expect(fixture.acceptedMoves()).toEqual([]);
    });
  },
);
