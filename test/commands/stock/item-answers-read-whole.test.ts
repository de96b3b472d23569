/**
 * `stock push --route batch`: an item's result read whole, and a results list that names no item. Results naming
 * every item by SKU with an HTTP-like `statusCode` (404 for the refused one) were taken as no per-item results: all
 * "accepted", exit 0; a result saying `APPLIED` beside an `error` was `applied`; `200 {"results":[]}` was "accepted",
 * exit 0 (a user test). A status code is read as a status; a result that applies and refuses is `unknown`; an empty
 * results list leaves every item `unknown`. No decision reads the words of a message.
 */
import { describe, expect, it } from 'vitest';
import { run as push } from '../../../src/commands/stock/push.js';
import { runRecord, stockFile, useAnsweredStockRoute } from '../../support/answered-stock-route.js';
import { warningLines } from '../../support/run-files.js';
import { requestCounts } from '../../support/sandbox.js';

const routeAnsweredWith = useAnsweredStockRoute();

const batch = ['A1', 'A2', 'A3'];

describe('stock push --route batch: a per-item status code and a result that disagrees with itself', () => {
  it('results naming each SKU with a statusCode, 404 for one: that item rejected saying so, in the errors file, exit 1', async () => {
    const { sandbox, test, sent } = await routeAnsweredWith('batch', 200, (skus) => ({
      results: skus.map((sku) => ({ sku, statusCode: sku === 'A2' ? 404 : 200 })),
    }));
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: ['A1 applied  ', 'A2 rejected  the platform answered 404 for this item', 'A3 applied  '],
      errors: ['A2'],
    });
    expect(warningLines(test.stderr())).toEqual([]);
    expect(test.stderr()).toContain('stock push: 2 applied, 1 rejected; 1 request,');
    expect(sent()).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a statusCode of 503 for one item (numeric text): that item unknown, the errors file holding it, exit 1', async () => {
    const { test } = await routeAnsweredWith('batch', 200, (skus) => ({
      results: skus.map((sku) => ({ sku, statusCode: sku === 'A3' ? '503' : '200' })),
    }));
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: [
        'A1 applied  ',
        'A2 applied  ',
        'A3 unknown  the platform answered "503" for this item, a server error, which may come after it stored the item: {"sku":"A3","statusCode":"503"}',
      ],
      errors: ['A3'],
    });
  });

  it('"status": "APPLIED" beside an "error" text: that item unknown quoting its result, in the errors file, exit 1', async () => {
    const { test } = await routeAnsweredWith('batch', 200, (skus) => ({
      results: skus.map((sku) => ({ sku, status: 'APPLIED', error: sku === 'A2' ? 'Produto não encontrado' : null })),
    }));
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: [
        'A1 applied  ',
        `A2 unknown  the answer's result for this item both applies and refuses it: {"sku":"A2","status":"APPLIED","error":"Produto não encontrado"}`,
        'A3 applied  ',
      ],
      errors: ['A2'],
    });
    expect(warningLines(test.stderr())).toEqual([
      'warning: the stock batch route answered results that disagree for SKU "A2": {"sku":"A2","status":"APPLIED","error":"Produto não encontrado"}; b2bctl reports such an item "unknown" (the errors file holds it to send again).',
    ]);
    expect(test.stderr()).toContain('stock push: 2 applied, 1 unknown; 1 request,');
  });
});

describe('stock push --route batch: a results list naming none of the items sent', () => {
  it('200 {"results":[]}: every item unknown, in the errors file, one warning a run, exit 1', async () => {
    // Two batches: the warning is given once for the run.
    const skus = [...batch, 'B1', 'B2', 'B3'];
    const { sandbox, test, sent } = await routeAnsweredWith('batch', 200, () => ({ results: [] }));
    const { folder, options } = stockFile('batch', skus);
    expect(await test.run(push, { ...options, batchSize: 3, concurrency: 1 })).toBe(1);
    const message = `the results list (the answer's "results", an empty list) names none of the items sent: the platform may have applied none`;
    expect(runRecord(folder)).toEqual({ rows: skus.map((sku) => `${sku} unknown  ${message}`), errors: skus });
    expect(warningLines(test.stderr())).toEqual([
      `warning: the stock batch route answered a results list that names none of the items sent (the answer's "results", an empty list, for a batch of 3 items); b2bctl reports those items "unknown", since the platform may have applied none (the errors file holds them to send again; stock values are absolute, so sending them again is harmless). b2bctl --verbose stock push shows the answer.`,
    ]);
    expect(test.stderr()).toContain('stock push: 6 unknown; 2 requests,');
    expect(sent()).toBe(2);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('results naming fewer items than sent, the others applied: the items left out unknown, exit 1', async () => {
    const { test } = await routeAnsweredWith('batch', 200, () => ({ results: [{ sku: 'A1', status: 'OK' }] }));
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder).errors).toEqual(['A2', 'A3']);
  });
});

describe('stock push --route batch: a 2xx without per-item results, in words', () => {
  it('"49 de 50 itens atualizados": accepted as before (no wording decides), the warning saying the words may tell of a failure', async () => {
    const { test } = await routeAnsweredWith('batch', 200, () => ({
      success: true,
      message: '49 de 50 itens atualizados',
    }));
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(0);
    expect(runRecord(folder).rows).toEqual(
      batch.map((sku) => `${sku} accepted  the answer did not itemise this item; it said "49 de 50 itens atualizados"`),
    );
    expect(warningLines(test.stderr())).toEqual([
      expect.stringContaining(
        'saying "49 de 50 itens atualizados"; those items are reported "accepted". Those words may tell of a failure, which b2bctl does not read from words: check the report and the store. If the answer holds',
      ),
    ]);
  });
});
