/**
 * `stock push`: answers that say per item what happened, but in shapes or words b2bctl did not read, each found by a
 * fresh user test: results naming their SKU (`codigo`) with their status under `situacao`, taken as no results and
 * every item `accepted`; counts written as text (`"falhas": "0"`) read as a refusal; lists and counts of the items
 * applied that leave one out (`{"updated": [4 of 5]}`, `{"processados": 4, "recusados": 1}`) ending `accepted`;
 * a result keyed by SKU that is `null` making b2bctl forget the whole answer; and a `422` whose `errors` name one
 * SKU giving that SKU's words to every item of the batch.
 */
import { describe, expect, it } from 'vitest';
import { run as push } from '../../../src/commands/stock/push.js';
import {
  stockFile as batchStockFile,
  runRecord as recordOfRun,
  type StockRoute,
  useAnsweredStockRoute,
} from '../../support/answered-stock-route.js';
import { requestCounts } from '../../support/sandbox.js';

const routeAnsweredWith = useAnsweredStockRoute();

const batch = ['A1', 'A2', 'A3', 'A4', 'A5'];

/** A stock CSV of the batch's SKUs, and the options of a push of it through the route. */
const stockFile = (route: StockRoute) => batchStockFile(route, batch);

/** The report as `key outcome status message` lines, and the errors file's SKUs. */
const runRecord = (folder: string) => recordOfRun(folder, 'status');

function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('warning:'));
}

const unread = (result: unknown) =>
  `the answer's result for this item says nothing b2bctl reads as applied, refused or pending: ${JSON.stringify(result)}`;
const leftOut =
  'the answer showed other items of the batch applied and said nothing of this one: it may have dropped it';

describe('stock push --route batch: results naming their SKU, their status under a key b2bctl did not read', () => {
  it('"codigo" and "situacao": ERRO refuses its item with its "mensagem", ATUALIZADO applies, exit 1', async () => {
    // Every item was "accepted" ("the answer did not itemise this item"), exit 0.
    const { test, sent } = await routeAnsweredWith('batch', 200, (skus) => ({
      resultados: skus.map((codigo) =>
        codigo === 'A2'
          ? { codigo, situacao: 'ERRO', mensagem: 'Produto inexistente' }
          : { codigo, situacao: 'ATUALIZADO' },
      ),
    }));
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) => (sku === 'A2' ? 'A2 rejected 200 Produto inexistente' : `${sku} applied 200 `)),
      errors: ['A2'],
    });
    expect(warnings(test.stderr())).toEqual([]);
    expect(sent()).toBe(1);
  });

  it('"situação" with its accent and PROCESSADO / OK words: applied, exit 0', async () => {
    const { test } = await routeAnsweredWith('batch', 200, (skus) =>
      skus.map((sku, place) => ({ sku, situação: place % 2 === 0 ? 'PROCESSADO' : 'OK' })),
    );
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(0);
    expect(runRecord(folder)).toEqual({ rows: batch.map((sku) => `${sku} applied 200 `), errors: [] });
  });

  it.each([
    [
      'a status word under a key b2bctl does not read',
      (sku: string): Record<string, string> => ({ sku, estado: sku === 'A2' ? 'ERRO' : 'OK' }),
    ],
    [
      'only words',
      (sku: string): Record<string, string> => ({ sku, mensagem: sku === 'A2' ? 'Produto inexistente' : 'ok' }),
    ],
  ])(
    'every result %s: each item unknown quoting its result, one warning naming the setting, exit 1',
    async (_name, result) => {
      const { test } = await routeAnsweredWith('batch', 200, (skus) => ({ results: skus.map(result) }));
      const { folder, options } = stockFile('batch');
      expect(await test.run(push, options)).toBe(1);
      expect(runRecord(folder)).toEqual({
        rows: batch.map((sku) => `${sku} unknown 200 ${unread(result(sku))}`),
        errors: batch,
      });
      expect(warnings(test.stderr())).toEqual([
        `warning: the stock batch route answered a result for SKU "A1" that says nothing b2bctl reads as applied, refused or pending: ${JSON.stringify(result('A1'))}; b2bctl reports such an item "unknown" (the errors file holds it to send again; stock values are absolute, so sending it again is harmless). If the results hold their status under another field, set answers.stockBatch.status to it.`,
      ]);
      expect(test.stderr()).toContain('stock push: 5 unknown; 1 request,');
    },
  );
});

describe('stock push --route batch: results that echo the items sent and say nothing of them', () => {
  it.each([
    ['the SKU alone', (sku: string) => ({ sku })],
    ['the item sent back', (sku: string) => ({ sku, quantity: 5, warehouse: 'CD-SP' })],
    ['codes under a key b2bctl does not read', (sku: string) => ({ sku, estado: sku === 'A2' ? 'X9' : 'Y1' })],
  ])(
    "every result %s: the 2xx is the platform's, every item accepted with one warning naming the settings, exit 0",
    async (_name, result) => {
      const { test } = await routeAnsweredWith('batch', 200, (skus) => ({ results: skus.map(result) }));
      const { folder, options } = stockFile('batch');
      expect(await test.run(push, options)).toBe(0);
      expect(runRecord(folder)).toEqual({
        rows: batch.map((sku) => `${sku} accepted 200 the answer did not itemise this item`),
        errors: [],
      });
      expect(warnings(test.stderr()).join('\n')).toContain(
        'without a per-item result b2bctl recognises; those items are reported "accepted". If the answer holds a list of per-item results, set answers.stockBatch.results (and answers.stockBatch.status) to read them',
      );
    },
  );
});

describe('stock push --route batch: counts and lists of the items applied or refused, under any name', () => {
  it('counts written as text, "falhas": "0": no refusal, every item accepted, exit 0', async () => {
    // Read as text, "0" was a refusal: every item unknown, exit 1, though the platform stored them all.
    const { test } = await routeAnsweredWith('batch', 200, (skus) => ({
      total: String(skus.length),
      sucesso: String(skus.length),
      falhas: '0',
    }));
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(0);
    expect(runRecord(folder).errors).toEqual([]);
    expect(runRecord(folder).rows.every((row) => / accepted 200 the answer did not itemise this item/.test(row))).toBe(
      true,
    );
    expect(warnings(test.stderr()).join('\n')).not.toContain('refused an item');
  });

  it('"falhas": "1" written as text is still a refusal: every item unknown, exit 1', async () => {
    const { test } = await routeAnsweredWith('batch', 200, () => ({ total: '5', sucesso: '4', falhas: '1' }));
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder).errors).toEqual(batch);
  });

  it.each([
    ['"updated"', 'updated'],
    ['"atualizados"', 'atualizados'],
  ])('a list of the SKUs applied under %s leaving A2 out: the others applied, A2 unknown, exit 1', async (_n, key) => {
    const { test } = await routeAnsweredWith('batch', 200, (skus) => ({ [key]: skus.filter((sku) => sku !== 'A2') }));
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) => (sku === 'A2' ? `A2 unknown 200 ${leftOut}` : `${sku} applied 200 `)),
      errors: ['A2'],
    });
  });

  it('"atualizados" beside "ignorados": ["A2"]: A2 rejected by that name, the others applied, exit 1', async () => {
    const { test } = await routeAnsweredWith('batch', 200, (skus) => ({
      atualizados: skus.filter((sku) => sku !== 'A2'),
      ignorados: ['A2'],
    }));
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) =>
        sku === 'A2' ? 'A2 rejected 200 the platform listed this SKU under ignorados' : `${sku} applied 200 `,
      ),
      errors: ['A2'],
    });
  });

  it.each([
    [{ atualizados: 4, naoAtualizados: 1 }, '{"atualizados":4}'],
    [{ total: 5, ok: 4, nok: 1 }, '{"ok":4}'],
    [{ total: '5', ok: '4' }, '{"ok":"4"}'],
  ])('%j: fewer applied than sent, which not said: every item unknown, warned, exit 1', async (body, shown) => {
    const { test } = await routeAnsweredWith('batch', 200, () => body);
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    const message = `the answer counts 4 of the 5 items sent applied (${shown}) without saying which: this one may not be`;
    expect(runRecord(folder)).toEqual({ rows: batch.map((sku) => `${sku} unknown 200 ${message}`), errors: batch });
    expect(warnings(test.stderr())).toEqual([
      `warning: the stock batch route counted fewer items applied than it was sent and not refused (${shown} in a batch of 5 items) without saying which; b2bctl reports each item the answer does not itemise "unknown" (the errors file holds them to send again; stock values are absolute, so sending them again is harmless).`,
    ]);
  });

  it('"processados": 4, "recusados": 1: a count of refusals under that name, every item unknown, exit 1', async () => {
    const { test } = await routeAnsweredWith('batch', 200, () => ({ processados: 4, recusados: 1 }));
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder).errors).toEqual(batch);
    expect(runRecord(folder).rows.every((row) => row.includes(' unknown 200 '))).toBe(true);
  });

  it('"processados": 5 covering the batch: every item accepted, exit 0', async () => {
    const { test } = await routeAnsweredWith('batch', 200, () => ({ processados: 5 }));
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(0);
    expect(runRecord(folder).errors).toEqual([]);
  });

  it('an "errors" list naming A2 by SKU beside results showing the others applied: A2 rejected with its words', async () => {
    const { test } = await routeAnsweredWith('batch', 200, (skus) => ({
      results: skus.filter((sku) => sku !== 'A2').map((sku) => ({ sku, status: 'OK' })),
      errors: [{ sku: 'A2', message: 'inativo' }],
    }));
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) => (sku === 'A2' ? 'A2 rejected 200 inativo' : `${sku} applied 200 `)),
      errors: ['A2'],
    });
  });
});

describe('stock push --route queue: SKUs listed under "recusados"', () => {
  it('are rejected, the others queued, exit 1', async () => {
    // A2 was "queued", exit 0.
    const { test } = await routeAnsweredWith('queue', 202, () => ({ protocolo: 'x', recusados: ['A2'] }));
    const { folder, options } = stockFile('queue');
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) =>
        sku === 'A2' ? 'A2 rejected 202 the platform listed this SKU under recusados' : `${sku} queued 202 `,
      ),
      errors: ['A2'],
    });
  });
});

describe('stock push --route batch: results keyed by SKU, one of them null, [] or 0', () => {
  it.each([
    ['under "results", A1 null', (skus: string[]) => ({ results: keyed(skus, null, { status: 'APPLIED' }) })],
    ['bare, A1 null', (skus: string[]) => keyed(skus, null, 'OK')],
    ['bare, A1 []', (skus: string[]) => keyed(skus, [], 'OK')],
    ['bare, A1 0', (skus: string[]) => keyed(skus, 0, 'OK')],
  ])('%s: A1 unknown quoting it, the others applied, exit 1', async (_name, answer) => {
    // Every item, the applied ones too, was "accepted" ("the answer did not itemise this item"), exit 0.
    const { test } = await routeAnsweredWith('batch', 200, answer);
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    const first = (answer(batch) as { results?: Record<string, unknown> }).results ?? answer(batch);
    const shown = { A1: (first as Record<string, unknown>).A1 };
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) => (sku === 'A1' ? `A1 unknown 200 ${unread(shown)}` : `${sku} applied 200 `)),
      errors: ['A1'],
    });
    expect(test.stderr()).toContain('stock push: 4 applied, 1 unknown; 1 request,');
  });
});

/** An object keyed by the SKUs sent: the first one's value `first`, every other's `rest`. */
function keyed(skus: readonly string[], first: unknown, rest: unknown): Record<string, unknown> {
  return Object.fromEntries(skus.map((sku, place) => [sku, place === 0 ? first : rest]));
}

/** A report row's outcome, status and message for an item of a batch refused with a 422. */
function failed(message: string): string {
  return `failed 422 PUT __URL__/v1/stock/batch failed with HTTP 422: ${message}`;
}

describe('stock push --route batch: a 422 whose body names the one SKU it refuses', () => {
  const others = 'the platform refused the batch, naming A2 (not this item)';

  it.each([
    ['an "errors" list', { errors: [{ sku: 'A2', message: 'Product not found' }] }, ''],
    [
      'an "errors" list beside the batch\u2019s own message',
      { message: 'Validation failed', errors: [{ sku: 'A2', message: 'Product not found' }] },
      'Validation failed; ',
    ],
    ['results', { results: [{ sku: 'A2', status: 'REJECTED', message: 'Product not found' }] }, ''],
    [
      'results showing A1 checked',
      {
        results: [
          { sku: 'A1', status: 'OK' },
          { sku: 'A2', status: 'REJECTED', message: 'Product not found' },
        ],
      },
      '',
    ],
  ])('%s: A2 fails with its words, the others with the batch\u2019s line naming A2, exit 1', async (_n, body, lead) => {
    // Every item said "Product not found", and the errors file sent an operator looking for four products that exist.
    const { sandbox, test, url, sent } = await routeAnsweredWith('batch', 422, () => body);
    const { folder, options } = stockFile('batch');
    expect(await test.run(push, options)).toBe(1);
    const { rows, errors } = runRecord(folder);
    expect({ rows: rows.map((row) => row.replace(url, '__URL__')), errors }).toEqual({
      rows: batch.map((sku) => `${sku} ${sku === 'A2' ? failed('Product not found') : failed(`${lead}${others}`)}`),
      errors: batch,
    });
    expect(sent()).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
