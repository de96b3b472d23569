import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, firstLine, freshConfigDir, sleep, spawnCli } from '../../support/cli.js';
import { fetchToken, seedDirectory, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

interface Product {
  sku: string;
  name: string;
  active: boolean;
}

const products = JSON.parse(readFileSync(join(seedDirectory, 'products.json'), 'utf8')) as Product[];
const onSale = products.filter((product) => product.active).map((product) => product.sku);
const offSale = products.filter((product) => !product.active).map((product) => product.sku);
/** A store whose stock items use Portuguese field names. */
const fields = { sku: 'codigo', quantity: 'saldo', price: 'preco', salePrice: 'precoPromocional', warehouse: 'filial' };

let sandbox: RunningSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await fetchToken(sandbox);
});
afterAll(async () => {
  await sandbox?.close();
  removeTemporaryFolders();
});
beforeEach(async () => {
  await fetch(`${sandbox.url}/_sandbox/stock`, { method: 'DELETE' });
});

interface Answer {
  status: number;
  body: unknown;
}

async function call(base: RunningSandbox | string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${typeof base === 'string' ? base : base.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** Sends JSON with the test's token, another one, or none (null). */
function send(
  method: 'PUT' | 'POST',
  path: string,
  body: unknown,
  bearer: string | null = token,
  target: RunningSandbox = sandbox,
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
  return call(target, path, { method, headers, body: JSON.stringify(body) });
}

const putBatch = (items: unknown[]) => send('PUT', '/v1/stock/batch', { items });
const postQueue = (items: unknown[]) => send('POST', '/api/v1/stocks/batch', { items });

interface Line {
  sku: string;
  warehouse: string | null;
  quantity: number;
  price: number | null;
  salePrice: number | null;
  active: boolean;
  updates: number;
}

async function line(sku: string, warehouse?: string, target: RunningSandbox = sandbox): Promise<Line> {
  const query = warehouse === undefined ? '' : `?warehouse=${encodeURIComponent(warehouse)}`;
  const answer = await call(target, `/_sandbox/stock/${encodeURIComponent(sku)}${query}`);
  expect(answer.status).toBe(200);
  return answer.body as Line;
}

interface BatchView {
  batchId: string;
  status: string;
  items: number;
  applied: number;
  rejected: number;
  results: unknown[];
}

/** Polls the batch until the queue has applied it: a few milliseconds per poll, bounded by a count, not a clock. */
async function batchWhenDone(batchId: string, target: RunningSandbox = sandbox): Promise<BatchView> {
  for (let poll = 0; poll < 2_000; poll++) {
    const answer = await call(target, `/_sandbox/stock-batches/${batchId}`);
    expect(answer.status).toBe(200);
    const view = answer.body as BatchView;
    if (view.status === 'DONE') return view;
    await sleep(2);
  }
  throw new Error(`batch ${batchId} never finished`);
}

async function queueDrained(): Promise<void> {
  for (let poll = 0; poll < 2_000; poll++) {
    const answer = await call(sandbox, '/_sandbox/stock-queue');
    if ((answer.body as { pending: number }).pending === 0) return;
    await sleep(2);
  }
  throw new Error('the stock queue never drained');
}

const unprocessable = (value: string) => ({
  status: 'UNPROCESSABLE_ENTITY',
  message: `Property [items] with value [${value}] does not pass validation`,
});
const applied = (index: number, sku: string, warehouse: string | null = null) => ({
  index,
  sku,
  warehouse,
  status: 'APPLIED',
  message: null,
});
const generated = (position: number) => `GEN-${String(position).padStart(7, '0')}`;

describe('the sample catalogue', () => {
  it('has about 50 products, about 10 of them off sale', () => {
    expect(products.length).toBeGreaterThanOrEqual(45);
    expect(offSale.length).toBeGreaterThanOrEqual(8);
    expect(new Set(products.map((product) => product.sku)).size).toBe(products.length);
  });

  it('is what the sandbox serves', async () => {
    const summary = (await call(sandbox, '/_sandbox/stock')).body;
    expect(summary).toEqual({
      products: products.length,
      offSale: offSale.length,
      generatedSkus: 2_000_000,
      lines: 0,
      applied: 0,
      rejected: 0,
      totalQuantity: 0,
      batches: 0,
      pendingBatches: 0,
      pendingItems: 0,
    });
    expect(await line(offSale[0] as string)).toEqual({
      sku: offSale[0],
      warehouse: null,
      quantity: 0,
      price: null,
      salePrice: null,
      active: false,
      updates: 0,
    });
    expect((await call(sandbox, '/_sandbox/stock/NO-SUCH-SKU')).status).toBe(404);
  });
});

describe('PUT /v1/stock/batch', () => {
  it('applies 50 items and answers one result per item, in request order', async () => {
    const items = Array.from({ length: 50 }, (_, index) => ({
      sku: generated(index + 1),
      quantity: index * 3,
      price: 10 + index / 100,
      salePrice: 9.5,
    }));
    const answer = await putBatch(items);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ results: items.map((item, index) => applied(index, item.sku)) });
    expect(await line(generated(50))).toEqual({
      sku: generated(50),
      warehouse: null,
      quantity: 147,
      price: 10.49,
      salePrice: 9.5,
      active: true,
      updates: 1,
    });
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({
      lines: 50,
      applied: 50,
      rejected: 0,
      totalQuantity: (49 * 50 * 3) / 2,
    });
  });

  it.each([
    { name: 'an empty batch', items: [], value: '0' },
    {
      name: '51 items',
      items: Array.from({ length: 51 }, (_, index) => ({ sku: generated(index + 1), quantity: 1 })),
      value: '51',
    },
  ])('refuses $name with 422 and applies nothing', async ({ items, value }) => {
    const answer = await putBatch(items);
    expect(answer).toEqual({ status: 422, body: unprocessable(value) });
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({ lines: 0, applied: 0, rejected: 0 });
  });

  it.each([
    { name: 'no items property', body: { item: [] }, value: '' },
    { name: 'items not an array', body: { items: 'A' }, value: 'A' },
    { name: 'a bare array', body: [{ sku: 'A', quantity: 1 }], value: '' },
  ])('refuses $name with 422', async ({ body, value }) => {
    expect(await send('PUT', '/v1/stock/batch', body)).toEqual({ status: 422, body: unprocessable(value) });
  });

  it('rejects bad items one by one and applies the others', async () => {
    const good = onSale[0] as string;
    const answer = await putBatch([
      { sku: 'NO-SUCH-SKU', quantity: 1 },
      { sku: onSale[1], quantity: -3 },
      { sku: onSale[2], quantity: 5, price: 'abc' },
      { sku: onSale[3], quantity: 5, price: 12.345 },
      { sku: onSale[4], quantity: 5, salePrice: -1 },
      { sku: onSale[5], quantity: 2.5 },
      { quantity: 1 },
      'not an item',
      { sku: good, quantity: 8, price: 1234.56, salePrice: 999.9, warehouse: 'CD-SP' },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      results: [
        { index: 0, sku: 'NO-SUCH-SKU', warehouse: null, status: 'REJECTED', message: 'Unknown SKU [NO-SUCH-SKU]' },
        {
          index: 1,
          sku: onSale[1],
          warehouse: null,
          status: 'REJECTED',
          message:
            'Property [quantity] with value [-3] does not pass validation (quantity must be a whole number of 0 or more)',
        },
        {
          index: 2,
          sku: onSale[2],
          warehouse: null,
          status: 'REJECTED',
          message:
            'Property [price] with value [abc] does not pass validation (price must be a number of 0 or more with at most 2 decimals, such as 1234.56)',
        },
        {
          index: 3,
          sku: onSale[3],
          warehouse: null,
          status: 'REJECTED',
          message: 'Property [price] with value [12.345] does not pass validation (price must have at most 2 decimals)',
        },
        {
          index: 4,
          sku: onSale[4],
          warehouse: null,
          status: 'REJECTED',
          message: 'Property [salePrice] with value [-1] does not pass validation (salePrice must be 0 or more)',
        },
        {
          index: 5,
          sku: onSale[5],
          warehouse: null,
          status: 'REJECTED',
          message:
            'Property [quantity] with value [2.5] does not pass validation (quantity must be a whole number of 0 or more)',
        },
        {
          index: 6,
          sku: null,
          warehouse: null,
          status: 'REJECTED',
          message: 'Property [sku] with value [] does not pass validation (sku is required)',
        },
        {
          index: 7,
          sku: null,
          warehouse: null,
          status: 'REJECTED',
          message:
            'Property [items[7]] with value [not an item] does not pass validation (each item must be an object)',
        },
        applied(8, good, 'CD-SP'),
      ],
    });
    for (const sku of onSale.slice(1, 6)) expect((await line(sku)).updates).toBe(0);
    expect(await line(good, 'CD-SP')).toEqual({
      sku: good,
      warehouse: 'CD-SP',
      quantity: 8,
      price: 1234.56,
      salePrice: 999.9,
      active: true,
      updates: 1,
    });
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({ lines: 1, applied: 1, rejected: 8 });
  });

  it('reports every problem of an item, an unknown SKU included', async () => {
    const answer = await putBatch([{ sku: 'NO-SUCH-SKU', quantity: -1, price: 1.001 }]);
    expect((answer.body as { results: { message: string }[] }).results[0]?.message).toBe(
      'Property [quantity] with value [-1] does not pass validation (quantity must be a whole number of 0 or more); ' +
        'Property [price] with value [1.001] does not pass validation (price must have at most 2 decimals); Unknown SKU [NO-SUCH-SKU]',
    );
  });

  it('puts an off-sale product back on sale, and only when its item is applied', async () => {
    const [reactivated, stillOff] = offSale as [string, string];
    expect((await line(reactivated)).active).toBe(false);
    const answer = await putBatch([
      { sku: reactivated, quantity: 0 },
      { sku: stillOff, quantity: -1 },
    ]);
    expect((answer.body as { results: { status: string }[] }).results.map((result) => result.status)).toEqual([
      'APPLIED',
      'REJECTED',
    ]);
    expect(await line(reactivated)).toEqual({
      sku: reactivated,
      warehouse: null,
      quantity: 0,
      price: null,
      salePrice: null,
      active: true,
      updates: 1,
    });
    expect((await line(stillOff)).active).toBe(false);
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({ offSale: offSale.length - 1 });
  });

  it('keeps stock per warehouse, the default stock apart', async () => {
    const sku = onSale[0] as string;
    await putBatch([
      { sku, quantity: 10, price: 5 },
      { sku, quantity: 20, warehouse: 'CD-SP' },
      { sku, quantity: 30, warehouse: 'CD-RJ', salePrice: 4.5 },
    ]);
    await putBatch([{ sku, quantity: 21, warehouse: 'CD-SP', price: 5.1 }]);
    expect(await line(sku)).toEqual({
      sku,
      warehouse: null,
      quantity: 10,
      price: 5,
      salePrice: null,
      active: true,
      updates: 1,
    });
    expect(await line(sku, 'CD-SP')).toEqual({
      sku,
      warehouse: 'CD-SP',
      quantity: 21,
      price: 5.1,
      salePrice: null,
      active: true,
      updates: 2,
    });
    expect(await line(sku, 'CD-RJ')).toEqual({
      sku,
      warehouse: 'CD-RJ',
      quantity: 30,
      price: null,
      salePrice: 4.5,
      active: true,
      updates: 1,
    });
    expect(await line(sku, 'CD-MG')).toEqual({
      sku,
      warehouse: 'CD-MG',
      quantity: 0,
      price: null,
      salePrice: null,
      active: true,
      updates: 0,
    });
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({ lines: 3, totalQuantity: 61 });
  });

  it('keeps a price that an item leaves out', async () => {
    const sku = onSale[0] as string;
    await putBatch([{ sku, quantity: 10, price: 5, salePrice: 4 }]);
    await putBatch([{ sku, quantity: 7 }]);
    expect(await line(sku)).toMatchObject({ quantity: 7, price: 5, salePrice: 4, updates: 2 });
  });
});

describe('the generated SKU range', () => {
  it('knows GEN-0000001 to GEN-2000000 without storing them until they receive stock', async () => {
    const answer = await putBatch([
      { sku: 'GEN-0000001', quantity: 1 },
      { sku: 'GEN-2000000', quantity: 2 },
      { sku: 'GEN-2000001', quantity: 3 },
      { sku: 'GEN-0000000', quantity: 4 },
    ]);
    expect(answer.body).toEqual({
      results: [
        applied(0, 'GEN-0000001'),
        applied(1, 'GEN-2000000'),
        { index: 2, sku: 'GEN-2000001', warehouse: null, status: 'REJECTED', message: 'Unknown SKU [GEN-2000001]' },
        { index: 3, sku: 'GEN-0000000', warehouse: null, status: 'REJECTED', message: 'Unknown SKU [GEN-0000000]' },
      ],
    });
    expect(await line('GEN-1234567')).toEqual({
      sku: 'GEN-1234567',
      warehouse: null,
      quantity: 0,
      price: null,
      salePrice: null,
      active: true,
      updates: 0,
    });
    expect((await call(sandbox, '/_sandbox/stock/GEN-2000001')).status).toBe(404);
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({ lines: 2 });
  });
});

describe('POST /api/v1/stocks/batch', () => {
  it('accepts 200 items with 202 and a batch id, then the queue applies them', async () => {
    const items = Array.from({ length: 200 }, (_, index) => ({
      sku: generated(1_000 + index),
      quantity: index,
      price: 2.5,
      warehouse: 'CD-SP',
    }));
    const answer = await postQueue(items);
    expect(answer.status).toBe(202);
    const accepted = answer.body as { batchId: string; status: string; items: number };
    expect(accepted).toEqual({ batchId: accepted.batchId, status: 'QUEUED', items: 200 });
    expect(accepted.batchId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const done = await batchWhenDone(accepted.batchId);
    expect(done).toEqual({
      batchId: accepted.batchId,
      status: 'DONE',
      items: 200,
      applied: 200,
      rejected: 0,
      results: [],
    });
    expect(await line(generated(1_199), 'CD-SP')).toEqual({
      sku: generated(1_199),
      warehouse: 'CD-SP',
      quantity: 199,
      price: 2.5,
      salePrice: null,
      active: true,
      updates: 1,
    });
    expect((await call(sandbox, '/_sandbox/stock-queue')).body).toEqual({ pending: 0, pendingItems: 0 });
  });

  it.each([
    { name: 'an empty batch', items: [], value: '0' },
    {
      name: '201 items',
      items: Array.from({ length: 201 }, (_, index) => ({ sku: generated(index + 1), quantity: 1 })),
      value: '201',
    },
  ])('refuses $name with 422 and queues nothing', async ({ items, value }) => {
    expect(await postQueue(items)).toEqual({ status: 422, body: unprocessable(value) });
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({ batches: 0, pendingItems: 0 });
  });

  it('records rejected items on the batch instead of answering them', async () => {
    const reactivated = offSale[0] as string;
    const answer = await postQueue([
      { sku: reactivated, quantity: 4, price: 10 },
      { sku: 'NO-SUCH-SKU', quantity: 1 },
      { sku: onSale[0], quantity: 1, salePrice: 0.999 },
    ]);
    expect(answer.status).toBe(202);
    const done = await batchWhenDone((answer.body as { batchId: string }).batchId);
    expect(done).toMatchObject({ status: 'DONE', items: 3, applied: 1, rejected: 2 });
    expect(done.results).toEqual([
      { index: 1, sku: 'NO-SUCH-SKU', warehouse: null, status: 'REJECTED', message: 'Unknown SKU [NO-SUCH-SKU]' },
      {
        index: 2,
        sku: onSale[0],
        warehouse: null,
        status: 'REJECTED',
        message:
          'Property [salePrice] with value [0.999] does not pass validation (salePrice must have at most 2 decimals)',
      },
    ]);
    expect(await line(reactivated)).toMatchObject({ quantity: 4, price: 10, active: true });
  });

  it('applies batches in order of arrival: the later one wins', async () => {
    const sku = generated(77);
    const batchIds: string[] = [];
    for (let round = 1; round <= 5; round++) {
      const answer = await postQueue(Array.from({ length: 200 }, () => ({ sku, quantity: round })));
      batchIds.push((answer.body as { batchId: string }).batchId);
    }
    await queueDrained();
    for (const batchId of batchIds) expect((await batchWhenDone(batchId)).applied).toBe(200);
    expect(await line(sku)).toMatchObject({ quantity: 5, updates: 1_000 });
  });

  it('answers 404 for an unknown batch', async () => {
    expect((await call(sandbox, '/_sandbox/stock-batches/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('authentication', () => {
  it.each([
    {
      name: 'the batch route without a token',
      run: () => send('PUT', '/v1/stock/batch', { items: [{ sku: onSale[0], quantity: 1 }] }, null),
    },
    {
      name: 'the queue route without a token',
      run: () => send('POST', '/api/v1/stocks/batch', { items: [{ sku: onSale[0], quantity: 1 }] }, null),
    },
    {
      name: 'the batch route with an unknown token',
      run: () => send('PUT', '/v1/stock/batch', { items: [{ sku: onSale[0], quantity: 1 }] }, 'not-a-token'),
    },
  ])('refuses $name with 401 and changes nothing', async ({ run }) => {
    const answer = await run();
    expect(answer.status).toBe(401);
    expect((answer.body as { status: string }).status).toBe('UNAUTHORIZED');
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({ lines: 0, batches: 0 });
  });
});

describe('inspection', () => {
  it('lists every line on request, and streams them as NDJSON', async () => {
    await putBatch([
      { sku: generated(1), quantity: 1, price: 1.5 },
      { sku: generated(2), quantity: 2, warehouse: 'CD-RJ' },
    ]);
    const expected = [
      { sku: generated(1), warehouse: null, quantity: 1, price: 1.5, salePrice: null, updates: 1 },
      { sku: generated(2), warehouse: 'CD-RJ', quantity: 2, price: null, salePrice: null, updates: 1 },
    ];
    expect(((await call(sandbox, '/_sandbox/stock?entries=true')).body as { entries: unknown }).entries).toEqual(
      expected,
    );
    const response = await fetch(`${sandbox.url}/_sandbox/stock-entries`);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(await response.text()).toBe(expected.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  });

  it('resets to the seeded state', async () => {
    await putBatch([{ sku: offSale[0], quantity: 1 }]);
    await fetch(`${sandbox.url}/_sandbox/stock`, { method: 'DELETE' });
    expect(await line(offSale[0] as string)).toMatchObject({ active: false, updates: 0 });
    expect((await call(sandbox, '/_sandbox/stock')).body).toMatchObject({
      lines: 0,
      applied: 0,
      offSale: offSale.length,
    });
  });
});

describe('a store with its own field names', () => {
  it('takes items in those names and names them in its rejections', async () => {
    const store = await startTestSandbox({ stockSchema: { fields }, generatedSkus: 10 });
    try {
      const storeToken = await fetchToken(store);
      const answer = await send(
        'PUT',
        '/v1/stock/batch',
        {
          items: [
            { codigo: 'GEN-0000010', saldo: 3, preco: 7.25, filial: 'CD-SP' },
            { codigo: 'GEN-0000011', saldo: 1 },
            { sku: 'GEN-0000001', quantity: 1 },
            { codigo: 'GEN-0000002', saldo: -1 },
          ],
        },
        storeToken,
        store,
      );
      expect(answer.body).toEqual({
        results: [
          applied(0, 'GEN-0000010', 'CD-SP'),
          { index: 1, sku: 'GEN-0000011', warehouse: null, status: 'REJECTED', message: 'Unknown SKU [GEN-0000011]' },
          {
            index: 2,
            sku: null,
            warehouse: null,
            status: 'REJECTED',
            message:
              'Property [codigo] with value [] does not pass validation (codigo is required); Property [saldo] with value [] does not pass validation (saldo is required)',
          },
          {
            index: 3,
            sku: 'GEN-0000002',
            warehouse: null,
            status: 'REJECTED',
            message:
              'Property [saldo] with value [-1] does not pass validation (saldo must be a whole number of 0 or more)',
          },
        ],
      });
      expect(await line('GEN-0000010', 'CD-SP', store)).toMatchObject({ quantity: 3, price: 7.25 });
    } finally {
      await store.close();
    }
  });
});

describe('b2bctl sandbox flags', () => {
  it('--generated-skus and --stock-schema shape the catalogue and the item names', async () => {
    const configDir = freshConfigDir();
    const schemaFile = join(configDir, '..', 'stock-schema.json');
    writeFileSync(schemaFile, JSON.stringify({ fields }));
    const child = spawnCli(
      ['sandbox', '--port', '0', '--generated-skus', '10', '--stock-schema', schemaFile],
      configDir,
    );
    const finished = collect(child);
    try {
      const url = await firstLine(child.stdout as NodeJS.ReadableStream);
      expect((await call(url, '/_sandbox/stock/GEN-0000010')).status).toBe(200);
      expect((await call(url, '/_sandbox/stock/GEN-0000011')).status).toBe(404);
      const auth = await call(url, '/v1/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'integration@sandbox.test', password: 'sandbox-secret' }),
      });
      const bearer = (auth.body as { access_token: string }).access_token;
      const answer = await call(url, '/v1/stock/batch', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ items: [{ codigo: 'GEN-0000003', saldo: 4 }] }),
      });
      expect(answer.body).toEqual({ results: [applied(0, 'GEN-0000003')] });
    } finally {
      child.kill('SIGTERM');
    }
    expect((await finished).code).toBe(0);
  });

  it('refuses an invalid --stock-schema file with a message naming it', async () => {
    const configDir = freshConfigDir();
    const schemaFile = join(configDir, '..', 'bad-schema.json');
    writeFileSync(schemaFile, JSON.stringify({ sku: 'codigo', quantity: 'codigo' }));
    const child = spawnCli(['sandbox', '--port', '0', '--stock-schema', schemaFile], configDir);
    child.stdin?.end();
    const result = await collect(child);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `error: The stock schema from --stock-schema ${schemaFile} is not usable: Invalid stock schema: fields [sku] and [quantity] both map to [codigo]`,
    );
  });
});
