/**
 * A night's file run twice changes nothing and says so (exit 0, no errors file), also when it readies and then
 * cancels an order; a move whose data differs from what the order holds (another NF-e, ERP number or tracking code)
 * is a conflict, never "unchanged", and goes out only with --replace; an NF-e key on two rows is refused before
 * anything is sent, and one the store already holds for another order is refused by the store in its own words,
 * however each dialect nests them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import { moveHeader, sampleKeys, uniqueKey, useMovesSandbox } from '../../support/order-moves.js';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'orders update re-runs and conflicts, %s dialect',
  (_name, dialect) => {
    const fixture = useMovesSandbox({ dialect, orderCount: 5 });
    const { run } = fixture;
    const order = (id: number) => fixture.storedOrder(id) as unknown as Record<string, unknown>;

    it('a night’s file run twice: the second run sends nothing, all unchanged, exit 0, no errors file', async () => {
      const [readied, canceled, shipped] = fixture.newOrders(3) as [number, number, number];
      const night = [
        moveHeader,
        `${readied};ready;PV-${readied};;;;;;`,
        `${canceled};ready;PV-${canceled};;;;;;`,
        `${canceled};cancel;;;;;;;cliente desistiu`,
        `${shipped};ready;PV-${shipped};;;;;;`,
        `${shipped};invoice;;nfe/${sampleKeys[0]}.xml;;;;;`,
        `${shipped};ship;;;;Correios;SS123456785BR;;`,
        '',
      ].join('\r\n');
      writeFileSync(join(fixture.dir, 'pedidos.csv'), night);
      const first = await run(['orders', 'update', 'pedidos.csv']);
      expect(first.code).toBe(0);
      expect(fixture.acceptedMoves()).toHaveLength(6);
      const requestsBefore = fixture.moveRequests();

      writeFileSync(join(fixture.dir, 'noite2.csv'), night);
      const second = await run(['orders', 'update', 'noite2.csv']);
      expect(second.stderr).toMatch(/orders update: 6 unchanged;/);
      expect(second.code).toBe(0);
      expect(fixture.moveRequests()).toBe(requestsBefore);
      expect(runFiles(fixture.dir, 'noite2').errors).toEqual([]);
      // The report's rows come as the moves are answered, orders side by side: read in line order.
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'noite2'))).toSorted(
        (a, b) => Number(a.line) - Number(b.line),
      );
      expect(rows.map((row) => `${row.line} ${row.outcome} ${row.message}`)).toEqual([
        '2 unchanged the order is already READY_TO_SHIP: not sent',
        '3 unchanged the order is already CANCELED: not sent',
        '4 unchanged the order is already CANCELED: not sent',
        '5 unchanged the order is already SHIPPED: not sent',
        '6 unchanged the order is already SHIPPED: not sent',
        '7 unchanged the order is already SHIPPED: not sent',
      ]);
    });

    it('another NF-e, ERP number or tracking code than the order holds: a conflict with both values, not sent, exit 1', async () => {
      const [invoiced, readied, shipped] = fixture.newOrders(3) as [number, number, number];
      writeFileSync(
        join(fixture.dir, 'antes.csv'),
        [
          moveHeader,
          `${invoiced};ready;PV-1;;;;;;`,
          `${invoiced};invoice;;;${uniqueKey(501)};;;;`,
          `${readied};ready;PV-2;;;;;;`,
          `${shipped};ready;PV-3;;;;;;`,
          `${shipped};ship;;;;Correios;SS123456785BR;;`,
          '',
        ].join('\r\n'),
      );
      expect((await run(['orders', 'update', 'antes.csv'])).code).toBe(0);
      const requestsBefore = fixture.moveRequests();
      writeFileSync(
        join(fixture.dir, 'corrigido.csv'),
        [
          moveHeader,
          `${invoiced};invoice;;;${uniqueKey(502)};;;;`,
          `${readied};ready;PV-2B;;;;;;`,
          `${shipped};ship;;;;Correios;SS987654312BR;;`,
          '',
        ].join('\r\n'),
      );
      const result = await run(['orders', 'update', 'corrigido.csv']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/orders update: 3 conflict;/);
      expect(fixture.moveRequests()).toBe(requestsBefore);
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'corrigido')));
      expect(rows.map((row) => `${row.outcome}: ${row.message}`)).toEqual([
        `conflict: the order holds NF-e key ${uniqueKey(501)}; this move has ${uniqueKey(502)}: not sent (--replace sends the correction)`,
        'conflict: the order holds ERP number PV-2; this move has PV-2B: not sent (--replace sends the correction)',
        'conflict: the order holds tracking code SS123456785BR; this move has SS987654312BR: not sent (--replace sends the correction)',
      ]);
      expect(runFiles(fixture.dir, 'corrigido').errors).toHaveLength(1);
      expect(order(invoiced)).toMatchObject({ invoice: { accessKey: uniqueKey(501) } });
    });

    it('another ERP number, or an invoice, for an order the store canceled: a conflict saying so, never offering --replace', async () => {
      const [canceled] = fixture.newOrders(1) as [number];
      writeFileSync(
        join(fixture.dir, 'antes.csv'),
        [moveHeader, `${canceled};ready;PV-4;;;;;;`, `${canceled};cancel;;;;;;;cliente desistiu`, ''].join('\r\n'),
      );
      expect((await run(['orders', 'update', 'antes.csv'])).code).toBe(0);
      const requestsBefore = fixture.moveRequests();
      writeFileSync(
        join(fixture.dir, 'depois.csv'),
        [moveHeader, `${canceled};ready;PV-4B;;;;;;`, `${canceled};invoice;;;${uniqueKey(504)};;;;`, ''].join('\r\n'),
      );
      const result = await run(['orders', 'update', 'depois.csv']);
      expect(result.code).toBe(1);
      expect(fixture.moveRequests()).toBe(requestsBefore);
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'depois')));
      expect(rows.map((row) => `${row.outcome}: ${row.message}`)).toEqual([
        'conflict: the order holds ERP number PV-4; this move has PV-4B, and the order is already CANCELED: the store canceled it before this move reached it, and the platform takes no move after a cancellation; not sent',
        'failed: not sent: the move of this order on line 2 did not go through',
      ]);
    });

    it('--replace sends the corrections through the replace routes; the orders keep their status', async () => {
      const [invoiced, shipped] = fixture.newOrders(2) as [number, number];
      writeFileSync(
        join(fixture.dir, 'antes.csv'),
        [
          moveHeader,
          `${invoiced};ready;PV-1;;;;;;`,
          `${invoiced};invoice;;;${uniqueKey(601)};;;;`,
          `${shipped};ready;PV-3;;;;;;`,
          `${shipped};ship;;;;Correios;SS123456785BR;;`,
          '',
        ].join('\r\n'),
      );
      expect((await run(['orders', 'update', 'antes.csv'])).code).toBe(0);
      writeFileSync(
        join(fixture.dir, 'corrigido.csv'),
        [
          moveHeader,
          `${invoiced};invoice;;nfe/${sampleKeys[1]}.xml;;;;;`,
          `${shipped};ready;PV-3X;;;;;;`,
          `${shipped};ship;;;;Correios;SS987654312BR;;`,
          '',
        ].join('\r\n'),
      );
      const result = await run(['orders', 'update', 'corrigido.csv', '--replace']);
      expect(result.code).toBe(0);
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'corrigido')));
      expect(
        rows.toSorted((a, b) => Number(a.line) - Number(b.line)).map((row) => row.message?.split('; now ')[0]),
      ).toEqual([
        `replaced ${uniqueKey(601)} with ${sampleKeys[1]}`,
        'replaced PV-3 with PV-3X',
        'replaced SS123456785BR with SS987654312BR',
      ]);
      expect(order(invoiced)).toMatchObject({ status: 'INVOICED', invoice: { accessKey: sampleKeys[1] } });
      expect(order(shipped)).toMatchObject({
        status: 'SHIPPED',
        erpOrderNumber: 'PV-3X',
        tracking: { code: 'SS987654312BR' },
      });
      // Run again: the order now holds the corrected data, so the same file is unchanged.
      const again = await run(['orders', 'update', 'corrigido.csv', '--replace']);
      expect(again.stderr).toMatch(/orders update: 3 unchanged;/);
      expect(again.code).toBe(0);
    });

    it('data the order lacks (the XML after the key alone, a carrier after the code alone): a conflict naming it, sent by --replace', async () => {
      const [invoiced, shipped] = fixture.newOrders(2) as [number, number];
      expect((await run(['orders', 'invoice', String(invoiced), '--key', sampleKeys[0]!])).code).toBe(0);
      expect((await run(['orders', 'ship', String(shipped), '--tracking', 'SS123456785BR'])).code).toBe(0);
      const invoiceXml = ['orders', 'invoice', String(invoiced), '--xml', `nfe/${sampleKeys[0]}.xml`, '-o', 'table'];
      const carrier = ['orders', 'ship', String(shipped), '--tracking', 'SS123456785BR', '--carrier', 'Correios'];
      const requestsBefore = fixture.moveRequests();
      const lacking = [await run(invoiceXml), await run([...carrier, '-o', 'table'])];
      expect(lacking.map((result) => result.code)).toEqual([1, 1]);
      expect(lacking[0]!.stderr).toContain(
        `order ${invoiced}: conflict (the order holds NF-e key ${sampleKeys[0]} with no NF-e XML; this move has the NF-e XML: not sent (--replace sends the NF-e XML))`,
      );
      expect(lacking[1]!.stderr).toContain(
        `order ${shipped}: conflict (the order holds tracking code SS123456785BR with no carrier; this move has carrier Correios: not sent (--replace sends carrier Correios))`,
      );
      expect(fixture.moveRequests()).toBe(requestsBefore);

      const replaced = [await run([...invoiceXml, '--replace']), await run([...carrier, '--replace', '-o', 'table'])];
      expect(replaced.map((result) => result.code)).toEqual([0, 0]);
      expect(replaced[1]!.stdout).toMatch(
        new RegExp(`^order ${shipped}: shipped \\(HTTP 20[024], sent carrier Correios, which the order lacked`),
      );
      expect(order(invoiced)).toMatchObject({ status: 'INVOICED', invoice: { accessKey: sampleKeys[0] } });
      expect((order(invoiced).invoice as { xmlBytes?: number }).xmlBytes).toBeGreaterThan(0);
      expect(order(shipped)).toMatchObject({
        status: 'SHIPPED',
        tracking: { code: 'SS123456785BR', carrier: 'Correios' },
      });
      // The order now holds them: the same moves again are unchanged, and another carrier is a conflict.
      const again = [await run(invoiceXml), await run([...carrier, '-o', 'table'])];
      expect(again.map((result) => result.stdout.split(' (')[0])).toEqual([
        `order ${invoiced}: unchanged`,
        `order ${shipped}: unchanged`,
      ]);
      const other = await run([
        'orders',
        'ship',
        String(shipped),
        '--tracking',
        'SS123456785BR',
        '--carrier',
        'Jadlog',
      ]);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain(
        `order ${shipped}: conflict (the order holds carrier Correios; this move has Jadlog: not sent (--replace sends the correction))`,
      );
    });

    it('--replace with a routes file that has no replace route: refused at start, exit 2, naming the route missing', async () => {
      const [id] = fixture.newOrders(1) as [number];
      expect((await run(['orders', 'ready', String(id), '--erp-number', 'PV-1'])).code).toBe(0);
      writeFileSync(
        join(fixture.dir, 'routes.json'),
        JSON.stringify({
          ready: {
            method: 'PUT',
            path: '/v1/orders/{id}/status',
            body: { status: 'READY_TO_SHIP', erpOrderNumber: '{erpNumber}' },
          },
        }),
      );
      const requestsBefore = fixture.moveRequests();
      const readyAgain = ['orders', 'ready', String(id), '--erp-number', 'PV-9'];
      const result = await run([...readyAgain, '--replace', '--routes', 'routes.json']);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringContaining(
          'orders ready --replace: the order routes of --routes routes.json have no replace.ready route, so no correction can be sent; nothing was sent. Add a "replace": {"ready": …} route to the routes file (docs/orders.md), or run without --replace.',
        ),
      ]);
      expect(fixture.moveRequests()).toBe(requestsBefore);
      // The same file of moves: refused before a row is read against an order, naming each route its moves lack.
      const [shipped, canceled] = fixture.newOrders(2) as [number, number];
      const rows = [
        `${id};ready;PV-9;;;;;;`,
        `${shipped};ship;;;;Correios;SS123456785BR;;`,
        `${canceled};cancel;;;;;;;x`,
      ];
      writeFileSync(join(fixture.dir, 'corrigido.csv'), [moveHeader, ...rows, ''].join('\r\n'));
      const file = await run(['orders', 'update', 'corrigido.csv', '--replace', '--routes', 'routes.json']);
      expect(file.code).toBe(2);
      expect(file.stderr).toContain(
        'orders update --replace: the order routes of --routes routes.json have no replace.ready or replace.ship route, so no correction can be sent; nothing was sent.',
      );
      expect(fixture.moveRequests()).toBe(requestsBefore);
    });

    it('orders cancel offers no --replace: a canceled order holds nothing to correct', async () => {
      const [id] = fixture.newOrders(1) as [number];
      const result = await run(['orders', 'cancel', String(id), '--reason', 'x', '--replace']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("unknown option '--replace'");
      expect((await run(['orders', 'cancel', '--help'])).stdout).not.toContain('--replace');
    });

    it('one NF-e key on two rows is refused before anything is sent, and --dry-run shows it', async () => {
      const [first, second] = fixture.newOrders(2) as [number, number];
      writeFileSync(
        join(fixture.dir, 'pedidos.csv'),
        [
          moveHeader,
          `${first};invoice;;nfe/${sampleKeys[2]}.xml;;;;;`,
          `${second};invoice;;;${sampleKeys[2]};;;;`,
          '',
        ].join('\r\n'),
      );
      const requestsBefore = fixture.moveRequests();
      const reason = `NF-e key ${sampleKeys[2]} is already on line 2 (order ${first}); an NF-e is sent once, for one order`;
      for (const args of [['--dry-run'], []]) {
        const result = await run(['orders', 'update', 'pedidos.csv', ...args]);
        expect(result.code).toBe(65);
        expect(result.stderr).toContain(
          `pedidos.csv:3: Property [invoiceKey] with value [${sampleKeys[2]}] does not pass validation (${reason})`,
        );
      }
      expect(fixture.moveRequests()).toBe(requestsBefore);
    });

    it('two rows of one move of one order that disagree are refused before anything is sent, --dry-run as the real run', async () => {
      const [ready, invoiced, shipped] = fixture.newOrders(3) as [number, number, number];
      writeFileSync(
        join(fixture.dir, 'pedidos.csv'),
        [
          moveHeader,
          `${ready};ready;PV-1;;;;;;`,
          `${ready};ready;PV-2;;;;;;`,
          `${invoiced};invoice;;nfe/${sampleKeys[0]}.xml;;;;;`,
          `${invoiced};invoice;;;${uniqueKey(702)};;;;`,
          `${shipped};ship;;;;Loggi;LG-1;;`,
          `${shipped};ship;;;;Loggi;LG-1;;`,
          `${shipped};ship;;;;Loggi;LG-2;;`,
          '',
        ].join('\r\n'),
      );
      const requestsBefore = fixture.moveRequests();
      const within = 'does not pass validation (a conflict within this file: ';
      for (const args of [['--dry-run'], []]) {
        const result = await run(['orders', 'update', 'pedidos.csv', ...args]);
        expect(result.code).toBe(65);
        const problems = result.stderr.split('\n').filter((line) => line.includes('conflict within this file'));
        expect(problems).toEqual([
          `pedidos.csv:3: Property [erpNumber] with value [PV-2] ${within}line 2 gives this order ERP number PV-1, this row PV-2; an order takes one ERP number: keep the row that is right)`,
          `pedidos.csv:5: Property [invoiceKey] with value [${uniqueKey(702)}] ${within}line 4 gives this order NF-e key ${sampleKeys[0]}, this row ${uniqueKey(702)}; an order takes one NF-e key: keep the row that is right)`,
          `pedidos.csv:8: Property [trackingCode] with value [LG-2] ${within}line 6 gives this order tracking code LG-1, this row LG-2; an order takes one tracking code: keep the row that is right)`,
          // The earlier rows of each pair, found once the later one came: as invalid, each naming the other.
          `pedidos.csv:2: Property [erpNumber] with value [PV-1] ${within}line 3 gives this order ERP number PV-2, this row PV-1; an order takes one ERP number: keep the row that is right)`,
          `pedidos.csv:4: Property [invoiceXml] with value [nfe/${sampleKeys[0]}.xml] ${within}line 5 gives this order NF-e key ${uniqueKey(702)}, this row ${sampleKeys[0]}; an order takes one NF-e key: keep the row that is right)`,
          `pedidos.csv:6: Property [trackingCode] with value [LG-1] ${within}line 8 gives this order tracking code LG-2, this row LG-1; an order takes one tracking code: keep the row that is right)`,
          `pedidos.csv:7: Property [trackingCode] with value [LG-1] ${within}line 8 gives this order tracking code LG-2, this row LG-1; an order takes one tracking code: keep the row that is right)`,
        ]);
        expect(result.stderr).toContain('7 records, 0 valid, 7 invalid');
      }
      // With --skip-invalid too, no row of a pair goes: the first is not taken for the right one for coming first.
      const skipping = await run(['orders', 'update', 'pedidos.csv', '--skip-invalid']);
      expect(skipping.code).toBe(1);
      expect(fixture.moveRequests()).toBe(requestsBefore);
    });

    it('one ERP number on two orders is sent as given, with a warning naming the other order and its line', async () => {
      const [first, second] = fixture.newOrders(2) as [number, number];
      writeFileSync(
        join(fixture.dir, 'pedidos.csv'),
        [moveHeader, `${first};ready;PV-${first};;;;;;`, `${second};ready;PV-${first};;;;;;`, ''].join('\r\n'),
      );
      const result = await run(['orders', 'update', 'pedidos.csv']);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        `warning: pedidos.csv:3: erpNumber: PV-${first} is also order ${first}'s, on line 2: two orders under one ERP number (sent as given; check the export if they are not one ERP order)`,
      );
      expect(result.stderr.match(/two orders under one ERP number/g)).toHaveLength(1);
      expect([first, second].map((id) => JSON.stringify(order(id)).includes(`"PV-${first}"`))).toEqual([true, true]);
    });

    it('an NF-e the store holds for another order: refused by the store, its own words shown, exit 1', async () => {
      const [holder, other] = fixture.newOrders(2) as [number, number];
      expect((await run(['orders', 'invoice', String(holder), '--key', uniqueKey(701)])).code).toBe(0);
      const result = await run(['orders', 'invoice', String(other), '--key', uniqueKey(701), '-o', 'table']);
      expect(result.code).toBe(1);
      const holderNumber = order(holder).orderId;
      expect(result.stderr).toMatch(
        new RegExp(
          `order ${other}: rejected \\(HTTP (400|422), (accessKey: )?NF-e key ${uniqueKey(701)} is already the invoice of order ${holderNumber} \\(id ${holder}\\)\\)`,
        ),
      );
      expect(order(other).invoice).toBeUndefined();
    });
  },
);
