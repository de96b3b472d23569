/**
 * `stock push`: 2xx answers that refuse items in shapes a user test found reported `accepted` or `queued`, exit 0:
 * per-item statuses b2bctl did not list (`SKU_NOT_FOUND`, `ERRO`, `ignored`), `"updated": false`, a `resultados`
 * list; reasons under Portuguese names (`mensagem`, `motivo`); and the queue
 * route's 200 that refuses the batch (`"success": false`, `"status": "REJECTED"`, an `errors` list, per-item results).
 */
import { describe, expect, it } from 'vitest';
import { run as push } from '../../../src/commands/stock/push.js';
import { runRecord, stockFile, useAnsweredStockRoute } from '../../support/answered-stock-route.js';
import { onlyFile, readErrorsCsv, warningLines } from '../../support/run-files.js';
import { requestCounts } from '../../support/sandbox.js';

const routeAnsweredWith = useAnsweredStockRoute();

const batch = ['A1', 'A2', 'A3', 'A4', 'A5'];
const refused = new Set(['A2', 'A4']);

/** One result per item, the refused ones (A2, A4) shaped `bad`, the others `ok`. */
function results(ok: Record<string, unknown>, bad: Record<string, unknown>) {
  return batch.map((sku) => ({ sku, ...(refused.has(sku) ? bad : ok) }));
}

describe('stock push --route batch: per-item refusals in shapes b2bctl did not list are never "accepted", exit 0', () => {
  it.each([
    [
      'a status holding NOT_FOUND',
      { results: results({ status: 'OK' }, { status: 'SKU_NOT_FOUND' }) },
      'rejected',
      (sku: string) => `the platform refused this item: {"sku":"${sku}","status":"SKU_NOT_FOUND"}`,
    ],
    [
      'an object keyed by SKU whose refusals are sentences',
      Object.fromEntries(batch.map((sku) => [sku, refused.has(sku) ? 'ERRO: produto inexistente' : 'OK'])),
      'rejected',
      () => 'ERRO: produto inexistente',
    ],
    [
      'a "resultados" list, ERRO with its "mensagem"',
      { resultados: results({ status: 'OK' }, { status: 'ERRO', mensagem: 'Produto não encontrado' }) },
      'rejected',
      () => 'Produto não encontrado',
    ],
    [
      '"updated": false beside "updated": true',
      { results: results({ updated: true }, { updated: false, reason: 'Produto inexistente' }) },
      'unknown',
      (sku: string) =>
        `the answer gave this item "updated": false, which b2bctl cannot read as applied or refused: {"sku":"${sku}","updated":false,"reason":"Produto inexistente"}`,
    ],
    [
      'a status word b2bctl does not know ("ignored")',
      { items: results({ status: 'OK' }, { status: 'ignored', message: 'SKU inexistente' }) },
      'unknown',
      (sku: string) =>
        `the platform answered "ignored" for this item, which b2bctl knows as neither applied, refused nor pending: {"sku":"${sku}","status":"ignored","message":"SKU inexistente"}`,
    ],
  ])(
    '%s: the refused items %s with the platform\u2019s words, the others applied, exit 1',
    async (_name, body, outcome, said) => {
      const { sandbox, test, sent } = await routeAnsweredWith('batch', 200, () => body);
      const { folder, options } = stockFile('batch', batch);
      expect(await test.run(push, options)).toBe(1);
      expect(runRecord(folder)).toEqual({
        rows: batch.map((sku) => (refused.has(sku) ? `${sku} ${outcome}  ${said(sku)}` : `${sku} applied  `)),
        errors: ['A2', 'A4'],
      });
      // The results were recognised: no warning says otherwise, but for a status b2bctl cannot read, which names the
      // setting that points at the outcome's field, once.
      const unread = warningLines(test.stderr()).filter((line) => line.includes('set answers.stockBatch.status'));
      expect(unread).toHaveLength(outcome === 'unknown' ? 1 : 0);
      expect(warningLines(test.stderr()).length).toBe(unread.length);
      expect(test.stderr()).toContain(`stock push: 3 applied, 2 ${outcome}; 1 request,`);
      expect(sent()).toBe(1);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it.each([
    ['mensagem', { results: results({ status: 'OK' }, { status: 'REJECTED', mensagem: 'Produto não encontrado' }) }],
    ['erro', { results: results({ status: 'OK' }, { status: 'REJECTED', erro: 'Produto não encontrado' }) }],
    ['motivo', { results: results({ status: 'OK' }, { status: 'REJECTED', motivo: 'Produto não encontrado' }) }],
    ['msg', { results: results({ status: 'OK' }, { status: 'REJECTED', msg: 'Produto não encontrado' }) }],
    [
      'error_message',
      { results: results({ status: 'OK' }, { status: 'REJECTED', error_message: 'Produto não encontrado' }) },
    ],
    [
      'msg, in an object keyed by SKU under data',
      {
        data: Object.fromEntries(
          batch.map((sku) => [
            sku,
            refused.has(sku) ? { ok: false, msg: 'Produto não encontrado' } : { ok: true, msg: '' },
          ]),
        ),
      },
    ],
  ])('a refusal\u2019s reason under %s: in the report and the errors file, exit 1', async (_name, body) => {
    const { test, sent } = await routeAnsweredWith('batch', 200, () => body);
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder).rows).toEqual(
      batch.map((sku) => (refused.has(sku) ? `${sku} rejected  Produto não encontrado` : `${sku} applied  `)),
    );
    const errors = readErrorsCsv(onlyFile(folder, 'stock.errors-')).rows;
    expect(errors.map((cells) => `${cells[0]} ${cells.at(-1)}`)).toEqual([
      'A2 Produto não encontrado',
      'A4 Produto não encontrado',
    ]);
    expect(sent()).toBe(1);
  });

  it('a refusal whose reason is under a name b2bctl does not list: the result quoted as its JSON', async () => {
    const body = { results: results({ status: 'OK' }, { status: 'REJECTED', texto: 'Produto não encontrado' }) };
    const { test } = await routeAnsweredWith('batch', 200, () => body);
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder).rows.filter((row) => row.includes('rejected'))).toEqual(
      ['A2', 'A4'].map(
        (sku) =>
          `${sku} rejected  the platform refused this item: {"sku":"${sku}","status":"REJECTED","texto":"Produto não encontrado"}`,
      ),
    );
  });
});

describe('stock push --route queue: a 2xx that refuses is never "queued", exit 0', () => {
  it.each([
    [
      '"success": false, "status": "REJECTED"',
      { success: false, status: 'REJECTED', message: 'Lote rejeitado: campo quantidade inválido' },
      '',
    ],
    ['"status": "REJECTED" alone', { status: 'REJECTED', message: 'invalid payload' }, ''],
    [
      '"status": "ERROR" with an errors list naming no SKU',
      { status: 'ERROR', errors: [{ message: 'não encontrado' }] },
      '',
    ],
    ['an id, "QUEUED" and an errors list', { id: '123', status: 'QUEUED', errors: ['A2: produto inexistente'] }, '123'],
    ['"erro" alone', { erro: 'Lote inválido' }, ''],
  ])('%s: every item unknown, the answer quoted, warned once, exit 1', async (_name, body, id) => {
    const { sandbox, test, sent } = await routeAnsweredWith('queue', 200, () => body);
    const { folder, options } = stockFile('queue', batch);
    expect(await test.run(push, options)).toBe(1);
    const shown = JSON.stringify(body);
    const message = `the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${shown}`;
    expect(runRecord(folder)).toEqual({ rows: batch.map((sku) => `${sku} unknown ${id} ${message}`), errors: batch });
    expect(warningLines(test.stderr())).toEqual([
      `warning: the stock queue route refused an item b2bctl cannot match to the items sent: ${shown}; every item of that batch the answer does not show applied or refused is reported "unknown" (the errors file holds them to send again), never "accepted".`,
    ]);
    expect(test.stderr()).toContain('stock push: 5 unknown; 1 request,');
    expect(sent()).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('per-item results refusing one item: that item rejected with its message, the others queued, exit 1', async () => {
    const body = {
      batchId: 'b1',
      results: [
        { sku: 'A1', status: 'APPLIED' },
        { sku: 'A2', status: 'REJECTED', message: 'SKU not found' },
      ],
    };
    const { test, sent } = await routeAnsweredWith('queue', 200, () => body);
    const { folder, options } = stockFile('queue', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) => (sku === 'A2' ? 'A2 rejected b1 SKU not found' : `${sku} queued b1 `)),
      errors: ['A2'],
    });
    expect(warningLines(test.stderr())).toEqual([]);
    expect(test.stderr()).toContain('stock push: 4 queued, 1 rejected; 1 request,');
    expect(sent()).toBe(1);
  });

  it.each([
    ['a batch id and "QUEUED"', { batchId: 'b1', status: 'QUEUED' }, 'b1'],
    ['a job id and "RECEIVED"', { jobId: 'j1', state: 'RECEIVED' }, 'j1'],
  ])('an answer with no sign of refusal (%s): every item queued, exit 0, as before', async (_name, body, id) => {
    const { test } = await routeAnsweredWith('queue', 202, () => body);
    const { folder, options } = stockFile('queue', batch);
    expect(await test.run(push, options)).toBe(0);
    expect(runRecord(folder)).toEqual({ rows: batch.map((sku) => `${sku} queued ${id} `), errors: [] });
    expect(warningLines(test.stderr())).toEqual([]);
  });
});
