import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { batchRouteMaxItems, queueRouteMaxItems, validationProblem } from '../../domain/stock.js';
import { sendError } from '../http-answers.js';
import type { SandboxOptions } from '../options.js';
import type { SandboxState } from '../state.js';
import { unknownSkuMessage } from '../stock/rules.js';
import type { StockEntry } from '../stock/store.js';

/**
 * The stock and price routes: `PUT /v1/stock/batch` (1 to 50 items, applied at once, a result per
 * item) and `POST /api/v1/stocks/batch` (up to 200 items, 202 and applied by the queue), both with
 * the body `{"items":[...]}`; plus `/_sandbox/stock*` to inspect the outcome. Stops the queue when
 * the server closes (the catalogue is seeded by seedSandboxState).
 */
export function registerStock(app: FastifyInstance, state: SandboxState, _options: SandboxOptions): void {
  const stock = state.stock;
  app.addHook('onClose', async () => stock.close());

  app.put('/v1/stock/batch', async (request, reply) => {
    const items = itemsOf(request.body, batchRouteMaxItems);
    if (typeof items === 'string') return sendError(reply, 422, items);
    return app.dialect.batchAnswer(items.map((item, index) => stock.applyItem(item, index)));
  });

  app.post('/api/v1/stocks/batch', async (request, reply) => {
    const items = itemsOf(request.body, queueRouteMaxItems);
    if (typeof items === 'string') return sendError(reply, 422, items);
    const batchId = stock.queue.enqueue(items);
    const answer = app.dialect.queueAnswer(batchId, items.length);
    return answer === undefined ? reply.code(202).send() : reply.code(202).send(answer);
  });

  const open = { config: { public: true, control: true } };

  app.get('/_sandbox/stock', open, async (request) => {
    const query = request.query as Record<string, unknown>;
    const summary = {
      products: stock.catalogue.seededCount,
      offSale: stock.catalogue.offSaleCount,
      generatedSkus: stock.catalogue.generatedSkus,
      lines: stock.store.size,
      applied: stock.applied,
      rejected: stock.rejected,
      totalQuantity: stock.store.totalQuantity,
      batches: stock.queue.batchCount,
      pendingBatches: stock.queue.pendingBatches,
      pendingItems: stock.queue.pendingItems,
    };
    return query.entries === 'true' || query.entries === '1'
      ? { ...summary, entries: [...stock.store.entries()] }
      : summary;
  });

  app.delete('/_sandbox/stock', open, async () => {
    stock.reset();
    return { ok: true };
  });

  // One JSON line per stock line, streamed: how a test compares a million-line push with its file.
  app.get('/_sandbox/stock-entries', open, async (_request, reply) => {
    return reply.type('application/x-ndjson').send(Readable.from(ndjsonChunks(stock.store.entries())));
  });

  app.get('/_sandbox/stock/:sku', open, async (request, reply) => {
    const { sku } = request.params as { sku: string };
    const query = request.query as Record<string, unknown>;
    const warehouse =
      typeof query.warehouse === 'string' && query.warehouse.trim() !== '' ? query.warehouse.trim() : undefined;
    if (!stock.catalogue.has(sku)) return sendError(reply, 404, unknownSkuMessage(sku));
    // A known SKU that never received stock has an empty line rather than a 404.
    const entry = stock.store.get(sku, warehouse);
    return {
      sku,
      warehouse: warehouse ?? null,
      quantity: entry?.quantity ?? 0,
      price: entry?.price ?? null,
      salePrice: entry?.salePrice ?? null,
      active: stock.catalogue.isActive(sku),
      updates: entry?.updates ?? 0,
    };
  });

  app.get('/_sandbox/stock-batches/:batchId', open, async (request, reply) => {
    const { batchId } = request.params as { batchId: string };
    return stock.queue.batch(batchId) ?? sendError(reply, 404, `Unknown batch [${batchId}]`);
  });

  app.get('/_sandbox/stock-queue', open, async () => ({
    pending: stock.queue.pendingBatches,
    pendingItems: stock.queue.pendingItems,
  }));
}

/** The `items` array of `{"items":[...]}` within the route's limit, or the platform's 422 message. */
function itemsOf(body: unknown, maxItems: number): unknown[] | string {
  const items =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>).items
      : undefined;
  if (!Array.isArray(items)) return validationProblem('items', items).message;
  if (items.length === 0 || items.length > maxItems) return validationProblem('items', items.length).message;
  return items;
}

function* ndjsonChunks(entries: Iterable<StockEntry>): Generator<string> {
  let chunk = '';
  let count = 0;
  for (const entry of entries) {
    chunk += `${JSON.stringify(entry)}\n`;
    if (++count === 1000) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (chunk !== '') yield chunk;
}
