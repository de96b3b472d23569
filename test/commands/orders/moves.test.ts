/**
 * Moving orders on against every sandbox dialect: each single command, a nightly file of 500 moves (one bad row
 * stops everything before sending; fixed, every move goes once and in file order per order), and a forbidden move
 * refused by the platform, reported on its row with exit 1. Each dialect answers the moves its own way (200 with the
 * order, 204, {"success"}, 202 with a request id only); the outcomes must not depend on it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import { moveHeader, mistypedKey, nightlyFile, sampleKeys, useMovesSandbox } from '../../support/order-moves.js';
import { onlyErrorsFile, onlyReport, readReport } from '../../support/run-files.js';

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'order moves, %s dialect',
  (name, dialect) => {
    const fixture = useMovesSandbox({ dialect, orderCount: 5 });
    const { run } = fixture;
    const detail = (id: number) => fixture.storedOrder(id) as unknown as Record<string, unknown>;

    it('ready, invoice, ship: one line each, the fields stored and shown by orders get', async () => {
      const [id] = fixture.newOrders(1) as [number];
      const ready = await run(['orders', 'ready', String(id), '--erp-number', 'PV-77', '-o', 'table']);
      expect(ready).toMatchObject({ code: 0 });
      expect(ready.stdout).toMatch(new RegExp(`^order ${id}: ready to ship \\(HTTP 20[024]`));
      const invoice = await run(['orders', 'invoice', String(id), '--xml', `nfe/${sampleKeys[0]}.xml`, '-o', 'json']);
      expect(invoice.code).toBe(0);
      expect(JSON.parse(invoice.stdout)).toMatchObject({ order: String(id), action: 'invoice' });
      expect(['applied', 'accepted']).toContain(JSON.parse(invoice.stdout).outcome);
      const ship = await run(['orders', 'ship', String(id), '--tracking', 'SS123456785BR', '--carrier', 'Correios']);
      expect(ship.code).toBe(0);
      // The gateway's 202 with a request id only is accepted, with one warning.
      const warnings = ship.stderr.split('\n').filter((line) => line.includes('warning'));
      // Only the gateway's 202 with a request id only is a body b2bctl does not recognise.
      const unrecognised = /HTTP 202 and a body b2bctl does not recognise/;
      expect(warnings.map((line) => unrecognised.test(line))).toEqual(name === 'gateway' ? [true] : []);
      expect(detail(id)).toMatchObject({
        status: 'SHIPPED',
        erpOrderNumber: 'PV-77',
        invoice: { accessKey: sampleKeys[0] },
        tracking: { code: 'SS123456785BR', carrier: 'Correios' },
      });
      const shown = await run(['orders', 'get', String(id), '-o', 'json']);
      expect(shown.stdout).toContain('"erpOrderNumber": "PV-77"');
      expect(shown.stdout).toContain(sampleKeys[0]);
      // Each move published the orders webhook through the outbox, with the order's new status.
      const published = fixture.sandbox.state.events
        .list()
        .filter((event) => event.kind === 'orders' && (event.payload as { id: number }).id === id)
        .map((event) => (event.payload as { status: string }).status);
      expect(published.slice(-3)).toEqual(['READY_TO_SHIP', 'INVOICED', 'SHIPPED']);
    });

    // The default dialect's detail shows what an order keeps (ERP number, NF-e key, tracking code), and spring's
    // shows the ones it lacks as null; one that shows none tells nothing by their absence, and such a move stays
    // "unchanged".
    it.runIf(name === 'default' || name === 'spring')(
      'an invoice for an order shipped without one: a conflict (exit 1), not "unchanged", and nothing sent',
      async () => {
        const [id] = fixture.newOrders(1) as [number];
        expect((await run(['orders', 'ready', String(id), '--erp-number', 'PV-352'])).code).toBe(0);
        expect((await run(['orders', 'ship', String(id), '--tracking', 'T-352', '--carrier', 'Loggi'])).code).toBe(0);
        const moved = fixture.acceptedMoves().length;
        const invoice = await run([
          'orders',
          'invoice',
          String(id),
          '--xml',
          `nfe/${sampleKeys[0]}.xml`,
          '-o',
          'table',
        ]);
        expect(invoice.code).toBe(1);
        expect(invoice.stdout + invoice.stderr).toContain(
          'the order is already SHIPPED and holds no NF-e key (it holds its ERP number and tracking code): this move never reached it, and the platform takes no move back; not sent',
        );
        expect(fixture.acceptedMoves().length).toBe(moved);
      },
    );

    it('a canceled order that holds its ERP number: another number, or an invoice, is a conflict saying the store canceled it, never offering --replace', async () => {
      const [id] = fixture.newOrders(1) as [number];
      expect((await run(['orders', 'ready', String(id), '--erp-number', 'E-1'])).code).toBe(0);
      expect((await run(['orders', 'cancel', String(id), '--reason', 'x'])).code).toBe(0);
      const moved = fixture.acceptedMoves().length;
      const other = await run(['orders', 'ready', String(id), '--erp-number', 'E-2', '-o', 'table']);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain(
        `error: order ${id}: conflict (the order holds ERP number E-1; this move has E-2, and the order is already CANCELED: the store canceled it before this move reached it, and the platform takes no move after a cancellation; not sent)\n`,
      );
      const invoice = await run(['orders', 'invoice', String(id), '--key', sampleKeys[0]!, '-o', 'table']);
      expect(invoice.code).toBe(1);
      expect(invoice.stderr).toContain(
        `error: order ${id}: conflict (the order is already CANCELED and holds no NF-e key (it holds its ERP number): the store canceled it before this move reached it, and the platform takes no move after a cancellation; not sent)\n`,
      );
      expect(fixture.acceptedMoves().length).toBe(moved);
    });

    it('a reason of 260 emoji is 260 characters, within 500: sent; 501 characters are not (exit 65)', async () => {
      const [id] = fixture.newOrders(1) as [number];
      const before = fixture.moveRequests();
      const over = await run(['orders', 'cancel', String(id), '--reason', 'ç'.repeat(501)]);
      expect(over.code).toBe(65);
      expect(over.stderr).toContain('(at most 500 characters); nothing was sent.');
      expect(fixture.moveRequests()).toBe(before);
      // Counted in UTF-16 units, each emoji was two: refused as over 500.
      const emoji = '😀'.repeat(260);
      expect((await run(['orders', 'cancel', String(id), '--reason', emoji])).code).toBe(0);
      expect(detail(id)).toMatchObject({ status: 'CANCELED', cancellationReason: emoji });
    });

    it('cancel with a reason; a move for an order the store canceled first is a conflict (exit 1), not "unchanged"; sent anyway, the store refuses it in its own words', async () => {
      const [id] = fixture.newOrders(1) as [number];
      expect((await run(['orders', 'cancel', String(id), '--reason', 'cliente desistiu'])).code).toBe(0);
      expect(detail(id)).toMatchObject({ status: 'CANCELED', cancellationReason: 'cliente desistiu' });
      // The order's status and detail, read first: canceled, and it shows no ERP number, so it never took this move.
      // An ERP told "unchanged" with exit 0 would never learn that its NF-e or shipment is for a canceled order.
      for (const [action, flags, words] of [
        ['ready', ['--erp-number', 'PV-1'], 'ERP number'],
        ['ship', ['--tracking', 'SS123456785BR'], 'tracking code'],
      ] as const) {
        const checked = await run(['orders', action, String(id), ...flags, '-o', 'table']);
        expect(checked.code).toBe(1);
        // Spring's detail says it holds none (`null`); the others leave the field out, which says nothing, but a
        // canceled order took no move after its cancellation either way.
        const why =
          name === 'spring'
            ? `holds no ${words}: the store canceled it before this move reached it, and the platform takes no move after a cancellation`
            : `its detail shows no ${words}: the store canceled it before this move reached it (or the platform does not show ${words}s), and the platform takes no move after a cancellation`;
        expect(checked.stderr).toContain(
          `error: order ${id}: conflict (the order is already CANCELED and ${why}; not sent)\n`,
        );
      }
      // A cancellation again is the same move: unchanged.
      const cancelAgain = await run(['orders', 'cancel', String(id), '--reason', 'cliente desistiu', '-o', 'table']);
      expect(cancelAgain.code).toBe(0);
      expect(cancelAgain.stdout).toBe(`order ${id}: unchanged (the order is already CANCELED: not sent)\n`);
      // Without the read, the platform refuses it, and its own words are shown, however its dialect nests them.
      const again = await run(['orders', 'ready', String(id), '--erp-number', 'PV-1', '--no-status-check']);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(
        new RegExp(
          `order ${id}: rejected \\(HTTP (400|409|422), (status: )?Order \\[${id}\\]: the order is canceled: it moves no further\\)`,
        ),
      );
      expect(fixture.acceptedMoves()).toEqual([`${id} cancel`]);
    });

    it('a bad tracking code, an unauthorised NF-e, one with a total or date no NF-e writes, a key alone with a mistyped digit: exit 65, nothing sent', async () => {
      const [id] = fixture.newOrders(1) as [number];
      const unauthorised = readFileSync(join(fixture.dir, 'nfe', `${sampleKeys[0]}.xml`), 'utf8').replace(
        '<cStat>100<',
        '<cStat>110<',
      );
      writeFileSync(join(fixture.dir, 'denied.xml'), unauthorised);
      const sample = readFileSync(join(fixture.dir, 'nfe', `${sampleKeys[0]}.xml`), 'utf8');
      writeFileSync(join(fixture.dir, 'comma.xml'), sample.replace(/<vNF>([^<]*)\.(\d\d)</, '<vNF>$1,$2<'));
      writeFileSync(
        join(fixture.dir, 'future.xml'),
        sample.replace(/<dhEmi>[^<]*</, '<dhEmi>2099-01-01T10:00:00-03:00<'),
      );
      const cases: [string[], RegExp][] = [
        [['ship', String(id), '--tracking', 'SS123456784BR'], /Property \[trackingCode\] .*check digit .* should be 5/],
        [['invoice', String(id), '--xml', 'denied.xml'], /Property \[invoiceXml\] .*cStat is 110/],
        [
          ['invoice', String(id), '--xml', 'comma.xml'],
          /Property \[invoiceXml\] .*the NF-e total \(vNF\) \d+,\d\d is not/,
        ],
        [
          ['invoice', String(id), '--xml', 'future.xml'],
          /Property \[invoiceXml\] .*dhEmi\) 2099-01-01T10:00:00-03:00 is in the future/,
        ],
        [['invoice', String(id), '--key', mistypedKey], /Property \[invoiceKey\] .*check digit/],
        [['ready', String(id), '--erp-number', ' '], /Property \[erpNumber\] .*needs the ERP order number/],
      ];
      for (const [args, message] of cases) {
        const result = await run(['orders', ...args]);
        expect(result.code).toBe(65);
        expect(result.stderr).toMatch(message);
        expect(result.stderr).toContain('nothing was sent');
      }
      expect(fixture.acceptedMoves()).toEqual([]);
    });

    it("an NF-e made out to another customer is not sent (exit 65); a branch of the buyer's company is; --no-status-check sends it", async () => {
      const [other, branch, mine] = fixture.newOrders(3) as [number, number, number];
      const buyer = (id: number, document: string) => {
        const order = fixture.storedOrder(id);
        order.partnerDocument = document;
        order.customer = { document, name: 'Outra Empresa Ltda' };
      };
      buyer(other, '11.444.777/0001-61');
      buyer(branch, '00.360.305/0002-95');
      const refused = await run(['orders', 'invoice', String(other), '--xml', `nfe/${sampleKeys[0]}.xml`]);
      expect(refused.code).toBe(65);
      expect(refused.stderr).toContain(
        `order ${other}: not sent: the NF-e is made out to CNPJ 00.360.305/0001-04 (Comércio Exemplo Ltda), not to the order's buyer, CNPJ 11.444.777/0001-61.`,
      );
      expect(fixture.acceptedMoves()).toEqual([]);

      // In a nightly file the row is reported invalid, and the file's other moves go on.
      writeFileSync(
        join(fixture.dir, 'moves.csv'),
        [
          moveHeader,
          `${other};invoice;;nfe/${sampleKeys[0]}.xml;;;;;`,
          `${branch};invoice;;nfe/${sampleKeys[1]}.xml;;;;;`,
          `${mine};invoice;;nfe/${sampleKeys[2]}.xml;;;;;`,
          '',
        ].join('\r\n'),
      );
      const file = await run(['orders', 'update', 'moves.csv']);
      expect(file.code).toBe(1);
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'moves')));
      expect(rows.find((row) => row.line === '2')).toMatchObject({
        outcome: 'invalid',
        message: expect.stringContaining("not to the order's buyer, CNPJ 11.444.777/0001-61"),
      });
      expect(fixture.acceptedMoves()).toEqual([`${branch} invoice`, `${mine} invoice`]);

      // The operator who knows better sends it without the order's reading.
      const sent = await run([
        'orders',
        'invoice',
        String(other),
        '--xml',
        `nfe/${sampleKeys[0]}.xml`,
        '--no-status-check',
      ]);
      expect(sent.code).toBe(0);
      expect(fixture.acceptedMoves()).toEqual([`${branch} invoice`, `${mine} invoice`, `${other} invoice`]);
    });

    it('a nightly file of 500 moves: a bad row at line 251 stops it all; fixed, each move once, in file order per order', async () => {
      const ids = fixture.newOrders(180);
      const { text, moves } = nightlyFile(ids, 500);
      const lines = text.split('\r\n');
      const good = lines[250] as string;
      lines[250] = `${good.split(';')[0]};invoice;;;${mistypedKey};;;;`;
      writeFileSync(join(fixture.dir, 'nightly.csv'), lines.join('\r\n'));
      const refused = await run(['orders', 'update', 'nightly.csv']);
      expect(refused.code).toBe(65);
      expect(refused.stderr).toMatch(/nightly\.csv:251: Property \[invoiceKey\] .*check digit/);
      expect(refused.stderr).toContain('nothing was sent');
      expect(fixture.acceptedMoves()).toEqual([]);

      lines[250] = good;
      writeFileSync(join(fixture.dir, 'nightly.csv'), lines.join('\r\n'));
      const sent = await run(['orders', 'update', 'nightly.csv', '--concurrency', '8']);
      expect(sent.stderr).toMatch(/orders update: 500 (applied|accepted)/);
      expect(sent.code).toBe(0);
      const taken = fixture.acceptedMoves();
      expect(taken.toSorted()).toEqual(moves.toSorted());
      for (const id of ids) {
        const ofOrder = (list: string[]) => list.filter((move) => move.startsWith(`${id} `));
        expect(ofOrder(taken)).toEqual(ofOrder(moves));
      }
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'nightly')));
      expect(rows).toHaveLength(500);
    });

    it('a move the platform forbids is reported on its row, the order’s later moves are not sent, exit 1', async () => {
      const [shipped, fresh] = fixture.newOrders(2) as [number, number];
      fixture.storedOrder(shipped).status = 'SHIPPED';
      writeFileSync(
        join(fixture.dir, 'moves.csv'),
        [
          moveHeader,
          `${shipped};ready;PV-1;;;;;;`,
          `${fresh};ready;PV-2;;;;;;`,
          `${shipped};ship;;;;Jadlog;JD-0001;;`,
          '',
        ].join('\r\n'),
      );
      const result = await run(['orders', 'update', 'moves.csv', '--no-status-check']);
      expect(result.code).toBe(1);
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'moves')));
      expect(rows.find((row) => row.line === '2')).toMatchObject({ outcome: 'rejected' });
      expect(['400', '409', '422']).toContain(rows.find((row) => row.line === '2')?.status);
      expect(rows.find((row) => row.line === '3')).toMatchObject({
        outcome: expect.stringMatching(/applied|accepted/),
      });
      expect(rows.find((row) => row.line === '4')).toMatchObject({
        outcome: 'failed',
        message: 'not sent: the move of this order on line 2 did not go through',
      });
      expect(readFileSync(join(fixture.dir, onlyErrorsFile(fixture.dir, 'moves')), 'utf8')).toContain(
        `${shipped};ready;PV-1`,
      );
      expect(fixture.acceptedMoves()).toEqual([`${fresh} ready`]);
    });

    it('by default each order’s status is read first: a move it forbids is not sent (invalid, exit 1), one it has taken is unchanged', async () => {
      const [shipped, ready, fresh] = fixture.newOrders(3) as [number, number, number];
      fixture.storedOrder(shipped).status = 'SHIPPED';
      // Made ready with this ERP number, as the move would have: a detail showing none (spring's null) would make
      // the move one that never reached the order, a conflict.
      Object.assign(fixture.storedOrder(ready), {
        status: 'READY_TO_SHIP',
        erpOrderNumber: 'PV-1',
      });
      writeFileSync(
        join(fixture.dir, 'moves.csv'),
        [
          moveHeader,
          `${shipped};cancel;;;;;;;sem estoque`,
          `${ready};ready;PV-1;;;;;;`,
          `${fresh};ready;PV-2;;;;;;`,
          `${fresh};cancel;;;;;;;sem estoque`,
          '',
        ].join('\r\n'),
      );
      const dryRun = await run(['orders', 'update', 'moves.csv', '--dry-run']);
      expect(dryRun.stderr).toContain("each order's status read first (one request per order)");
      // A dry run reads nothing of the platform, and says what it leaves to the real run (a fresh user test took
      // its exit 0 for the file being fine).
      expect(dryRun.stderr).toContain(
        'The orders were not read: a move their status forbids or has taken, and an order named both by its id and by its number, are found by the real run before it sends each.',
      );
      const result = await run(['orders', 'update', 'moves.csv']);
      expect(result.code).toBe(1);
      const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'moves')));
      expect(rows.find((row) => row.line === '2')).toMatchObject({
        outcome: 'invalid',
        message:
          'not sent: the order is SHIPPED on the platform; a shipped order is not canceled (it has left; a return is another process)',
      });
      expect(rows.find((row) => row.line === '3')).toMatchObject({
        outcome: 'unchanged',
        message: 'the order is already READY_TO_SHIP: not sent',
      });
      expect(fixture.acceptedMoves()).toEqual([`${fresh} ready`, `${fresh} cancel`]);
      // The same file again: nothing is sent, the forbidden move is still reported.
      const again = await run(['orders', 'update', 'moves.csv']);
      expect(again.code).toBe(1);
      // The ready and the cancel of the order canceled since are both taken: a canceled order passed every stage.
      expect(again.stderr).toMatch(/orders update: 3 unchanged, 1 invalid;/);
      expect(fixture.acceptedMoves()).toEqual([`${fresh} ready`, `${fresh} cancel`]);
    });
  },
);
