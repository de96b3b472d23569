/**
 * What an invoice's NF-e is checked against before it is sent, found by a fresh user test: an access key from
 * before NF-e existed, an NF-e that names no recipient (the buyer check had nothing to check), and an NF-e whose
 * total is not the order's (a warning: freight, ST or a partial invoice may explain it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessKeyCheckDigit } from '../../../src/domain/nfe-key.js';
import { moveHeader, sampleKeys, uniqueKey, useMovesSandbox } from '../../support/order-moves.js';

const fixture = useMovesSandbox({ orderCount: 2 });
const { run } = fixture;

describe('orders invoice: the NF-e checked before it is sent', () => {
  it('refuses an access key of a month before NF-e existed (2005-11): exit 65, nothing sent', async () => {
    const [id] = fixture.newOrders(1) as [number];
    const first43 = `350511${sampleKeys[0]!.slice(6, 43)}`;
    const key = `${first43}${accessKeyCheckDigit(first43)}`;
    const before = fixture.moveRequests();
    const result = await run(['orders', 'invoice', String(id), '--key', key, '--no-status-check']);
    expect(result.code).toBe(65);
    expect(result.stderr).toBe(
      `error: Property [invoiceKey] with value [${key}] does not pass validation (the month of issue 2005-11 is before the first NF-e (2006-01): not the key of an NF-e); nothing was sent.\n`,
    );
    expect(fixture.moveRequests()).toBe(before);
  });

  it('refuses an NF-e that names no recipient (no dest): the buyer check had nothing to check; exit 65, nothing sent', async () => {
    const [id] = fixture.newOrders(1) as [number];
    const sample = readFileSync(join(fixture.dir, 'nfe', `${sampleKeys[0]}.xml`), 'utf8');
    writeFileSync(join(fixture.dir, 'sem-dest.xml'), sample.replace(/<dest>[\s\S]*<\/dest>/, ''));
    const before = fixture.moveRequests();
    const result = await run(['orders', 'invoice', String(id), '--xml', 'sem-dest.xml']);
    expect(result.code).toBe(65);
    expect(result.stderr).toBe(
      "error: Property [invoiceXml] with value [sem-dest.xml] does not pass validation (the NF-e names no recipient (dest with a CNPJ, CPF or idEstrangeiro), which a model-55 NF-e always does: the order's buyer cannot be checked against it); nothing was sent.\n",
    );
    expect(fixture.moveRequests()).toBe(before);
  });

  it("sends an NF-e whose total is not the order's with one warning naming both; none when they agree or the detail shows no total", async () => {
    const [other, same, unshown] = fixture.newOrders(3) as [number, number, number];
    const orders = fixture.sandbox.state.orders.orders;
    orders.get(other)!.totals.total = 2642.26;
    delete (orders.get(unshown) as { totals?: unknown }).totals;
    const warned = await invoiceWithSample(other, 0);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toBe(
      `warning: order ${other}: the NF-e's total (vNF) is 1234.56 and the order's total is 2642.26; sent all the same (freight, ICMS-ST or a partial invoice may explain it): check that this is the order's NF-e\n`,
    );
    expect(warned.stdout).toMatch(new RegExp(`^order ${other}: invoiced \\(HTTP 200`));
    for (const [id, index] of [
      [same, 1],
      [unshown, 2],
    ] as const) {
      const quiet = await invoiceWithSample(id, index);
      expect(quiet).toMatchObject({ code: 0, stderr: '' });
    }
    expect(fixture.acceptedMoves()).toEqual([`${other} invoice`, `${same} invoice`, `${unshown} invoice`]);
  });

  it("orders update: the total's warning names the file's line beside the order", async () => {
    const [same, other] = fixture.newOrders(2) as [number, number];
    fixture.storedOrder(other).totals.total = 2642.26;
    writeFileSync(
      join(fixture.dir, 'pedidos.csv'),
      [
        moveHeader,
        `${same};invoice;;nfe/${sampleKeys[1]}.xml;;;;;`,
        `${other};invoice;;nfe/${sampleKeys[0]}.xml;;;;;`,
        '',
      ].join('\r\n'),
    );
    const result = await run(['orders', 'update', 'pedidos.csv']);
    expect(result.code).toBe(0);
    expect(warnings(result.stderr)).toEqual([
      `warning: pedidos.csv:3: order ${other}: the NF-e's total (vNF) is 1234.56 and the order's total is 2642.26; sent all the same (freight, ICMS-ST or a partial invoice may explain it): check that this is the order's NF-e`,
    ]);
    expect(fixture.acceptedMoves()).toEqual([`${same} invoice`, `${other} invoice`]);
  });

  it("--replace of an invoice warns of a total that is not the order's as the first invoice would; the conflict alone does not", async () => {
    const [id] = fixture.newOrders(1) as [number];
    fixture.storedOrder(id).totals.total = 2642.26;
    expect(await run(['orders', 'invoice', String(id), '--key', uniqueKey(701), '-o', 'table'])).toMatchObject({
      code: 0,
      stderr: '',
    });
    const before = fixture.moveRequests();
    const conflict = await invoiceWithSample(id, 0);
    expect(conflict.code).toBe(1);
    expect(warnings(conflict.stderr)).toEqual([]);
    expect(fixture.moveRequests()).toBe(before);
    const replaced = await run([
      'orders',
      'invoice',
      String(id),
      '--xml',
      `nfe/${sampleKeys[0]}.xml`,
      '--replace',
      '-o',
      'table',
    ]);
    expect(replaced.code).toBe(0);
    expect(replaced.stderr).toBe(
      `warning: order ${id}: the NF-e's total (vNF) is 1234.56 and the order's total is 2642.26; sent all the same (freight, ICMS-ST or a partial invoice may explain it): check that this is the order's NF-e\n`,
    );
    expect(replaced.stdout).toMatch(
      new RegExp(`^order ${id}: invoiced \\(HTTP 200, replaced ${uniqueKey(701)} with ${sampleKeys[0]}`),
    );
    expect(fixture.storedOrder(id)).toMatchObject({ invoice: { accessKey: sampleKeys[0] } });
  });

  it("compares the totals in exact decimals: an order's total of 1.005 is its NF-e's 1.01 to the centavo, no warning", async () => {
    const [id] = fixture.newOrders(1) as [number];
    // Through a float, 1.005 is 1.00499…: 100 centavos, and the NF-e's 1.01 was warned about.
    fixture.storedOrder(id).totals.total = 1.005;
    const sample = readFileSync(join(fixture.dir, 'nfe', `${sampleKeys[0]}.xml`), 'utf8');
    writeFileSync(join(fixture.dir, 'centavo.xml'), sample.replace('<vNF>1234.56</vNF>', '<vNF>1.01</vNF>'));
    const result = await run(['orders', 'invoice', String(id), '--xml', 'centavo.xml', '-o', 'table']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(fixture.acceptedMoves()).toEqual([`${id} invoice`]);
  });
});

/** `orders invoice ID --xml` with the index-th sample NF-e. */
function invoiceWithSample(id: number, index: number) {
  return run(['orders', 'invoice', String(id), '--xml', `nfe/${sampleKeys[index]}.xml`, '-o', 'table']);
}

/** The warning lines of a run's stderr. */
function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('warning: '));
}
