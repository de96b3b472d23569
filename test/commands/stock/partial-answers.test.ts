/**
 * `stock push`: 2xx answers that speak of some items only. Results naming the items applied and leaving others out
 * ended the night "accepted", exit 0 ("the answer did not itemise this item"), though the platform may have dropped
 * them; a list of the SKUs not taken (`{"processed": 5, "notFound": ["A2"]}`) made every item of the batch
 * `unknown`, though it said which (a fresh user test). Items left out beside others shown applied are `unknown`,
 * in the errors file, warned of once a run; a list of SKUs sent refuses those items, by its name.
 */
import { describe, expect, it } from 'vitest';
import { run as push } from '../../../src/commands/stock/push.js';
import { runRecord, stockFile, useAnsweredStockRoute } from '../../support/answered-stock-route.js';
import { onlyFile, readErrorsCsv, warningLines } from '../../support/run-files.js';
import { requestCounts } from '../../support/sandbox.js';

const routeAnsweredWith = useAnsweredStockRoute();

const batch = ['A1', 'A2', 'A3', 'A4', 'A5'];

const leftOut =
  'the answer showed other items of the batch applied and said nothing of this one: it may have dropped it';
const notItemised = 'the answer did not itemise this item';

describe('stock push --route batch: results naming some items applied and leaving others out', () => {
  it.each([
    ['a results list', (skus: string[]) => ({ results: skus.filter(applied).map((sku) => ({ sku, status: 'OK' })) })],
    ['an object keyed by SKU', (skus: string[]) => Object.fromEntries(skus.filter(applied).map((sku) => [sku, 'OK']))],
  ])('%s: the items left out unknown, in the errors file, warned of once a run, exit 1', async (_name, answer) => {
    // Two batches of five: the warning is given once for the run.
    const skus = [...batch, 'B1', 'B2', 'B3', 'B4', 'B5'];
    const { sandbox, test, sent } = await routeAnsweredWith('batch', 200, answer);
    const { folder, options } = stockFile('batch', skus);
    expect(await test.run(push, { ...options, batchSize: 5, concurrency: 1 })).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: skus.map((sku) => (applied(sku) ? `${sku} applied  ` : `${sku} unknown  ${leftOut}`)),
      errors: skus.filter((sku) => !applied(sku)),
    });
    expect(warningLines(test.stderr())).toEqual([
      'warning: the stock batch route answered per-item results that show items applied and say nothing of others ("A2", "A4", "A5" of a batch of 5 items); b2bctl reports each item such an answer leaves out "unknown", since the platform may have dropped it (the errors file holds them to send again; stock values are absolute, so sending them again is harmless).',
    ]);
    expect(test.stderr()).toContain('stock push: 4 applied, 6 unknown; 2 requests,');
    expect(sent()).toBe(2);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a list naming refusals only (errors-style): the others not refused, "accepted" as before, exit 1', async () => {
    const { test } = await routeAnsweredWith('batch', 200, () => ({
      results: [{ sku: 'A2', status: 'REJECTED', message: 'Produto não encontrado' }],
    }));
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) =>
        sku === 'A2' ? 'A2 rejected  Produto não encontrado' : `${sku} accepted  ${notItemised}`,
      ),
      errors: ['A2'],
    });
    expect(warningLines(test.stderr()).join('\n')).not.toContain('say nothing of others');
  });

  it('results naming every item: nothing left out, nothing unknown, exit 0', async () => {
    const { test } = await routeAnsweredWith('batch', 200, (skus) => ({
      results: skus.map((sku) => ({ sku, status: 'OK' })),
    }));
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(0);
    expect(runRecord(folder)).toEqual({ rows: batch.map((sku) => `${sku} applied  `), errors: [] });
    expect(warningLines(test.stderr())).toEqual([]);
  });
});

/** The items the answers of the first describe show applied: the others of their batch are left out. */
function applied(sku: string): boolean {
  return ['A1', 'A3', 'B2', 'B4'].includes(sku);
}

describe('stock push: a list of the SKUs not taken', () => {
  it.each([
    ['notFound beside a count', { processed: 5, notFound: ['A2', 'A4'] }, 'notFound'],
    ['naoEncontrados', { processados: 5, naoEncontrados: ['A2', 'A4'] }, 'naoEncontrados'],
    ['invalidSkus beside a message', { message: 'Estoque atualizado', invalidSkus: ['A2', 'A4'] }, 'invalidSkus'],
    ['ignored', { ignored: ['A4', 'A2'] }, 'ignored'],
  ])(
    '%s: those items rejected, quoting the list\u2019s name; the others accepted; exit 1',
    async (_name, body, field) => {
      const { sandbox, test, sent } = await routeAnsweredWith('batch', 200, () => body);
      const { folder, options } = stockFile('batch', batch);
      expect(await test.run(push, options)).toBe(1);
      const reason = `the platform listed this SKU under ${field}`;
      expect(runRecord(folder)).toEqual({
        rows: batch.map((sku) =>
          ['A2', 'A4'].includes(sku) ? `${sku} rejected  ${reason}` : `${sku} accepted  ${notItemised}`,
        ),
        errors: ['A2', 'A4'],
      });
      const errors = readErrorsCsv(onlyFile(folder, 'stock.errors-')).rows;
      expect(errors.map((cells) => `${cells[0]} ${cells.at(-1)}`)).toEqual([`A2 ${reason}`, `A4 ${reason}`]);
      expect(warningLines(test.stderr()).join('\n')).not.toContain('cannot match');
      expect(test.stderr()).toContain('stock push: 3 accepted, 2 rejected; 1 request,');
      expect(sent()).toBe(1);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it('beside results showing the others applied: those applied, the listed rejected, no warning, exit 1', async () => {
    const notFound = ['A2', 'A4'];
    const { test } = await routeAnsweredWith('batch', 200, (skus) => ({
      results: skus.filter((sku) => !notFound.includes(sku)).map((sku) => ({ sku, status: 'OK' })),
      notFound,
    }));
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) =>
        notFound.includes(sku) ? `${sku} rejected  the platform listed this SKU under notFound` : `${sku} applied  `,
      ),
      errors: ['A2', 'A4'],
    });
    expect(warningLines(test.stderr())).toEqual([]);
  });

  it.each([
    ['an entry naming no SKU sent', { processed: 5, notFound: ['A2', 'ZZ9'] }],
    ['a count without names', { processed: 5, notFoundCount: 2 }],
  ])('%s: every item unknown, quoting the answer, warned, exit 1 (as before)', async (_name, body) => {
    const { test } = await routeAnsweredWith('batch', 200, () => body);
    const { folder, options } = stockFile('batch', batch);
    expect(await test.run(push, options)).toBe(1);
    const shown = JSON.stringify(body);
    const message = `the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${shown}`;
    expect(runRecord(folder)).toEqual({ rows: batch.map((sku) => `${sku} unknown  ${message}`), errors: batch });
    expect(warningLines(test.stderr())).toEqual([
      `warning: the stock batch route refused an item b2bctl cannot match to the items sent: ${shown}; every item of that batch the answer does not show applied or refused is reported "unknown" (the errors file holds them to send again), never "accepted".`,
    ]);
  });

  it('in the queue route\u2019s 2xx: those items rejected, the others queued, exit 1', async () => {
    const { test } = await routeAnsweredWith('queue', 200, () => ({
      batchId: 'b1',
      status: 'QUEUED',
      notFound: ['A2'],
    }));
    const { folder, options } = stockFile('queue', batch);
    expect(await test.run(push, options)).toBe(1);
    expect(runRecord(folder)).toEqual({
      rows: batch.map((sku) =>
        sku === 'A2' ? 'A2 rejected b1 the platform listed this SKU under notFound' : `${sku} queued b1 `,
      ),
      errors: ['A2'],
    });
    expect(warningLines(test.stderr())).toEqual([]);
  });
});
