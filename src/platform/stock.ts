import type { PlatformClient } from './client.js';

/** One item's result on the batch route, as the sandbox answers (the platform document does not show it). */
export interface StockItemResult {
  index: number;
  sku: string;
  status: 'APPLIED' | 'REJECTED' | string;
  message: string | null;
}

/**
 * `PUT /v1/stock/batch`: 1 to 50 items, a result per item. Setting stock is absolute, so repeating
 * the request after an unclear failure is harmless and the client may retry it.
 */
export async function putStockBatch(
  client: PlatformClient,
  items: readonly Record<string, unknown>[],
  signal?: AbortSignal,
): Promise<StockItemResult[]> {
  const { body } = await client.send<{ results?: StockItemResult[] }>({
    method: 'PUT',
    path: client.route('paths.stockBatch'),
    body: { items },
    safeToRepeat: true,
    signal,
  });
  if (!Array.isArray(body?.results)) throw new Error('the stock batch route answered without "results"');
  return body.results;
}

/** `POST /api/v1/stocks/batch`: up to 200 items, accepted for asynchronous processing; resolves to the batch id. */
export async function queueStockBatch(
  client: PlatformClient,
  items: readonly Record<string, unknown>[],
  signal?: AbortSignal,
): Promise<string | undefined> {
  const { body } = await client.send<{ batchId?: string; id?: string }>({
    method: 'POST',
    path: client.route('paths.stockQueue'),
    body: { items },
    safeToRepeat: true,
    signal,
  });
  return body?.batchId ?? body?.id;
}
