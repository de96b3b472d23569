import { runBulkJob, type PendingRecord, type ReportEntry } from '../../bulk/bulk-job.js';
import type { InputFlags, SendFlags } from '../../bulk/flags.js';
import type { Context } from '../../context.js';
import {
  batchRouteMaxItems,
  queueRouteMaxItems,
  type StockItem,
  type StockSchema,
  toWireItem,
} from '../../domain/stock.js';
import { UsageError } from '../../errors.js';
import type { PlatformClient } from '../../platform/client.js';
import { putStockBatch, queueStockBatch } from '../../platform/stock.js';
import { newStockChecker, stockCatalogue } from './stock-input.js';
import { loadStockSchema } from '../../io/stock-schema.js';

export type StockRoute = 'auto' | 'batch' | 'queue';

export interface StockPushOptions extends InputFlags, SendFlags {
  file: string;
  route: StockRoute;
  batchSize?: number;
  /** `--schema FILE`: the store's names for the item fields. */
  schema?: string;
}

/** Rounds in which batch-route items that were neither applied nor rejected are sent again. */
const unsettledItemRounds = 3;

/**
 * Pushes a stock and price file through the 50-item batch route or the 200-item queue route,
 * paced, retried, reported, resumable, and locked per profile so two cron runs never overlap.
 */
export async function run(options: StockPushOptions, context: Context): Promise<void> {
  const session = await context.session();
  // --schema is read once the run's flags are settled: a --resume restores the interrupted run's.
  const loadSchema = () =>
    options.schema
      ? loadStockSchema(options.schema, `--schema ${options.schema}`)
      : loadStockSchema(session.value('stock.schema'), 'the stock.schema setting');
  if (!options.resume) loadSchema();
  let schema: StockSchema | undefined;
  const threshold = Number(session.value('stock.autoThreshold'));
  let route: 'batch' | 'queue' = 'batch';
  await runBulkJob<StockItem>(
    {
      name: 'stock push',
      unit: 'items',
      file: options.file,
      flags: options,
      catalogue: stockCatalogue,
      newChecker: newStockChecker,
      keyOf: (record) => String(record.values.sku ?? ''),
      lockName: 'stock-push',
      outcomes: ['applied', 'queued', 'rejected', 'invalid', 'failed'],
      sentOutcomes: ['applied', 'queued'],
      shaping: [
        { flag: '--route', key: 'route', unset: 'auto' },
        { flag: '--batch-size', key: 'batchSize' },
        { flag: '--schema', key: 'schema', path: true },
      ],
      plan(valid) {
        schema = loadSchema();
        route = options.route === 'queue' ? 'queue' : 'batch';
        if (options.route === 'auto') {
          route = valid > threshold ? 'queue' : 'batch';
          context.log.info(
            `stock push: route ${route} (${valid} items ${route === 'queue' ? '>' : '<='} ${threshold}, the stock.autoThreshold setting)`,
          );
        }
        const maxItems = route === 'batch' ? batchRouteMaxItems : queueRouteMaxItems;
        const batchSize = options.batchSize ?? maxItems;
        if (batchSize > maxItems)
          throw new UsageError(
            `--batch-size ${batchSize} is more than the ${route} route takes (${maxItems} items per request); nothing was sent.`,
          );
        // Recorded for --resume as the route taken, so the rest of the file goes the same way.
        options.route = route;
        return { batchSize, description: `of up to ${batchSize} items through the ${route} route` };
      },
      sendBatch: (client, batch, signal) =>
        route === 'batch'
          ? sendToBatchRoute(client, batch, schema as StockSchema, signal)
          : sendToQueueRoute(client, batch, schema as StockSchema, signal),
    },
    context,
  );
}

/** Batch route: a result per item; items the platform neither applied nor rejected are sent again, alone. */
async function sendToBatchRoute(
  client: PlatformClient,
  batch: PendingRecord<StockItem>[],
  schema: StockSchema,
  signal: AbortSignal,
): Promise<ReportEntry[]> {
  const entries: ReportEntry[] = [];
  let pending = batch;
  for (let round = 1; pending.length > 0; round++) {
    const results = await putStockBatch(
      client,
      pending.map(({ value }) => toWireItem(value, schema)),
      signal,
    );
    const unsettled: PendingRecord<StockItem>[] = [];
    pending.forEach((entry, index) => {
      const result = results.find((candidate) => candidate.index === index) ?? results[index];
      if (result?.status === 'APPLIED' || result?.status === 'REJECTED') {
        entries.push({
          row: {
            line: entry.line,
            key: entry.key,
            outcome: result.status === 'APPLIED' ? 'applied' : 'rejected',
            status: 200,
            message: result.message ?? undefined,
          },
          original: entry.original,
        });
      } else if (round < unsettledItemRounds) {
        unsettled.push(entry);
      } else {
        const message = result
          ? `the platform answered ${result.status}${result.message ? `: ${result.message}` : ''}`
          : 'the platform gave no result for this item';
        entries.push({
          row: { line: entry.line, key: entry.key, outcome: 'failed', status: 200, message },
          original: entry.original,
        });
      }
    });
    pending = unsettled;
  }
  return entries;
}

/** Queue route: the batch is accepted (or retried) whole; each item is reported with the batch id. */
async function sendToQueueRoute(
  client: PlatformClient,
  batch: PendingRecord<StockItem>[],
  schema: StockSchema,
  signal: AbortSignal,
): Promise<ReportEntry[]> {
  const batchId = await queueStockBatch(
    client,
    batch.map(({ value }) => toWireItem(value, schema)),
    signal,
  );
  return batch.map((entry) => ({
    row: { line: entry.line, key: entry.key, outcome: 'queued', status: 202, id: batchId },
    original: entry.original,
  }));
}
