/**
 * `stock push --route batch`: which item each per-item result of the batch answer is about, and what its status says.
 * A result names its item by SKU, by index or by its place; an index the answer numbers from 1, a SKU given back
 * without its leading zeros, per-item HTTP codes in a 207, a 422 that itemises its refusal. An item is never given
 * another item's outcome: one no result names safely is `accepted`, with a warning.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run as push, type StockPushOptions } from '../../../src/commands/stock/push.js';
import { onlyFile, readErrorsCsv, readReport } from '../../support/run-files.js';
import { requestCounts, useSandbox } from '../../support/sandbox.js';
import { pathOf, type ScriptedProxy, startScriptedProxy } from '../../support/scripted-proxy.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixture = useSandbox();
let openProxy: ScriptedProxy | undefined;
afterEach(async () => {
  await openProxy?.close();
  openProxy = undefined;
});

/** A logged-in run whose every batch request is answered `status` with `body` by a proxy, never by the sandbox. */
async function batchAnsweredWith(status: number, body: unknown) {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await startScriptedProxy(sandbox.url, (request) =>
    request.method === 'PUT' && pathOf(request) === '/v1/stock/batch' ? { answer: status, body } : undefined,
  );
  openProxy = proxy;
  const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
  return { sandbox, proxy, test };
}

/** A stock CSV of these SKUs (quantity and price by place), and the options of a push through the batch route. */
function stockFile(skus: readonly string[]): { folder: string; options: StockPushOptions } {
  const folder = temporaryFolder();
  const rows = skus.map((sku, place) => `${sku},${(place + 1) * 10},${place + 5}.25`);
  writeFileSync(join(folder, 'stock.csv'), ['sku,quantity,price', ...rows, ''].join('\n'));
  const options = { file: join(folder, 'stock.csv'), route: 'batch' as const, strict: false, dryRun: false };
  return { folder, options: { ...options, skipInvalid: false } };
}

/** The report as `key outcome status message` lines, and the errors file's rows as `sku … message` cells. */
function runRecord(folder: string) {
  const rows = readReport(onlyFile(folder, 'stock.report-')).map(
    (row) => `${row.key} ${row.outcome} ${row.status} ${row.message}`,
  );
  return { rows, errors: readErrorsCsv(onlyFile(folder, 'stock.errors-')).rows.map((cells) => cells.join(',')) };
}

function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('warning:'));
}

const batch = ['A1', 'B2', 'C3', 'D4', 'E5'];

describe('stock push: per-item results matched to their items', () => {
  it('results numbered from 1 naming their SKUs: each matched by its SKU, the index warned of once, exit 1', async () => {
    const results = batch.map((sku, place) =>
      sku === 'B2'
        ? { index: place + 1, sku, status: 'REJECTED', message: 'SKU not found' }
        : { index: place + 1, sku, status: 'APPLIED' },
    );
    const { sandbox, proxy, test } = await batchAnsweredWith(200, { results });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: [
        'A1 applied 200 ',
        'B2 rejected 200 SKU not found',
        'C3 applied 200 ',
        'D4 applied 200 ',
        'E5 applied 200 ',
      ],
      errors: ['B2,20,6.25,3,SKU not found'],
    });
    expect(warnings(test.stderr())).toEqual([
      'warning: the stock batch route answered per-item results whose index does not fit the items sent (the result for SKU "A1" gives index 1, which is "B2" in the batch, numbered from 0); b2bctl does not follow those indexes: a result is matched by the SKU it names, and an item no result names is reported "accepted" (the answer did not itemise it).',
    ]);
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('results numbered from 1 without SKUs: no item takes a neighbour\u2019s result; all "accepted", exit 0', async () => {
    const results = batch.map((sku, place) => ({ index: place + 1, status: sku === 'B2' ? 'REJECTED' : 'APPLIED' }));
    const { test } = await batchAnsweredWith(200, { results });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(0);
    const rows = readReport(onlyFile(folder, 'stock.report-')).map((row) => `${row.key} ${row.outcome} ${row.message}`);
    expect(rows).toEqual(batch.map((sku) => `${sku} accepted the answer did not itemise this item`));
    expect(warnings(test.stderr())).toEqual([
      'warning: the stock batch route answered per-item results whose index does not fit the items sent (a result gives index 5, outside a batch of 5 items numbered from 0); b2bctl does not follow those indexes: a result is matched by the SKU it names, and an item no result names is reported "accepted" (the answer did not itemise it).',
    ]);
  });

  it('SKUs given back without leading zeros and in capitals, in another order: matched by SKU, warned once', async () => {
    const answer = [
      { sku: 'AB-7', status: 'OK' },
      { sku: '456', status: 'OK' },
      { sku: '123', status: 'REJECTED', message: 'produto inativo' },
    ];
    const { test } = await batchAnsweredWith(200, answer);
    const { folder, options } = stockFile(['00123', '00456', 'ab-7']);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: ['00123 rejected 200 produto inativo', '00456 applied 200 ', 'ab-7 applied 200 '],
      errors: ['00123,10,5.25,2,produto inativo'],
    });
    expect(warnings(test.stderr())).toEqual([
      'warning: the stock batch route named items by SKUs spelled otherwise than sent ("AB-7" for "ab-7"); b2bctl matched each to the one item whose SKU is the same but for case and leading zeros.',
    ]);
  });
});

describe('stock push: per-item statuses that are HTTP codes, and a 4xx that itemises its refusal', () => {
  it('a 207 with items 200 and 404: the 404 item rejected with its message, the others applied, exit 1', async () => {
    const results = batch.map((sku, index) =>
      sku === 'B2' ? { index, sku, status: 404, message: 'sku not found' } : { index, sku, status: 200 },
    );
    const { test } = await batchAnsweredWith(207, { results });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      // The status column holds the batch's own status, as the platform gave it.
      rows: [
        'A1 applied 207 ',
        'B2 rejected 207 sku not found',
        'C3 applied 207 ',
        'D4 applied 207 ',
        'E5 applied 207 ',
      ],
      errors: ['B2,20,6.25,3,sku not found'],
    });
    expect(warnings(test.stderr())).toEqual([]);
  });

  it('a 422 naming the refused item: that item failed with the platform\u2019s words for it, the others with the general line', async () => {
    const results = batch.map((sku, index) =>
      sku === 'B2'
        ? { index, sku, status: 'ERROR', message: 'Property [price] with value [6.25] does not pass validation' }
        : { index, sku, status: 'OK' },
    );
    const { proxy, test } = await batchAnsweredWith(422, { status: 'UNPROCESSABLE_ENTITY', results });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    const general = `PUT ${proxy.url}/v1/stock/batch failed with HTTP 422`;
    const own = `${general}: Property [price] with value [6.25] does not pass validation`;
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) => `${sku} failed 422 ${sku === 'B2' ? own : general}`),
      errors: batch.map(
        (sku, place) => `${sku},${(place + 1) * 10},${place + 5}.25,${place + 2},${sku === 'B2' ? own : general}`,
      ),
    });
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
  });
});
