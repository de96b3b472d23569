import type { PlatformClient } from './client.js';
import { readBatchAnswer, readQueueAnswer, type ItemVerdict } from './answers/stock.js';

export type { ItemVerdict } from './answers/stock.js';

/**
 * `PUT /v1/stock/batch`: 1 to 50 items, a result per item. Setting stock is absolute, so repeating
 * the request after an unclear failure is harmless and the client may retry it. Resolves to one
 * verdict per item in the order sent, or undefined when the 2xx answer does not itemise them.
 */
export async function putStockBatch(
  client: PlatformClient,
  items: readonly Record<string, unknown>[],
  skus: readonly string[],
  signal?: AbortSignal,
): Promise<(ItemVerdict | undefined)[] | undefined> {
  const { body } = await client.send<unknown>({
    method: 'PUT',
    path: client.route('paths.stockBatch'),
    body: { items },
    safeToRepeat: true,
    signal,
  });
  return readBatchAnswer(body, skus, {
    results: client.session.get('answers.stockBatch.results'),
    status: client.session.get('answers.stockBatch.status'),
  });
}

/** `POST /api/v1/stocks/batch`: up to 200 items, accepted for asynchronous processing; resolves to the batch id. */
export async function queueStockBatch(
  client: PlatformClient,
  items: readonly Record<string, unknown>[],
  signal?: AbortSignal,
): Promise<string | undefined> {
  const { body } = await client.send<unknown>({
    method: 'POST',
    path: client.route('paths.stockQueue'),
    body: { items },
    safeToRepeat: true,
    signal,
  });
  return readQueueAnswer(body, client.session.get('answers.stockQueue.id'));
}
