/**
 * Hostile and broken order move files get what customer and stock files get: a Windows-1252 export read as such,
 * formulas kept out of the report, every problem one line naming line and field, and nothing sent.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { maximumNfeBytes } from '../../../src/domain/nfe-document.js';
import { moveHeader, sampleKeys, useMovesSandbox } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';

const fixture = useMovesSandbox({ orderCount: 2 });
const { run } = fixture;

describe('orders update with bad input', () => {
  it('reads a Windows-1252 export from Excel and sends its accents intact', async () => {
    const [id] = fixture.newOrders(1) as [number];
    const text = `${moveHeader}\r\n${id};cancel;;;;;;;Pedido em duplicidade, não faturar\r\n`;
    writeFileSync(join(fixture.dir, 'pedidos.csv'), iconv.encode(text, 'windows-1252'));
    const result = await run(['orders', 'update', 'pedidos.csv']);
    expect(result.code).toBe(0);
    expect(fixture.storedOrder(id)).toMatchObject({
      cancellationReason: 'Pedido em duplicidade, não faturar',
    });
  });

  it('refuses ERP numbers a workbook turned into a number (000310 → 310) and a date (12/05): nothing sent', async () => {
    writeFileSync(
      join(fixture.dir, 'pedidos.xlsx'),
      readFileSync(join(__dirname, '../../fixtures/libreoffice/pedidos-erp.xlsx')),
    );
    const result = await run(['orders', 'update', 'pedidos.xlsx']);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      "pedidos.xlsx:2: 'pedidos-erp.source'!C2 (erpNumber): 310: the cell is a number, so leading zeros and digits past the 15th are lost; format the column as Text and type the value again",
    );
    expect(result.stderr).toContain(
      "pedidos.xlsx:3: 'pedidos-erp.source'!C3 (erpNumber): 2026-05-12: the cell is a date (the spreadsheet read what was typed as one), so the code typed is lost; format the column as Text and type the value again",
    );
    expect(fixture.acceptedMoves()).toEqual([]);
  });

  it('refuses the error values LibreOffice wrote for a reason typed as a formula (Err:509, #NAME?): nothing sent', async () => {
    // A reason typed starting with "=" and a lookup that failed, opened and saved as CSV by LibreOffice
    // (test/fixtures/libreoffice/README.md): sent as text, they would cancel orders with "#NAME?" as the reason.
    writeFileSync(
      join(fixture.dir, 'cancelar.csv'),
      readFileSync(join(__dirname, '../../fixtures/libreoffice/pedidos-cancelar.csv')),
    );
    const result = await run(['orders', 'update', 'cancelar.csv']);
    expect(result.code).toBe(65);
    for (const [line, value] of [
      [2, 'Err:509'],
      [3, '#NAME?'],
    ] as const)
      expect(result.stderr).toContain(
        `cancelar.csv:${line}: field "reason" holds ${value}, the error a spreadsheet formula gave, not a value; correct the formula or type the value, and export again`,
      );
    expect(result.stderr).toContain('3 records, 1 valid, 2 invalid');
    expect(fixture.acceptedMoves()).toEqual([]);
  });

  it('names the access key LibreOffice turned into 4.3261000360305E+043, with the way out, and sends nothing', async () => {
    // samples/orders-update.csv opened in LibreOffice Calc with default column types, saved as Windows-1252 CSV
    // (test/fixtures/libreoffice/README.md).
    writeFileSync(
      join(fixture.dir, 'orders-update.csv'),
      readFileSync(join(__dirname, '../../fixtures/libreoffice/orders-update.win1252.csv')),
    );
    const result = await run(['orders', 'update', 'orders-update.csv']);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'orders-update.csv:8: Property [invoiceKey] with value [4.3261000360305E+043] does not pass validation (Excel showed this number in scientific notation; format the column as Text and export again)',
    );
    expect(result.stderr).toContain('9 records, 8 valid, 1 invalid');
    expect(fixture.acceptedMoves()).toEqual([]);
  });

  it('an order id . or .. is refused, and nothing goes to the route the URL would resolve it to', async () => {
    // `..;ready` was sent `PUT /v1/status`, and `.;cancel` `PUT /v1/orders/status` (a fresh user test).
    writeFileSync(
      join(fixture.dir, 'dots.csv'),
      `${moveHeader}\r\n..;ready;PV-1;;;;;;\r\n.;cancel;;;;;;;Cliente desistiu\r\n`,
    );
    const before = fixture.sandbox.state.requestCounts.size;
    const result = await run(['orders', 'update', 'dots.csv']);
    expect(result.code).toBe(65);
    const why = 'does not pass validation (an order id is not . or .., which a route would read as a folder)';
    expect(result.stderr).toContain(`dots.csv:2: Property [order] with value [..] ${why}`);
    expect(result.stderr).toContain(`dots.csv:3: Property [order] with value [.] ${why}`);
    expect(fixture.sandbox.state.requestCounts.size).toBe(before);
    expect(fixture.acceptedMoves()).toEqual([]);
    const get = await run(['orders', 'get', '..']);
    expect(get.stderr).toBe(
      'error: ".." cannot fill :id of the paths.order setting: as a path segment it would send the request to another route than it names.\n',
    );
    expect(get.code).toBe(2);
  });

  it('names each bad row, line and field, and sends nothing', async () => {
    const [id] = fixture.newOrders(1) as [number];
    writeFileSync(join(fixture.dir, 'nfe', 'big.xml'), Buffer.alloc(maximumNfeBytes + 1, 0x20));
    writeFileSync(
      join(fixture.dir, 'nfe', 'latin1.xml'),
      iconv.encode(
        readFileSync(join(fixture.dir, 'nfe', `${sampleKeys[0]}.xml`), 'utf8').replace('Distribuidora', 'Distribuição'),
        'latin1',
      ),
    );
    const rows = [
      `${id};ship;;;;Correios;SS12345678BR;;`,
      `${id};invoice;;nfe/missing.xml;;;;;`,
      `${id};invoice;;nfe/big.xml;;;;;`,
      `${id};invoice;;nfe/latin1.xml;;;;;`,
      `${id};invoice;;nfe;;;;;`,
      `${id};invoice;;nfe/${sampleKeys[0]}.xml;${sampleKeys[1]};;;;`,
      `${id};ship;;;;Jadlog;JD1;http://jadlog.example/JD1;`,
      `${id};deliver;;;;;;;`,
      `=cmd|' /C calc'!A0;ready;PV-1;;;;;;`,
    ];
    writeFileSync(join(fixture.dir, 'bad.csv'), `${[moveHeader, ...rows].join('\r\n')}\r\n`);
    const result = await run(['orders', 'update', 'bad.csv']);
    expect(result.code).toBe(65);
    const expected = [
      /bad\.csv:2: Property \[trackingCode\] .*two upper-case letters, eight digits/,
      /bad\.csv:3: Property \[invoiceXml\] with value \[nfe\/missing\.xml\] .*no such file/,
      /bad\.csv:4: Property \[invoiceXml\] .*an NF-e has at most 1048576/,
      /bad\.csv:5: Property \[invoiceXml\] .*not valid UTF-8/,
      /bad\.csv:6: Property \[invoiceXml\] .*not a file/,
      /bad\.csv:7: Property \[invoiceKey\] .*not the key of nfe\//,
      /bad\.csv:8: Property \[trackingUrl\] .*must be https/,
      /bad\.csv:9: Property \[action\] .*one of ready, invoice, ship, cancel/,
      /bad\.csv:10: Property \[order\] .*letters, digits/,
    ];
    for (const line of expected) expect(result.stderr).toMatch(line);
    expect(result.stderr).toContain('nothing was sent');
    expect(fixture.acceptedMoves()).toEqual([]);
  });

  it('with --skip-invalid, sends the good rows and keeps formulas out of the report', async () => {
    const [id] = fixture.newOrders(1) as [number];
    writeFileSync(
      join(fixture.dir, 'mixed.csv'),
      `${moveHeader}\r\n=1+1;ready;PV-1;;;;;;\r\n${id};ready;@SUM(1);;;;;;\r\n`,
    );
    const result = await run(['orders', 'update', 'mixed.csv', '--skip-invalid']);
    expect(result.code).toBe(1);
    const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'mixed')));
    expect(rows.map((row) => row.key).toSorted()).toEqual(["'=1+1 ready", `${id} ready`]);
    expect(rows.find((row) => row.line === '2')).toMatchObject({ outcome: 'invalid' });
    // The ERP number is the ERP's: sent as written; only the report guards cells a spreadsheet would run.
    expect(fixture.storedOrder(id)).toMatchObject({ erpOrderNumber: '@SUM(1)' });
    expect(fixture.acceptedMoves()).toEqual([`${id} ready`]);
  });

  it('with --skip-invalid, an invalid move holds back the later moves of its order, as a refused one does', async () => {
    const [id, other] = fixture.newOrders(2) as [number, number];
    // Line 2 lacks its ERP number: invalid. Line 3, the same order's cancel, must not go before it is fixed; the other
    // order's move goes.
    writeFileSync(
      join(fixture.dir, 'pedidos.csv'),
      `${moveHeader}\r\n${id};ready;;;;;;;\r\n${id};cancel;;;;;;;cliente desistiu\r\n${other};ready;PV-9;;;;;;\r\n`,
    );
    const result = await run(['orders', 'update', 'pedidos.csv', '--skip-invalid']);
    expect(result.code).toBe(1);
    const rows = readReport(join(fixture.dir, onlyReport(fixture.dir, 'pedidos')));
    expect(rows.find((row) => row.line === '2')).toMatchObject({ outcome: 'invalid' });
    expect(rows.find((row) => row.line === '3')).toMatchObject({
      outcome: 'failed',
      message: 'not sent: the move of this order on line 2 did not go through',
    });
    expect(fixture.acceptedMoves()).toEqual([`${other} ready`]);
  });

  it('orders invoice --xml with a file that is not there: exit 66 as for any missing input, nothing sent', async () => {
    const [id] = fixture.newOrders(1) as [number];
    const result = await run(['orders', 'invoice', String(id), '--xml', 'nfe/missing.xml']);
    expect(result.code).toBe(66);
    expect(result.stderr).toContain('error: --xml nfe/missing.xml: no such file; nothing was sent.');
    expect(fixture.acceptedMoves()).toEqual([]);
  });

  it('0372 and 372 are one order: its moves go one at a time in file order', async () => {
    const [id] = fixture.newOrders(1) as [number];
    writeFileSync(
      join(fixture.dir, 'pedidos.csv'),
      `${moveHeader}\r\n00${id};ready;PV-3;;;;;;\r\n${id};cancel;;;;;;;cliente desistiu\r\n`,
    );
    const result = await run(['orders', 'update', 'pedidos.csv']);
    expect(result.code).toBe(0);
    expect(fixture.acceptedMoves()).toEqual([`${id} ready`, `${id} cancel`]);
    expect(fixture.storedOrder(id)).toMatchObject({ status: 'CANCELED', erpOrderNumber: 'PV-3' });
  });

  it('a JSON key no field reads that holds data: exit 65 naming it, its value and the fix; with --ignore-column, sent', async () => {
    const [id] = fixture.newOrders(1) as [number];
    writeFileSync(
      join(fixture.dir, 'pedidos.json'),
      `${JSON.stringify([{ order: id, action: 'ready', erpNumber: 'PV-7', vendedor: 'Ana' }])}\n`,
    );
    const movesBefore = fixture.moveRequests();
    const refused = await run(['orders', 'update', 'pedidos.json']);
    expect(refused.code).toBe(65);
    expect(refused.stderr.trimEnd().split('\n')).toContain(
      'error: pedidos.json:1: key "vendedor" holds "Ana" but no field reads it, so it would not be sent; nothing was sent. Map it with {"vendedor":"FIELD"} in a --map file, or leave it out with --ignore-column vendedor.',
    );
    expect(fixture.moveRequests()).toBe(movesBefore);
    const sent = await run(['orders', 'update', 'pedidos.json', '--ignore-column', 'vendedor']);
    expect(sent.code).toBe(0);
    expect(fixture.acceptedMoves()).toEqual([`${id} ready`]);
  });
});
