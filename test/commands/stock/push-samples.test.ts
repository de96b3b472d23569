/**
 * `stock validate` and `stock push` of the samples through each route, each command line run in process in
 * a folder holding the input (moved from test/e2e/stock/push.test.ts), against the sandbox, then the report,
 * stderr, the request counts and the sandbox's stock are read back.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStockSchema } from '../../../src/domain/stock.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { maskClock, onlyFile, readReport } from '../../support/run-files.js';
import { fetchToken, requestCounts, seedDirectory, startTestSandbox } from '../../support/sandbox.js';
import {
  batchRoute,
  offSaleSkus,
  queuedBatch,
  queueDrained,
  queueRoute,
  resetSandboxStock,
  sampleCsvEntries,
  sampleJsonEntries,
  sampleJsonItems,
  stockEntries,
  stockLine,
  stockSummary,
} from '../../support/stock.js';
import { ndjsonOf } from '../../support/ndjson.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** A test's own config folder and working folder, with the token in the environment (no login, no token request). */
function workspace(...samples: string[]) {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  copySamples(dir, ...samples);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  const run = (args: string[], stdin?: string | Buffer) => runCommandLine(args, { configDir, cwd: dir, env, stdin });
  return { configDir, dir, run };
}

const csvLines = sampleCsvEntries().length;
/** The JSON line where each object of samples/stock.json opens (2-space pretty print, one field a line). */
const jsonObjectLines = (() => {
  const lines: number[] = [];
  readFileSync(join(seedDirectory, 'stock.json'), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text === '  {') lines.push(index + 1);
    });
  return lines;
})();

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('stock validate', () => {
  it('passes samples/stock.csv (pt-BR Excel: semicolons, decimal commas, CRLF) and sends nothing', async () => {
    const { run } = workspace('stock.csv');
    const result = await run(['stock', 'validate', 'stock.csv']);
    expect(maskClock(result.stderr)).toBe('stock.csv: 52 records, 52 valid, 0 invalid (0 problems) in T s.\n');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('passes samples/stock.json and sends nothing', async () => {
    const { run } = workspace('stock.json');
    const result = await run(['stock', 'validate', 'stock.json']);
    expect(maskClock(result.stderr)).toBe('stock.json: 10 records, 10 valid, 0 invalid (0 problems) in T s.\n');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('reads stdin (-), sniffing the Excel CSV', async () => {
    const { run } = workspace();
    const result = await run(['stock', 'validate', '-'], readFileSync(join(seedDirectory, 'stock.csv')));
    expect(maskClock(result.stderr)).toBe('stdin: 52 records, 52 valid, 0 invalid (0 problems) in T s.\n');
    expect(result.code).toBe(0);
  });
});

describe('stock push --route batch', () => {
  it('pushes samples/stock.csv in 2 requests of up to 50, a result per item in the report, and the sandbox holds the file', async () => {
    const { dir, run } = workspace('stock.csv');
    expect((await stockSummary(sandbox)).offSale).toBe(offSaleSkus.length);
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch']);
    expect(maskClock(result.stderr)).toBe(
      [
        'stock push: validating stock.csv',
        'stock push: 52 records, 52 valid, 0 invalid (T s)',
        'stock push: sending 52 items in up to 2 requests of up to 50 items through the batch route (concurrency 8)',
        'stock push: 52 applied; 2 requests, 0 retries, 0 throttled (429); T s, R items/s',
        'stock push: report: stock.report-STAMP.csv',
        '',
      ].join('\n'),
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);

    const report = readReport(onlyFile(dir, 'stock.report-'));
    expect(report).toEqual(
      sampleCsvSkus().map((sku, index) => ({
        line: String(index + 2),
        key: sku,
        outcome: 'applied',
        status: '200',
        id: '',
        message: '',
        row: String(index + 2),
      })),
    );
    expect(readdirSync(dir).filter((name) => name.includes('.errors-'))).toEqual([]);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 2 });
    // Every product of the catalogue is in the file, so every off-sale one is back on sale.
    expect((await stockSummary(sandbox)).offSale).toBe(0);
  });

  it('reads "1.000,00" as 1000 and "4512,60" as 4512.6, and keeps each line\'s warehouse', async () => {
    const { run } = workspace('stock.csv');
    expect((await run(['stock', 'push', 'stock.csv', '--route', 'batch'])).code).toBe(0);
    expect(await stockLine(sandbox, 'PAR-SXT-M8X40-ZN', 'CD-SP')).toEqual({
      sku: 'PAR-SXT-M8X40-ZN',
      warehouse: 'CD-SP',
      quantity: 0,
      price: 1000,
      salePrice: 900,
      active: true,
      updates: 1,
    });
    expect(await stockLine(sandbox, 'CAN-ESF-AZ-CX50')).toMatchObject({
      quantity: 468,
      price: 5014,
      salePrice: 4512.6,
      updates: 1,
    });
    // The default stock of a SKU sent only to a warehouse stays empty.
    expect(await stockLine(sandbox, 'PAR-SXT-M8X40-ZN')).toMatchObject({ quantity: 0, price: null, updates: 0 });
  });

  it('pushes samples/stock.json in one request; report lines are where each object opens', async () => {
    const { dir, run } = workspace('stock.json');
    const result = await run(['stock', 'push', 'stock.json', '--route', 'batch']);
    expect(maskClock(result.stderr)).toBe(
      [
        'stock push: validating stock.json',
        'stock push: 10 records, 10 valid, 0 invalid (T s)',
        'stock push: sending 10 items in up to 1 request of up to 50 items through the batch route (concurrency 8)',
        'stock push: 10 applied; 1 request, 0 retries, 0 throttled (429); T s, R items/s',
        'stock push: report: stock.report-STAMP.csv',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
    expect(readReport(onlyFile(dir, 'stock.report-'))).toEqual(
      sampleJsonItems.map((item, index) => ({
        line: String(jsonObjectLines[index]),
        key: item.sku,
        outcome: 'applied',
        status: '200',
        id: '',
        message: '',
      })),
    );
    expect(await stockEntries(sandbox)).toEqual(sampleJsonEntries());
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 1 });
  });

  it('--batch-size 10 sends 52 items in 6 requests', async () => {
    const { dir, run } = workspace('stock.csv');
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '10']);
    expect(maskClock(result.stderr)).toContain(
      'stock push: sending 52 items in up to 6 requests of up to 10 items through the batch route (concurrency 8)\n',
    );
    expect(maskClock(result.stderr)).toContain(
      'stock push: 52 applied; 6 requests, 0 retries, 0 throttled (429); T s, R items/s\n',
    );
    expect(result.code).toBe(0);
    expect(readReport(onlyFile(dir, 'stock.report-'))).toHaveLength(csvLines);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 6 });
  });

  it('puts an off-sale product back on sale', async () => {
    const { dir, run } = workspace();
    const sku = offSaleSkus[0] as string;
    expect(await stockLine(sandbox, sku)).toMatchObject({ active: false, updates: 0 });
    writeFileSync(join(dir, 'back.ndjson'), `${JSON.stringify({ sku, quantity: 7, price: 12.5 })}\n`);
    const result = await run(['stock', 'push', 'back.ndjson', '--route', 'batch']);
    expect(maskClock(result.stderr)).toContain(
      'stock push: 1 applied; 1 request, 0 retries, 0 throttled (429); T s, R items/s\n',
    );
    expect(result.code).toBe(0);
    expect(await stockLine(sandbox, sku)).toEqual({
      sku,
      warehouse: null,
      quantity: 7,
      price: 12.5,
      salePrice: null,
      active: true,
      updates: 1,
    });
    expect((await stockSummary(sandbox)).offSale).toBe(offSaleSkus.length - 1);
  });
});

describe('stock push --route queue', () => {
  it('reports every row queued with the batch id; once the queue drains the sandbox holds the file', async () => {
    const { dir, run } = workspace('stock.csv');
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'queue']);
    expect(maskClock(result.stderr)).toBe(
      [
        'stock push: validating stock.csv',
        'stock push: 52 records, 52 valid, 0 invalid (T s)',
        'stock push: sending 52 items in up to 1 request of up to 200 items through the queue route (concurrency 8)',
        'stock push: 52 queued; 1 request, 0 retries, 0 throttled (429); T s, R items/s',
        'stock push: report: stock.report-STAMP.csv',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
    const report = readReport(onlyFile(dir, 'stock.report-'));
    const batchId = report[0]?.id as string;
    expect(batchId).toMatch(uuid);
    expect(report).toEqual(
      sampleCsvSkus().map((sku, index) => ({
        line: String(index + 2),
        key: sku,
        outcome: 'queued',
        status: '202',
        id: batchId,
        message: '',
        row: String(index + 2),
      })),
    );
    await queueDrained(sandbox);
    expect(await queuedBatch(sandbox, batchId)).toEqual({
      batchId,
      status: 'DONE',
      items: 52,
      applied: 52,
      rejected: 0,
      results: [],
    });
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
    expect(await requestCounts(sandbox)).toEqual({ [queueRoute]: 1 });
  });

  it('--batch-size 20 makes 3 batches of 20, 20 and 12, each row reported with its own batch', async () => {
    const { dir, run } = workspace('stock.csv');
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'queue', '--batch-size', '20']);
    expect(maskClock(result.stderr)).toContain(
      'stock push: sending 52 items in up to 3 requests of up to 20 items through the queue route (concurrency 8)\n',
    );
    expect(result.code).toBe(0);
    const report = readReport(onlyFile(dir, 'stock.report-'));
    expect(report.map((row) => row.outcome)).toEqual(Array.from({ length: 52 }, () => 'queued'));
    const ids = [...new Set(report.map((row) => row.id))];
    expect(ids).toHaveLength(3);
    expect(ids.map((id) => report.filter((row) => row.id === id).map((row) => Number(row.line)))).toEqual([
      range(2, 21),
      range(22, 41),
      range(42, 53),
    ]);
    await queueDrained(sandbox);
    expect(await Promise.all(ids.map(async (id) => (await queuedBatch(sandbox, id)).applied))).toEqual([20, 20, 12]);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
    expect(await requestCounts(sandbox)).toEqual({ [queueRoute]: 3 });
  });

  it("--batch-size 200 is the queue route's maximum and is accepted", async () => {
    const { run } = workspace('stock.json');
    const result = await run(['stock', 'push', 'stock.json', '--route', 'queue', '--batch-size', '200']);
    expect(result.code).toBe(0);
    await queueDrained(sandbox);
    expect(await stockEntries(sandbox)).toEqual(sampleJsonEntries());
  });
});

describe('stock push from stdin', () => {
  it('pushes the Excel CSV piped to -, with the report in the working folder', async () => {
    const { dir, run } = workspace();
    const result = await run(
      ['stock', 'push', '-', '--route', 'batch'],
      readFileSync(join(seedDirectory, 'stock.csv')),
    );
    expect(maskClock(result.stderr)).toBe(
      [
        'stock push: validating stdin',
        'stock push: 52 records, 52 valid, 0 invalid (T s)',
        'stock push: sending 52 items in up to 2 requests of up to 50 items through the batch route (concurrency 8)',
        'stock push: 52 applied; 2 requests, 0 retries, 0 throttled (429); T s, R items/s',
        'stock push: report: stdin.report-STAMP.csv',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
    expect(readReport(onlyFile(dir, 'stdin.report-'))).toHaveLength(csvLines);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
  });

  it('pushes JSON piped to - through the queue route', async () => {
    const { dir, run } = workspace();
    const result = await run(
      ['stock', 'push', '-', '--route', 'queue'],
      readFileSync(join(seedDirectory, 'stock.json')),
    );
    expect(maskClock(result.stderr)).toContain(
      'stock push: 10 queued; 1 request, 0 retries, 0 throttled (429); T s, R items/s\n',
    );
    expect(result.code).toBe(0);
    expect(readReport(onlyFile(dir, 'stdin.report-')).map((row) => row.line)).toEqual(jsonObjectLines.map(String));
    await queueDrained(sandbox);
    expect(await stockEntries(sandbox)).toEqual(sampleJsonEntries());
  });
});

describe('stock push --dry-run', () => {
  it('validates, says what it would send, and sends nothing (no report either)', async () => {
    const { dir, run } = workspace('stock.csv');
    const result = await run(['stock', 'push', 'stock.csv', '--dry-run']);
    expect(maskClock(result.stderr)).toBe(
      [
        'stock push: validating stock.csv',
        'stock push: 52 records, 52 valid, 0 invalid (T s)',
        'stock push: route batch (52 items <= 1000, the stock.autoThreshold setting)',
        'stock push: dry run; would send 52 items in 2 requests of up to 50 items through the batch route.',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
    const queue = await run(['stock', 'push', 'stock.csv', '--dry-run', '--route', 'queue', '--batch-size', '25']);
    expect(maskClock(queue.stderr)).toContain(
      'stock push: dry run; would send 52 items in 3 requests of up to 25 items through the queue route.\n',
    );
    expect(queue.code).toBe(0);
    expect(readdirSync(dir)).toEqual(['stock.csv']);
    expect(await requestCounts(sandbox)).toEqual({});
    expect((await stockSummary(sandbox)).lines).toBe(0);
  });
});

describe('stock push --schema', () => {
  /** A store whose stock items use Portuguese field names. */
  const storeFields = {
    sku: 'codigo',
    quantity: 'saldo',
    price: 'preco',
    salePrice: 'precoPromocional',
    warehouse: 'filial',
  };
  let store: RunningSandbox;
  let storeToken: string;
  beforeAll(async () => {
    store = await startTestSandbox({ stockSchema: parseStockSchema({ fields: storeFields }) });
    storeToken = await fetchToken(store);
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await resetSandboxStock(store);
  });

  function storeWorkspace() {
    const configDir = freshConfigDir();
    const dir = freshWorkDir();
    copySamples(dir, 'stock.json', 'stock.csv');
    writeFileSync(join(dir, 'schema.json'), JSON.stringify({ fields: storeFields }));
    const env = { B2BCTL_BASE_URL: store.url, B2BCTL_TOKEN: storeToken };
    return { configDir, dir, run: (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env }) };
  }

  it("sends the store's field names, and the store applies every item", async () => {
    const { dir, run } = storeWorkspace();
    const result = await run(['stock', 'push', 'stock.json', '--route', 'batch', '--schema', 'schema.json']);
    expect(maskClock(result.stderr)).toContain(
      'stock push: 10 applied; 1 request, 0 retries, 0 throttled (429); T s, R items/s\n',
    );
    expect(result.code).toBe(0);
    expect(readReport(onlyFile(dir, 'stock.report-')).every((row) => row.outcome === 'applied')).toBe(true);
    expect(await stockEntries(store)).toEqual(sampleJsonEntries());
  });

  it('through the queue route too, with the schema from the stock.schema setting', async () => {
    const { configDir, dir, run } = storeWorkspace();
    expect(
      (await runCommandLine(['config', 'set', 'stock.schema', join(dir, 'schema.json')], { configDir })).code,
    ).toBe(0);
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'queue']);
    expect(maskClock(result.stderr)).toContain(
      'stock push: 52 queued; 1 request, 0 retries, 0 throttled (429); T s, R items/s\n',
    );
    expect(result.code).toBe(0);
    await queueDrained(store);
    expect(await stockSummary(store)).toMatchObject({ applied: 52, rejected: 0 });
    expect(await stockEntries(store)).toEqual(sampleCsvEntries());
  });

  it("without the schema every item is rejected with the store's message: exit 1, report and errors file", async () => {
    const { configDir, dir, run } = storeWorkspace();
    const result = await run(['stock', 'push', 'stock.json', '--route', 'batch']);
    expect(maskClock(result.stderr)).toBe(
      [
        'stock push: validating stock.json',
        'stock push: 10 records, 10 valid, 0 invalid (T s)',
        'stock push: sending 10 items in up to 1 request of up to 50 items through the batch route (concurrency 8)',
        'stock push: 10 rejected; 1 request, 0 retries, 0 throttled (429); T s, R items/s',
        'stock push: why, 10 items (first at line 2): Property [codigo] with value [] does not pass validation (codigo is required); Property [saldo] with value [] does not pass validation (saldo is required)',
        'stock push: report: stock.report-STAMP.csv',
        'stock push: errors: stock.errors-STAMP.ndjson (10 records to fix and feed back)',
        `stock push: once fixed, feed it back with: B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push stock.errors-STAMP.ndjson --profile default --base-url ${store.url} --route batch`,
        'error: 10 items did not go through (10 rejected); the report stock.report-STAMP.csv and the errors file stock.errors-STAMP.ndjson say why.',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(1);
    const message =
      'Property [codigo] with value [] does not pass validation (codigo is required); Property [saldo] with value [] does not pass validation (saldo is required)';
    expect(readReport(onlyFile(dir, 'stock.report-'))).toEqual(
      sampleJsonItems.map((item, index) => ({
        line: String(jsonObjectLines[index]),
        key: item.sku,
        outcome: 'rejected',
        status: '200',
        id: '',
        message,
      })),
    );
    const errors = ndjsonOf(readFileSync(onlyFile(dir, 'stock.errors-'), 'utf8'));
    expect(errors).toEqual(sampleJsonItems.map((item) => ({ ...item, error: message })));
    expect(await stockSummary(store)).toMatchObject({ lines: 0, applied: 0, rejected: 10 });
  });
});

function sampleCsvSkus(): string[] {
  const [, ...rows] = readFileSync(join(seedDirectory, 'stock.csv'), 'utf8')
    .split('\r\n')
    .filter((row) => row !== '');
  return rows.map((row) => row.split(';')[0] as string);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}
