/**
 * An order number anywhere in a store of thousands of orders is found in a few listing requests: the listing is
 * newest first by creation and numbers grow with creation, so the search gallops over offsets and bisects. A number
 * no order has is refused saying what the search saw; a listing whose numbers are out of order is read to its end,
 * with progress lines, and no cap.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { loginToDialect, runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { acceptedMoves, moveRequests } from '../../support/order-moves.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const orderCount = 5000;
/** Gallop then bisection over 5,000 orders in pages of 25: about 2 × log2(200) requests, against 160 read in turn. */
const logarithmicListings = 2 * Math.ceil(Math.log2(orderCount / 25)) + 2;

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'an order number among %s dialect’s thousands of orders',
  (_name, dialect) => {
    let sandbox: RunningSandbox;
    let configDir: string;
    const run = (args: string[]) => runCommandLine(args, { configDir });
    const listings = () => sandbox.state.requestCounts.get('GET /v1/orders') ?? 0;
    /** Runs a command and counts the listing requests it made. */
    const counted = async (args: string[]) => {
      const before = listings();
      const result = await run(args);
      return { ...result, listings: listings() - before };
    };
    const order = (id: number) => sandbox.state.orders.orders.get(id)!;
    let numbersAsSeeded: Map<number, number>;

    beforeAll(async () => {
      ({ sandbox, configDir } = await startLoggedInSandbox({ dialect, orderCount }, (started, folder) =>
        loginToDialect(started, dialect, folder),
      ));
      numbersAsSeeded = new Map([...sandbox.state.orders.orders.values()].map((seeded) => [seeded.id, seeded.orderId]));
    });
    afterAll(async () => sandbox.close());
    afterEach(() => {
      for (const [id, number] of numbersAsSeeded) order(id).orderId = number;
    });

    it('a number about 4,000 orders back: found in a logarithmic number of requests, said, and the move sent to its id', async () => {
      const id = orderCount - 4000;
      const result = await counted(['orders', 'ready', String(order(id).orderId), '--erp-number', 'PV-4000']);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`order ${order(id).orderId} is id ${id}`);
      expect(result.listings).toBeGreaterThan(2);
      expect(result.listings).toBeLessThanOrEqual(logarithmicListings);
      expect(acceptedMoves(sandbox)).toContain(`${id} ready`);
    });

    it('the oldest order and one in the middle, each in a logarithmic number of requests', async () => {
      for (const id of [1, 2345]) {
        const result = await counted(['orders', 'get', String(order(id).orderId), '-o', 'json']);
        expect(result.code).toBe(0);
        expect(result.stderr).toContain(`order ${order(id).orderId} is id ${id}`);
        expect(result.listings).toBeLessThanOrEqual(logarithmicListings);
      }
    });

    it('the newest order by its number: one listing request', async () => {
      const result = await counted(['orders', 'get', String(order(orderCount).orderId), '-o', 'json']);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`order ${order(orderCount).orderId} is id ${orderCount}`);
      expect(result.listings).toBe(1);
    });

    it('a number no order has: refused saying what the search saw, exit 1, nothing sent', async () => {
      const moves = moveRequests(sandbox);
      const accepted = acceptedMoves(sandbox);
      const newest = await counted(['orders', 'get', '999999']);
      expect(newest.code).toBe(1);
      expect(newest.stderr).toContain(
        `error: order 999999: the platform has no order with that id, and no order has that number (the newest order is number ${order(orderCount).orderId}); give the order's id`,
      );
      expect(newest.listings).toBe(1);

      const older = await counted(['orders', 'get', '100000']);
      expect(older.code).toBe(1);
      expect(older.stderr).toContain(`no order has that number (the oldest order is number ${order(1).orderId})`);
      expect(older.listings).toBeLessThanOrEqual(logarithmicListings);

      // A gap in the numbering (orders from id 1001 on numbered ten higher): the number in the gap is missing.
      for (const [id, number] of numbersAsSeeded) if (id > 1000) order(id).orderId = number + 10;
      const gap = await counted(['orders', 'get', String(order(1000).orderId + 5)]);
      expect(gap.code).toBe(1);
      expect(gap.stderr).toContain(
        `no order has that number (the listing goes from number ${order(1001).orderId} straight to number ${order(1000).orderId})`,
      );
      expect(gap.listings).toBeLessThanOrEqual(logarithmicListings);

      const ready = await run(['orders', 'ready', String(order(1000).orderId + 5), '--erp-number', 'PV-1']);
      expect(ready.code).toBe(1);
      expect(ready.stderr).toContain(
        'not sent: the platform has no order with that id, and no order has that number (',
      );
      // Not sent: a write to an id the detail route has just denied is at best useless.
      expect(moveRequests(sandbox)).toBe(moves);
      expect(acceptedMoves(sandbox)).toEqual(accepted);
    });

    it('numbers out of listing order: the listing is read to its end, with progress lines, and the number found anywhere', async () => {
      // Numbers shuffled over the orders (each still unique): the listing by creation no longer falls in number.
      const ids = [...numbersAsSeeded.keys()];
      const shuffled = ids.map((id) => numbersAsSeeded.get(id)!).toReversed();
      ids.forEach((id, index) => (order(id).orderId = shuffled[index]!));
      // The newest order now holds the oldest number: the id whose number the seeded order 10 had sits near the end.
      const target = order(10);
      const found = await counted(['orders', 'get', String(target.orderId), '-o', 'json']);
      expect(found.code).toBe(0);
      expect(found.stderr).toContain(`order ${target.orderId} is id 10`);
      expect(found.stderr).toContain(
        `order numbers are not in listing order: reading the whole listing for number ${target.orderId}, 4,000 orders read`,
      );

      const missing = await counted(['orders', 'get', '100000']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(
        `no order has that number (the listing was read to its end: ${orderCount.toLocaleString('en-US')} orders)`,
      );
      expect(missing.stderr).toContain(`${orderCount.toLocaleString('en-US')} orders read`);
      // The first page, seen out of order; then every page from the start, the last one empty: no cap.
      expect(missing.listings).toBe(1 + orderCount / 25 + 1);
    });
  },
);
