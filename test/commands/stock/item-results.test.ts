/**
 * `stock push --route batch`: which item each per-item result of the batch answer is about, and what its status says.
 * A result names its item by SKU, by index or by its place; an index the answer numbers from 1, a SKU given back
 * without its leading zeros, per-item HTTP codes in a 207, a 422 that itemises its refusal. An item is never given
 * another item's outcome: one no result names is `accepted`, with a warning, or `unknown` beside others shown applied.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as push, type StockPushOptions } from '../../../src/commands/stock/push.js';
import { onlyFile, readErrorsCsv, readReport } from '../../support/run-files.js';
import { requestCounts, useSandbox } from '../../support/sandbox.js';
import { pathOf, useScriptedProxy } from '../../support/scripted-proxy.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixture = useSandbox();
const proxied = useScriptedProxy();

/** A logged-in run whose every batch request is answered `status` with `body` by a proxy, never by the sandbox. */
async function batchAnsweredWith(status: number, body: unknown) {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, (request) =>
    request.method === 'PUT' && pathOf(request) === '/v1/stock/batch' ? { answer: status, body } : undefined,
  );
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
      'warning: the stock batch route answered per-item results whose index does not fit the items sent (the result for SKU "A1" gives index 1, which is "B2" in the batch, numbered from 0); b2bctl does not follow those indexes: a result is matched by the SKU it names, and an item no result names is reported "unknown" when the answer shows others applied or refuses an item b2bctl cannot match, else "accepted" (the answer did not itemise it).',
    ]);
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('results numbered from 1 without SKUs, one refusing: every item unknown with the refusal\u2019s words, exit 1', async () => {
    const results = batch.map((sku, place) =>
      sku === 'B2'
        ? { index: place + 1, status: 'REJECTED', message: 'SKU not found' }
        : { index: place + 1, status: 'APPLIED' },
    );
    const { sandbox, proxy, test } = await batchAnsweredWith(200, { results });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    const refusal = `the answer refused an item b2bctl cannot match to the items sent, which may be this one: {"index":2,"status":"REJECTED","message":"SKU not found"}`;
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) => `${sku} unknown 200 ${refusal}`),
      errors: batch.map((sku, place) => `${sku},${(place + 1) * 10},${place + 5}.25,${place + 2},${refusal}`),
    });
    expect(warnings(test.stderr())).toEqual([
      'warning: the stock batch route answered per-item results whose index does not fit the items sent (a result gives index 5, outside a batch of 5 items numbered from 0); b2bctl does not follow those indexes: a result is matched by the SKU it names, and an item no result names is reported "unknown" when the answer shows others applied or refuses an item b2bctl cannot match, else "accepted" (the answer did not itemise it).',
      'warning: the stock batch route refused an item b2bctl cannot match to the items sent: {"index":2,"status":"REJECTED","message":"SKU not found"}; every item of that batch the answer does not show applied or refused is reported "unknown" (the errors file holds them to send again), never "accepted".',
    ]);
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('results numbered from 1 without SKUs, all applied: no item takes a neighbour\u2019s result; all "accepted", exit 0', async () => {
    const results = batch.map((_sku, place) => ({ index: place + 1, status: 'APPLIED' }));
    const { test } = await batchAnsweredWith(200, { results });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(0);
    const rows = readReport(onlyFile(folder, 'stock.report-')).map((row) => `${row.key} ${row.outcome} ${row.message}`);
    expect(rows).toEqual(batch.map((sku) => `${sku} accepted the answer did not itemise this item`));
  });

  it('an object keyed by index from 1 with a refusal: every item unknown, exit 1', async () => {
    const { test } = await batchAnsweredWith(200, {
      results: { 1: 'OK', 2: { status: 'ERROR', message: 'bad' }, 3: 'OK', 4: 'OK', 5: 'OK' },
    });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    const refusal = `the answer refused an item b2bctl cannot match to the items sent, which may be this one: {"2":{"status":"ERROR","message":"bad"}}`;
    expect(runRecord(folder).rows).toEqual(batch.map((sku) => `${sku} unknown 200 ${refusal}`));
  });

  it('a refusal for a SKU not in the batch: named in a warning; the item no result names unknown, exit 1', async () => {
    const answer = batch.map((sku) =>
      sku === 'B2' ? { sku: 'ZZZ', status: 'REJECTED', message: 'unknown' } : { sku, status: 'OK' },
    );
    const { proxy, test } = await batchAnsweredWith(200, answer);
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    const shown = '{"sku":"ZZZ","status":"REJECTED","message":"unknown"}';
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) =>
        sku === 'B2'
          ? `B2 unknown 200 the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${shown}`
          : `${sku} applied 200 `,
      ),
      errors: [
        `B2,20,6.25,3,the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${shown}`,
      ],
    });
    expect(warnings(test.stderr())).toEqual([
      `warning: the stock batch route answered a result for SKU "ZZZ", which is not in the batch sent: ${shown}; b2bctl matched it to no item.`,
      `warning: the stock batch route refused an item b2bctl cannot match to the items sent: ${shown}; every item of that batch the answer does not show applied or refused is reported "unknown" (the errors file holds them to send again), never "accepted".`,
    ]);
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
  });

  it('two results for one item that disagree: that item unknown naming both, warned; never the first silently', async () => {
    const answer = [
      { sku: 'A1', status: 'APPLIED' },
      { sku: 'A1', status: 'REJECTED', message: 'second' },
      ...batch.slice(1).map((sku) => ({ sku, status: 'APPLIED' })),
    ];
    const { test } = await batchAnsweredWith(200, { results: answer });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    const both = '{"sku":"A1","status":"APPLIED"}; {"sku":"A1","status":"REJECTED","message":"second"}';
    expect(runRecord(folder)).toEqual({
      rows: [
        `A1 unknown 200 the answer gave this item 2 results that disagree: ${both}`,
        ...batch.slice(1).map((sku) => `${sku} applied 200 `),
      ],
      errors: [`A1,10,5.25,2,the answer gave this item 2 results that disagree: ${both}`],
    });
    expect(warnings(test.stderr())).toEqual([
      `warning: the stock batch route answered results that disagree for SKU "A1": ${both}; b2bctl reports such an item "unknown" (the errors file holds it to send again).`,
    ]);
  });

  it('one SKU given back for two items (0123 and 00123 as 123), the order not shown: both unknown, warned', async () => {
    const answer = [
      { sku: '123', status: 'REJECTED', message: 'inativo' },
      { sku: '123', status: 'OK' },
    ];
    const { test } = await batchAnsweredWith(200, answer);
    const { folder, options } = stockFile(['0123', '00123']);
    expect(await test.run(push, options)).toBe(1);
    const said =
      'the answer names this item only by the SKU "123", which fits more than one item sent: {"sku":"123","status":"REJECTED","message":"inativo"}; {"sku":"123","status":"OK"}';
    expect(runRecord(folder)).toEqual({
      rows: [`0123 unknown 200 ${said}`, `00123 unknown 200 ${said}`],
      // The errors file keeps the SKUs' leading zeros behind a ' (a spreadsheet would drop them).
      errors: [`'0123,10,5.25,2,${said}`, `'00123,20,6.25,3,${said}`],
    });
    expect(warnings(test.stderr())).toEqual([
      // Said before sending too: two SKUs of one file the same but for leading zeros.
      expect.stringMatching(
        /^warning: .*stock\.csv:3: SKU "00123" is the same but for case or leading zeros as the SKU on line 2 of this file: /,
      ),
      'warning: the stock batch route named a result by the SKU "123", which fits 2 items sent ("0123", "00123"), and the order of its results does not tell which; b2bctl reports those items "unknown" (the errors file holds them to send again).',
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
      errors: ["'00123,10,5.25,2,produto inativo"],
    });
    expect(warnings(test.stderr())).toEqual([
      'warning: the stock batch route named items by SKUs spelled otherwise than sent ("AB-7" for "ab-7"); b2bctl matched each to the item whose SKU is the same but for case and leading zeros (where two are, by its place in an answer in the order sent).',
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

  it('a status line "400 Bad Request" is read as 400 (rejected); a status object is quoted as its JSON', async () => {
    const results = batch.map((sku) =>
      sku === 'B2'
        ? { sku, status: '400 Bad Request', message: 'm' }
        : sku === 'C3'
          ? { sku, status: { code: 'PENDING' } }
          : { sku, status: 'OK' },
    );
    const { proxy, test } = await batchAnsweredWith(200, { results });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: [
        'A1 applied 200 ',
        'B2 rejected 200 m',
        'C3 accepted 200 the platform answered "{"code":"PENDING"}" for this item',
        'D4 applied 200 ',
        'E5 applied 200 ',
      ],
      errors: ['B2,20,6.25,3,m'],
    });
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
  });

  it('a 422 naming the refused item: that item failed with the platform\u2019s words for it, the others with the line naming it', async () => {
    const results = batch.map((sku, index) =>
      sku === 'B2'
        ? { index, sku, status: 'ERROR', message: 'Property [price] with value [6.25] does not pass validation' }
        : { index, sku, status: 'OK' },
    );
    const { proxy, test } = await batchAnsweredWith(422, { status: 'UNPROCESSABLE_ENTITY', results });
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    const own = `PUT ${proxy.url}/v1/stock/batch failed with HTTP 422: Property [price] with value [6.25] does not pass validation`;
    // Not the general line alone: the others failed because the batch did, over B2.
    const general = `PUT ${proxy.url}/v1/stock/batch failed with HTTP 422: the platform refused the batch, naming B2 (not this item)`;
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) => `${sku} failed 422 ${sku === 'B2' ? own : general}`),
      errors: batch.map(
        (sku, place) => `${sku},${(place + 1) * 10},${place + 5}.25,${place + 2},${sku === 'B2' ? own : general}`,
      ),
    });
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
  });

  it('a 422 whose refusal names a SKU not sent: every item failed, no warning calls them "unknown"', async () => {
    const results = [{ sku: 'ZZZ', status: 'ERROR', message: 'no such product' }];
    const { proxy, test } = await batchAnsweredWith(422, { results });
    const { folder, options } = stockFile(['A1', 'B2']);
    expect(await test.run(push, options)).toBe(1);
    const general = `PUT ${proxy.url}/v1/stock/batch failed with HTTP 422`;
    expect(runRecord(folder).rows).toEqual([`A1 failed 422 ${general}`, `B2 failed 422 ${general}`]);
    expect(warnings(test.stderr())).toEqual([
      'warning: the stock batch route answered a result for SKU "ZZZ", which is not in the batch sent: {"sku":"ZZZ","status":"ERROR","message":"no such product"}; b2bctl matched it to no item.',
    ]);
  });
});

/** The warning of a refusal b2bctl cannot tie to an item, and the report's message for each item it may be about. */
function unmatchedRefusalWarning(shown: string): string {
  return `warning: the stock batch route refused an item b2bctl cannot match to the items sent: ${shown}; every item of that batch the answer does not show applied or refused is reported "unknown" (the errors file holds them to send again), never "accepted".`;
}
function unmatchedRefusalMessage(shown: string): string {
  return `the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${shown}`;
}

describe('stock push: an answer showing a refusal it does not tie to an item leaves the items it does not show applied unknown', () => {
  const ok = { status: 'OK' };
  const refused = { status: 'REJECTED', message: 'x' };
  const priceBelowCost = { status: 'REJECTED', message: 'batch refused: price below cost' };
  const itemised = ['A1', 'C3', 'D4', 'E5'].map((sku) => ({ sku, status: 'OK' }));

  it.each([
    ['4 results naming no item, the second refusing', 200, [ok, refused, ok, ok], JSON.stringify(refused), ''],
    ['6 results naming no item, one refusing', 200, [ok, refused, ok, ok, ok, ok], JSON.stringify(refused), ''],
    ['a single result refusing', 200, { results: [priceBelowCost] }, JSON.stringify(priceBelowCost), ''],
    ['a batch-level REJECTED', 200, priceBelowCost, JSON.stringify(priceBelowCost), ''],
    ['a 207 with counts only', 207, { processed: 4, failed: 1 }, '{"processed":4,"failed":1}', ''],
    ['a 207 with counts accepted/rejected', 207, { accepted: 4, rejected: 1 }, '{"accepted":4,"rejected":1}', ''],
    // An errors list naming B2 by its SKU refuses B2 (partial-answers.test.ts); one naming no SKU is a sign.
    [
      'an errors list naming no SKU beside results naming the others',
      200,
      { results: itemised, errors: [{ message: 'produto B2 inativo' }] },
      '{"errors":[{"message":"produto B2 inativo"}]}',
      'B2',
    ],
  ])('%s: exit 1, the refusal quoted in one warning and the rows', async (_name, status, body, shown, onlyUnknown) => {
    const { sandbox, proxy, test } = await batchAnsweredWith(status, body);
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    const unknown = batch.filter((sku) => onlyUnknown === '' || sku === onlyUnknown);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) =>
        unknown.includes(sku)
          ? `${sku} unknown ${status} ${unmatchedRefusalMessage(shown)}`
          : `${sku} applied ${status} `,
      ),
      errors: batch.flatMap((sku, place) =>
        unknown.includes(sku)
          ? [`${sku},${(place + 1) * 10},${place + 5}.25,${place + 2},${unmatchedRefusalMessage(shown)}`]
          : [],
      ),
    });
    expect(warnings(test.stderr())).toEqual([unmatchedRefusalWarning(shown)]);
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a batch-level FAILED beside results showing every item OK: every item unknown, exit 1 (they stood applied, exit 0)', async () => {
    const body = { status: 'FAILED', results: batch.map((sku) => ({ sku, status: 'OK' })) };
    const { test } = await batchAnsweredWith(200, body);
    const { folder, options } = stockFile(batch);
    expect(await test.run(push, options)).toBe(1);
    const message = 'the answer shows this item applied, but refuses the batch beside it: {"status":"FAILED"}';
    expect(runRecord(folder).rows).toEqual(batch.map((sku) => `${sku} unknown 200 ${message}`));
    expect(warnings(test.stderr())).toEqual([
      'warning: the stock batch route showed every item of a batch applied, but refused the batch beside them: {"status":"FAILED"}; b2bctl reports those items "unknown" (the errors file holds them to send again).',
    ]);
  });
});

/** A logged-in run whose every batch request is answered `status` with `answer(the SKUs it carried)` by a proxy. */
async function batchAnsweredFor(status: number, answer: (skus: string[]) => unknown) {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, (request) => {
    if (request.method !== 'PUT' || pathOf(request) !== '/v1/stock/batch') return undefined;
    const items = (JSON.parse(request.body) as { items: { sku: string }[] }).items;
    return { answer: status, body: answer(items.map((item) => item.sku)) };
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
  return { sandbox, proxy, test };
}

/**
 * Results naming neither SKU nor index, one per item, refusing each `BAD` SKU with a message quoting it: in the order
 * sent, or reversed (a queue worker finishing in another order).
 */
function resultsByPlace(
  skus: readonly string[],
  order: 'sent' | 'reversed',
  message = (sku: string) => `SKU ${sku} not found`,
) {
  const results = skus.map((sku) =>
    sku.startsWith('BAD') ? { status: 'REJECTED', message: message(sku) } : { status: 'APPLIED', message: null },
  );
  return { results: order === 'sent' ? results : results.toReversed() };
}

/** The report's message for an item matched by place in a batch whose result at `placeSku`'s place quotes `quoted`. */
function misplacedMessage(placeSku: string, quoted: string): string {
  return `the answer's results name neither SKU nor index, and the one at the place of "${placeSku}" quotes "${quoted}", another item sent: {"status":"REJECTED","message":"SKU ${quoted} not found"}; their order is not to be trusted, so which is this item's is not known`;
}

describe('stock push: results matched by their place alone whose words quote another item\u2019s SKU', () => {
  it('reversed, "SKU BAD-1 not found" at GOOD-3\u2019s place: every item of the batch unknown, in the errors file, warned once a run, exit 1', async () => {
    // BAD-1 was reported applied and GOOD-3 rejected, exit 1 with no warning (a fresh user test).
    const skus = ['BAD-1', 'GOOD-2', 'GOOD-3', 'BAD-4', 'GOOD-5', 'GOOD-6'];
    const { sandbox, proxy, test } = await batchAnsweredFor(200, (sent) => resultsByPlace(sent, 'reversed'));
    const { folder, options } = stockFile(skus);
    expect(await test.run(push, { ...options, batchSize: 3, concurrency: 1 })).toBe(1);
    const first = misplacedMessage('GOOD-3', 'BAD-1');
    const second = misplacedMessage('GOOD-6', 'BAD-4');
    expect(runRecord(folder)).toEqual({
      rows: skus.map((sku, place) => `${sku} unknown 200 ${place < 3 ? first : second}`),
      errors: skus.map(
        (sku, place) => `${sku},${(place + 1) * 10},${place + 5}.25,${place + 2},${place < 3 ? first : second}`,
      ),
    });
    expect(warnings(test.stderr())).toEqual([
      'warning: the stock batch route answered per-item results that name neither SKU nor index, matched by their place, but the one at the place of "GOOD-3" quotes "BAD-1", another item of the batch: {"status":"REJECTED","message":"SKU BAD-1 not found"}; b2bctl does not trust their order: each item of such a batch matched by place is reported "unknown" (the errors file holds them to send again; stock values are absolute, so sending them again is harmless).',
    ]);
    expect(test.stderr()).toContain('stock push: 6 unknown; 2 requests,');
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(2);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it.each([
    ['its own SKU', (sku: string) => `SKU ${sku} not found`],
    ['no SKU', () => 'SKU not found'],
    ['a longer code holding another SKU', (sku: string) => `SKU ${sku} not found; kit GOOD-2-B neither`],
    ['a SKU of 3 digits or less, as a quantity', () => 'quantity 10 above the limit'],
  ])('in the order sent, a refusal quoting %s: matched by place as before, no warning, exit 1', async (_name, said) => {
    const skus = ['BAD-1', 'GOOD-2', '10'];
    const { test } = await batchAnsweredFor(200, (sent) => resultsByPlace(sent, 'sent', said));
    const { folder, options } = stockFile(skus);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: ['BAD-1 rejected 200 ' + said('BAD-1'), 'GOOD-2 applied 200 ', '10 applied 200 '],
      errors: [`BAD-1,10,5.25,2,${said('BAD-1')}`],
    });
    expect(warnings(test.stderr())).toEqual([]);
  });

  it('a 422 with such results: every item failed with the general line, never another item\u2019s words, no warning', async () => {
    const skus = ['BAD-1', 'GOOD-2', 'GOOD-3'];
    const { proxy, test } = await batchAnsweredFor(422, (sent) => resultsByPlace(sent, 'reversed'));
    const { folder, options } = stockFile(skus);
    expect(await test.run(push, options)).toBe(1);
    const general = `PUT ${proxy.url}/v1/stock/batch failed with HTTP 422`;
    expect(runRecord(folder).rows).toEqual(skus.map((sku) => `${sku} failed 422 ${general}`));
    expect(warnings(test.stderr())).toEqual([]);
  });
});

/** The answer of the user test: every result `OK` by place or by index, the first item's refusal put at the last. */
function firstRefusedAtLast(skus: readonly string[], indexed: boolean) {
  const results = skus.map((_sku, place) =>
    place === skus.length - 1
      ? { status: 'REJECTED', message: `SKU ${skus[0] as string} not found` }
      : { status: 'OK', message: 'ok' },
  );
  return { results: results.map((result, place) => (indexed ? { index: place, ...result } : result)) };
}

describe('stock push: two-character SKUs, and results matched by index alone, quoting another item\u2019s SKU', () => {
  it('X1, X2, X3 answered by place, "SKU X1 not found" at X3\u2019s place: every item unknown, warned, exit 1', async () => {
    // X1 was reported applied and X3 rejected, fed back, with no warning (a fresh user test).
    const skus = ['X1', 'X2', 'X3'];
    const { test } = await batchAnsweredFor(200, (sent) => firstRefusedAtLast(sent, false));
    const { folder, options } = stockFile(skus);
    expect(await test.run(push, options)).toBe(1);
    const result = '{"status":"REJECTED","message":"SKU X1 not found"}';
    const message = `the answer's results name neither SKU nor index, and the one at the place of "X3" quotes "X1", another item sent: ${result}; their order is not to be trusted, so which is this item's is not known`;
    expect(runRecord(folder)).toEqual({
      rows: skus.map((sku) => `${sku} unknown 200 ${message}`),
      errors: skus.map((sku, place) => `${sku},${(place + 1) * 10},${place + 5}.25,${place + 2},${message}`),
    });
    expect(warnings(test.stderr())).toHaveLength(1);
    expect(warnings(test.stderr())[0]).toContain('the one at the place of "X3" quotes "X1", another item of the batch');
  });

  it('12, 5, 7 answered by place, "SKU 12 not found" at 7\u2019s place: every item unknown, warned, exit 1', async () => {
    // A SKU of 1 to 3 digits was never looked for: 12 was reported applied and 7 rejected (a maintainer's round).
    const skus = ['12', '5', '7'];
    const { test } = await batchAnsweredFor(200, (sent) => firstRefusedAtLast(sent, false));
    const { folder, options } = stockFile(skus);
    expect(await test.run(push, options)).toBe(1);
    const result = '{"status":"REJECTED","message":"SKU 12 not found"}';
    const message = `the answer's results name neither SKU nor index, and the one at the place of "7" quotes "12", another item sent: ${result}; their order is not to be trusted, so which is this item's is not known`;
    expect(runRecord(folder)).toEqual({
      rows: skus.map((sku) => `${sku} unknown 200 ${message}`),
      errors: skus.map((sku, place) => `${sku},${(place + 1) * 10},${place + 5}.25,${place + 2},${message}`),
    });
    expect(warnings(test.stderr())).toHaveLength(1);
    expect(warnings(test.stderr())[0]).toContain('the one at the place of "7" quotes "12", another item of the batch');
  });

  it('results by index 0..2, "SKU BAD-1 not found" at index 2: every item unknown, one warning, exit 1', async () => {
    // BAD-1 was reported applied and GOOD-3 rejected, with no warning (a fresh user test).
    const skus = ['BAD-1', 'GOOD-2', 'GOOD-3'];
    const { sandbox, proxy, test } = await batchAnsweredFor(200, (sent) => firstRefusedAtLast(sent, true));
    const { folder, options } = stockFile(skus);
    expect(await test.run(push, options)).toBe(1);
    const result = '{"index":2,"status":"REJECTED","message":"SKU BAD-1 not found"}';
    const message = `the answer's results name their items by index alone, and the one at the index of "GOOD-3" quotes "BAD-1", another item sent: ${result}; their numbering is not to be trusted, so which is this item's is not known`;
    expect(runRecord(folder)).toEqual({
      rows: skus.map((sku) => `${sku} unknown 200 ${message}`),
      errors: skus.map((sku, place) => `${sku},${(place + 1) * 10},${place + 5}.25,${place + 2},${message}`),
    });
    expect(warnings(test.stderr())).toEqual([
      `warning: the stock batch route answered per-item results that name their items by index alone, but the one at the index of "GOOD-3" quotes "BAD-1", another item of the batch: ${result}; b2bctl does not trust their numbering: each item of such a batch matched by index is reported "unknown" (the errors file holds them to send again; stock values are absolute, so sending them again is harmless).`,
    ]);
    expect(test.stderr()).toContain('stock push: 3 unknown; 1 request,');
    expect(proxy.requests.filter((request) => pathOf(request) === '/v1/stock/batch')).toHaveLength(1);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('stock push: a result at an item\u2019s place, or naming it, that says nothing b2bctl reads', () => {
  it.each([
    ['null', null],
    ['{}', {}],
    ['its SKU without a status', { sku: 'A1' }],
    [
      'a null status beside the platform\u2019s words',
      { sku: 'A1', status: null, message: 'Estoque n\u00e3o atualizado' },
    ],
  ])(
    '%s beside items shown applied: that item unknown quoting it, in the errors file, warned, exit 1',
    async (_name, first) => {
      // It was reported "accepted", "the answer did not itemise this item", exit 0, no errors file (a fresh user test).
      const skus = ['A1', 'A2', 'A3'];
      const answer = (sent: string[]) => ({
        results: [first, ...sent.slice(1).map((sku) => ({ sku, status: 'APPLIED' }))],
      });
      const { test } = await batchAnsweredFor(200, answer);
      const { folder, options } = stockFile(skus);
      expect(await test.run(push, options)).toBe(1);
      const result = JSON.stringify(first);
      const message = `the answer's result for this item says nothing b2bctl reads as applied, refused or pending: ${result}`;
      expect(runRecord(folder)).toEqual({
        rows: [`A1 unknown 200 ${message}`, 'A2 applied 200 ', 'A3 applied 200 '],
        errors: [`A1,10,5.25,2,${message}`],
      });
      expect(warnings(test.stderr())).toEqual([
        `warning: the stock batch route answered a result for SKU "A1" that says nothing b2bctl reads as applied, refused or pending: ${result}; b2bctl reports such an item "unknown" (the errors file holds it to send again; stock values are absolute, so sending it again is harmless). If the results hold their status under another field, set answers.stockBatch.status to it.`,
      ]);
      expect(test.stderr()).toContain('stock push: 2 applied, 1 unknown;');
    },
  );
});
